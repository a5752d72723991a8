"""Why a value is what the memory answers (SPEC §7 "Every answer says why", §11 `memrepo
why`): the value of a key that holds at a valid time under a knowledge time, traced to the
event that says it, the commit that wrote the event (its author, date and Approved-by
trailers), the session, source and verbatim quote, and the values it replaced."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memrepo.cache import Connection
from memrepo.cache.query import event_location, history, recall_key
from memrepo.core.facts.times import Instant
from memrepo.core.records import Fact, HistoryEntry
from memrepo.core.trailers import trailer_values
from memrepo.git.command import commit_of_line


@dataclass(frozen=True, slots=True)
class Trace:
    """One value that holds, and where it comes from."""

    fact: Fact
    path: str | None = None  # the log and line of its event
    line: int | None = None
    commit: str | None = None
    committed: str | None = None  # the commit's author date
    author: str | None = None
    approved_by: list[str] = field(default_factory=list)
    replaced: list[HistoryEntry] = field(default_factory=list)  # earlier values of the key

    def to_json(self) -> dict[str, Any]:
        return {**self.fact.to_json(), "path": self.path, "line": self.line,
                "commit": self.commit, "committed": self.committed, "author": self.author,
                "approved_by": list(self.approved_by),
                "replaced": [entry.to_json() for entry in self.replaced]}


def why(root: Path, conn: Connection, scope: str, subject: str, relation: str, t: Instant,
        known: Instant, now: Instant) -> list[Trace]:
    """The traces of what `scope`'s key holds at t as known at T (none: not recorded)."""
    facts = recall_key(conn, scope, subject, relation, t, known)
    events = history(conn, scope, subject, relation, now)
    return [_trace(root, conn, fact, events) for fact in facts]


def _trace(root: Path, conn: Connection, fact: Fact, events: list[HistoryEntry]) -> Trace:
    place = event_location(conn, fact.id)
    written = commit_of_line(root, *place) if place else None
    replaced = [e for e in events if e.op == "assert" and e.id != fact.id
                and e.object != fact.object and e.recorded_at <= fact.recorded_at]
    path, line = place if place else (None, None)
    if written is None:
        return Trace(fact, path, line, replaced=replaced)
    return Trace(fact, path, line, written["commit"], written["date"], written["author"],
                 trailer_values(written["message"], "Approved-by"), replaced)
