"""`memrepo bench locomo --data DIR`: retrieval on LoCoMo's long conversations.

LoCoMo (Maharana et al., 2024; CC BY-NC 4.0) is read from DIR (its `locomo10.json`) and
never copied into this project. Every conversation session becomes a project note of a
new memory repository, committed through the hooks; questions go, as they are written,
through `memrepo search` and the context block. A question is answered by a session when
that session holds its evidence: session recall@1/3/10 of search, how often the block holds
an evidence session, and the block's size — beside a floor measured in the same run: plain
SQLite FTS5 BM25 over the same sessions, an OR of every folded word of the question.

Question sets (n random questions, seed 0): `all` (every category; the issue's baseline),
`answerable` (categories 1–4), `held` (categories 1–4 after each conversation's first 25:
never looked at while tuning).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from memrepo.agent.api import Memory
from memrepo.agent.context import build_context
from memrepo.answer.question import analyse
from memrepo.answer.ranking import rank_notes
from memrepo.bench.memory import pinned
from memrepo.cache import open_fresh
from memrepo.cache.baseline import Baseline
from memrepo.cache.fulltext import note_names
from memrepo.clock import now
from memrepo.core.context_block import json_quoted
from memrepo.git.command import run_git
from memrepo.maintenance.indexes import regenerate_indexes
from memrepo.maintenance.init import create_memory_repo

DEFAULT_DATA = Path("../shared/eval-data/locomo")
DATA_FILE = "locomo10.json"
SCOPE = "locomo"
KS = (1, 3, 10)
APPROVER = "Bench Runner <bench@example.com>"
IDENTITY = {"GIT_AUTHOR_NAME": "Bench Runner", "GIT_AUTHOR_EMAIL": "bench@example.com",
            "GIT_COMMITTER_NAME": "Bench Runner", "GIT_COMMITTER_EMAIL": "bench@example.com"}


@dataclass(frozen=True, slots=True)
class Session:
    name: str  # note name: <sample>-session-<n>
    description: str
    body: str


@dataclass(frozen=True, slots=True)
class Asked:
    text: str
    gold: frozenset[str]  # note names holding the evidence
    category: str
    conversation: str
    order: int  # position among its conversation's questions


def load(data: Path) -> tuple[list[Session], list[Asked]]:
    """Sessions and questions with evidence from LoCoMo's JSON (image captions left out)."""
    path = data / DATA_FILE if data.is_dir() else data
    samples = json.loads(path.read_text(encoding="utf-8"))
    sessions: list[Session] = []
    asked: list[Asked] = []
    for sample in samples:
        conversation, sid = sample["conversation"], _slug(str(sample["sample_id"]))
        a, b = conversation["speaker_a"], conversation["speaker_b"]
        for key, turns in conversation.items():
            match = re.fullmatch(r"session_(\d+)", key)
            if match is None or not isinstance(turns, list):
                continue
            when = conversation.get(f"{key}_date_time", "")
            body = "\n".join(f"{turn['speaker']}: {turn['text']}" for turn in turns)
            sessions.append(Session(f"{sid}-session-{match[1]}",
                                    f"Conversation between {a} and {b} on {when}", body))
        for order, qa in enumerate(sample["qa"]):
            gold = frozenset(f"{sid}-session-{e.strip().split(':')[0][1:]}"
                             for e in qa.get("evidence", [])
                             if re.fullmatch(r"D\d+:\d+", e.strip()))
            if gold:
                asked.append(Asked(qa["question"], gold, str(qa["category"]), sid, order))
    return sessions, asked


def choose(asked: Sequence[Asked], which: str, n: int, seed: int = 0) -> list[Asked]:
    answerable = [q for q in asked if q.category in ("1", "2", "3", "4")]
    pool = {"all": list(asked), "answerable": answerable,
            "held": [q for q in answerable if _rank_in(answerable, q) >= 25]}[which]
    return random.Random(seed).sample(pool, min(n, len(pool)))


def _rank_in(pool: Sequence[Asked], q: Asked) -> int:
    return sum(1 for other in pool if other.conversation == q.conversation
               and other.order < q.order)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


# --- the memory repository ------------------------------------------------------------------

def build_repository(root: Path, sessions: Sequence[Session]) -> None:
    """A new memory repository with one project note per session, committed through the
    hooks (the index regenerated first, as a person would)."""

    with pinned(IDENTITY):
        create_memory_repo(root, APPROVER)
        folder = root / "memory" / "project"
        for session in sessions:
            description = json.dumps(session.description, ensure_ascii=False)
            (folder / f"{session.name}.md").write_text(
                f"---\nname: {session.name}\ndescription: {description}\ntype: project\n"
                f"---\n{session.body}\n", encoding="utf-8")
        regenerate_indexes(root, full=True)
        run_git(root, "add", "memory")
        done = run_git(root, "commit", "-q", "-m", "LoCoMo sessions as project notes")
        if done.returncode != 0:
            raise RuntimeError(f"the hooks refused the sessions: {done.stdout}{done.stderr}")


