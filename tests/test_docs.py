"""The docs hold together: every relative link resolves, and the README stays short.

A link resolves when its file exists inside the repository and, for a
``#anchor``, a heading of the target Markdown file makes that anchor by
GitHub's rules (lower case, punctuation dropped, spaces to hyphens, ``-1``,
``-2`` for repeats). Links and headings inside code are not links or headings.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent
README = PROJECT_ROOT / "README.md"
README_MAX_LINES = 300
# Every page a reader may be sent to; the README links each one.
PAGES = sorted((PROJECT_ROOT / "docs").glob("*.md")) + [PROJECT_ROOT / "bench" / "README.md"]
DOCUMENTS = [README, *PAGES]

FENCE = re.compile(r"^\s*(```|~~~)")
# A code span may wrap onto the next line, but never past a blank one.
CODE_SPAN = re.compile(r"(`+)(?:(?!\n[ \t]*\n).)+?\1", re.DOTALL)
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
# [text](target "title") and ![alt](target); the text may hold one level of brackets.
MARKDOWN_LINK = re.compile(
    r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]"  # [text] or ![alt]
    r"\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)"  # (target "title")
)
REFERENCE_LINK = re.compile(r"^[ ]{0,3}\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
HTML_LINK = re.compile(r"<(?:img|a|source)\s[^>]*?(?:src|href)=\"([^\"]+)\"", re.IGNORECASE)
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//)", re.IGNORECASE)


def outside_fences(text: str) -> list[str]:
    """The document's lines outside fenced code blocks."""
    lines, in_fence = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence:
            lines.append(line)
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link reads as its text
    text = re.sub(r"<[^>]+>", "", text).replace("`", "").lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """Every anchor the headings of a Markdown file make, repeats numbered."""
    seen: Counter[str] = Counter()
    found = set()
    for line in outside_fences(path.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if match:
            base = slug(match.group(1))
            found.add(f"{base}-{seen[base]}" if seen[base] else base)
            seen[base] += 1
    return found


def links(path: Path) -> list[str]:
    """Every link target a Markdown file holds, outside code."""
    # Whole paragraphs, since a link's text may wrap; a link written in code is none.
    prose = CODE_SPAN.sub("code", "\n".join(outside_fences(path.read_text(encoding="utf-8"))))
    return [
        t for pattern in (MARKDOWN_LINK, REFERENCE_LINK, HTML_LINK) for t in pattern.findall(prose)
    ]


def broken(path: Path, target: str, root: Path = PROJECT_ROOT) -> str | None:
    """Why a link from ``path`` doesn't resolve, or None when it does."""
    if EXTERNAL.match(target):
        return None
    file_part, _, anchor = target.partition("#")
    base = root if file_part.startswith("/") else path.parent
    resolved = (base / file_part.lstrip("/")).resolve() if file_part else path
    if not resolved.is_relative_to(root.resolve()):
        return f"{target}: outside the repository"
    if not resolved.exists():
        return f"{target}: no such file"
    if anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
        return f"{target}: no heading makes #{anchor} in {resolved.name}"
    return None


def broken_links(path: Path, root: Path = PROJECT_ROOT) -> list[str]:
    """What is wrong with each link of ``path`` that doesn't resolve, in order."""
    return [why for target in links(path) if (why := broken(path, target, root))]


def _name(path: Path) -> str:
    return str(path.relative_to(PROJECT_ROOT))


@pytest.mark.parametrize("document", DOCUMENTS, ids=_name)
def test_every_relative_link_resolves(document: Path) -> None:
    problems = broken_links(document)
    assert not problems, "broken links:\n" + "\n".join(problems)


def test_readme_is_under_300_lines() -> None:
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines < README_MAX_LINES, f"README.md has {lines} lines; move detail to docs/"


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_readme_links_every_page(page: Path) -> None:
    linked = {(README.parent / t.partition("#")[0]).resolve() for t in links(README)}
    assert page.resolve() in linked, f"README.md doesn't link {_name(page)}"


def test_a_missing_file_a_missing_anchor_and_a_link_out_of_the_repository_are_caught(
    tmp_path: Path,
) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text("# A page\n\n## Scaling out\n## Scaling out\n")
    readme = tmp_path / "README.md"
    readme.write_text(
        "See [it](docs/page.md#scaling-out-1), [gone](docs/gone.md),\n"
        "[no anchor](docs/page.md#production), [up](../elsewhere.md) and [a link\n"
        "that wraps](#nowhere).\n"
        "```\n[in code](docs/gone.md)\n```\n`[a span that\nwraps](docs/gone.md)`\n"
    )
    assert broken_links(readme, root=tmp_path) == [
        "docs/gone.md: no such file",
        "docs/page.md#production: no heading makes #production in page.md",
        "../elsewhere.md: outside the repository",
        "#nowhere: no heading makes #nowhere in README.md",
    ]


@pytest.mark.parametrize(
    ("heading", "anchor"),
    [
        ("Quick start", "quick-start"),
        ("On one machine: `make run`", "on-one-machine-make-run"),
        ("Hand histories (PHH)", "hand-histories-phh"),
        ("Client → server", "client--server"),
        ("The lobby: `ws/lobby/`", "the-lobby-wslobby"),
        ("Rules engine: random play", "rules-engine-random-play"),
    ],
)
def test_headings_make_githubs_anchors(heading: str, anchor: str) -> None:
    assert slug(heading) == anchor
