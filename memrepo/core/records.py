"""The small typed records that the API, the CLI (`--json`) and the MCP server return.

`to_json()` gives exactly the SPEC §11 JSON shapes.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["found", "not_recorded"]


@dataclass(frozen=True, slots=True)
class Fact:
    """A value that holds (for recall) with both time axes and its provenance.

    `valid_from`/`valid_to` bound the continuous value (§5: consecutive steps with the same
    object form one value); times are rendered strings (valid: date or RFC 3339; recorded: Z).
    """

    id: str
    scope: str
    subject: str
    relation: str
    object: str
    valid_from: str
    valid_to: str | None
    recorded_at: str
    confidence: float
    source: str
    quote: str | None
    session: str
    trust: str
    category: str = "facts"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class RecallResult:
    status: Status
    facts: list[Fact] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "facts": [f.to_json() for f in self.facts],
                "suggestions": list(self.suggestions)}


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One event of a key (§5.5), both time axes, and — for asserts — the valid intervals
    it held under current knowledge (`held`: list of [from, to|None])."""

    id: str
    op: str
    recorded_at: str
    object: str | None
    valid_from: str | None
    valid_to: str | None
    source: str
    session: str
    confidence: float | None
    quote: str | None
    reason: str | None
    target: str | None
    retracted_by: str | None
    held: list[tuple[str, str | None]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["held"] = [list(pair) for pair in self.held]
        return data


@dataclass(frozen=True, slots=True)
class SearchHit:
    kind: Literal["note", "fact"]
    category: str
    path: str
    snippet: str
    name: str | None = None  # notes
    fact: Fact | None = None  # facts

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "category": self.category,
                                "path": self.path, "snippet": self.snippet}
        if self.name is not None:
            data["name"] = self.name
        if self.fact is not None:
            data.update(self.fact.to_json())
            data["category"] = self.category
        return data


@dataclass(frozen=True, slots=True)
class SearchResult:
    status: Status
    results: list[SearchHit] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "results": [r.to_json() for r in self.results],
                "suggestions": list(self.suggestions)}


@dataclass(frozen=True, slots=True)
class WriteResult:
    """What remember / forget / retract did: `added`, `unchanged` (nothing written)."""

    status: Literal["added", "unchanged"]
    id: str | None
    commit: str | None

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "id": self.id, "commit": self.commit}
