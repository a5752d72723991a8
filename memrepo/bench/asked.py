"""The memory benchmark asked the way an agent asks: the question's TEXT goes through
free-text recall and the context block (SPEC §7 "Retrieval from the question"), and what
comes back is scored — beside the oracle column, which hands recall the key and the time
already worked out.

- `AskedVariant` ("memrepo, asked"): `Memory.recall(scope, text)`; its facts are the
  answer (a question about change: the changes those facts show inside the period asked);
- `ContextVariant` ("memrepo context block"): `memrepo context` for the text; right when
  every expected value is on a fact line of the block (for a change question: every value
  that held during its window), and for "not recorded" when the block has no fact line;
- `run_varied`: the varied set (memrepo.bench.questions) over four scopes, by kind and by
  dev / held-out half.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memrepo.agent.api import Memory
from memrepo.agent.context import build_context
from memrepo.bench import questions as varied
from memrepo.bench.memory_history import SCOPE, Question
from memrepo.bench.memory_variants import Answer, change_answer, value_changes
from memrepo.bench.scoring import NOT_RECORDED
from memrepo.clock import now
from memrepo.core.facts.bitemporal import FOREVER
from memrepo.core.facts.times import Instant, parse_instant
from memrepo.core.records import Fact, RecallResult
from memrepo.core.text import fold
from memrepo.git.command import run_git
from memrepo.maintenance.demo import DEMO_APPROVER

FACT_LINE = "- [fact] "


def top_key_facts(result: RecallResult) -> list[Fact]:
    """The facts of the best key (recall lists its keys best first)."""
    if not result.facts:
        return []
    first = (result.facts[0].subject, result.facts[0].relation)
    return [f for f in result.facts if (f.subject, f.relation) == first]


def interval(fact: Fact) -> tuple[str, Instant, Instant]:
    end = FOREVER if fact.valid_to is None else parse_instant(fact.valid_to)
    return fact.object, parse_instant(fact.valid_from), end


def change_window(result: RecallResult, now: Instant) -> tuple[Instant, Instant]:
    """The window a change question asked about: its period, or the whole history."""
    asked = result.asked
    start = parse_instant(asked["valid_from"]) if "valid_from" in asked else -FOREVER
    end = parse_instant(asked["valid_to"]) if "valid_to" in asked else now
    return start, min(end, now)


class AskedVariant:
    name = "memrepo, asked"

    def __init__(self, root: Path) -> None:

        self.memory = Memory(root)

    def answer(self, question: Question) -> Answer:

        result = self.memory.recall(SCOPE, question.text)
        shown = json.dumps(result.to_json(), ensure_ascii=False)
        facts = top_key_facts(result)
        if not facts:
            return Answer(NOT_RECORDED, shown)
        if result.asked.get("history"):
            start, end = change_window(result, now())
            changes = value_changes([interval(f) for f in facts], start - 1, end - 1)
            # a first value that began as the period began is not a change within it
            changes = [c for c in changes if c[1] or c[0] > start]
            return Answer(change_answer(changes), shown)
        return Answer(", ".join(sorted(dict.fromkeys(f.object for f in facts))), shown)


class ContextVariant:
    name = "memrepo context block"

    def __init__(self, root: Path, budget: int, oracle: object) -> None:
        self.root, self.budget, self.oracle = root, budget, oracle

    def answer(self, question: Question) -> Answer:

        block = build_context(self.root, SCOPE, question.text, self.budget).text
        return Answer(block, block)

    def judge(self, question: Question, block: str) -> bool:
        lines = [fold(line) for line in block.splitlines() if line.startswith(FACT_LINE)]
        wanted = self.expected_values(question)
        if not wanted:
            return not lines
        return all(any(f"= {fold(json.dumps(value, ensure_ascii=False))} (" in line
                       for line in lines) for value in wanted)

    def expected_values(self, question: Question) -> list[str]:
        if question.window is not None:
            start, end = (parse_instant(t) for t in question.window)
            intervals = self.oracle.intervals(question.subject,  # type: ignore[attr-defined]
                                              question.relation)
            return sorted({value for value, a, b in intervals if a <= end and start < b})
        if question.expected == NOT_RECORDED:
            return []
        return question.expected.split(", ") if question.many else [question.expected]


# --- the varied set -------------------------------------------------------------------------

def import_histories(root: Path) -> None:
    """The Polish and Slovak histories, imported in one commit through the hooks (an import
    needs approval: the demo memory's config names its approver)."""
    for scope, told in (("kasia", varied.KASIA), ("zuzana", varied.ZUZANA)):
        for n, (day, key, value, valid, quote) in enumerate(told):
            subject, relation = key.split(".")
            event = {"id": f"{scope}-{n:03d}", "op": "assert", "recorded_at":
                     f"{day}T12:00:00Z", "scope": scope, "subject": subject,
                     "relation": relation, "object": value, "valid_from": valid,
                     "confidence": 1.0, "trust": "host", "source": "conversation",
                     "session": f"chat-{day}", "quote": quote}
            path = root / "memory" / "facts" / scope / f"{day[:7]}.jsonl"
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(event, ensure_ascii=False) + "\n")
    run_git(root, "add", "memory/facts")
    done = run_git(root, "commit", "-q", "-m", "Histories told in Polish and Slovak\n\n"
                   f"Imported-from: memrepo bench\nApproved-by: {DEMO_APPROVER}")
    if done.returncode != 0:
        raise RuntimeError(f"git commit failed: {done.stdout}{done.stderr}")


@dataclass(frozen=True, slots=True)
class VariedResult:
    question: varied.VQ
    correct: bool
    got: str


def judge_varied(q: varied.VQ, result: RecallResult) -> bool:
    if q.kind == "refusal" or q.expect == varied.NR:
        return not result.facts
    if q.notes:
        return any(n.name in q.notes for n in result.notes[:3])
    facts = top_key_facts(result)
    if not facts or f"{facts[0].subject}.{facts[0].relation}" != q.key:
        return False
    if q.expect is None:  # a change question: the history
        return bool(result.asked.get("history"))
    return sorted(dict.fromkeys(f.object for f in facts)) == sorted(q.expect.split("|"))


def run_varied(root: Path, pinned: object) -> list[VariedResult]:

    memory = Memory(root)
    results = []
    for q in varied.QUESTIONS:
        with pinned({"MEMREPO_NOW": varied.NOW[q.scope]}):  # type: ignore[operator]
            result = memory.recall(q.scope, q.text)
        got = "; ".join(f"{f.subject}.{f.relation}={f.object}" for f in result.facts)
        got += "".join(f" [{n.name}]" for n in result.notes[:3])
        results.append(VariedResult(q, judge_varied(q, result), got or NOT_RECORDED))
    return results


def render_varied(results: Sequence[VariedResult]) -> str:
    lines = ["| kind | dev | held out | all |", "|---|---|---|---|"]
    for kind in (*varied.KINDS, "all"):
        mine = [r for r in results if kind in ("all", r.question.kind)]
        cells = [_score([r for r in mine if split in ("all", r.question.split)])
                 for split in ("dev", "held", "all")]
        lines.append(f"| {kind} | {' | '.join(cells)} |")
    return "\n".join(lines)


def _score(results: Sequence[VariedResult]) -> str:
    return f"{sum(r.correct for r in results)}/{len(results)}"
