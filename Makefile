# Developer entry points. Each target sets up .venv on first use, so a fresh clone
# needs only Python 3.11+ and make.

PYTHON ?= python3
PORT ?= 8000

VENV := .venv
BIN := $(VENV)/bin
# Touched after a successful install: pip runs again only when pyproject.toml is
# newer, which keeps `make test` fast on every run after the first.
STAMP := $(VENV)/.installed

.PHONY: test run bench clean

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/pytest

run: $(STAMP)
	$(BIN)/python manage.py migrate
	$(BIN)/python manage.py runserver 127.0.0.1:$(PORT)

bench: $(STAMP)
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check -e '.[test,bench]'
	touch $@
