"""Microseconds for the step machine's answers on Duel (tests/kit/duel.py), the kit's complete test game:

* ``check_json``: deciding one logged action (a JSON object: parsed, turn, phase, its one predicate);
* ``check_model``: the same for an action already parsed;
* ``legal_actions``: enumerating every legal action of the seat to act (what a prompt needs, not the verifier);
* ``apply``: check and effect.

Measured over the states of random play-outs; prints one JSON line of medians and the ratio legal/check (what
deciding by membership saves). Run: ``.venv/bin/python benchmarks/kit_machine.py``.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _harness import median_time

from pbem.rules.contract import Outcome, Verdict
from tests.kit.duel import MACHINE, DuelState, setup


def states(games: int, seed: int) -> list[tuple[DuelState, str, dict[str, object]]]:
    """(state, seat to act, a legal action as JSON) along random play-outs."""
    rng = random.Random(seed)
    found = []
    for _ in range(games):
        state = setup(last_turn=6)
        while True:
            seats = MACHINE.to_act(state)
            if not seats and state.rolls is not None:
                clear = state.model_copy(update={"rolls": None})
                state = MACHINE.resume(clear, Outcome(dice={"combat": (rng.randint(1, 6),)})).state
                continue
            if not seats:
                break
            move = MACHINE.dump(rng.choice(MACHINE.legal_actions(state, seats[0])))
            found.append((state, seats[0], move))
            state = MACHINE.apply(state, seats[0], move).state
    return found


def main() -> None:
    cases = states(20, 7)
    models = [(s, seat, act) for s, seat, m in cases if not isinstance(act := MACHINE.parse(m), Verdict)]
    n = len(cases)

    def per_case(work: Callable[[], object]) -> float:
        return round(median_time(work, 7) * 1e6 / n, 2)

    result = {
        "states": n,
        "check_json_us": per_case(lambda: [MACHINE.check(s, seat, m) for s, seat, m in cases]),
        "check_model_us": per_case(lambda: [MACHINE.check(s, seat, a) for s, seat, a in models]),
        "legal_actions_us": per_case(lambda: [MACHINE.legal_actions(s, seat) for s, seat, _ in cases]),
        "apply_us": per_case(lambda: [MACHINE.apply(s, seat, m) for s, seat, m in cases]),
    }
    result["legal_over_check"] = round(result["legal_actions_us"] / result["check_json_us"], 1)
    print(json.dumps(result, sort_keys=True))


if __name__ == "__main__":
    main()
