# Developer entry points. Each target sets up .venv on first use, so a fresh clone
# needs only Python 3.11+ and make.

PYTHON ?= python3
PORT ?= 8000
# Processes `make test` runs the test suite in (pytest-xdist), one test file each at a
# time, handed out in the order tests/conftest.py gives them, not by xdist's own.
# Three on two cores: the browser tests spend half their time waiting on pages,
# and on a slow 2-core machine (2026-11-30) the suite took about 14 min on 3,
# 15 on 4 and 16 on 2.
TEST_PROCESSES ?= 3
# Bot players at the demo bot table, so a newcomer finds a game going (0: none).
BOTS ?= 3
# Seconds each of them takes over a move (unset: the runner's own pace, 1.5 s).
BOT_THINK ?=

VENV := .venv
BIN := $(VENV)/bin
# Touched after a successful install: pip runs again only when pyproject.toml is
# newer, which keeps `make test` fast on every run after the first.
STAMP := $(VENV)/.installed

.PHONY: test run bench clean

# The JS unit tests use node's own runner (node 20 or later), with no npm packages.
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports
	node --test tests/js/
	$(BIN)/pytest -n $(TEST_PROCESSES) --dist loadfile --no-loadscope-reorder

# Migrate, then start Redis (embedded, unless REDIS_URL is set), a Celery worker,
# Celery beat and Daphne under one supervisor process, after adding the demo data
# (once): its admin password box is printed last, once the site answers. Ctrl-C
# stops them all. DEBUG stays off, as on a server. The site is served
# over plain HTTP on this machine (HTTPS=false, unless set), and Django's
# signing key is made once and kept in .secret_key, unless SECRET_KEY is set.
SECRET_KEY_FILE := .secret_key
# Read by the shell when each command runs, after .secret_key has been made.
RUN_ENV = HTTPS="$${HTTPS:-false}" SECRET_KEY="$${SECRET_KEY:-$$(cat $(SECRET_KEY_FILE))}"
run: $(STAMP) $(SECRET_KEY_FILE)
	$(RUN_ENV) $(BIN)/python manage.py migrate
	$(RUN_ENV) $(BIN)/python -m cardroom.runner --port $(PORT) --bots $(BOTS) $(if $(BOT_THINK),--bot-think $(BOT_THINK)) --seed-demo

bench: $(STAMP)
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/evaluator.py

clean:
	rm -rf $(VENV)

$(SECRET_KEY_FILE):
	umask 077 && $(PYTHON) -c "import secrets; print(secrets.token_urlsafe(50))" > $@

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -e '.[test,bench,embedded-redis]'
	touch $@
