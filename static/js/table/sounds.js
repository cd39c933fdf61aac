// Sounds at the table (being written): see Sounds.
export class Sounds {
  constructor(enabled, toggle) {
    this.enabled = enabled;
    this.toggle = toggle;
  }

  // `events` arrived between snapshots `before` and `after`.
  changed(events, before, after) {}
}
