# pbem: two commands on a fresh machine (Python 3.11+): `make demo` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
SAMPLE := sample_games/battleaxe/game.jsonl
TRIAD  := sample_games/triad/game.jsonl
# Gazala, Rommel and A&A are not in the pbem.games entry point yet (their rules are not all enforced): the demo
# loads them through PBEM_GAMES.
GAZALA := PBEM_GAMES=pbem.games.gazala.ruleset:RULESET
GAZALA_SOLO := sample_games/gazala/bir-hacheim/game.jsonl
GAZALA_DUEL := sample_games/gazala/opening-phase/game.jsonl
ROMMEL := PBEM_GAMES=pbem.games.rommel.ruleset:RULESET
ROMMEL_SAMPLE := sample_games/rommel/game.jsonl
AXIS_ALLIES := PBEM_GAMES=pbem.games.axisallies.ruleset:RULESET
AA_2P  := sample_games/axis-allies/rommels-last-push-2p/game.jsonl
AA_4P  := sample_games/axis-allies/rommels-last-push-4p/game.jsonl

OUT    := demo-output

.PHONY: demo test test-slow lint bench sample browser clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/pbem verify $(SAMPLE)
	$(BIN)/pbem verify $(TRIAD)
	$(BIN)/pbem status $(SAMPLE)
	$(BIN)/pbem show $(SAMPLE)
	mkdir -p $(OUT)
	$(BIN)/pbem report $(SAMPLE) --force -o $(OUT)/battleaxe-aar.html
	$(BIN)/pbem report $(SAMPLE) --force -o $(OUT)/battleaxe-aar.pdf
	$(BIN)/pbem report $(SAMPLE) --force --turn 1 -o $(OUT)/battleaxe-turn-1.pdf
	$(BIN)/pbem replay $(SAMPLE) --force -o $(OUT)/battleaxe-replay.html
	$(BIN)/pbem report $(TRIAD) --force -o $(OUT)/triad-aar.html
	$(GAZALA) $(BIN)/pbem verify $(GAZALA_SOLO)
	$(GAZALA) $(BIN)/pbem verify $(GAZALA_DUEL)
	$(GAZALA) $(BIN)/pbem report $(GAZALA_SOLO) --force -o $(OUT)/gazala-bir-hacheim-aar.html
	$(GAZALA) $(BIN)/pbem report $(GAZALA_DUEL) --force -o $(OUT)/gazala-opening-phase-aar.html
	$(GAZALA) $(BIN)/pbem report $(GAZALA_SOLO) --force -o $(OUT)/gazala-bir-hacheim-aar.pdf
	$(GAZALA) $(BIN)/pbem report $(GAZALA_DUEL) --force --turn 1 -o $(OUT)/gazala-opening-phase-turn-1.pdf
	$(GAZALA) $(BIN)/pbem replay $(GAZALA_SOLO) --force -o $(OUT)/gazala-bir-hacheim-replay.html
	$(ROMMEL) $(BIN)/pbem verify $(ROMMEL_SAMPLE)
	$(ROMMEL) $(BIN)/pbem report $(ROMMEL_SAMPLE) --force -o $(OUT)/rommel-crusader-aar.html
	$(ROMMEL) $(BIN)/pbem report $(ROMMEL_SAMPLE) --force --turn month-8 --as @observer -o $(OUT)/rommel-crusader-month-8-observer.html
	$(ROMMEL) $(BIN)/pbem report $(ROMMEL_SAMPLE) --force --turn month-8 -o $(OUT)/rommel-crusader-month-8.pdf
	$(ROMMEL) $(BIN)/pbem replay $(ROMMEL_SAMPLE) --force -o $(OUT)/rommel-crusader-replay.html
	$(AXIS_ALLIES) $(BIN)/pbem verify $(AA_2P)
	$(AXIS_ALLIES) $(BIN)/pbem verify $(AA_4P)
	$(AXIS_ALLIES) $(BIN)/pbem report $(AA_2P) --force -o $(OUT)/axis-allies-2p-aar.html
	$(AXIS_ALLIES) $(BIN)/pbem report $(AA_4P) --force -o $(OUT)/axis-allies-4p-aar.html
	$(AXIS_ALLIES) $(BIN)/pbem report $(AA_2P) --force --turn 1 -o $(OUT)/axis-allies-2p-round-1.pdf
	@echo "reports and the replay page are in $(OUT)/"

test: $(STAMP) browser
	$(BIN)/ruff check pbem tests benchmarks sample_games
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n auto

test-slow: $(STAMP) browser
	$(BIN)/python -m pytest -q -n auto --slow

# The browser tests drive Debian's chromium through chromium-driver. Install them when we can (root with
# apt-get); otherwise those tests skip and say why. Never fails the build.
browser:
	@if command -v chromium >/dev/null && command -v chromedriver >/dev/null; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		echo "installing chromium and chromium-driver for the browser tests"; \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver \
			>/dev/null) || echo "could not install chromium: the browser tests will be skipped"; \
	else echo "chromium and chromium-driver are not installed: the browser tests will be skipped"; fi

lint: $(STAMP)
	$(BIN)/ruff check pbem tests benchmarks sample_games
	$(BIN)/ruff format --check pbem tests benchmarks sample_games
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/verify.py
	$(BIN)/python benchmarks/replay_battleaxe.py
	$(BIN)/python benchmarks/reports.py
	$(BIN)/python benchmarks/tournament.py
	$(BIN)/python benchmarks/deck.py
	$(ROMMEL) $(BIN)/python benchmarks/rommel_replay.py
	$(GAZALA) $(BIN)/python benchmarks/gazala_replay.py
	$(BIN)/python benchmarks/axisallies_replay.py

sample: $(STAMP)
	$(BIN)/python sample_games/make_battleaxe.py
	$(BIN)/python sample_games/make_triad.py
	$(BIN)/python sample_games/make_rommel.py
	$(BIN)/python sample_games/make_gazala.py
	$(BIN)/python sample_games/make_axisallies.py

clean:
	rm -rf $(VENV) $(OUT) .pytest_cache .hypothesis .mypy_cache .ruff_cache
