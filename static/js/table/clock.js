// The turn clock: the action time shrinks one bar; once it is gone the extra
// time counts down in another colour, in seconds: the countdown every turn
// has, or, at stakes with a time bank (`clock` "time_bank"), the player's
// bank. Times are the server's, so the bar runs on our clock plus the skew
// measured from the last `timer` message. When the viewer's own time runs
// short, sounds.js sounds the time cue.
import { byId, el } from "../shared/felt.js";
import { viewerDeciding } from "./decisions.js";
import { callOf } from "./games.js";

// The fixed points of timer message `t`, or null when it can't be shown.
export function clockPlan(t) {
  const deadline = t && Date.parse(t.deadline);
  if (!t || isNaN(deadline)) return null;
  let expires = Date.parse(t.expires_at);
  if (isNaN(expires)) expires = deadline;
  const bankMs = typeof t.time_bank_ms === "number" && t.time_bank_ms > 0 ? t.time_bank_ms : expires - deadline;
  return { deadline, expires, bankMs, bank: t.clock === "time_bank" };
}

// The clock at server time `now`: the ms `left`, the bar's `share` (0 to 1),
// whether it is the extra time (`extra`), and its words for `whose` turn
// ("Your", "alice’s").
export function clockAt(plan, now, actionMs, whose) {
  if (now < plan.deadline) {
    const left = plan.deadline - now;
    return { left, share: Math.min(left / actionMs, 1), extra: false, text: whose + " time: " + seconds(left) };
  }
  const left = Math.max(plan.expires - now, 0);
  const share = plan.bankMs > 0 ? Math.min(left / plan.bankMs, 1) : 0;
  const label = plan.bank ? " time bank: " : " countdown: ";
  return { left, share, extra: true, text: whose + label + seconds(left) };
}

// Whose time timer `t` counts in `snap`, for the viewer at seat `mySeat`:
// {whose: "Your", "alice’s" or, while several choose at once, "Everyone’s";
// mine: whether it is the viewer's own time}. A choice made at once has one
// clock for all still to choose (`t.seats`), the viewer among them or not.
export function clockOwner(snap, t, mySeat) {
  if (viewerDeciding(snap.hand)) return { whose: "Your", mine: true };
  if (t.seat === null || t.seat === undefined) return { whose: "Everyone’s", mine: false };
  if (t.seat === mySeat) return { whose: "Your", mine: true };
  const seat = snap.table.seats.find((s) => s.number === t.seat);
  return { whose: (seat ? seat.player : "Seat " + t.seat) + "’s", mine: false };
}

function seconds(ms) {
  return Math.ceil(ms / 1000) + "s";
}

export function timerBar(className) {
  const track = el("div", "timer " + className);
  track.appendChild(el("div", "timer-bar"));
  return track;
}

// How often the clock's words and bars are brought up to date, in ms. In
// between, each bar glides to where the next update puts it: a transition of
// its transform, which the compositor runs without the page's layout or
// paint. So a phone spends four updates a second on the clock, not sixty.
export const TICK_MS = 250;

let ticking = null;

// Runs the centre's clock and every seat's bar until the time is up.
export function renderTimer(table) {
  clearTimeout(ticking);
  const box = byId("timer");
  const { snap, timer, skew } = table.state;
  const plan = clockPlan(timer);
  // Between hands the only clock is the dealer's, calling the next game.
  const between = !snap.hand || snap.hand.phase === "over";
  if (!plan || (between && !callOf(snap))) {
    box.hidden = true;
    table.sounds.watch(null);
    return;
  }
  const { whose, mine } = clockOwner(snap, timer, table.mySeat());
  table.sounds.watch(timer, plan, skew, mine); // the time cue, when the viewer's time runs short
  let shown = null;
  box.hidden = false;
  const tick = () => {
    const at = Date.now() + skew;
    const now = clockAt(plan, at, table.config.actionMs, whose);
    const next = clockAt(plan, at + TICK_MS, table.config.actionMs, whose);
    document.querySelectorAll(".timer").forEach((track) => {
      track.classList.toggle("timer-bank", now.extra);
      barTo(track.firstChild, now, next);
    });
    if (now.text !== shown) {
      byId("timer-text").textContent = now.text;
      shown = now.text;
    }
    if (now.left > 0) ticking = setTimeout(tick, TICK_MS);
  };
  tick();
}

// Set `bar` to the clock `now`, gliding to where it will be at the next
// update (`next`). A bar drawn since the last update, one that must grow (a
// new turn's, or the extra time's, full again) and one about to cross into
// the extra time are set at once: a bar only ever glides down.
export function barTo(bar, now, next) {
  const was = Number(bar.dataset.share); // NaN on a bar just drawn
  const glide = !(now.share > was) && next.extra === now.extra && bar.dataset.extra === String(now.extra);
  const share = glide ? next.share : now.share;
  bar.dataset.share = String(share);
  bar.dataset.extra = String(now.extra);
  bar.style.transition = glide ? "transform " + TICK_MS + "ms linear" : "none";
  bar.style.transform = "scaleX(" + share + ")";
}
