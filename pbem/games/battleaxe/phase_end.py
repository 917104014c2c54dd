"""The End Phase (6.4) and victory (17, 20): Automatic Victory, Victory Points, German losses, the next Turn."""

from __future__ import annotations

from pbem.games.battleaxe.board import ALLIED, AXIS, Side, supplied
from pbem.games.battleaxe.context import Result, board, event, luftwaffe, shift_advantage
from pbem.games.battleaxe.state import BattleaxeState, evolve
from pbem.rules.contract import Event

__all__ = ["end_phase", "finish"]


def end_phase(state: BattleaxeState, events: list[Event]) -> Result:
    """6.4, 17: victory checks after the Refit Phase, then the next Turn (or the end of the game)."""
    state, shifted = shift_advantage(state)
    events = [*events, *shifted]
    b = board(state)
    pack = state.pack
    start, goal = pack.role("automatic_victory_from"), pack.role("automatic_victory_to")
    relieved = supplied(b, state.control, ALLIED, goal)
    if any(state.control[h] == ALLIED and h in relieved for h in start):
        return finish(state, ALLIED, "Automatic Victory: Tobruk is relieved", "17.1", events)
    traced = supplied(b, state.control, ALLIED, b.vp_trace_targets)
    gained = sum(v for loc, v in b.vp_areas.items() if state.control[loc] == ALLIED and loc in traced)
    vp = state.vp + gained
    text = f"The Allies score {gained} VP (total {vp})"
    events.append(event("victory_points", "17.2", text, ALLIED, gained=gained, total=vp))
    turn = b.turns[state.turn - 1]
    if state.turn == b.standard_turns:
        germans = [u for u in state.units if b.side_of(u) == AXIS and b.is_german(u)]
        lost = sum(1 for u in germans if state.units[u].location is None)
        reduced = sum(
            1
            for u in germans
            if state.units[u].location is not None and not state.units[u].full and b.kind(u) == "armor"
        )
        bonus = lost * pack.limit("vp_per_eliminated_german_unit") + reduced // pack.limit(
            "reduced_german_armor_per_vp"
        )
        vp += bonus
        text = f"German losses add {bonus} VP (total {vp})"
        events.append(event("german_losses", "17.2", text, ALLIED, bonus=bonus, total=vp))
        state = evolve(state, vp=vp)
        if state.options["extended"]:
            if vp >= pack.limit("extended_win_min"):
                return finish(state, ALLIED, f"Operational Victory with {vp} VP", "20.1", events)
            if vp <= pack.limit("extended_loss_max"):
                return finish(state, AXIS, f"the Allies have only {vp} VP", "20.1", events)
        else:
            threshold = state.threshold if state.threshold is not None else pack.limit("vp_win_threshold")
            if vp >= threshold:
                return finish(state, ALLIED, f"Operational Victory with {vp} VP", "17.2", events)
            return finish(state, AXIS, f"the Allies have only {vp} VP (need {threshold})", "17.2", events)
    elif state.turn == len(b.turns):
        last = b.turns[-1].label
        return finish(evolve(state, vp=vp), AXIS, f"no Automatic Victory by {last}", "20.1", events)
    # 6.4: the next Turn; formations held back until the end of this one are released (16)
    after = (r.formation for r in pack.tables.releases if r.released_after_turn == turn.id)
    release = tuple(dict.fromkeys((*state.released, *after)))
    nxt = state.turn + 1
    state = evolve(
        state,
        vp=vp,
        turn=nxt,
        impulse=pack.limit("start_impulse"),
        half=b.first_player,
        phase="maneuvers",
        step="impulse",
        released=release,
        fuel_low=False,
        rommel=False,
        artillery={ALLIED: pack.limit("allied_artillery_markers"), AXIS: pack.limit("axis_artillery_markers")},
    )
    state = evolve(state, air_ready={ALLIED: True, AXIS: luftwaffe(state)})
    label = b.turns[nxt - 1].label
    return state, [*events, event("turn_began", "6.4", f"{label}: a new day begins")]


def finish(state: BattleaxeState, winner: Side, why: str, rule: str, events: list[Event]) -> Result:
    state = evolve(state, step="over", phase="over", winner=winner, outcome=why)
    return state, [*events, event("game_over", rule, f"{winner.title()} victory: {why}", winner, winner=winner)]
