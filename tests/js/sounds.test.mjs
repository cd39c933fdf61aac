// Sounds at the table: which cues a change calls for, the time cue once a
// turn, and what plays on a stand-in AudioContext that records each note.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  MOST_CUES,
  Sounds,
  TIME_LOW_MS,
  TimeWarning,
  cuesFor,
  shortFrom,
  timeIsShort,
  toggleWords,
  turnBegins,
  turnWaits,
} from "../../static/js/table/sounds.js";

// A snapshot in hand `id` at turn `turn`; `mine`: the viewer is sent legal actions.
function snap({ id = 7, turn = 3, mine = false } = {}) {
  return { hand_info: { id }, hand: { turn, legal_actions: mine ? [{ kind: "check" }] : [] } };
}

const events = (...types) => types.map((type) => ({ type: "event", hand_id: 7, event: { type, player: 0 } }));
const THEIRS = snap();

test("the cards of a deal are one cue, however many are dealt", () => {
  const third = events("ante", "ante", "deal", "deal", "deal", "deal", "deal", "deal");
  assert.deepEqual(cuesFor(third, THEIRS, THEIRS), ["deal"]);
});

test("a check knocks; a bet, raise, completion or bring-in puts chips in; a call too, its own way", () => {
  const heard = (type) => cuesFor(events(type), THEIRS, THEIRS);
  assert.deepEqual(heard("check"), ["check"]);
  for (const type of ["bet", "raise", "complete", "bring_in"]) assert.deepEqual(heard(type), ["bet"], type);
  assert.deepEqual(heard("call"), ["call"]);
});

test("folds, shows and results make no sound", () => {
  assert.deepEqual(cuesFor(events("fold", "show", "muck", "result", "return"), THEIRS, THEIRS), []);
});

test("a call that ends the street is heard before the next street's cards", () => {
  assert.deepEqual(cuesFor(events("call", "burn", "deal", "deal"), THEIRS, THEIRS), ["call", "deal"]);
});

test("many events at once, as after a reconnect, give only the latest few cues, none twice in a row", () => {
  const flood = events("check", "check", "bet", "raise", "call", "deal", "deal", "check", "bet");
  const cues = cuesFor(flood, THEIRS, THEIRS);
  assert.equal(cues.length, MOST_CUES);
  assert.deepEqual(cues, ["deal", "check", "bet"]);
  assert.deepEqual(cuesFor(events("check", "check"), THEIRS, THEIRS), ["check"]);
});

test("the viewer's turn chimes when it begins, after what led to it, even past the cap", () => {
  assert.deepEqual(cuesFor(events("bring_in"), THEIRS, snap({ turn: 4, mine: true })), ["bet", "turn"]);
  const flood = events("check", "bet", "call", "deal", "bet");
  const cues = cuesFor(flood, THEIRS, snap({ turn: 9, mine: true }));
  assert.equal(cues.length, MOST_CUES + 1);
  assert.equal(cues[cues.length - 1], "turn");
});

test("the same turn seen again is not announced again", () => {
  const mine = snap({ turn: 4, mine: true });
  assert.equal(turnBegins(mine, snap({ turn: 4, mine: true })), false);
  assert.deepEqual(cuesFor([], mine, mine), []);
});

test("a new turn of the viewer's is announced, even with no snapshot between the two", () => {
  assert.equal(turnBegins(snap({ turn: 4, mine: true }), snap({ turn: 6, mine: true })), true);
  assert.equal(turnBegins(snap({ id: 7, mine: true }), snap({ id: 8, mine: true })), true);
  assert.equal(turnBegins(THEIRS, snap({ mine: true })), true);
});

test("no turn cue for another player's turn, an observer, or a turn an advance action answered", () => {
  assert.equal(turnBegins(THEIRS, snap({ turn: 4 })), false);
  const watching = { hand_info: { id: 7 }, hand: { turn: 4, legal_actions: [] } };
  assert.equal(turnBegins(THEIRS, watching), false);
  assert.deepEqual(cuesFor([], THEIRS, snap({ turn: 4, mine: true }), { answered: true }), []);
});

// A turn with 10 s of action time to 10,000 and 15 s of extra time to 25,000.
const PLAN = { deadline: 10000, expires: 25000, bankMs: 15000, bank: false };
const TIMER = { seat: 2, deadline: "2030-01-01T00:00:10Z" };

