"""`memrepo bench perf`: the rebuild, recall, suggestion and search rows."""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.core.text import fold

from ..measure import (
    ProcessRun,
    Row,
    Target,
    median,
    missing,
    percentile,
    process_times,
    run_process,
    time_calls,
)

if TYPE_CHECKING:
    from memrepo.agent.api import Memory


from memrepo.agent.api import Memory
from memrepo.cache import cache_path
from memrepo.cache.build import BUILD_POSTINGS_BYTES

from .common import NO_FACTS, Corpus, Settings, cli, failed
from .floor import corpus_from

# --- rows ---------------------------------------------------------------------------------

def rebuild_rows(root: Path, work: Path) -> tuple[list[Row], Corpus]:
    floor_db = work / "floor.sqlite"
    code = ("import sys; from pathlib import Path; from memrepo.bench.perf.floor import "
            "floor_build; floor_build(Path(sys.argv[1]), Path(sys.argv[2]))")
    floor = run_process([sys.executable, "-c", code, str(root), str(floor_db)])
    if not floor.ok:
        raise RuntimeError(f"the floor build failed: {floor.stderr}")
    corpus = corpus_from(floor_db, random.Random(1))
    ratio, memory = Target("ratio_max", 1.5, "ratio ≤ 1.5"), Target("max", 2**30, "≤ 1 GiB")
    run = run_process(cli(root, "cache", "rebuild"))
    if not run.ok:
        return [failed("cache rebuild (whole process)", run, ratio)], corpus
    return [Row("cache rebuild (whole process)", run.seconds, "s", floor.seconds,
                "raw parse + insert, whole process", ratio),
            Row("cache rebuild, CPU seconds (process + its workers)", run.cpu, "s",
                floor.cpu, "floor process CPU"),
            Row("peak RSS of the rebuild", run.peak_rss, "MiB", floor.peak_rss,
                "floor process", memory)], corpus


FULL_TEXT_LABEL = ("SQLite full-text indexing of the same texts alone, CPU (into empty FTS5 "
                   "tables)")


def full_text_row(root: Path, floor_cpu: float | None) -> Row:
    """The CPU SQLite spends indexing the cache's texts alone, measured in a process of its
    own at the end of a run: its 700 MB file (at 100k notes) would push the repository out
    of the page cache under the rows measured after it."""

    with tempfile.TemporaryDirectory(prefix="memrepo-bench-fts-") as work:
        code = ("import sys; from pathlib import Path; from memrepo.bench.perf.floor import "
                "full_text_seconds; print(full_text_seconds(Path(sys.argv[1]), "
                "Path(sys.argv[2]), int(sys.argv[3])))")
        done = run_process([sys.executable, "-c", code, str(cache_path(root)),
                            str(Path(work) / "full-text.sqlite"), str(BUILD_POSTINGS_BYTES)])
    if not done.ok:
        return failed(FULL_TEXT_LABEL, done, Target("none"))
    return Row(FULL_TEXT_LABEL, float(done.stdout.split()[-1]), "s", floor_cpu,
               "floor process CPU")


def recall_rows(root: Path, corpus: Corpus, settings: Settings, rng: random.Random) -> list[Row]:
    in_process, cli_target = Target("max", 0.001, "p99 ≤ 1 ms"), Target("max", 0.2, "≤ 0.2 s")
    if not corpus.keys:
        return [missing("recall by key, in-process p50", NO_FACTS, in_process),
                missing("recall by key, in-process p99", NO_FACTS, in_process)]

    memory = Memory.open(root)
    calls = [_recall_call(memory, rng.choice(corpus.keys), rng)
             for _ in range(settings.recall_samples)]
    calls[0]()  # opens (and if needed syncs) the cache once
    samples = [time_calls(call, 1)[0] for call in calls]
    rows = [Row("recall by key, in-process p50", percentile(samples, 50), "s"),
            Row("recall by key, in-process p99", percentile(samples, 99), "s",
                target=in_process)]
    return rows + recall_cli_rows(root, corpus, settings, rng, cli_target)


def _recall_call(memory: Memory, key: tuple[str, str, str],
                 rng: random.Random) -> Callable[[], object]:
    as_of = _random_day(rng) if rng.random() < 0.7 else None
    known_at = _random_day(rng) if rng.random() < 0.5 else None
    scope, subject, relation = key
    return lambda: memory.recall(scope, subject=subject, relation=relation, as_of=as_of,
                                 known_at=known_at)


def _random_day(rng: random.Random) -> str:
    return f"{rng.randint(2023, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"


