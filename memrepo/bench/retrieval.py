"""`memrepo bench retrieval --dir REPO`: how fast retrieval from the question is, on any
memory repository (e.g. one `memrepo bench perf --dir` generated at 100k notes).

- search in-process, questions of 5, 10 and 20 words (a question frame and words of a
  random note), p50 / p99, beside the floor: plain FTS5 BM25 top 10 of one body word on
  the same cache;
- `memrepo recall` and `memrepo context` with a question, whole process, beside
  `python -c pass`;
- what question analysis adds to a process that already folds text (import of PyStemmer,
  the stop words and the date grammar, and the first question).

A whole process is measured as installed: when memrepo's modules have no bytecode (an
editable install run with PYTHONDONTWRITEBYTECODE=1), every process compiles them from
source (≈3× the import time), and the table says so.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from memrepo.answer.search import SearchQuery, search
from memrepo.bench.measure import (
    NO_BYTECODE,
    Row,
    Target,
    has_bytecode,
    median,
    percentile,
    process_times,
    render_table,
)
from memrepo.cache import open_fresh
from memrepo.cache.baseline import note_count, note_texts, one_word_top10
from memrepo.clock import now
from memrepo.config import worktree_config
from memrepo.core.text import words

FRAME = ("what", "is", "the")
SIZES = (5, 10, 20)


def questions(texts: Sequence[str], size: int, rng: random.Random) -> list[str]:
    out = []
    for text in texts:
        found = words(text)
        if found:
            picked = rng.sample(found, min(size - len(FRAME), len(found)))
            out.append(" ".join((*FRAME, *picked)) + "?")
    return out


def search_rows(root: Path, count: int, seed: int) -> list[Row]:

    conn = open_fresh(root)
    config, moment, rng = worktree_config(root), now(), random.Random(seed)
    total = note_count(conn)
    texts = note_texts(conn, [rng.randint(1, total) for _ in range(count)])
    floor_words = [rng.choice(found) for found in map(words, texts) if found]
    floor = _each(floor_words, lambda word: one_word_top10(conn, word))
    rows = []
    for size in SIZES:
        asked = questions(texts, size, rng)
        samples = _each(asked, lambda q: search(conn, SearchQuery(q, None, None, 10, moment),
                                                config))
        for name, pick in (("p50", 50.0), ("p99", 99.0)):
            target = Target("max", 0.02, "p99 ≤ 20 ms") if name == "p99" else Target("none")
            rows.append(Row(f"search, {size}-word questions, in-process {name}",
                            percentile(samples, pick), "s",
                            percentile(floor, pick), "one word, plain FTS5",
                            target if size <= 20 else Target("none")))
    conn.close()
    return rows


def _each(items: Sequence[str], action: Callable[[str], object]) -> list[float]:
    """Seconds each call of `action` took, one call per item."""
    samples = []
    for item in items:
        started = time.perf_counter()
        action(item)
        samples.append(time.perf_counter() - started)
    return samples


def process_rows(root: Path, scope: str, repeat: int) -> list[Row]:
    python = sys.executable
    floor = process_times([python, "-c", "pass"], repeat)
    rows = []
    for name, command in (
            ("recall with a question", ["recall", "--scope", scope,
                                        "How much did I pay for electricity in April?"]),
            ("context for a question", ["context", "--scope", scope,
                                        "What is the minimum order at Lodz Packaging?"])):
        times = process_times([python, "-m", "memrepo", "--repo", str(root), *command], repeat)
        if isinstance(times, list) and isinstance(floor, list):
            rows.append(Row(f"`memrepo {command[0]}` {name}, whole process p50",
                            median(times), "s", median(floor), "python -c pass",
                            Target("max", 0.2, "≤ 0.2 s")))
    folds = "from memrepo.core.text import fold; fold('Ile płacę za prąd w kwietniu?')"
    asks = folds + ("; from memrepo.answer.question import analyse; "
                    "analyse('Ile płacę za prąd w kwietniu?', 0)")
    base, full = (process_times([python, "-c", code], repeat) for code in (folds, asks))
    if isinstance(base, list) and isinstance(full, list):
        rows.append(Row("question analysis added to a process that folds text",
                        max(0.0, median(full) - median(base)), "s", None, "",
                        Target("max", 0.03, "≤ 30 ms")))
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="memrepo bench retrieval",
        description="Speed of retrieval from the question on a memory repository: search "
                    "in-process by question length, recall/context as whole processes, and "
                    "the import cost of question analysis, each beside a floor.")
    parser.add_argument("--dir", type=Path, required=True, metavar="REPO",
                        help="a memory repository (e.g. from `memrepo bench perf --dir`)")
    parser.add_argument("--scope", default="michal", help="scope for recall and context")
    parser.add_argument("--questions", type=int, default=200, metavar="N")
    parser.add_argument("--repeat", type=int, default=10, metavar="N",
                        help="runs of each whole process (default 10)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rows = [*search_rows(args.dir, args.questions, args.seed),
            *process_rows(args.dir, args.scope, args.repeat)]
    print(f"memrepo bench retrieval: {args.dir}\n")
    print(render_table(rows))
    if not has_bytecode():
        print(f"\n{NO_BYTECODE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
