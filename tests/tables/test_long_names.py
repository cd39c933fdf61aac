"""Long names in sentences: the live log and a hand's page tell a name past
the signup limit cut short, and the page's own name cells keep it whole for
their title and CSS's ellipsis.

Accounts made before usernames were limited keep names of up to 150
characters: here "l" repeated 150 times plays heads up against bob.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.forms import USERNAME_MAX_LENGTH
from accounts.models import User
from accounts.services import user_signup
from tables.models import Table
from tables.names import WHOLE_NAME_LENGTH, name_in_words
from tables.selectors.snapshots import build_snapshot, read_table
from tests.tables.test_history_access import folds, page, play_hand, replay_data, seat

pytestmark = pytest.mark.django_db

LONG = "l" * 150
CUT = "l" * (WHOLE_NAME_LENGTH - 1) + "…"


@pytest.fixture
def long(db: None, quick_passwords: None) -> User:
    """An account from before the limit, made as signup made it then."""
    return user_signup(username=LONG, password="long-pw-1234")


def test_every_name_signup_accepts_is_told_whole() -> None:
    name = "n" * USERNAME_MAX_LENGTH
    assert name_in_words(name) == name
    assert name_in_words(name + "x") == "n" * (WHOLE_NAME_LENGTH - 1) + "…"


def test_the_live_log_tells_a_long_name_cut_short(table: Table, long: User, bob: User) -> None:
    seat(table, (long, 1), (bob, 2))
    play_hand(table, folds(bob))
    snapshot = build_snapshot(read_table(table.pk), None, None, with_events=True)
    lines = [event["text"] for event in snapshot.events if event.get("text")]
    assert any(f"Seat 1 ({CUT})" in line for line in lines), lines
    assert not any(LONG in line for line in lines)


def test_the_hand_page_cuts_the_name_in_sentences_and_keeps_it_for_its_title(
    table: Table, long: User, bob: User
) -> None:
    seat(table, (long, 1), (bob, 2))
    hand = play_hand(table, folds(bob))
    html = page(Client(), long, reverse("hand_detail", args=[hand.pk])).content.decode()
    story = html[html.index('id="story-title"') :]
    story = story[: story.index("</section>")]
    assert f"{CUT} folds" in story or f"{CUT} antes" in story, story
    assert LONG not in story
    assert f'<span class="name-cut" title="{LONG}">{LONG}</span> (you)' in html
    data = replay_data(html)
    assert LONG in data["names"]  # the replayer's seats cut it with CSS, whole in a title
    assert all(LONG not in line for step in data["steps"] for line in step["lines"])
