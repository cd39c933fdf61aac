"""A quick reader for the plain TOML that hand histories are written in.

PHH files use a small part of TOML: ``key = value`` lines and ``[N]`` tables,
with whole numbers, plain strings, booleans, arrays of them and (for our
house rules) inline tables two deep. Python's
``tomllib`` reads any TOML, and reading is most of the cost of replaying a
short hand; this reads that small part in one regular-expression pass.

:func:`loads` returns exactly what ``tomllib.loads`` returns for the text,
or ``None`` when the text has anything else (escapes, floats, dates, tables
in arrays, dotted keys, a repeated key...): then the caller asks ``tomllib``,
which also reports every error. Tests compare the two on many documents.

>>> loads('variant = "FR"\\nantes = [1, 1]  # two players\\n[2]\\nok = true\\n')
{'variant': 'FR', 'antes': [1, 1], '2': {'ok': True}}
>>> loads('big_bet = 1.5') is None
True
"""

from __future__ import annotations

import re
from typing import Any

# TOML comments may hold a tab but no other control character.
_COMMENT = r"(?:\#[^\x00-\x08\x0a-\x1f\x7f]*)"
_BLANK = rf"(?:[ \t]*{_COMMENT}?\n)"
_BASIC = r'"[^"\\\x00-\x1f\x7f]*+"'  # a "string" with no escapes and no control characters
_LITERAL = r"'[^'\x00-\x1f\x7f]*+'"
_INTEGER = r"-?(?:0|[1-9][0-9]*)(?![0-9_.eExob:-])"  # not the start of a float or a date
_SCALAR = rf"(?:{_BASIC}|{_LITERAL}|{_INTEGER}|true|false)"
_SEP = rf"(?:[ \t\n]++|{_COMMENT}\n)*+"  # inside an array: spaces, new lines, comments
_ARRAY = rf"\[{_SEP}(?:{_SCALAR}{_SEP},{_SEP})*(?:{_SCALAR}{_SEP})?\]"
_KEY = r"[A-Za-z0-9_-]+"


def _inline_table(value: str) -> str:
    """An inline table on one line, its values of the ``value`` pattern."""
    pair = rf"{_KEY}[ \t]*=[ \t]*(?:{value})"
    return rf"\{{[ \t]*(?:{pair}(?:[ \t]*,[ \t]*{pair})*)?[ \t]*\}}"


# Our own exports carry house rules as a table holding a table: two levels.
_INLINE = _inline_table(rf"{_SCALAR}|{_inline_table(_SCALAR)}")
_LINE = re.compile(
    rf"""{_BLANK}*[ \t]*(?:
        \[[ \t]*(?P<table>[A-Za-z0-9_-]+)[ \t]*\]
      | (?P<key>{_KEY})[ \t]*=[ \t]*(?P<value>{_SCALAR}|{_ARRAY}|{_INLINE})
    )[ \t]*{_COMMENT}?(?:\n|\Z)""",
    re.VERBOSE,
)
_ITEM = re.compile(_SCALAR)
_PAIR = re.compile(rf"({_KEY})[ \t]*=[ \t]*({_SCALAR}|{_inline_table(_SCALAR)})")


class _NotPlain(Exception):
    """Something tomllib must judge: a key given twice."""


def loads(text: str) -> dict[str, Any] | None:
    """The document as ``tomllib`` reads it, or None if it is not plain enough here."""
    document: dict[str, Any] = {}
    current = document
    position, end = 0, len(text)
    while position < end:
        match = _LINE.match(text, position)
        if match is None:
            return document if _only_comments(text[position:]) else None
        position = match.end()
        if match["table"] is not None:
            if match["table"] in document:
                return None
            current = document[match["table"]] = {}
        elif match["key"] in current:
            return None
        else:
            try:
                current[match["key"]] = _value(match["value"])
            except _NotPlain:
                return None
    return document


def _only_comments(rest: str) -> bool:
    """Whether the end of a document is blank lines and comments only."""
    return re.fullmatch(rf"(?:{_BLANK})*[ \t]*{_COMMENT}?", rest) is not None


def _value(text: str) -> Any:
    if text[0] == "[":
        items = _ITEM.findall(_strip_comments(text))
        return [item[1:-1] if item[0] in "\"'" else _scalar(item) for item in items]
    if text[0] == "{":
        return _table(text)
    return _scalar(text)


def _table(text: str) -> dict[str, Any]:
    table: dict[str, Any] = {}
    inside = text[1:-1]
    for key, value in _PAIR.findall(inside):
        if key in table:
            raise _NotPlain(key)
        table[key] = _table(value) if value[0] == "{" else _scalar(value)
    return table


def _strip_comments(array: str) -> str:
    """An array's text without its comments (a ``#`` inside a string is not one)."""
    if "#" not in array:
        return array
    return re.sub(rf"""("[^"\n]*"|'[^'\n]*')|{_COMMENT}""", lambda m: m[1] or "", array)


def _scalar(text: str) -> Any:
    first = text[0]
    if first in "\"'":
        return text[1:-1]
    if first == "t":
        return True
    if first == "f":
        return False
    return int(text)
