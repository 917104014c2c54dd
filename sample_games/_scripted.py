"""What the sample scripts (``make_*.py``) share: play one sample game by packets, time it, and say what it wrote."""

from __future__ import annotations

import time
from collections.abc import Callable

from pbem.client.scripted import ScriptedGame


def play_and_report(play: Callable[[], ScriptedGame], *, periods: bool = True) -> ScriptedGame:
    """Play a sample game with ``play`` and print where it went, its entries, packets and hops, its result and how
    long it took, then (with ``periods``) each period's packets and round trips."""
    start = time.perf_counter()
    played = play()
    seconds = time.perf_counter() - start
    result = played.report.result
    assert result is not None
    print(f"wrote {played.out}: {played.entries} entries, {len(played.packets)} packets in {played.hops} hops; "
          f"{result.outcome}: {', '.join(result.winners) or 'nobody'} ({seconds:.1f} s)")  # fmt: skip
    if periods:
        for period in played.periods:
            print(f"  {period.period}: {period.packets} packets, {period.round_trips:g} round trips")
    return played
