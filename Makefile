# tavola — every developer and CI command. A machine with Python 3.11+ and pip is enough:
# `make setup` builds .venv, installs the platform with its tools, and generates the code.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python
GEN    := libs/tavola/v1
PROTOS := $(wildcard proto/tavola/v1/*.proto)
PYTEST := $(PY) -m pytest

.PHONY: setup proto run test unit integration e2e properties playthroughs lint format bench clean goldens web web-test-deps season faults

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

test: setup web-test-deps
	$(PYTEST) -q tests

unit: setup
	$(PYTEST) -q tests/unit tests/properties -m "not slow"

properties: setup
	$(PYTEST) -q tests/properties

integration: setup
	$(PYTEST) -q tests/integration

e2e: setup web-test-deps
	$(PYTEST) -q tests/e2e

# The web client (web/): TypeScript from the protos, typecheck, unit tests, then the build
# into services/gateway/static/, which is committed (the gateway serves it; no Node at run time).
web:
	cd web && npm ci --no-audit --no-fund
	cd web && npm run gen && npm run typecheck && npm test && npm run build

# What the browser tests (tests/e2e/test_web.py) need: web/node_modules (playwright-core)
# and Debian's Chromium, installed when missing where that is possible (root with apt-get);
# elsewhere the browser tests say they are skipped and why.
web-test-deps:
	@if command -v npm >/dev/null 2>&1 && [ ! -d web/node_modules/playwright-core ]; then \
	  cd web && npm ci --no-audit --no-fund; fi
	@if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "make: Chromium could not be installed; the browser tests will be skipped"; \
	  else echo "make: no Chromium (Debian's chromium package); the browser tests will be skipped"; fi; fi

# the fault suite's long form (its short form is tests/e2e/test_faults.py, part of `test`);
# e.g. make faults FAULTS="--form short --seed 42" (docs/operations.md#faults)
FAULTS ?= --form long
faults: setup
	$(PY) -m tavola.faults $(FAULTS)

lint: setup
	$(BIN)/ruff check libs services tests scripts
	$(BIN)/ruff format --check libs services tests scripts
	$(BIN)/mypy
	@if [ -d web/node_modules ]; then cd web && npm run typecheck; fi
	cd proto && ../$(BIN)/buf lint

format: setup
	$(BIN)/ruff check --fix libs services tests scripts
	$(BIN)/ruff format libs services tests scripts

goldens: setup
	$(PY) scripts/goldens.py

bench: setup
	$(PY) -m pip install -q -e '.[bench]'
	$(PY) -m tavola.bench

# a simulated season of each game through the real services (200 bot accounts, 6 rounds),
# with figures: the long form of tests/e2e/test_league_season.py (docs/leagues.md)
season: setup
	$(PY) scripts/season.py $(SEASON_ARGS)

clean:
	rm -rf $(VENV) $(GEN) .pytest_cache .mypy_cache .ruff_cache .tavola
