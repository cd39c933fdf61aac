// Sounds at the table: cards dealt, a check, chips going in, the viewer's turn
// and their time running out. Every sound is synthesised here with the Web
// Audio API: no files. Which cues a change calls for is decided by pure
// functions (cuesFor, TimeWarning), so node tests them; Sounds only plays.
// The account's preference turns sounds off for good; the mute button turns
// them off in this browser, remembered in localStorage.
import { decidingAtOnce } from "../shared/format.js";
import { myTurn } from "./advance.js";
import { handId } from "./state.js";

// A snapshot after a reconnect may bring many events: only the latest few are heard.
export const MOST_CUES = 3;
// The time cue sounds when the extra time begins, or this long before the
// turn runs out when there is little or no extra time.
export const TIME_LOW_MS = 5000;
const TIMEOUT_LATE_MS = 20; // so the time cue's timeout can't come a hair early
// The mute button's choice in this browser: "off" or "on".
export const STORAGE_KEY = "cardroom.sound";

const EVENT_CUES = {
  deal: "deal",
  board: "deal",
  check: "check",
  call: "call",
  bring_in: "bet",
  complete: "bet",
  bet: "bet",
  raise: "bet",
  roll: "deal",
  stand_pat: "check",
  declare: "check",
};

// The cues for the `events` (event messages) that came with snapshot `after`,
// which followed `before`: one "deal" for a run of cards dealt, one cue per
// move, no cue twice in a row, at most MOST_CUES, then "turn" when the
// viewer's turn has just begun. `answered`: an advance action already made
// that turn's move, so it is not announced.
export function cuesFor(events, before, after, { answered = false } = {}) {
  const cues = [];
  events.forEach((m) => {
    const cue = EVENT_CUES[m.event.type];
    if (cue && cue !== cues[cues.length - 1]) cues.push(cue);
  });
  const heard = cues.slice(-MOST_CUES);
  if (!answered && turnBegins(before, after)) heard.push("turn");
  return heard;
}

// The `cues` to play at once and those to play once the cards dealt land:
// while they are in flight (`dealing`), the turn's chime waits for them.
export function turnWaits(cues, dealing) {
  if (!dealing || cues[cues.length - 1] !== "turn") return { now: cues, later: [] };
  return { now: cues.slice(0, -1), later: ["turn"] };
}

// Whether it is the viewer's turn in `after` and was not that same turn in `before`.
export function turnBegins(before, after) {
  if (!myTurn(after)) return false;
  if (!myTurn(before)) return true;
  return handId(before) !== handId(after) || turnOf(before.hand) !== turnOf(after.hand);
}

// What makes a turn the one it is: its number; but a choice everyone makes
// at once is one turn for the viewer however many others choose meanwhile.
function turnOf(hand) {
  return decidingAtOnce(hand) ? "at once: " + hand.street + " " + hand.decision : hand.turn;
}

// Whether, at server time `now`, the turn clock `plan` (clock.js's clockPlan)
// is short: in its extra time, or within TIME_LOW_MS of the end, and not over.
export function timeIsShort(plan, now) {
  return now >= shortFrom(plan) && now < plan.expires;
}

// The server time from which the clock `plan` is short.
export function shortFrom(plan) {
  return Math.min(plan.deadline, plan.expires - TIME_LOW_MS);
}

// The time cue, once a turn. A turn is known by its seat and deadline, which
// the clock restarting on every snapshot leaves as they were.
export class TimeWarning {
  constructor() {
    this.warned = null;
  }

  // Whether the viewer should hear it now: `mine` says the turn is theirs.
  due(timer, plan, now, mine) {
    if (!mine || !timeIsShort(plan, now)) return false;
    const turn = timer.seat + "@" + timer.deadline;
    if (turn === this.warned) return false;
    this.warned = turn;
    return true;
  }
}

// What the mute button says for `muted`.
export function toggleWords(muted) {
  return muted
    ? { text: "Sound off", title: "Table sounds are muted in this browser. Click to turn them on." }
    : { text: "Sound on", title: "Table sounds are on. Click to mute them in this browser." };
}

