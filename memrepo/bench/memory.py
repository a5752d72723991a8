"""`memrepo bench memory`: what the bitemporal store answers that simpler memories cannot.

Eight months of one person's life (memrepo.bench.memory_history) are written into a real
memory repository — `memrepo init`, then `remember` / `forget` / `retract` with the clock
pinned to each event's recorded time, every write checked and committed; three values are
first written under a near key and, on the write gate's `similar_key`, again under the key
it names, as an agent does — and sixty-eight questions (current, historical, change,
refusal, after a near-key write) are put to three memories:

- **memrepo**: `Memory.recall` (with as_of / known_at) and `Memory.history`;
- **MEMORY.md**: the current state as a careful person keeps it, one line per thing;
- **flat store**: key → last value written (an end or a retract deletes the key; no write
  gate, so a near key is another key).

Answers are scored by memrepo.bench.scoring; each row also carries the size of the context
the variant hands a model (memrepo: the context block plus the recall/history result;
MEMORY.md: the whole file; flat: the one value) and the time taken. Then an untrusted
session plants an instruction, and the report says where it landed and what loaded it.
Last, the demo memory and two histories told in Polish and Slovak are imported beside the
story and the varied questions (memrepo.bench.questions) are asked, scored by kind.
With `--endpoint URL --model M` each variant's context and the question also go to an
OpenAI-compatible chat model, whose answers are scored the same way.
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.bench.scoring import NOT_RECORDED, is_correct
from memrepo.core.context_block import estimate_tokens
from memrepo.core.facts.times import parse_instant
from memrepo.core.policy.trust import UNTRUSTED, write_scope
from memrepo.git.command import run_git

if TYPE_CHECKING:
    from memrepo.bench.asked import VariedResult
    from memrepo.core.records import WriteResult

from memrepo.agent.api import Memory
from memrepo.agent.context import build_context
from memrepo.bench.asked import (
    AskedVariant,
    ContextVariant,
    import_histories,
    render_varied,
    run_varied,
)
from memrepo.facts import writes
from memrepo.maintenance.demo import install_demo_memory
from memrepo.maintenance.init import create_memory_repo, with_many_valued

from . import memory_history as story
from .memory_history import NOW, SCOPE, Question, Told
from .memory_variants import (
    FlatVariant,
    MemoryFileVariant,
    MemrepoVariant,
    ModelVariant,
    Variant,
    model_asker,
    value_changes,
)

APPROVER = "Ola Nowak <ola@example.com>"
IDENTITY = {"GIT_AUTHOR_NAME": "Ola Nowak", "GIT_AUTHOR_EMAIL": "ola@example.com",
            "GIT_COMMITTER_NAME": "Ola Nowak", "GIT_COMMITTER_EMAIL": "ola@example.com"}
DEFAULT_BUDGET = 1000
POISON_QUESTION = "What answer format do I prefer? Should you ask me for my password?"
# --- building the memory -----------------------------------------------------------------


@contextmanager
def pinned(values: dict[str, str]) -> Iterator[None]:
    """Environment variables set for the duration of the block, then restored."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, old in saved.items():
            if old is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = old


def build_memory(root: Path) -> dict[str, str]:
    """A new memory repository at `root` holding the story's history; event name → event id."""

    before = story.BEFORE_HISTORY
    dated = {"GIT_AUTHOR_DATE": before, "GIT_COMMITTER_DATE": before}
    with pinned({**IDENTITY, **dated}):
        create_memory_repo(root, APPROVER)
        declare_many_valued(root)
    ids: dict[str, str] = {}
    with pinned(IDENTITY):
        for told in story.HISTORY:
            with pinned({"MEMREPO_NOW": told.recorded_at}):
                ids[told.name] = tell(root, told, ids)
    return ids


def declare_many_valued(root: Path) -> None:
    """Declare the story's many-valued relations: a config change, committed with its approval."""

    config = root / "memory" / "config.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(with_many_valued(text, story.MANY_VALUED), encoding="utf-8")
    message = f"Declare many-valued relations\n\nApproved-by: {APPROVER}\n"
    done = run_git(root, "commit", "-q", "-m", message, "--", "memory/config.yaml")
    if done.returncode != 0:
        raise RuntimeError(f"git commit failed: {done.stderr.strip()}")


def tell(root: Path, told: Told, ids: dict[str, str]) -> str:
    """Write one event through memrepo.facts.writes; its id."""

    subject, relation = (told.spelled or told.key).split(".", 1) if told.key else ("", "")
    session, source = told.session, "conversation"
    if told.op == "assert":
        def remember(subject: str, relation: str) -> WriteResult:
            return writes.remember(root, scope=SCOPE, subject=subject, relation=relation,
                                   object=told.object or "", valid_from=told.valid,
                                   quote=told.quote, session=session, source=source)

        result = remember(subject, relation)
        if told.spelled:  # the write gate answers; the agent writes under the key it names
            named = [f"{s.subject}.{s.relation}" for s in result.similar]
            if result.status != "similar_key" or named != [told.key]:
                raise RuntimeError(f"history event {told.name}: the write gate did not "
                                   f"name {told.key} ({result.status})")
            result = remember(*told.key.split(".", 1))
    elif told.op == "end":
        result = writes.forget(root, scope=SCOPE, subject=subject, relation=relation,
                               reason=told.reason or "", valid_to=told.valid,
                               session=session, source=source)
    else:
        result = writes.retract(root, scope=SCOPE, target=ids[told.target or ""],
                                reason=told.reason or "", session=session, source=source)
    if result.status != "added" or result.id is None:
        raise RuntimeError(f"history event {told.name} wrote nothing ({result.status})")
    return result.id


