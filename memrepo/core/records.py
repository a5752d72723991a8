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
    why: dict[str, Any] | None = None  # why a question's answer holds it (memrepo.answer)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.why is None:
            del data["why"]
        return data


@dataclass(frozen=True, slots=True)
class NoteMatch:
    """A note that matches a question (recall answers carry them beside the facts)."""

    name: str
    category: str
    description: str
    snippet: str
    path: str

    @property
    def uri(self) -> str:
        return f"memrepo://note/{self.name}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "category": self.category,
                "description": self.description, "snippet": self.snippet, "path": self.path,
                "uri": self.uri}


@dataclass(frozen=True, slots=True)
class RecallResult:
    """`facts`: what holds at the time asked about (for a question about change or a
    period, every value that held, each with its interval); `respelled`: question word →
    the spelling searched instead; `asked`: the times the question was answered for."""

    status: Status
    facts: list[Fact] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    notes: list[NoteMatch] = field(default_factory=list)
    respelled: dict[str, str] = field(default_factory=dict)
    asked: dict[str, Any] = field(default_factory=dict)
    recorded_about: dict[str, list[str]] = field(default_factory=dict)  # subject → its
    # relations, when the subject asked about is recorded but nothing answers (no values)
    remarks: list[str] = field(default_factory=list)  # why nothing (or only part) answers
    parts: list[dict[str, Any]] = field(default_factory=list)  # a text of several questions

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status,
                                "facts": [f.to_json() for f in self.facts],
                                "suggestions": list(self.suggestions),
                                "notes": [n.to_json() for n in self.notes]}
        if self.recorded_about:
            data["recorded_about"] = {k: list(v) for k, v in self.recorded_about.items()}
        if self.remarks:
            data["remarks"] = list(self.remarks)
        if self.parts:
            data["parts"] = [dict(part) for part in self.parts]
        if self.respelled:
            data["respelled"] = dict(self.respelled)
        if self.asked:
            data["asked"] = dict(self.asked)
        return data


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
    """One search result: a note (`name`, its category and `path`) or a fact (`fact`,
    category "facts"), with the `snippet` that matched."""

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
    """Search results best first; `suggestions`: names a misspelt word probably meant;
    `respelled`: question word → the spelling searched instead."""

    status: Status
    results: list[SearchHit] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    respelled: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status,
                                "results": [r.to_json() for r in self.results],
                                "suggestions": list(self.suggestions)}
        if self.respelled:
            data["respelled"] = dict(self.respelled)
        return data


@dataclass(frozen=True, slots=True)
class SimilarKey:
    """A recorded key a new key looks like (the write gate, SPEC §4), in the form first
    recorded. `recorded` is False for a suggestion that combines a recorded subject with
    the new relation (the subject is a variant; that relation is new to it)."""

    subject: str
    relation: str
    how: str
    recorded: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"subject": self.subject, "relation": self.relation, "how": self.how,
                "recorded": self.recorded}


@dataclass(frozen=True, slots=True)
class Replaced:
    """A different value a new assert takes over from (SPEC §5): nothing is replaced
    silently, so the answer and the commit name it."""

    object: str
    id: str  # the assert that held it
    valid_from: str  # since when the value held (§4 format)

    def to_json(self) -> dict[str, Any]:
        return {"object": self.object, "id": self.id, "valid_from": self.valid_from}

    def text(self) -> str:
        return f"replaces {self.object!r}, valid since {self.valid_from}"


@dataclass(frozen=True, slots=True)
class WriteResult:
    """What remember / forget / retract did: `added`, `unchanged` (nothing written), or
    `similar_key` (nothing written: the key looks like the recorded keys in `similar`).
    `key`: the (subject, relation) written to, in the form first recorded (SPEC §4), not
    as typed; None for a retract. `object`: the value an assert holds (for the CLI's line:
    not in the JSON, which echoes no input); `replaces`: the different values it takes over
    from at its valid_from."""

    status: Literal["added", "unchanged", "similar_key"]
    id: str | None
    commit: str | None
    similar: tuple[SimilarKey, ...] = ()
    key: tuple[str, str] | None = None
    object: str | None = None
    replaces: tuple[Replaced, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"status": self.status, "id": self.id, "commit": self.commit}
        if self.key is not None:
            data["subject"], data["relation"] = self.key
        if self.replaces:
            data["replaces"] = [r.to_json() for r in self.replaces]
        if self.status == "similar_key":
            data["similar"] = [key.to_json() for key in self.similar]
        return data
