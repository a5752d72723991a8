"""What triage reports (SPEC §9): one finding per thing a person should look at."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FindingKind = Literal["near-duplicate", "near-duplicate-key", "contradiction", "stale-fact",
                      "dead-link", "orphan", "over-limit", "quarantine"]
KINDS: tuple[FindingKind, ...] = ("near-duplicate", "near-duplicate-key", "contradiction",
                                  "stale-fact", "dead-link", "orphan", "over-limit",
                                  "quarantine")


@dataclass(frozen=True, slots=True)
class Finding:
    kind: FindingKind
    subject: str  # a note path, a category, or a fact key "scope: subject.relation"
    problem: str
    action: str
    line: int | None = None
    related: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "subject": self.subject, "line": self.line,
                "problem": self.problem, "action": self.action,
                "related": list(self.related)}