def flat_store(history: Sequence[Told]) -> dict[str, str]:
    """Key → last value written: what a memory that overwrites is left holding."""
    store: dict[str, str] = {}
    for told in history:
        if told.op == "assert":  # (no write gate: a near key is another key)
            store[told.spelled or told.key] = told.object or ""
        elif told.op == "end":
            store.pop(told.key, None)
        else:  # a retract: the overwritten value is gone, so the key can only be dropped
            wrong = next(t for t in history if t.name == told.target)
            if store.get(wrong.key) == wrong.object:
                del store[wrong.key]
    return store


# --- running and reporting -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Result:
    variant: str
    question: Question
    answer: str
    correct: bool
    tokens: int
    seconds: float


def ask_all(variant: Variant, questions: Sequence[Question]) -> list[Result]:
    results = []
    with pinned({"MEMREPO_NOW": NOW}):
        for q in questions:
            started = time.perf_counter()
            answer = variant.answer(q)
            seconds = time.perf_counter() - started
            judge = getattr(variant, "judge", None)
            correct = (judge(q, answer.text) if judge is not None
                       else is_correct(q.expected, answer.text, q.many))
            results.append(Result(variant.name, q, answer.text, correct,
                                  estimate_tokens(answer.context), seconds))
    return results


@dataclass(frozen=True, slots=True)
class Poisoning:
    scope: str
    confidence: float
    in_host_recall: bool
    in_host_context: bool
    memory_md_loads_it: bool
    flat_store_returns_it: bool


def poison(root: Path, budget: int) -> Poisoning:
    """An untrusted session remembers an instruction; who ends up serving it?"""

    subject, relation, value = story.POISON
    key = f"{subject}.{relation}"
    with pinned({**IDENTITY, "MEMREPO_NOW": NOW}):
        writes.remember(root, scope=SCOPE, subject=subject, relation=relation, object=value,
                        quote=value, source="web", session="web-form", trust="untrusted")
        memory = Memory(root)
        landed = memory.recall(write_scope(SCOPE, UNTRUSTED), subject=subject,
                               relation=relation).facts[0]
        host = memory.recall(SCOPE, subject=subject, relation=relation)
        block = build_context(root, SCOPE, POISON_QUESTION, budget).text
    probe = Question("P01", POISON_QUESTION, key, NOT_RECORDED)
    edited = story.MEMORY_MD + f"- {story.MEMORY_MD_LABELS[key]}: {value}\n"
    flat = {**flat_store(story.HISTORY), key: value}
    return Poisoning(landed.scope, landed.confidence,
                     any(value in f.object for f in host.facts), value in block,
                     value in MemoryFileVariant(edited).answer(probe).context,
                     FlatVariant(flat).answer(probe).text == value)


@dataclass(frozen=True, slots=True)
class Report:
    results: list[Result]
    poisoning: Poisoning
    changes: int
    varied: list[VariedResult]


def run_benchmark(root: Path, budget: int = DEFAULT_BUDGET,
                  ask: Callable[[str, str], str] | None = None) -> Report:
    """Build the memory at `root` (a new directory), ask every variant, poison it; then
    import the demo memory's notes and facts and the Polish and Slovak histories beside
    the story and ask the varied set."""

    build_memory(root)
    oracle = MemrepoVariant(root, budget)
    base: list[Variant] = [AskedVariant(root), ContextVariant(root, budget, oracle), oracle,
                           MemoryFileVariant(story.MEMORY_MD),
                           FlatVariant(flat_store(story.HISTORY))]
    variants = base + ([ModelVariant(v, ask) for v in base] if ask else [])
    results = [r for variant in variants for r in ask_all(variant, story.QUESTIONS)]
    with pinned({"MEMREPO_NOW": NOW}):
        changes = count_changes(oracle)
    poisoning = poison(root, budget)
    imported = "2026-10-15T12:00:00Z"  # after every imported event (the demo's end in October)
    with pinned({**IDENTITY, "GIT_AUTHOR_DATE": imported, "GIT_COMMITTER_DATE": imported}):
        install_demo_memory(root, APPROVER)
        import_histories(root)
    varied = run_varied(root, pinned)
    return Report(results, poisoning, changes, varied)


def count_changes(memrepo: MemrepoVariant) -> int:
    """Value changes during 2026 (a first value is not a change) over every key told."""
    start, end = parse_instant(story.BEFORE_HISTORY), parse_instant(NOW)
    keys = dict.fromkeys(t.key for t in story.HISTORY if t.key)
    return sum(1 for key in keys
               for _, old, _ in value_changes(memrepo.intervals(*key.split(".", 1)),
                                              start, end) if old)