test("time runs short when the extra time begins, and stops being so when it is over", () => {
  assert.equal(timeIsShort(PLAN, 9999), false);
  assert.equal(timeIsShort(PLAN, 10000), true);
  assert.equal(timeIsShort(PLAN, 24999), true);
  assert.equal(timeIsShort(PLAN, 25000), false);
  assert.equal(shortFrom(PLAN), 10000);
});

test("without extra time, or with little, time runs short the last seconds before the end", () => {
  const none = { deadline: 20000, expires: 20000, bankMs: 0, bank: false };
  assert.equal(shortFrom(none), 20000 - TIME_LOW_MS);
  assert.equal(timeIsShort(none, 20000 - TIME_LOW_MS - 1), false);
  assert.equal(timeIsShort(none, 20000 - TIME_LOW_MS), true);
  const little = { deadline: 20000, expires: 22000, bankMs: 2000, bank: false };
  assert.equal(shortFrom(little), 22000 - TIME_LOW_MS);
});

test("the time cue is due once a turn, and only on the viewer's own", () => {
  const warning = new TimeWarning();
  assert.equal(warning.due(TIMER, PLAN, 9000, true), false); // not yet short
  assert.equal(warning.due(TIMER, PLAN, 12000, false), false); // someone else's turn
  assert.equal(warning.due(TIMER, PLAN, 12000, true), true);
  assert.equal(warning.due(TIMER, PLAN, 13000, true), false); // the clock restarted: same turn
  const next = { seat: 2, deadline: "2030-01-01T00:01:10Z" };
  assert.equal(warning.due(next, { ...PLAN, deadline: 70000, expires: 85000 }, 71000, true), true);
});

test("the mute button says whether sound is on or off", () => {
  assert.equal(toggleWords(false).text, "Sound on");
  assert.equal(toggleWords(true).text, "Sound off");
  assert.notEqual(toggleWords(true).title, toggleWords(false).title);
});

// ---------------------------------------------------------------- playing

// An AudioContext that records when each source starts and stops.
class FakeAudio {
  constructor(state = "running") {
    this.state = state;
    this.currentTime = 0;
    this.sampleRate = 8000;
    this.destination = {};
    this.notes = []; // {kind, start, stop}
  }

  createGain() {
    return { gain: param(), connect() {} };
  }

  createBiquadFilter() {
    return { frequency: param(), Q: param(), connect() {} };
  }

  createBuffer(channels, length) {
    const data = new Float32Array(length);
    return { getChannelData: () => data };
  }

  createOscillator() {
    return { frequency: param(), connect() {}, ...this.source("tone") };
  }

  createBufferSource() {
    return { connect() {}, ...this.source("noise") };
  }

  source(kind) {
    const note = { kind, start: null, stop: null };
    this.notes.push(note);
    return { start: (at) => (note.start = at), stop: (at) => (note.stop = at) };
  }

  resume() {
    this.state = "running";
    return Promise.resolve();
  }
}

function param() {
  return { value: 0, setValueAtTime() {}, exponentialRampToValueAtTime() {} };
}

// The mute button, as far as Sounds uses it.
function fakeToggle() {
  return {
    hidden: true,
    attributes: {},
    setAttribute(name, value) {
      this.attributes[name] = value;
    },
    addEventListener(type, listener) {
      this.click = listener;
    },
  };
}

// The document Sounds listens on, which puts each cue it announces in `heard`.
function fakeDocument(heard) {
  return { addEventListener() {}, dispatchEvent: (e) => heard.push(e.detail.cue) };
}

// A page for Sounds: the document it listens on and announces cues to.
function withPage(run) {
  const heard = [];
  globalThis.document = fakeDocument(heard);
  try {
    run(heard);
  } finally {
    delete globalThis.document;
  }
}

async function withPageAsync(run) {
  const heard = [];
  globalThis.document = fakeDocument(heard);
  try {
    await run(heard);
  } finally {
    delete globalThis.document;
  }
}

function soundsOn(audio, { enabled = true, toggle = fakeToggle() } = {}) {
  const sounds = new Sounds(enabled, toggle);
  sounds.audio = audio;
  return sounds;
}