# --- running --------------------------------------------------------------------------------

@dataclass
class Scores:
    hits: dict[int, int]
    context_hits: int = 0
    context_tokens: int = 0
    seconds: float = 0.0


def recall_at(scores: Scores, ranked: Sequence[str], gold: frozenset[str]) -> None:
    for k in KS:
        scores.hits[k] += bool(gold & set(ranked[:k]))


def run(root: Path, sessions: Sequence[Session], chosen: Sequence[Asked], budget: int,
        ) -> tuple[Scores, Scores, Scores]:

    memory = Memory(root)
    conn = open_fresh(root)
    ours, floor = Scores(dict.fromkeys(KS, 0)), Scores(dict.fromkeys(KS, 0))
    ranking = Scores(dict.fromkeys(KS, 0))
    plain = Baseline([(s.name, s.description, s.body) for s in sessions])
    for q in chosen:
        started = time.perf_counter()
        found = memory.search(q.text, category="project", limit=10)
        ours.seconds += time.perf_counter() - started
        recall_at(ours, [hit.name or "" for hit in found.results], q.gold)
        started = time.perf_counter()
        hits = rank_notes(conn, analyse(q.text, now())).hits
        ranking.seconds += time.perf_counter() - started
        names = note_names(conn, [hit.rowid for hit in hits])
        recall_at(ranking, [names[hit.rowid] for hit in hits], q.gold)
        block = build_context(root, SCOPE, q.text, budget)
        ours.context_tokens += block.tokens
        ours.context_hits += any(f"- [project] {json_quoted(name)}:" in block.text
                                 for name in q.gold)  # a note's name is quoted as data
        started = time.perf_counter()
        ranked = plain.ranking(q.text)
        floor.seconds += time.perf_counter() - started
        recall_at(floor, ranked, q.gold)
    conn.close()
    plain.close()
    return ours, ranking, floor


def render(ours: Scores, ranking: Scores, floor: Scores, n: int, budget: int) -> str:
    def row(name: str, s: Scores, context: bool) -> str:
        cells = [f"{s.hits[k] / n:.3f}" for k in KS]
        ctx = (f"{s.context_hits / n:.3f} | {s.context_tokens / n:.0f}" if context
               else "— | —")
        return f"| {name} | {' | '.join(cells)} | {ctx} | {1000 * s.seconds / n:.1f} |"

    return "\n".join([
        f"| ranking | R@1 | R@3 | R@10 | evidence in context block ({budget} tokens) | "
        "block tokens/question | ms/question |",
        "|---|---|---|---|---|---|---|",
        row("memrepo search (question as asked)", ours, True),
        row("its ranking before the 'not recorded' threshold", ranking, False),
        row("floor: plain FTS5 BM25, OR of the words", floor, False)])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="memrepo bench locomo",
        description="Session recall on LoCoMo (read from --data, never copied): every "
                    "session a project note committed through the hooks, each question "
                    "through search and the context block, beside a plain FTS5 BM25 floor "
                    "built in the same run.")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, metavar="DIR",
                        help=f"LoCoMo's folder or {DATA_FILE} (default {DEFAULT_DATA}; "
                             "CC BY-NC: it stays where it is)")
    parser.add_argument("--set", choices=("all", "answerable", "held"), default="all",
                        help="which questions (default all: every category)")
    parser.add_argument("--questions", type=int, default=250, metavar="N",
                        help="how many, drawn at random with --seed (default 250)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=int, default=1500, metavar="TOKENS",
                        help="context block budget (default 1500)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help="build the memory repository here (a new directory; kept)")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    path = args.data / DATA_FILE if args.data.is_dir() else args.data
    if not path.is_file():
        print(f"{path}: no LoCoMo data here\n  To fix: give --data the folder holding "
              f"{DATA_FILE}", file=sys.stderr)
        return 2
    sessions, asked = load(args.data)
    chosen = choose(asked, args.set, args.questions, args.seed)
    parent = None if args.dir else Path(tempfile.mkdtemp(prefix="memrepo-bench-locomo-"))
    root = args.dir or (parent or Path()) / "memory-repo"
    try:
        started = time.perf_counter()
        build_repository(root, sessions)
        built = time.perf_counter() - started
        ours, ranking, floor = run(root, sessions, chosen, args.budget)
    finally:
        if parent is not None:
            shutil.rmtree(parent, ignore_errors=True)
    print(f"memrepo bench locomo: {len(sessions)} sessions as notes (committed through the "
          f"hooks in {built:.1f} s), {len(chosen)} questions (set {args.set}, seed "
          f"{args.seed})\n")
    print(render(ours, ranking, floor, len(chosen), args.budget))
    return 0


if __name__ == "__main__":
    sys.exit(main())
