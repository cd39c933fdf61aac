"""Players' names inside sentences: the live hand log, a hand's story and its
replayer's lines, which CSS can't cut short the way it cuts a name that stands
alone (a seat, a list, the header, each with the whole name as its title).

Usernames are limited at signup now (``accounts.forms.USERNAME_MAX_LENGTH``),
but accounts made before the limit keep names of up to 150 characters.
"""

from __future__ import annotations

# Names up to this long are told whole: every username signup accepts now.
WHOLE_NAME_LENGTH = 24


def name_in_words(name: str) -> str:
    """``name`` as a sentence tells it: whole up to :data:`WHOLE_NAME_LENGTH`
    characters, else cut there with an ellipsis.

    >>> name_in_words("alice")
    'alice'
    >>> name_in_words("a" * 30)
    'aaaaaaaaaaaaaaaaaaaaaaa…'
    """
    if len(name) <= WHOLE_NAME_LENGTH:
        return name
    return name[: WHOLE_NAME_LENGTH - 1] + "…"


def as_sentence(words: object) -> str:
    """A service's or the engine's words as a message on a page: a capital
    first, a full stop last (``"the bring-in (5) must be …"`` → ``"The …."``)."""
    text = str(words)
    return text[:1].upper() + text[1:] + "."