export class Sounds {
  // `enabled`: the account's preference (on for a visitor); `toggle`: the mute button.
  constructor(enabled, toggle) {
    this.enabled = Boolean(enabled);
    this.toggle = toggle;
    this.muted = readMuted();
    this.audio = null; // the AudioContext, made at the first click or key; false: none
    this.kit = null; // the instruments on it, made for the first cue
    this.warning = new TimeWarning();
    this.timeout = null; // for the time cue
    if (!this.enabled) return; // the button stays hidden and nothing plays
    if (toggle) this.showToggle();
    // Browsers keep audio suspended until the page is used: a click or key wakes it.
    const wake = () => this.wake();
    document.addEventListener("click", wake, true);
    document.addEventListener("keydown", wake, true);
  }

  get audible() {
    return this.enabled && !this.muted;
  }

  // `events` arrived between snapshots `before` and `after`; `options` as
  // cuesFor's. `landed`, while dealt cards are in flight: a promise settled
  // when they land, and the turn's chime waits for it, as the turn's buttons
  // do (main.js's holdTurn), and sounds then only if `stillTurn()` says the
  // turn is still the one it announces.
  changed(events, before, after, options, landed = null, stillTurn = () => true) {
    if (!this.audible) return;
    const { now, later } = turnWaits(cuesFor(events, before, after, options), Boolean(landed));
    this.play(now);
    if (later.length) landed.then(() => this.audible && stillTurn() && this.play(later));
  }

  // The turn clock (re)started: `timer` and its `plan` as clock.js has them,
  // `skew` the server's clock minus ours, `mine` whether the turn is the
  // viewer's; no `plan`: no clock. A timeout, not the bar's animation frames,
  // which a tab in the background doesn't run.
  watch(timer, plan = null, skew = 0, mine = false) {
    clearTimeout(this.timeout);
    if (!plan || !mine || !this.enabled) return;
    const check = () => {
      if (this.audible && this.warning.due(timer, plan, Date.now() + skew, mine)) this.play(["time"]);
    };
    const wait = shortFrom(plan) - (Date.now() + skew);
    this.timeout = setTimeout(check, Math.max(wait, 0) + TIMEOUT_LATE_MS);
  }

  showToggle() {
    this.toggle.hidden = false;
    this.toggle.addEventListener("click", () => this.mute(!this.muted));
    this.drawToggle();
  }

  mute(muted) {
    this.muted = muted;
    rememberMuted(muted);
    this.drawToggle();
    this.wake();
  }

  drawToggle() {
    const words = toggleWords(this.muted);
    this.toggle.textContent = words.text;
    this.toggle.title = words.title;
    this.toggle.setAttribute("aria-pressed", String(this.muted));
  }

  wake() {
    if (!this.audible) return;
    if (this.audio === null) this.audio = newContext();
    if (!this.audio || this.audio.state === "running") return;
    try {
      this.audio.resume().catch(() => {});
    } catch {
      // An old implementation without a promise: silence it is.
    }
  }

  // Plays `cues` one after another. Before the first click or key there is no
  // running context, and nothing is queued to burst out later.
  play(cues) {
    if (!cues.length || !this.audio || this.audio.state !== "running") return;
    try {
      this.kit = this.kit || new Kit(this.audio);
      let at = this.audio.currentTime + 0.01;
      cues.forEach((cue) => {
        at += CUES[cue](this.kit, at) + GAP;
        // Announced for anything listening: a caption, a browser test.
        document.dispatchEvent(new CustomEvent("cardroom:sound", { detail: { cue } }));
      });
    } catch {
      // A partial Web Audio implementation: stay silent rather than break the table.
    }
  }
}

function newContext() {
  const Context = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Context) return false;
  try {
    return new Context();
  } catch {
    return false;
  }
}

// localStorage throws when storage is blocked; the choice then lasts the page.
function readMuted() {
  try {
    return localStorage.getItem(STORAGE_KEY) === "off";
  } catch {
    return false;
  }
}

function rememberMuted(muted) {
  try {
    localStorage.setItem(STORAGE_KEY, muted ? "off" : "on");
  } catch {
    // Not remembered: muted for this page only.
  }
}

// ------------------------------------------------------------- synthesis

const VOLUME = 0.35;
const SILENT = 0.0001; // exponential ramps can't reach 0
const GAP = 0.04; // seconds between two cues of one change

