"""The quick TOML reader agrees with tomllib, or leaves the document to it."""

from __future__ import annotations

import tomllib
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.formats import fasttoml
from tables.rules.formats.phh import write_phh
from tests.rules.pokerkit_hands import pokerkit_hand
from tests.rules.strategies import examples
from tests.rules.test_phh import random_hand

PHH = Path(__file__).parent / "phh"


def test_hand_histories_as_we_and_pokerkit_write_them_are_read_here() -> None:
    documents = [write_phh(random_hand(seed), everything=True) for seed in range(40)]
    documents += [pokerkit_hand(seed).text for seed in range(40)]
    documents += [path.read_text(encoding="utf-8") for path in sorted(PHH.rglob("*.phh*"))]
    for text in documents:
        document = fasttoml.loads(text)
        assert document is not None, text
        assert document == tomllib.loads(text)


# Pieces of documents, plain and otherwise: the quick reader must either read
# a document exactly as tomllib does or return None and leave it to tomllib.
KEYS = st.sampled_from(["a", "b", "x_y", "x-y", "2", "a.b", '"q"', "", "é", "variant"])
CHARS = st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from(
    ["\\", '"', "'", "#", "\t", "\x00", "\n", ",", "[", "]", "="]
)
TEXTS = st.text(CHARS, max_size=6)
NUMBERS = st.integers(-(10**20), 10**20).map(str) | st.sampled_from(
    ["01", "+3", "-0", "1_000", "1.5", "1e3", "0x1f", "inf", "nan", "1979-05-27", "07:32:00"]
)
SCALARS = (
    NUMBERS
    | TEXTS.map(lambda t: f'"{t}"')
    | TEXTS.map(lambda t: f"'{t}'")
    | st.sampled_from(['"""a"""', "'''b'''", "true", "false", "truex", "{}", "{ a = 1, }"])
    | st.lists(st.tuples(KEYS, TEXTS), max_size=3).map(
        lambda pairs: "{ " + ", ".join(f'{k} = "{v}"' for k, v in pairs) + " }"
    )
    | st.sampled_from(["{ a = { b = 1 } }", "{ a = { b = { c = 1 } } }", "{ a = 1, a = 2 }"])
)
SPACES = st.sampled_from(["", " ", "\t", "\n", " # note\n", "\r\n", "  "])


@st.composite
def arrays(draw: st.DrawFn) -> str:
    items = draw(st.lists(SCALARS | st.just("[1, 2]"), max_size=4))
    text = "[" + draw(SPACES)
    for item in items:
        text += item + draw(SPACES) + draw(st.sampled_from([",", ",", ""])) + draw(SPACES)
    return text + "]"


LINES = st.one_of(
    st.tuples(KEYS, SPACES, st.sampled_from(["=", " = ", "=="]), SCALARS | arrays()).map(
        lambda p: f"{p[0]}{p[1] if p[1] != chr(10) else ' '}{p[2]}{p[3]}"
    ),
    KEYS.map(lambda k: f"[{k}]") | KEYS.map(lambda k: f"[ {k} ]") | KEYS.map(lambda k: f"[[{k}]]"),
    TEXTS.map(lambda t: f"# {t}"),
    st.sampled_from(["", " ", "\t"]),
)


@settings(max_examples=examples(1000), deadline=None)
@given(lines=st.lists(LINES, max_size=8), ending=st.sampled_from(["\n", "\r\n", ""]))
def test_any_document_is_read_as_tomllib_reads_it_or_left_to_tomllib(
    lines: list[str], ending: str
) -> None:
    text = "\n".join(lines) + ending
    document = fasttoml.loads(text)
    if document is not None:
        assert document == tomllib.loads(text)  # and tomllib takes it too


def test_the_documents_left_to_tomllib_include_each_thing_it_does_not_read() -> None:
    for text in (
        'a = "tab\\there"',
        "a = 1.0",
        "a = { b = 1, }",
        "a = [{ b = 1 }]",
        "a = { b = { c = { d = 1 } } }",
        "a = { b = 1, b = 2 }",
        "a.b = 1",
        "a = 1\na = 2",
        "[x]\n[x]",
        "a = 1979-05-27",
        "[[x]]",
        'a = """x"""',
        "a = 1\r\n",
    ):
        assert fasttoml.loads(text) is None, text
