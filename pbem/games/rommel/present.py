"""How *Rommel in the Desert* looks in reports and play: the hex map from the pack (land hexes, rough hexsides,
roads, named places), blocks drawn as blocks (concealed for a viewer who may not see them, face up with their CV
for one who may), and prompt labels that name places and blocks without revealing hidden identities.

Every page of a report and every frame of the replay lists the public card counts (each hand and the deck, §16.6:
hand sizes are public, their real/dummy split is not), the battles and the Disrupted blocks (:meth:`status`);
a turn's story is told Player-Turn by Player-Turn (:meth:`stage`) with the battles, their fire and the cards
revealed (:attr:`highlights`), and a battle hex carries a Battle marker on the map (§8)."""

from __future__ import annotations

from typing import Any, ClassVar

from pbem.games.rommel import mapspec
from pbem.games.rommel.schema import RommelPack
from pbem.games.rommel.state import RommelState, cv_slot, unit_slot
from pbem.rules.contract import View
from pbem.rules.presentation import LookModule, MapspecLook, Marker, Presentation

__all__ = ["RommelLook", "hex_label", "known_label", "public_label", "public_labels", "token_label"]


def hex_label(pack: RommelPack, hex_id: str) -> str:
    """``1506 (Sidi Omar)``: a hex with the places in it."""
    names = [p.name for p in pack.map.places if p.hex == hex_id]
    return f"{hex_id} ({', '.join(names)})" if names else hex_id


def token_label(side: str, token: str, hex_id: str | None, pack: RommelPack) -> str:
    """A block as everybody may name it: its side, number and hex (never its hidden identity)."""
    where = f" at {hex_label(pack, hex_id)}" if hex_id else ""
    return f"{side.title()} block {token.rsplit('-', 1)[-1]}{where}"


def public_label(state: RommelState, token: str, hex_id: str | None = None) -> str:
    """A block as an event's text names it for everybody: ``5 (4 Ind) at 1506 (Sidi Omar)`` once its identity is
    public (a battle revealed it, §8.5), else :func:`token_label`. ``hex_id`` (default: where it stands) names where
    it was when it has just left the map."""
    tok = state.tokens[token]
    where = tok.hex if hex_id is None else hex_id
    slot = state.hidden.get(unit_slot(token))
    if slot is None or not slot.public or not isinstance(slot.value, str):
        return token_label(tok.side, token, where, state.pack)
    name = mapspec.block_name(state.pack.block(slot.value))
    return f"{SIDE_NAMES.get(tok.side, tok.side.title())} {name}" + (
        f" at {hex_label(state.pack, where)}" if where else ""
    )


def known_label(state: RommelState, token: str) -> str:
    """A block as the replaying party knows it, for its own prompts: ``Axis block 02: 5 Pz (21 Pz), CV 3 at 1505
    (Ft. Capuzzo)`` when this state knows its identity (the owner's own replay; an opened block), else
    :func:`public_label`. Only prompts use it: the state on a player's machine knows that player's blocks."""
    tok = state.tokens[token]
    unit = state.hidden.get(unit_slot(token))
    if unit is None or not unit.known or not isinstance(unit.value, str):
        return public_label(state, token)
    cv = state.hidden.get(cv_slot(token))
    strength = f", CV {cv.value}" if cv is not None and cv.known and isinstance(cv.value, int) else ""
    name = mapspec.block_name(state.pack.block(unit.value))
    where = f" at {hex_label(state.pack, tok.hex)}" if tok.hex else ""
    return f"{SIDE_NAMES.get(tok.side, tok.side.title())} block {token.rsplit('-', 1)[-1]}: {name}{strength}{where}"


def public_labels(state: RommelState, tokens: list[str] | tuple[str, ...]) -> str:
    """Several blocks (:func:`public_label`), or ``none``."""
    return "; ".join(public_label(state, t) for t in tokens) or "none"


SIDE_NAMES = {side: style.name for side, style in mapspec.SIDES.items()}
"""``Axis``, ``Allied``: how texts name the sides (the map's legend names)."""


