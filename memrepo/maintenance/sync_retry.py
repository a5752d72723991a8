"""When a sync whose push lost the race tries again, and when it gives up.

A lost race means another clone's push landed first: the remote moved, the clones are
making progress, and this sync fetches, merges and pushes again — without counting the
lost race as a failure, however long the others keep landing. It gives up only when
nothing moves: its pushes are turned back while the remote branch stays where it was for
`patience` seconds (a push stuck on the server, a stale lock of the branch there — waiting
longer lands nothing). `CEILING` bounds a sync whatever happens, so a cron job never piles
up behind one that others outrun for an hour.

The pause before each retry is random over the upper half of a window ("equal jitter"), so
clones that lost to the same push spread out instead of colliding again at once. The window
starts at the lost attempt's own duration (what one more attempt costs at the current load)
and doubles with each race this sync lost, up to `LONGEST_PAUSE`. Full jitter (anywhere
from 0) sent many retries back right after each landing, where all but one lose again and
the doomed attempts take the CPU the winning one needs; with half the window as the least
pause the retries come at a steadier pace and the unluckiest sync loses fewer races. A
sync that lost many races still tries again every 30-60 s, and its lost races no longer
count towards giving up, so however often it loses while others land it stays in the
running until it lands.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field

PATIENCE = 600.0
"""Seconds a sync keeps trying while its pushes are turned back and the remote stays put."""
CEILING = 3600.0
"""Seconds a sync keeps retrying lost races at most, even while the remote keeps moving."""
SHORTEST_SLOT, LONGEST_PAUSE = 0.2, 60.0
"""The pause before retry n is uniform(w/2, w), w = min(LONGEST, slot · 2^(n-1)), slot = how
long the lost attempt took (at least SHORTEST_SLOT)."""


@dataclass(slots=True)
class Retries:
    """One sync's lost races: the pause before the next attempt, or why to stop."""

    patience: float = PATIENCE
    ceiling: float = CEILING
    started: float = field(default_factory=time.monotonic)
    moved_at: float = field(default_factory=time.monotonic)  # the remote last seen moving
    losses: int = 0

    def pause_after(self, lost_attempt: float, remote_moved: bool) -> float | None:
        """The pause before trying again after a lost race (the attempt took
        `lost_attempt` seconds; `remote_moved`: the remote branch is no longer at the
        commit that attempt fetched); None: give up (`why_stopped` says why)."""
        now = time.monotonic()
        self.losses += 1
        if remote_moved:
            self.moved_at = now
        if self.stalled(now) or now - self.started >= self.ceiling:
            return None
        slot = max(SHORTEST_SLOT, lost_attempt)
        window = min(LONGEST_PAUSE, slot * 2 ** (self.losses - 1))
        pause = random.uniform(window / 2, window)
        if not remote_moved:  # look again when the patience runs out, not past it
            pause = min(pause, self.moved_at + self.patience - now)
        return max(0.0, pause)

    def stalled(self, now: float) -> bool:
        return now - self.moved_at > self.patience

    def why_stopped(self) -> str:
        if self.stalled(time.monotonic()):
            return (f"its push was turned back {self.losses} time(s) while the remote "
                    f"branch did not move for {self.patience:.0f} s")
        return (f"other clones kept landing first: {self.losses} lost races in "
                f"{self.ceiling / 60:.0f} minutes")