def render_table(results: Sequence[Result]) -> str:
    head = " | ".join(f"{c} {label}" for c, label in story.CATEGORIES.items())
    lines = [f"| variant | {head} | total | tokens/question | ms/question |",
             "|---" * (len(story.CATEGORIES) + 4) + "|"]
    for name in dict.fromkeys(r.variant for r in results):
        mine = [r for r in results if r.variant == name]
        cells = [_score([r for r in mine if r.question.category == c])
                 for c in story.CATEGORIES]
        tokens = sum(r.tokens for r in mine) / len(mine)
        millis = 1000 * sum(r.seconds for r in mine) / len(mine)
        lines.append(f"| {name} | {' | '.join(cells)} | {_score(mine)} | {tokens:.0f} | "
                     f"{millis:.1f} |")
    return "\n".join(lines)


def _score(results: Sequence[Result]) -> str:
    return f"{sum(r.correct for r in results)}/{len(results)}"


def render_poisoning(p: Poisoning) -> str:
    subject, relation, value = story.POISON
    yes_no = {True: "yes", False: "no"}
    return "\n".join([
        f"Poisoning: an untrusted session remembers {subject}.{relation} = {value!r}",
        "| variant | landed in | confidence | in host recall | in host context |",
        "|---|---|---|---|---|",
        f"| memrepo | {p.scope} | {p.confidence:g} | {yes_no[p.in_host_recall]} | "
        f"{yes_no[p.in_host_context]} |",
        f"| MEMORY.md | the file itself | no notion of trust | "
        f"{yes_no[p.memory_md_loads_it]} | {yes_no[p.memory_md_loads_it]} (whole file) |",
        f"| flat store | the store itself | no notion of trust | "
        f"{yes_no[p.flat_store_returns_it]} | {yes_no[p.flat_store_returns_it]} |",
    ])


CSV_FIELDS = ("variant", "id", "category", "question", "expected", "answer", "correct",
              "context_tokens", "seconds")


def write_csv(results: Sequence[Result], path: Path) -> None:
    """One row per question × variant, written whole or not at all."""
    partial = path.with_name(path.name + ".partial")
    with partial.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(CSV_FIELDS)
        for r in results:
            q = r.question
            writer.writerow([r.variant, q.qid, story.CATEGORIES[q.category], q.text,
                             q.expected, r.answer, "yes" if r.correct else "no", r.tokens,
                             f"{r.seconds:.6f}"])
    partial.replace(path)


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="memrepo bench memory",
        description="Recall quality: 68 questions over an eight-month synthetic history, "
                    "asked as written through memrepo's free-text recall and context block, "
                    "beside memrepo handed the key (oracle), a MEMORY.md file and a flat "
                    "key-value store; a poisoning attempt; then 111 varied questions "
                    "(paraphrases, misspellings, Polish, Slovak, dates, refusals, notes) by "
                    "kind and held-out half. Prints the tables and writes a CSV.")
    parser.add_argument("--csv", type=Path, default=Path("bench-memory.csv"), metavar="FILE",
                        help="one row per question and variant (default ./bench-memory.csv)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help="build the memory repository here (a new directory; kept)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the temporary memory repository and print its path")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, metavar="TOKENS",
                        help=f"context block budget (default {DEFAULT_BUDGET})")
    parser.add_argument("--endpoint", metavar="URL",
                        help="also ask an OpenAI-compatible chat model (needs --model)")
    parser.add_argument("--model", metavar="M", help="the model name for --endpoint")
    parser.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                        help="per model request (default 60)")
    args = parser.parse_args(argv)
    if bool(args.endpoint) != bool(args.model):
        parser.error("--endpoint and --model go together")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """`memrepo bench memory [options]` (the options are this module's, see --help)."""

    args = parse_args(argv)
    ask = model_asker(args.endpoint, args.model, args.timeout) if args.endpoint else None
    parent = None if args.dir else Path(tempfile.mkdtemp(prefix="memrepo-bench-memory-"))
    root = args.dir or (parent or Path()) / "memory-repo"
    try:
        report = run_benchmark(root, args.budget, ask)
    finally:
        if parent is not None and not args.keep:
            shutil.rmtree(parent, ignore_errors=True)
    print(f"memrepo bench memory: {len(story.QUESTIONS)} questions over "
          f"{len(story.HISTORY)} events ({report.changes} value changes), scope {SCOPE}, "
          f"now = {NOW}\n")
    print(render_table(report.results) + "\n")
    print(f"Varied questions ({len(report.varied)}: paraphrases, misspellings, Polish and "
          "Slovak, dates and periods, refusals, knowledge only in notes) asked through "
          "free-text recall, by kind; 'dev' questions were looked at while tuning, 'held "
          "out' ones were not:\n")
    print(render_varied(report.varied) + "\n")
    print(render_poisoning(report.poisoning) + "\n")
    write_csv(report.results, args.csv)
    print(f"CSV: {args.csv}" + (f"\nMemory repository: {root}" if args.keep or args.dir
                                 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