class RommelLook(MapspecLook):
    """The map, the blocks and the style are :mod:`pbem.games.rommel.mapspec`'s. A view names a block by its public
    token (``unit.id``); its identity, when the viewer may see it, is ``unit.extra["block"]``."""

    highlights: ClassVar[frozenset[str]] = Presentation.highlights | {
        "battle_begun",
        "fired",
        "unit_reduced",
        "pursuit_hits",
        "overrun",
        "routed",
        "supply_revealed",
        "initiative_decided",
        "month_ended",
        "turn_unpaid",
        "battle_skipped",
        "forced_march_failed",
    }
    """Besides the defaults: the battles, each unit's fire and losses, Pursuit Fire and Routs (§8.5, §9, §10.5,
    §11.3), the cards revealed at the end of a turn
    (§3.48), the Initiative (§3.3), the end of a Month (§3.1) and the forfeits (§4.0, §8.6)."""

    STAGES: ClassVar[dict[str, str]] = {
        "dealing": "Supply cards dealt",
        "setup": "Set-up",
        "mulligan": "Initial hands",
        "buildup": "Buildup",
        "initiative": "Initiative",
        "advance": "End of the Month",
        "over": "End of the game",
    }

    look: ClassVar[LookModule] = mapspec

    def opened(self, slot: str, value: Any) -> str:
        """A hidden value the rules opened, in the game's words: a block's identity or CV (§8.5, §17.2), a
        Minefield's hex (§14.2), the BP saved (the divulging option), the CVs a group lost to Pursuit Fire (§10.5)."""
        kind, _, name = slot.partition("/")
        side = name.split("-", 1)[0]
        who = SIDE_NAMES.get(side, side.title())
        block = self.secret(slot, value) if kind in ("unit", "cv") else None
        if block is not None:
            return f"the {'identity' if kind == 'unit' else 'strength'} of {block[0]}: {block[1]}"
        if kind == "mine" and isinstance(value, str):
            return f"an {who} Minefield at {hex_label(self.data, value)}"
        if kind == "bp" and isinstance(value, int):
            return f"the {who} Buildup Points saved: {value}"
        if kind == "losses":
            return f"the {who} losses to Pursuit Fire"
        return super().opened(slot, value)

    def secret(self, slot: str, value: Any) -> tuple[str, str] | None:
        """The player's own hidden values: each block's identity and CV, Minefields, the BP saved."""
        kind, _, name = slot.partition("/")
        side = name.split("-", 1)[0]
        if kind == "unit" and isinstance(value, str) and "-" in name:
            block = next((b for b in self.data.blocks if b.id == value), None)
            return token_label(side, name, None, self.data), mapspec.block_name(block) if block else value
        if kind == "cv" and isinstance(value, int) and "-" in name:
            return token_label(side, name, None, self.data), f"CV {value}"
        if kind == "mine" and isinstance(value, str):
            return f"Minefield {name.rsplit('-', 1)[-1]}", hex_label(self.data, value)
        if kind == "bp" and isinstance(value, int):
            return "Buildup Points saved", str(value)
        return None

    def stage(self, view: View) -> str:
        """The Player-Turn under way (``Axis Player-Turn``) or the phase of the Month (§3), with the public card
        counts once the cards are in play (``· hands Axis 5, Allied 7 · deck 20``): a report's sections and its
        pages' running heads show them. They change only at a deal or a reveal, where the stage changes anyway
        (the next Player-Turn, the Month's next phase)."""
        phase = str(view.facts.get("phase", ""))
        if phase == "turn":
            name = f"{self._side(str(view.facts.get('active', '')))} Player-Turn"
        else:
            name = self.STAGES.get(phase, phase.title())
        if phase in self.QUIET_CARDS:
            return name
        return f"{name} · {self._cards(view)}"

    QUIET_CARDS: ClassVar[frozenset[str]] = frozenset({"setup", "dealing", "over"})
    """Stages without card counts: before the deck exists, while it is dealt, after the game."""

    def _cards(self, view: View) -> str:
        hands = view.facts.get("hands", {})
        held = ", ".join(f"{self._side(s)} {n}" for s, n in hands.items())
        return f"hands {held} · deck {view.facts.get('deck', 0)}"

    def markers(self, view: View) -> tuple[Marker, ...]:
        """A Battle marker on each battle hex (§8): both sides stand there, so it takes neither side's colour."""
        return tuple(Marker(location=str(h), text="Battle") for h in view.facts.get("battles", ()))

    def status(self, view: View) -> list[tuple[str, str]]:
        """The public card counts (every hand and the deck), the viewer's own hand, battles and Disrupted blocks."""
        facts = view.facts
        rows = [("Supply cards", self._cards(view))]
        own = facts.get("hand")
        if isinstance(own, list):
            real = sum(1 for c in own if isinstance(c, int) and 0 <= c < self.data.deck.real)
            rows.append(("Your hand", f"{len(own)} cards, {real} real"))
        battles = [hex_label(self.data, str(h)) for h in facts.get("battles", ())]
        rows.append(("Battles", ", ".join(battles) or "none"))
        on_map: dict[str, int] = {}
        disrupted: dict[str, int] = {}
        for unit in view.units:
            if unit.location is not None:
                on_map[unit.side] = on_map.get(unit.side, 0) + 1
                disrupted[unit.side] = disrupted.get(unit.side, 0) + bool(unit.extra.get("disrupted"))
        rows.append(
            (
                "Blocks on the map",
                ", ".join(f"{self._side(s)} {n} ({disrupted[s]} Disrupted)" for s, n in sorted(on_map.items())),
            )
        )
        return rows

    def _side(self, side: str) -> str:
        found = self.style.sides.get(side)
        return found.name if found is not None else side.title()
