"""A password validator for the words a guesser tries first at this site.

A list of passwords made for attacking Cardroom would start with the site's
name and the game's words, spelled every usual way: "cardroom", "Cardroom1",
"C@rdr00m!", "pokerpoker", "razz2024". Django's validators catch common
passwords, short ones, numbers and the player's own names; this one refuses a
password that is little more than those words once case, digits, symbols and
the usual letter swaps are set aside.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.exceptions import ValidationError

# The site's name and the words of its games, which also make up longer ones
# ("seven" "card" "stud"). Kept specific: a short everyday word here ("ante",
# "wild") would refuse ordinary passwords that merely contain it.
SITE_WORDS = (
    "cardroom",
    "showdown",
    "lowball",
    "holdem",
    "poker",
    "seven",
    "chips",
    "allin",
    "card",
    "stud",
    "razz",
    "hilo",
)

# What each letter may be written as in a password.
SWAPS = {
    "a": "a@4",
    "b": "b8",
    "c": "c(<",
    "e": "e3",
    "g": "g9",
    "h": "h#",
    "i": "i1!|",
    "l": "l1!|",
    "o": "o0",
    "s": "s5$",
    "t": "t7+",
    "z": "z2",
}

# Fewer letters than this of the player's own, beside the site's words, and
# the password is built on them: "mycardroom", "pokerabc".
OWN_LETTERS_NEEDED = 4


def _spelled_any_way(word: str) -> re.Pattern[str]:
    """A pattern for ``word`` with each letter in any of its usual spellings."""
    return re.compile("".join(f"[{re.escape(SWAPS.get(letter, letter))}]" for letter in word))


_SITE_WORDS = [_spelled_any_way(word) for word in SITE_WORDS]


def own_letters(password: str) -> int:
    """How many letters of ``password`` are left once the site's words, in any
    spelling, are taken out: the fewest over every way of finding them.

    >>> own_letters("C@rdr00m-2024!"), own_letters("7cardstud"), own_letters("my-Poker-night")
    (0, 0, 7)
    """
    text = password.lower()
    # fewest[i]: the fewest own letters in text[i:], worked out from the end.
    fewest = [0] * (len(text) + 1)
    for start in range(len(text) - 1, -1, -1):
        fewest[start] = fewest[start + 1] + text[start].isalpha()
        for word in _SITE_WORDS:
            if found := word.match(text, start):
                fewest[start] = min(fewest[start], fewest[found.end()])
    return fewest[0]


class SiteWordsValidator:
    """Refuse a password built on the site's name or its games' words."""

    def __init__(self, own_letters_needed: int = OWN_LETTERS_NEEDED) -> None:
        self.own_letters_needed = own_letters_needed

    def validate(self, password: str, user: Any = None) -> None:
        left = own_letters(password)
        # Only a password with a site word in it: fewer letters are Django's business.
        built_on_site_words = left < sum(character.isalpha() for character in password)
        if built_on_site_words and left < self.own_letters_needed:
            raise ValidationError(
                "This password is built on the site’s name or the game’s words "
                "(such as cardroom, poker or stud), which password guessers try first, "
                "however they are spelled. Add words of your own.",
                code="password_site_words",
            )

    def get_help_text(self) -> str:
        # Curly apostrophes, as in Django's own help texts listed beside it.
        return (
            "Your password can’t be built on this site’s name or the game’s words, "
            "such as cardroom, poker or stud."
        )
