# tavola — every developer and CI command. A machine with Python 3.11+ and pip is enough:
# `make setup` builds .venv, installs the platform with its tools, and generates the code.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
GEN    := libs/tavola/v1
PROTOS := $(wildcard proto/tavola/v1/*.proto)
PYTEST := $(PY) -m pytest

.PHONY: setup proto run test unit integration e2e properties playthroughs lint format bench clean goldens

setup: $(VENV)/.installed $(GEN)/.generated

$(VENV)/.installed: pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev,local]'
	@touch $@

proto: $(GEN)/.generated

$(GEN)/.generated: $(PROTOS) $(VENV)/.installed scripts/genproto.py
	$(PY) scripts/genproto.py
	@touch $@

run: setup
	$(BIN)/tavola up

test: setup
	$(PYTEST) -q tests

unit: setup
	$(PYTEST) -q tests/unit tests/properties -m "not slow"

properties: setup
	$(PYTEST) -q tests/properties

integration: setup
	$(PYTEST) -q tests/integration

e2e: setup
	$(PYTEST) -q tests/e2e

lint: setup
	$(BIN)/ruff check libs services tests scripts
	$(BIN)/ruff format --check libs services tests scripts
	$(BIN)/mypy
	cd proto && ../$(BIN)/buf lint

format: setup
	$(BIN)/ruff check --fix libs services tests scripts
	$(BIN)/ruff format libs services tests scripts

goldens: setup
	$(PY) scripts/goldens.py

bench: setup
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) -m tavola.bench

clean:
	rm -rf $(VENV) $(GEN) .pytest_cache .mypy_cache .ruff_cache .tavola
