"""Path-finding cost on the real Gazala map (1,479 hexes), next to one Ed25519 verification measured in the same run.

The position is The Opening Phase's setup (85 counters from the bundled pack). Medians in microseconds of:

* ``board_build``: the per-pack structures (kit ``HexMap``, TEC, Minefields, road graph), built once per pack;
* ``situation``: the per-position derived sets (occupancy, both sides' zones of control), once per position;
* ``command_path``: one unit's Command Path (§5.8), over every formation unit on the map;
* ``command_path_isolated``: the worst case, a motorised unit 15 hexes from an HQ it cannot reach (in Bir
  Hacheim, ringed by enemy Minefields), so the search exhausts every hex that could still lead there within 20;
* ``supply_path``: one HQ's Supply Path (§5.7), over every HQ on the map (each side's Road/Trail chain traced once
  per position and shared, as in an Admin Phase);
* ``reach``: a full-move reachability (§7.3, the move prompt), over every combat unit on the map;
* ``move_action``: what replaying one logged Movement Action costs the board: a fresh situation, the step-by-step
  check of a 4-hex path (kit ``walk``), and the mover's Command Path;
* ``ed25519_verify``: ``Ed25519PublicKey.verify`` of a 600-byte message;
* ``battleaxe_replay_per_action``: the rules-engine replay cost per action of the Battleaxe sample game
  (``benchmarks/replay_battleaxe.py``'s measure), the reference the issue sets: path-finding must not make a Gazala
  action cost more than twice that.

Prints one JSON line. Run: ``.venv/bin/python benchmarks/gazala_paths.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from _harness import median_us

from pbem.games.gazala import default_pack_bytes, load_pack
from pbem.games.gazala.board import Board, Position, Situation, board_of, check_move, reachable
from pbem.games.gazala.data import GazalaPack
from pbem.games.gazala.paths import command, supply
from pbem.kit.hexes import HexId
from pbem.log.entry import envelope
from pbem.log.store import read_log
from pbem.verify.pipeline import verify_lines

REPEAT = 7
BATTLEAXE = Path(__file__).resolve().parents[1] / "sample_games" / "battleaxe" / "game.jsonl"


def opening(pack: GazalaPack) -> Position:
    scenario = pack.scenario("opening-phase")
    hq_ids = {h.id for h in pack.hqs}
    units = {p.unit: HexId(p.hex) for p in scenario.placements if p.unit not in hq_ids}
    hqs = {p.unit: HexId(p.hex) for p in scenario.placements if p.unit in hq_ids}
    assigned = {p.unit: p.assigned_to for p in scenario.placements if p.assigned_to is not None}
    return Position(units=units, hqs=hqs, assigned=assigned)


def battleaxe_per_action() -> float:
    lines = read_log(BATTLEAXE)[0]
    actions = sum(len(e.raw["body"]["actions"]) for e in map(envelope, lines) if e.raw["type"] == "action")
    plain = median_us(lambda: verify_lines(lines, rules=False), 5)
    full = median_us(lambda: verify_lines(lines), 5)
    return round((full - plain) / actions, 1)


def main() -> None:
    pack = load_pack(default_pack_bytes())
    build = median_us(lambda: Board(pack), 5)
    board = board_of(pack)
    position = opening(pack)
    sit = Situation(board, position)
    _ = sit.zones
    formation_units = [u for u in position.units if sit.formation(u) is not None]
    units = list(position.units)
    hqs = list(position.hqs)

    def fresh() -> None:
        _ = Situation(board, position).zones

    def commands() -> None:
        sit.memo.clear()  # results are kept per position: time the searches, not the memo
        for unit in formation_units:
            command(sit, unit)

    def supplies() -> None:
        sit.memo.clear()  # each side's Road/Trail chain is then traced once, as an Admin Phase would
        for hq in hqs:
            supply(sit, hq)

    def reaches() -> None:
        for unit in units:
            reachable(sit, [unit], supplied=True)

    mover = next(u for u in formation_units if board.units[u].movement == "motorised")
    start = position.units[mover]
    moves = reachable(sit, [mover], supplied=True)
    target = max(moves.spent, key=lambda h: (len(moves.path(h)), h))
    route = list(moves.path(target))

    def move_action() -> None:
        now = Situation(board, position)
        assert check_move(now, [mover], route, supplied=True).ok
        command(now, mover)

    far = Situation(board, Position(units={"i-8": HexId("1021")}, hqs={"15pz-hq": HexId("2521")}))
    assert command(far, "i-8").state == "isolated"

    def isolated() -> None:
        far.memo.clear()
        command(far, "i-8")

    key = Ed25519PrivateKey.generate()
    message = bytes(600)
    signature = key.sign(message)
    public = key.public_key()
    verify = median_us(lambda: [public.verify(signature, message) for _ in range(200)], REPEAT, per=200)
    us = {
        "board_build": build,
        "situation": median_us(fresh, REPEAT),
        "command_path": median_us(commands, REPEAT, per=len(formation_units)),
        "command_path_isolated": median_us(isolated, REPEAT),
        "supply_path": median_us(supplies, REPEAT, per=len(hqs)),
        "reach": median_us(reaches, REPEAT, per=len(units)),
        "move_action": median_us(move_action, 51),
        "ed25519_verify": verify,
        "battleaxe_replay_per_action": battleaxe_per_action(),
    }
    result = {
        "hexes": len(board.grid),
        "counters": len(position.units) + len(position.hqs),
        "us": us,
        "move": {"unit": mover, "from": start, "hexes": len(route)},
        "ratios": {
            "command_over_verify": round(us["command_path"] / verify, 2),
            "command_isolated_over_verify": round(us["command_path_isolated"] / verify, 2),
            "supply_over_verify": round(us["supply_path"] / verify, 2),
            "reach_over_verify": round(us["reach"] / verify, 2),
            "move_action_over_battleaxe_action": round(us["move_action"] / us["battleaxe_replay_per_action"], 2),
        },
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
