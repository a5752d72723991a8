"""SPEC §5's worked example as a fact log: scope `michal`, key `electricity_bill.amount`.

The same seven events feed the demo memory (memory/facts/michal/), the tests and the demo
command, so the contract's answers are checked against one source. Ids are real ULIDs of
each event's `recorded_at`, with a random part derived from the event's name so that the
generated log is byte-for-byte reproducible.

    python -m memrepo.bench.worked_example [ROOT]   # (re)writes ROOT/memory/facts/michal/
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memrepo.core.facts.log_lines import event_to_json
from memrepo.core.facts.times import month_of, parse_instant
from memrepo.core.facts.ulids import ulid_text

SCOPE, SUBJECT, RELATION = "michal", "electricity_bill", "amount"


@dataclass(frozen=True)
class Step:
    """One event of the example: what a person or agent said, and when the memory heard it."""

    name: str
    op: str
    recorded_on: str  # a date; the event is recorded at 00:00 UTC that day
    object: str | None = None
    valid: str | None = None  # valid_from of an assert, valid_to of an end
    quote: str | None = None
    reason: str | None = None
    target: str | None = None  # the name of the retracted step

    @property
    def session(self) -> str:
        return f"chat-{self.recorded_on}"


STEPS: tuple[Step, ...] = (
    Step("e1", "assert", "2026-01-12", "210 zł", "2026-01-10",
         quote="The electricity bill came today: 210 zł, from the 10th of January."),
    Step("e2", "assert", "2026-03-05", "280 zł", "2026-03-01",
         quote="Electricity went up, I pay 280 zł since March."),
    Step("e3", "assert", "2026-07-02", "245 zł", "2026-07-01",
         quote="From July the electricity bill is 245 zł."),
    Step("e4", "assert", "2026-08-01", "200 zł", "2025-10-01",
         quote="Back in October 2025 I was paying 200 zł for electricity."),
    Step("e5", "assert", "2026-08-05", "250 zł", "2026-07-01",
         quote="Sorry, I misread the July bill: it is 250 zł, not 245."),
    Step("e6", "end", "2026-10-02", valid="2026-10-01", reason="moved out"),
    Step("e7", "retract", "2026-10-03", reason="re-read: 245 was right", target="e5"),
)

NOW = "2026-11-30"
"""Stands for "now" in the answers below (any instant after e7 gives the same answers)."""

# (t, T, expected object or None for "not recorded"); T is knowledge, t is valid time.
ANSWERS_BEFORE_FORGET: tuple[tuple[str, str, str | None], ...] = (
    ("2026-08-10", "2026-08-10", "250 zł"),  # "now" before e6/e7 were recorded
    ("2026-04-15", "2026-08-10", "280 zł"),
    ("2025-11-01", "2026-08-10", "200 zł"),
    ("2025-11-01", "2026-07-15", None),
    ("2026-05-01", "2026-05-01", "280 zł"),
    ("2026-08-01", "2026-05-01", "280 zł"),
    ("2026-07-15", "2026-08-03", "245 zł"),
)
ANSWERS_AFTER_RETRACT: tuple[tuple[str, str, str | None], ...] = (
    ("2026-07-15", NOW, "245 zł"),
    ("2026-10-15", NOW, None),
    ("2026-07-15", "2026-10-02", "250 zł"),
    ("2026-09-15", "2026-10-02", "250 zł"),
)


def recorded_at(step: Step) -> str:
    return f"{step.recorded_on}T00:00:00Z"


def event_id(step: Step) -> str:
    """A ULID of the step's recorded_at; its random part is a hash of the step's name."""
    millis = parse_instant(recorded_at(step)) // 1000
    random_part = hashlib.sha256(f"memrepo-worked-example-{step.name}".encode()).digest()[:10]
    return ulid_text(millis, int.from_bytes(random_part, "big"))


def event(step: Step) -> dict[str, Any]:
    """The step as a log event (fields in the order the writer uses)."""
    head = {"id": event_id(step), "op": step.op, "recorded_at": recorded_at(step)}
    tail = {"source": "conversation", "session": step.session}
    if step.op == "retract":
        target = next(s for s in STEPS if s.name == step.target)
        return {**head, "target": event_id(target), "reason": step.reason, **tail}
    key = {"scope": SCOPE, "subject": SUBJECT, "relation": RELATION}
    if step.op == "end":
        return {**head, **key, "valid_to": step.valid, "reason": step.reason, **tail}
    return {**head, **key, "object": step.object, "valid_from": step.valid,
            "confidence": 1.0, "trust": "host", **tail, "quote": step.quote}


def segments() -> dict[str, bytes]:
    """Repo-relative segment path → content, one segment per month of recorded_at."""
    files: dict[str, bytes] = {}
    for step in STEPS:
        month = month_of(parse_instant(recorded_at(step)))
        path = f"memory/facts/{SCOPE}/{month}.jsonl"
        files[path] = files.get(path, b"") + event_to_json(event(step))
    return files


def write(root: Path) -> list[str]:
    """Write the example's segments under `root`; the paths written."""
    for path, data in segments().items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return sorted(segments())


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    for path in write(Path(args[0]) if args else Path.cwd()):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