test("each cue starts real notes, one cue after another, each under half a second", () => {
  withPage((heard) => {
    for (const cue of ["deal", "check", "bet", "call", "turn", "time"]) {
      const audio = new FakeAudio();
      soundsOn(audio).play([cue]);
      assert.ok(audio.notes.length > 0, cue);
      assert.ok(audio.notes.every((n) => n.start !== null && n.stop > n.start), cue);
      const span = Math.max(...audio.notes.map((n) => n.stop)) - Math.min(...audio.notes.map((n) => n.start));
      assert.ok(span < 0.5, `${cue} lasts ${span}s`);
    }
    const audio = new FakeAudio();
    soundsOn(audio).changed(events("deal", "deal"), THEIRS, snap({ turn: 4, mine: true }));
    assert.deepEqual(heard.slice(-2), ["deal", "turn"]);
    const lastDealNote = Math.max(...audio.notes.filter((n) => n.kind === "noise").map((n) => n.start));
    const chime = audio.notes.filter((n) => n.start > lastDealNote);
    assert.ok(chime.length >= 2, "the chime's two notes come after the cards");
  });
});

test("while the cards dealt fly in, the turn's chime waits for them alone", () => {
  assert.deepEqual(turnWaits(["deal", "turn"], true), { now: ["deal"], later: ["turn"] });
  assert.deepEqual(turnWaits(["deal", "turn"], false), { now: ["deal", "turn"], later: [] });
  assert.deepEqual(turnWaits(["deal", "bet"], true), { now: ["deal", "bet"], later: [] });
});

test("the held chime sounds when the cards land, unless the turn has passed by then", async () => {
  for (const still of [true, false]) {
    await withPageAsync(async (heard) => {
      let land;
      const landed = new Promise((resolve) => (land = resolve));
      const sounds = soundsOn(new FakeAudio());
      sounds.changed(events("deal"), THEIRS, snap({ turn: 4, mine: true }), {}, landed, () => still);
      assert.deepEqual(heard, ["deal"], "the cards are heard at once, the turn not yet");
      land();
      await landed;
      await Promise.resolve();
      assert.deepEqual(heard, still ? ["deal", "turn"] : ["deal"]);
    });
  }
});

test("an account with sounds off shows no button and plays nothing", () => {
  withPage((heard) => {
    const audio = new FakeAudio();
    const toggle = fakeToggle();
    const sounds = soundsOn(audio, { enabled: false, toggle });
    sounds.changed(events("bet"), THEIRS, snap({ turn: 4, mine: true }));
    assert.equal(toggle.hidden, true);
    assert.deepEqual(audio.notes, []);
    assert.deepEqual(heard, []);
  });
});

test("the mute button silences the cues and says so; clicked again, they play", () => {
  withPage((heard) => {
    const audio = new FakeAudio();
    const toggle = fakeToggle();
    const sounds = soundsOn(audio, { toggle });
    assert.equal(toggle.hidden, false);
    assert.equal(toggle.attributes["aria-pressed"], "false");
    toggle.click();
    assert.equal(toggle.textContent, "Sound off");
    assert.equal(toggle.attributes["aria-pressed"], "true");
    sounds.changed(events("check"), THEIRS, THEIRS);
    assert.deepEqual(audio.notes, []);
    toggle.click();
    sounds.changed(events("check"), THEIRS, THEIRS);
    assert.deepEqual(heard, ["check"]);
    assert.ok(audio.notes.length > 0);
  });
});

test("nothing is queued while the browser keeps audio suspended, to burst out later", () => {
  withPage((heard) => {
    const audio = new FakeAudio("suspended");
    soundsOn(audio).changed(events("bet"), THEIRS, THEIRS);
    assert.deepEqual(audio.notes, []);
    assert.deepEqual(heard, []);
  });
});

test("a browser without Web Audio, or with a broken one, is silent and the table goes on", () => {
  withPage((heard) => {
    const sounds = soundsOn(null);
    sounds.wake(); // node has no AudioContext
    assert.equal(sounds.audio, false);
    sounds.changed(events("bet"), THEIRS, THEIRS);
    const broken = new FakeAudio();
    broken.createOscillator = () => {
      throw new Error("not supported");
    };
    assert.doesNotThrow(() => soundsOn(broken).changed(events("check"), THEIRS, THEIRS));
    assert.deepEqual(heard, []);
  });
});

test("a click wakes the audio the browser keeps suspended, unless the page is muted", () => {
  globalThis.AudioContext = class extends FakeAudio {
    constructor() {
      super("suspended");
    }
  };
  try {
    withPage(() => {
      const toggle = fakeToggle();
      const sounds = soundsOn(null, { toggle });
      toggle.click(); // muted: no audio is made
      assert.equal(sounds.audio, null);
      toggle.click(); // the click that unmutes wakes it
      assert.ok(sounds.audio instanceof FakeAudio);
      assert.equal(sounds.audio.state, "running");
    });
  } finally {
    delete globalThis.AudioContext;
  }
});