def recall_cli_rows(root: Path, corpus: Corpus, settings: Settings, rng: random.Random,
                    target: Target) -> list[Row]:
    floor = process_times([sys.executable, "-c", "pass"], settings.cli_runs)
    assert isinstance(floor, list)
    scope, subject, relation = rng.choice(corpus.keys)
    args = ("recall", "--scope", scope, "--subject", subject, "--relation", relation, "--json")
    launchers = {"python -m memrepo": cli(root, *args)}
    script = shutil.which("memrepo")
    if script:
        launchers["memrepo script"] = [script, "--repo", str(root), *args]
    rows = []
    for label, command in launchers.items():
        samples = process_times(command, settings.cli_runs)
        if isinstance(samples, ProcessRun):
            rows.append(failed(f"recall CLI ({label})", samples, target))
            continue
        for q in (50, 99):
            rows.append(Row(f"recall CLI ({label}) p{q}", percentile(samples, q), "s",
                            percentile(floor, q), "python -c pass", target))
    return rows + suggestion_rows(root, (scope, subject, relation), settings, rng)


def suggestion_rows(root: Path, key: tuple[str, str, str], settings: Settings,
                    rng: random.Random) -> list[Row]:
    """"Did you mean": recall of a misspelt subject (answered `not_recorded` with the
    closest recorded subjects) beside recall of the same key spelt right, both whole
    `python -m memrepo` processes, interleaved; their difference is what the suggestions
    cost a fresh process."""
    scope, subject, relation = key
    asked = {name: cli(root, "recall", "--scope", scope, "--subject", spelt, "--relation",
                       relation, "--json")
             for name, spelt in (("right", subject), ("misspelt", _misspelt(subject, rng)))}
    samples: dict[str, list[float]] = {"right": [], "misspelt": []}
    for _ in range(settings.cli_runs):
        for name, command in asked.items():
            run = run_process(command)
            if not run.ok:
                return [failed(f"recall CLI, {name} subject", run, Target("none"))]
            samples[name].append(run.seconds)
    right, misspelt = median(samples["right"]), median(samples["misspelt"])
    return [Row("recall CLI of a misspelt subject (\"did you mean\"), p50", misspelt, "s",
                right, "the same key spelt right"),
            Row("\"did you mean\" in a fresh process (difference)", misspelt - right, "s",
                target=Target("max", 0.02, "≤ 20 ms"))]


def search_queries(corpus: Corpus, count: int, rng: random.Random) -> list[str]:
    """Names as written, the same without diacritics, body words, and misspelt names."""
    names = [n for n in corpus.names if fold(n) != n.lower()] or corpus.names or ["nothing"]
    words = corpus.words or ["nothing"]
    queries = []
    for number in range(count):
        name = rng.choice(names)
        kind = number % 4
        if kind == 0:
            queries.append(name)
        elif kind == 1:
            queries.append(fold(name))
        elif kind == 2:
            queries.append(rng.choice(words))
        else:
            queries.append(_misspell(name, rng))
    return queries


def _misspell(text: str, rng: random.Random) -> str:
    position = rng.randrange(1, max(2, len(text) - 1))
    if rng.random() < 0.5:
        return text[:position] + text[position + 1:]  # a dropped letter
    return text[:position - 1] + text[position] + text[position - 1] + text[position + 1:]


def _misspelt(text: str, rng: random.Random) -> str:
    """`_misspell`, but never the text itself (two equal letters swapped)."""
    spelt = _misspell(text, rng)
    return spelt if spelt != text else text[:1] + text[2:]


def search_rows(root: Path, corpus: Corpus, settings: Settings, rng: random.Random) -> list[Row]:
    speedup = Target("speedup_min", 10, "≥ 10× faster than git grep")
    p99 = Target("max", 0.020, "p99 ≤ 20 ms")

    memory = Memory.open(root)
    queries = search_queries(corpus, settings.search_queries, rng)
    memory.search(queries[0], limit=10)
    samples = [_search_seconds(memory, query) for query in queries]
    greps = [run.seconds for q in rng.sample(queries, min(len(queries), settings.grep_runs))
             if (run := _grep(root, q)).returncode in (0, 1)]  # 1: nothing matched
    floor = median(greps) if greps else None
    return [Row("search top-10, in-process p50", percentile(samples, 50), "s", floor,
                "git grep -i -c, p50", speedup),
            Row("search top-10, in-process p99", percentile(samples, 99), "s", target=p99)]


def _search_seconds(memory: Memory, query: str) -> float:
    started = time.perf_counter()
    memory.search(query, limit=10)
    return time.perf_counter() - started


def _grep(root: Path, query: str) -> ProcessRun:
    return run_process(["git", "grep", "-i", "-c", "-F", query, "--", "memory/"], cwd=root)
