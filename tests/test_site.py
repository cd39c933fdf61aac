"""Site-wide behaviour: error pages, static files, the favicon and the CSP header.

Tests run with DEBUG off (pytest-django turns it off), as a server does.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from cardroom.runner import free_port
from tables import views
from tests.conftest import live_database_url, stop_process_group

PROJECT_ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = PROJECT_ROOT / "templates"
FAVICON = PROJECT_ROOT / "static" / "favicon.svg"


def test_tests_run_with_debug_off() -> None:
    assert settings.DEBUG is False


# ------------------------------------------------------------------ error pages


def test_a_missing_page_is_the_sites_404_without_the_url_list(client: Client, db: None) -> None:
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    page = response.content.decode()
    assert "<title>Page not found · Cardroom</title>" in page
    assert 'class="site-header"' in page  # base.html's header
    assert "URLconf" not in page and "admin/" not in page


def test_the_500_page_is_the_sites_and_needs_no_request_context(db: None) -> None:
    response = server_error(RequestFactory().get("/"))

    assert response.status_code == 500
    page = response.content.decode()
    assert "<title>Something went wrong · Cardroom</title>" in page
    assert 'class="site-header"' in page


def test_a_view_that_fails_answers_with_the_500_page(
    client: Client, db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(**filters: object) -> None:
        raise RuntimeError("the database went away")

    monkeypatch.setattr(views, "lobby_rows", broken)
    client.raise_request_exception = False

    response = client.get("/tables/")

    assert response.status_code == 500
    page = response.content.decode()
    assert "Something went wrong" in page and "database went away" not in page


# ------------------------------------------------------------------ static files


def test_a_static_file_is_served_with_debug_off(client: Client, db: None) -> None:
    response = client.get("/static/favicon.svg")

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"".join(response.streaming_content) == FAVICON.read_bytes()


def test_the_admins_static_files_are_served_too(client: Client, db: None) -> None:
    response = client.get("/static/admin/css/base.css")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/css")


@pytest.fixture
def daphne_without_debug(tmp_path: Path, db: None) -> Iterator[str]:
    """Daphne serving the ASGI app as the image runs it, DEBUG off, over plain HTTP."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": live_database_url(),
        "DEBUG": "false",
        "HTTPS": "false",
        "SECRET_KEY": "a-test-only-key-" + "k" * 40,
    }
    log = tmp_path / "daphne.log"
    argv = [sys.executable, "-m", "daphne", "--port", str(port), "cardroom.asgi:application"]
    with log.open("wb") as output:
        server = subprocess.Popen(
            argv, cwd=PROJECT_ROOT, env=env, stdout=output, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip
    try:
        _wait_for(f"http://127.0.0.1:{port}/static/favicon.svg", server, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process_group(server)
        print(log.read_text())  # shown only when the test fails


def _wait_for(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    pytest.fail(f"Daphne did not answer {url}:\n{log.read_text()}")


def test_daphne_serves_static_files_with_debug_off(daphne_without_debug: str) -> None:
    with urllib.request.urlopen(daphne_without_debug + "/static/css/site.css") as response:
        body = response.read()
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/css")
    assert body == (PROJECT_ROOT / "static" / "css" / "site.css").read_bytes()


# ---------------------------------------------------------------- the front page


def links_of(page: str) -> dict[str, str]:
    """The page's main part's links, by their words."""
    main = page[page.index('<main class="page">') :]
    return {
        re.sub(r"\s+", " ", words).strip(): href
        for href, words in re.findall(r'<a[^>]* href="([^"]+)"[^>]*>([^<]+)</a>', main)
    }


def test_the_front_page_shows_a_visitor_the_room_home_games_and_hands(
    client: Client, db: None
) -> None:
    page = client.get("/").content.decode()

    for heading in ("Play in the room", "Host a home game", "Review your hands"):
        assert f">{heading}</h2>" in page
    assert links_of(page) == {
        "Sign up": reverse("accounts:signup"),
        "log in": reverse("accounts:login"),
        "Go to the lobby": reverse("lobby"),
        "Open a home game": reverse("home_new"),
    }  # and no link to hands they can't have played
    # A visitor who follows the home game's way in logs in first, then lands on its form.
    opened = client.get(reverse("home_new"))
    assert opened.status_code == 302
    assert opened["Location"] == f"{reverse('accounts:login')}?next={reverse('home_new')}"


def test_the_front_page_takes_a_player_straight_to_the_form_of_a_home_game(
    client: Client, django_user_model: Any
) -> None:
    client.force_login(django_user_model.objects.create_user("frida", password="x-y-z-12345"))

    page = client.get("/").content.decode()

    links = links_of(page)
    assert "Sign up" not in links
    assert client.get(links["Open a home game"]).status_code == 200
    assert client.get(links["Go to the lobby"]).status_code == 200
    assert client.get(links["My hands"]).status_code == 200


# ------------------------------------------------------------------ the favicon


def test_every_page_links_the_favicon(client: Client, db: None) -> None:
    page = client.get("/").content.decode()

    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page


def test_favicon_ico_leads_to_the_icon(client: Client, db: None) -> None:
    response = client.get("/favicon.ico")

    assert (response.status_code, response["Location"]) == (301, "/static/favicon.svg")


# --------------------------------------------------------- content security policy


def csp_of(response: object) -> dict[str, str]:
    header = response["Content-Security-Policy"]  # type: ignore[index]
    return dict(part.strip().split(" ", 1) for part in header.split(";"))


@pytest.mark.parametrize("url", ["/", "/tables/", "/accounts/login/", "/no-such-page/"])
def test_pages_forbid_inline_and_foreign_script(client: Client, db: None, url: str) -> None:
    policy = csp_of(client.get(url))

    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["default-src"] == "'self'"
    assert policy["connect-src"] == "'self'"  # the websockets are this host's
    assert policy["object-src"] == policy["base-uri"] == policy["frame-ancestors"] == "'none'"


def test_the_admin_has_the_policy_too(admin_client: Client) -> None:
    assert csp_of(admin_client.get("/admin/"))["script-src"] == "'self'"


# Script or style written into a page, which the policy would block.
INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I), "inline script"),
    (re.compile(r"<[^>]+\son[a-z]+\s*=", re.I), "event handler attribute"),
    (re.compile(r"javascript:", re.I), "javascript: URL"),
    (re.compile(r"<style\b", re.I), "style element"),
    (re.compile(r"<[^>]+\sstyle\s*=", re.I), "style attribute"),
]


def test_no_template_has_inline_script_or_style() -> None:
    found = [
        f"{path.relative_to(PROJECT_ROOT)}: {what}"
        for path in TEMPLATES.rglob("*.html")
        for pattern, what in INLINE
        if pattern.search(path.read_text())
    ]

    assert found == []


def test_the_inline_check_finds_what_it_looks_for() -> None:
    samples = [
        "<script>alert(1)</script>",
        '<button onclick="go()">',
        '<a href="javascript:go()">',
        "<style>p { color: red }</style>",
        '<p style="color: red">',
    ]
    for sample, (pattern, what) in zip(samples, INLINE, strict=True):
        assert pattern.search(sample), what
    module = '<script type="module" src="/static/js/table/main.js"></script>'
    assert not any(p.search(module) for p, _ in INLINE)