// The instruments on one context: a master volume and a second of white noise.
class Kit {
  constructor(audio) {
    this.audio = audio;
    this.out = audio.createGain();
    this.out.gain.value = VOLUME;
    this.out.connect(audio.destination);
    const length = Math.floor(audio.sampleRate / 4);
    this.noise = audio.createBuffer(1, length, audio.sampleRate);
    const samples = this.noise.getChannelData(0);
    for (let i = 0; i < length; i++) samples[i] = Math.random() * 2 - 1;
  }

  // A gain that rises to `peak` in `attack` s and dies away over `decay` s.
  envelope(at, peak, attack, decay) {
    const gain = this.audio.createGain();
    gain.gain.setValueAtTime(SILENT, at);
    gain.gain.exponentialRampToValueAtTime(peak, at + attack);
    gain.gain.exponentialRampToValueAtTime(SILENT, at + attack + decay);
    gain.connect(this.out);
    return gain;
  }

  // A note at `freq` Hz, gliding to `to`.
  tone(at, { freq, to = freq, type = "sine", peak, attack = 0.004, decay }) {
    const osc = this.audio.createOscillator();
    osc.type = type;
    osc.frequency.setValueAtTime(freq, at);
    if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, at + attack + decay);
    osc.connect(this.envelope(at, peak, attack, decay));
    osc.start(at);
    osc.stop(at + attack + decay + 0.02);
  }

  // A burst of noise through a filter: the snap of a card, the click of a chip.
  hiss(at, { filter = "bandpass", freq, q = 1, peak, attack = 0.002, decay }) {
    const source = this.audio.createBufferSource();
    source.buffer = this.noise;
    const shape = this.audio.createBiquadFilter();
    shape.type = filter;
    shape.frequency.value = freq;
    shape.Q.value = q;
    source.connect(shape);
    shape.connect(this.envelope(at, peak, attack, decay));
    source.start(at, Math.random() * 0.1);
    source.stop(at + attack + decay + 0.02);
  }
}

// Each cue plays at `at` on `kit` and returns how long it lasts, in seconds.
const CUES = {
  deal(kit, at) {
    [0, 0.075].forEach((t, i) => {
      kit.hiss(at + t, { freq: 3200 - 500 * i, q: 0.8, peak: 0.6, decay: 0.05 });
      kit.tone(at + t, { freq: 240, to: 120, type: "triangle", peak: 0.08, decay: 0.04 });
    });
    return 0.15;
  },
  check(kit, at) {
    [0, 0.12].forEach((t) => {
      kit.tone(at + t, { freq: 190, to: 105, peak: 0.55, attack: 0.003, decay: 0.07 });
      kit.hiss(at + t, { filter: "lowpass", freq: 900, peak: 0.25, decay: 0.03 });
    });
    return 0.22;
  },
  bet: (kit, at) => chips(kit, at, [3150, 3620, 2890]),
  call: (kit, at) => chips(kit, at, [3300, 2950]),
  turn(kit, at) {
    [659.25, 880].forEach((freq, i) => {
      const t = at + 0.14 * i;
      kit.tone(t, { freq, peak: 0.3, attack: 0.01, decay: 0.3 });
      kit.tone(t, { freq: freq * 2, peak: 0.05, attack: 0.01, decay: 0.15 });
    });
    return 0.45;
  },
  time(kit, at) {
    [494, 494, 587].forEach((freq, i) => {
      kit.tone(at + 0.12 * i, { freq, type: "triangle", peak: 0.3, attack: 0.006, decay: 0.08 });
    });
    return 0.33;
  },
};

// Chips dropping on the pile: one bright clink and click for each of `freqs`.
function chips(kit, at, freqs) {
  freqs.forEach((freq, i) => {
    const t = at + 0.055 * i;
    kit.tone(t, { freq, peak: 0.12, attack: 0.002, decay: 0.06 });
    kit.tone(t, { freq: freq * 1.49, peak: 0.05, attack: 0.002, decay: 0.04 });
    kit.hiss(t, { filter: "highpass", freq: 5000, peak: 0.12, decay: 0.015 });
  });
  return 0.055 * freqs.length + 0.06;
}
