# pbem: two commands on a fresh machine (Python 3.11+): `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SAMPLE := sample_games/battleaxe/game.jsonl

.PHONY: demo test test-slow lint bench sample clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/pbem verify $(SAMPLE)
	$(BIN)/pbem status $(SAMPLE)
	$(BIN)/pbem show $(SAMPLE)

test: $(STAMP)
	$(BIN)/ruff check pbem tests benchmarks sample_games
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --slow

lint: $(STAMP)
	$(BIN)/ruff check pbem tests benchmarks sample_games
	$(BIN)/ruff format --check pbem tests benchmarks sample_games
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/verify.py
	$(BIN)/python benchmarks/replay_battleaxe.py

sample: $(STAMP)
	$(BIN)/python sample_games/make_battleaxe.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache
