"""Sounds at the table in a real browser, through Chromium's own Web Audio.

Personas:
- alice and bob play heads up, sounds on; each hears the cards, the other's
  moves and their own turn. Alice mutes her browser in the second test.
- carol, whose account has sounds off, watches: no button, no sound.

Every page counts the Web Audio sources Chromium starts (oscillators and
noise buffers) and records each cue the page announces with them, so a cue
heard here is real nodes started, not just a name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from accounts.models import User
from accounts.services import user_signup
from tables import services
from tables.models import Table
from tests.browser.test_table_notices import seat_to_act
from tests.browser.test_table_play import (
    DESKTOP,
    MOVING,
    PASSWORD,
    latest_hand,
    shot,
    start_session,
    wait_until,
)

try:
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import Page, expect
except ImportError:  # the browser fixture skips the tests, or fails them under REQUIRE_BROWSER=1
    expect = None
else:
    expect.set_options(timeout=10_000)

pytestmark = pytest.mark.browser

# Before the page's own scripts: count every source started, and note each
# cue the page announces with the sources started for it since the last one,
# whether dealt cards were in flight then (the room's .dealing), and whether
# a seat's turn glowed.
LISTEN = """
(() => {
  const audio = (window.__audio = { started: 0, cues: [], contexts: [] });
  for (const Source of [OscillatorNode, AudioBufferSourceNode]) {
    const start = Source.prototype.start;
    Source.prototype.start = function (...args) {
      audio.started += 1;
      return start.apply(this, args);
    };
  }
  window.AudioContext = class extends window.AudioContext {
    constructor(...args) {
      super(...args);
      audio.contexts.push(this);
    }
  };
  let counted = 0;
  document.addEventListener("cardroom:sound", (e) => {
    const dealing = document.getElementById("room").classList.contains("dealing");
    const turn = document.querySelector(".seat-turn .seat-plate");
    const glow = turn && getComputedStyle(turn).boxShadow !== "none";
    audio.cues.push({ cue: e.detail.cue, sources: audio.started - counted, dealing, glow });
    counted = audio.started;
  });
})();
"""


def open_table(browser: Any, base: str, table: Table, name: str) -> Page:
    """``name``'s page at the table, listening to its audio, clicked once.

    The click is the user gesture browsers wait for before they let a page
    make a sound.
    """
    context = browser.new_context(**DESKTOP | MOVING)  # the cards are heard as they fly
    context.add_init_script(LISTEN)
    page = context.new_page()
    start_session(page, base, name)
    page.goto(f"{base}/tables/{table.pk}/")
    expect(page.locator("#conn")).to_have_text("")
    page.locator("h1").click()
    return page


def heard(page: Page) -> list[str]:
    return [c["cue"] for c in page.evaluate("window.__audio.cues")]


def hears(page: Page, cue: str) -> None:
    """Waits for ``cue`` to play on ``page``, with real sources started for it."""
    played = "cue => window.__audio.cues.some(c => c.cue === cue && c.sources > 0)"
    try:
        page.wait_for_function(played, arg=cue, timeout=10_000)
    except PlaywrightError:
        log = page.locator("#log").inner_text()
        audio = page.evaluate("window.__audio")
        raise AssertionError(f"no {cue!r} among {audio}; the log:\n{log}") from None


def silent(page: Page) -> bool:
    return page.evaluate("window.__audio.started === 0 && window.__audio.cues.length === 0")


def seat(table: Table, name: str, number: int) -> None:
    """A player with the account's default preference: sounds on."""
    player = user_signup(username=name, password=PASSWORD)
    assert player.sounds
    services.seat_take(table_id=table.pk, player_id=player.pk, seat_number=number, buy_in=200)


def deal(page: Page, table: Table) -> None:
    """The services seat without dealing: the hand comes when a player sits out and in."""
    sit_out = page.locator("#seat-controls").get_by_role("checkbox", name="Sit out next hand")
    sit_out.check()
    expect(sit_out).to_be_checked()
    sit_out.uncheck()
    wait_until(lambda: latest_hand(table), "the first hand")


def test_cards_moves_and_the_players_turn_are_heard_but_not_by_an_account_with_sounds_off(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    seat(table, "alice", 1)
    seat(table, "bob", 2)
    user_signup(username="carol", password=PASSWORD)
    User.objects.filter(username="carol").update(sounds=False)
    pages = {
        n: open_table(browser, live_server_url, table, name)
        for n, name in ((1, "alice"), (2, "bob"))
    }
    carol = open_table(browser, live_server_url, table, "carol")
    for page in pages.values():
        page.wait_for_function("window.__audio.contexts.some(c => c.state === 'running')")
        expect(page.locator("#sound-toggle")).to_have_text("Sound on")
        expect(page.locator("#sound-toggle")).to_have_attribute("aria-pressed", "false")
    shot(pages[1], screenshots, "sound-toggle")

    deal(pages[2], table)
    bringer = seat_to_act(table)
    caller = 3 - bringer
    for page in pages.values():
        hears(page, "deal")
    hears(pages[bringer], "turn")
    assert "turn" not in heard(pages[caller])
    # The cards are heard as they fly; the turn's chime and glow wait for them to land.
    cues = [c for c in pages[bringer].evaluate("window.__audio.cues") if c["cue"] != "time"]
    assert [(c["cue"], c["dealing"], c["glow"]) for c in cues] == [
        ("deal", True, False),
        ("turn", False, True),
    ]

    pages[bringer].locator("#actions .action-bring_in").click()
    hears(pages[caller], "bet")
    hears(pages[caller], "turn")
    pages[caller].locator("#actions .action-call").click()
    hears(pages[bringer], "call")
    # The call ends third street: fourth street is dealt, and its first player may check.
    pages[bringer].wait_for_function(
        "window.__audio.cues.filter(c => c.cue === 'deal').length === 2"
    )
    first = seat_to_act(table)
    hears(pages[first], "turn")
    pages[first].locator("#actions .action-check").click()
    hears(pages[3 - first], "check")

    # Carol watched it all, clicked too, and heard nothing: her account says no sounds.
    expect(carol.locator("#sound-toggle")).to_be_hidden()
    expect(carol.locator("#log")).to_contain_text("checks")
    assert silent(carol)
    assert carol.evaluate("window.__audio.contexts.length") == 0


def test_the_mute_button_silences_the_table_and_is_remembered_by_the_browser(
    browser: Any, live_server_url: str, table: Table, screenshots: Path
) -> None:
    seat(table, "alice", 1)
    seat(table, "bob", 2)
    alice = open_table(browser, live_server_url, table, "alice")
    bob = open_table(browser, live_server_url, table, "bob")
    toggle = alice.locator("#sound-toggle")
    toggle.click()
    expect(toggle).to_have_text("Sound off")
    expect(toggle).to_have_attribute("aria-pressed", "true")

    deal(bob, table)
    hears(bob, "deal")
    expect(alice.locator("#log")).to_contain_text("is dealt")
    assert silent(alice)

    alice.reload()
    expect(alice.locator("#conn")).to_have_text("")
    expect(toggle).to_have_text("Sound off")  # the browser remembered
    alice.locator("h1").click()
    actor = bob if seat_to_act(table) == 2 else alice
    actor.locator("#actions .action-bring_in").click()
    expect(alice.locator("#log")).to_contain_text("brings in")
    assert silent(alice)
    shot(alice, screenshots, "muted")

    toggle.click()
    expect(toggle).to_have_text("Sound on")
    (bob if seat_to_act(table) == 2 else alice).locator("#actions .action-call").click()
    hears(alice, "call")  # her own call or bob's: heard again
