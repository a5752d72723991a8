"""Performance benchmark (issue 2, 3, 6): `memrepo bench perf`.

Builds (or reuses, `--dir`) a synthetic memory repository and prints one markdown table:
each figure beside a floor measured in the same run — the least work that could produce
the same answer — and their ratio. The floor of a rebuild is raw parsing into plain SQLite
tables (`floor_build`): deliberately not memrepo's cache, so its SQL lives here.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.core.config import CATEGORIES
from memrepo.core.text import fold
from memrepo.progress import task

from .measure import (
    NO_BYTECODE,
    ProcessRun,
    Row,
    Target,
    has_bytecode,
    median,
    missing,
    percentile,
    process_times,
    render_table,
    run_process,
    time_calls,
)

if TYPE_CHECKING:
    from memrepo.agent.api import Memory

FLOOR_EVENT_FIELDS = ("id", "op", "recorded_at", "scope", "subject", "relation", "object",
                      "valid_from", "valid_to", "target", "confidence", "source", "session",
                      "quote", "reason", "trust")
NO_HOOKS = ("-c", "core.hooksPath=/dev/null")
NO_FACTS = "n/a (no facts in the repository)"


@dataclass(frozen=True)
class Settings:
    rounds: int = 3  # repetitions of git scenarios (checkout, commit)
    recall_samples: int = 1000
    search_queries: int = 200
    cli_runs: int = 20
    grep_runs: int = 8
    remember_commits: int = 30
    batch_facts: int = 10_000
    segment_lines: tuple[int, ...] = (1_000, 20_000)  # single writes at these segment sizes


QUICK = Settings(rounds=1, recall_samples=60, search_queries=24, cli_runs=3, grep_runs=2,
                 remember_commits=4, batch_facts=500, segment_lines=(100, 1_000))


@dataclass
class Corpus:
    """What the benchmark queries: sampled from the repository itself (so `--dir` works)."""

    keys: list[tuple[str, str, str]] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # aliases as written (diacritics kept)
    words: list[str] = field(default_factory=list)  # words that occur in bodies
    notes: list[str] = field(default_factory=list)  # repo paths of entity notes


# --- the floor of a rebuild: raw parse + insert ---------------------------------------------

def floor_build(root: Path, target: Path) -> None:
    """orjson every log line, YAML every note header, executemany into plain tables: no
    FTS, no folding, no bitemporal fold. The least a cache build must do."""
    import orjson
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    conn = sqlite3.connect(target)
    conn.executescript(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
        "CREATE TABLE notes(path, category, name, description, aliases, body);"
        f"CREATE TABLE events({', '.join(FLOOR_EVENT_FIELDS)});")
    for category in CATEGORIES:
        rows = []
        for path in sorted((root / "memory" / category).glob("*.md")):
            if path.name == "INDEX.md":
                continue
            _, header, body = path.read_text(encoding="utf-8").split("---\n", 2)
            meta = yaml.load(header, Loader=loader)
            rows.append((str(path.relative_to(root)), category, meta.get("name"),
                         meta.get("description"), orjson.dumps(meta.get("aliases", [])), body))
        conn.executemany("INSERT INTO notes VALUES (?,?,?,?,?,?)", rows)
    marks = ",".join("?" * len(FLOOR_EVENT_FIELDS))
    for scope in sorted((root / "memory" / "facts").iterdir()):
        rows = []
        for segment in sorted(scope.glob("*.jsonl")):
            for line in segment.read_bytes().splitlines():
                event = orjson.loads(line)
                rows.append(tuple(event.get(name) for name in FLOOR_EVENT_FIELDS))
        conn.executemany(f"INSERT INTO events VALUES ({marks})", rows)
    conn.commit()
    conn.close()


def corpus_from(db: Path, rng: random.Random) -> Corpus:
    conn = sqlite3.connect(db)
    keys = conn.execute("SELECT DISTINCT scope, subject, relation FROM events "
                        "WHERE op = 'assert'").fetchall()
    notes = conn.execute("SELECT path, aliases, body FROM notes WHERE category = 'entities'"
                         ).fetchall()
    conn.close()
    names = sorted({alias for _, aliases, _ in notes for alias in json.loads(aliases)})
    sample = rng.sample(notes, min(len(notes), 300))
    words = sorted({word for _, _, body in sample for word in body.split()
                    if word.isalpha() and len(word) >= 7})
    return Corpus(keys=[tuple(k) for k in rng.sample(keys, min(len(keys), 5000))],
                  names=names, words=words, notes=[path for path, _, _ in notes])


# --- command lines ------------------------------------------------------------------------

def cli(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "memrepo", "--repo", str(root), *args]


def git(root: Path, *args: str, hooks: bool = False) -> ProcessRun:
    run = run_process(["git", *(() if hooks else NO_HOOKS), *args], cwd=root)
    if not run.ok:
        raise RuntimeError(f"git {' '.join(args)} failed: {run.stderr.strip()}")
    return run


def _failed(metric: str, run: ProcessRun, target: Target) -> Row:
    reason = (run.stderr.strip() or run.stdout.strip()).splitlines()[-1:] or ["no output"]
    return missing(metric, f"failed (exit {run.returncode}): {reason[0][:120]}", target)


# --- rows ---------------------------------------------------------------------------------

def rebuild_rows(root: Path, work: Path) -> tuple[list[Row], Corpus]:
    floor_db = work / "floor.sqlite"
    code = ("import sys; from pathlib import Path; from memrepo.bench.perf import "
            "floor_build; floor_build(Path(sys.argv[1]), Path(sys.argv[2]))")
    floor = run_process([sys.executable, "-c", code, str(root), str(floor_db)])
    if not floor.ok:
        raise RuntimeError(f"the floor build failed: {floor.stderr}")
    corpus = corpus_from(floor_db, random.Random(1))
    ratio, memory = Target("ratio_max", 1.5, "ratio ≤ 1.5"), Target("max", 2**30, "≤ 1 GiB")
    run = run_process(cli(root, "cache", "rebuild"))
    if not run.ok:
        return [_failed("cache rebuild (whole process)", run, ratio)], corpus
    return [Row("cache rebuild (whole process)", run.seconds, "s", floor.seconds,
                "raw parse + insert, whole process", ratio),
            Row("cache rebuild, CPU seconds (process + its workers)", run.cpu, "s",
                floor.cpu, "floor process CPU"),
            Row("peak RSS of the rebuild", run.peak_rss, "MiB", floor.peak_rss,
                "floor process", memory)], corpus


def recall_rows(root: Path, corpus: Corpus, settings: Settings, rng: random.Random) -> list[Row]:
    in_process, cli_target = Target("max", 0.001, "p99 ≤ 1 ms"), Target("max", 0.2, "≤ 0.2 s")
    if not corpus.keys:
        return [missing("recall by key, in-process p50", NO_FACTS, in_process),
                missing("recall by key, in-process p99", NO_FACTS, in_process)]
    from memrepo.agent.api import Memory

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
            rows.append(_failed(f"recall CLI ({label})", samples, target))
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
                return [_failed(f"recall CLI, {name} subject", run, Target("none"))]
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
    from memrepo.agent.api import Memory

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


# --- git scenarios: checkout + sync, commit + hooks ------------------------------------------

def edit_notes(root: Path, paths: list[str], tag: str, describe_first: bool = False,
               ) -> list[str]:
    """Append a line to each note's body; optionally change the first note's description
    (and regenerate its INDEX.md) so the index check has real work. Returns changed paths."""
    for path in paths:
        with (root / path).open("a", encoding="utf-8") as handle:
            handle.write(f"- Benchmark edit: {tag}.\n")
    if not (describe_first and paths):
        return list(paths)
    return [*paths, _redescribe(root, paths[0], tag)]


def _redescribe(root: Path, path: str, tag: str) -> str:
    from memrepo.core.index_file import parse_index, render_index

    category, name = path.split("/")[1], Path(path).stem
    index_path = f"memory/{category}/INDEX.md"
    index = parse_index(category, (root / index_path).read_bytes())
    if isinstance(index, list):
        raise RuntimeError(f"{index_path} is not a generated index: {index[0].render()}")
    descriptions = {line.name: line.description for line in index.lines}
    descriptions[name] = f"{descriptions[name]} (revised: {tag})"
    note = root / path
    lines = note.read_text(encoding="utf-8").split("\n")
    number = next(i for i, line in enumerate(lines) if line.startswith("description:"))
    lines[number] = "description: " + json.dumps(descriptions[name], ensure_ascii=False)
    note.write_text("\n".join(lines), encoding="utf-8")
    (root / index_path).write_text(render_index(category, descriptions), encoding="utf-8")
    return index_path


def append_event(root: Path, rng: random.Random) -> str:
    """Append one assert to the newest segment of a scope, one second after its last line."""
    import calendar

    import orjson

    from memrepo.core.log_lines import event_to_json

    from .synth import event_id

    scope = rng.choice(sorted(p for p in (root / "memory" / "facts").iterdir()))
    segment = sorted(scope.glob("*.jsonl"))[-1]
    last = orjson.loads(segment.read_bytes().splitlines()[-1])
    at = calendar.timegm(time.strptime(last["recorded_at"][:19], "%Y-%m-%dT%H:%M:%S")) + 1
    event = {"id": event_id(rng, at), "op": "assert",
             "recorded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at)),
             "scope": scope.name, "subject": "bench-subject", "relation": "status",
             "object": f"checked {at}", "valid_from": last["recorded_at"][:10],
             "confidence": 1.0, "trust": "host", "source": "manual", "session": "bench"}
    with segment.open("ab") as handle:
        handle.write(event_to_json(event))
    return segment.relative_to(root).as_posix()


def head(root: Path) -> str:
    return git(root, "rev-parse", "HEAD").stdout.strip()


def sync_rows(root: Path, corpus: Corpus, settings: Settings, rng: random.Random) -> list[Row]:
    target = Target("max", 0.15, "≤ 0.15 s")
    branch = git(root, "symbolic-ref", "--short", "HEAD").stdout.strip()
    base = head(root)
    git(root, "checkout", "-q", "-b", "bench-sync")
    paths = [*edit_notes(root, rng.sample(corpus.notes, 9), "sync"), append_event(root, rng)]
    git(root, "add", "--", *paths)
    git(root, "commit", "-q", "--no-verify", "-m", "bench: change 10 files")
    other = head(root)
    try:
        return _measure_sync(root, settings, branch, (base, other), target)
    finally:
        git(root, "checkout", "-q", branch)
        git(root, "branch", "-q", "-D", "bench-sync")


REFRESH = ("-m", "memrepo.scripts.refresh_cache", "--quiet", "--hook")
"""What the post-checkout, post-merge and post-rewrite hooks run."""


def _measure_sync(root: Path, settings: Settings, branch: str, commits: tuple[str, str],
                  target: Target) -> list[Row]:
    git(root, "checkout", "-q", branch)
    run_process(cli(root, "cache", "sync", "--quiet"))
    refresh = [sys.executable, *REFRESH, "--repo", str(root)]
    plain, syncs, forced = [], [], []
    for _ in range(settings.rounds):
        for name in ("bench-sync", branch):
            plain.append(git(root, "checkout", "-q", name).seconds)
            run = run_process(refresh)
            if not run.ok:
                return [_failed("cache sync after a 10-file checkout", run, target)]
            syncs.append(run.seconds)
    for _ in range(settings.rounds):
        for name in ("bench-sync", branch):
            git(root, "checkout", "-q", name)
            forced.append(run_process(cli(root, "cache", "sync", "--quiet")).seconds)
    floor = median([git(root, "diff", "--name-status", *commits).seconds for _ in range(5)])
    rows = [Row("cache sync after a 10-file checkout (the hooks' refresh, whole process)",
                median(syncs), "s", floor, "git diff --name-status", target),
            Row("memrepo cache sync after it (also scans the work tree)", median(forced), "s",
                floor, "git diff --name-status")]
    if (root / ".git" / "hooks" / "post-checkout").exists():
        hooked = [git(root, "checkout", "-q", name, hooks=True).seconds
                  for _ in range(settings.rounds) for name in ("bench-sync", branch)]
        rows.append(Row("git checkout of 10 files with the post-checkout hook",
                        median(hooked), "s", median(plain), "checkout without hooks"))
        rows.append(Row("post-checkout hook cost (difference)",
                        median(hooked) - median(plain), "s", target=Target("max", 0.3,
                                                                          "≤ 0.3 s")))
    else:
        rows.append(missing("post-checkout hook", "n/a (hook not installed)"))
    return rows


def hook_rows(root: Path, corpus: Corpus, settings: Settings, rng: random.Random) -> list[Row]:
    target = Target("max", 0.3, "≤ 0.3 s")
    base = head(root)
    times: dict[str, list[float]] = {"hooked": [], "plain": [], "check": [], "floor": [],
                                     "python": []}
    failure: Row | None = None
    message = root / ".git" / "bench-message"
    message.write_text("bench: edit 10 notes\n", encoding="utf-8")
    for round_number in range(settings.rounds):
        paths = edit_notes(root, rng.sample(corpus.notes, 10), f"hooks {round_number}",
                           describe_first=True)
        git(root, "add", "--", *paths)
        times["floor"].append(git(root, "diff", "--cached", "--name-status").seconds)
        times["python"].append(run_process([sys.executable, "-c", "pass"]).seconds)
        check = run_process(cli(root, "check", "--message-file", str(message)))
        times["check"].append(check.seconds)
        failure = failure or (None if check.ok else _failed("check", check, target))
        hooked = run_process(["git", "commit", "-q", "-m", "bench: edit 10 notes"], cwd=root)
        failure = failure or (None if hooked.ok else _failed("hooked commit", hooked, target))
        times["hooked"].append(hooked.seconds)
        git(root, "reset", "-q", "--soft", base)
        times["plain"].append(git(root, "commit", "-q", "--no-verify", "-m", "bench").seconds)
        git(root, "reset", "-q", "--hard", base)
    return _hook_table(root, times, failure, target)


def _hook_table(root: Path, times: dict[str, list[float]], failure: Row | None,
                target: Target) -> list[Row]:
    floor = median(times["floor"])
    rows = [] if failure is None else [failure]
    if (root / ".git" / "hooks" / "commit-msg").exists():
        hooked, plain = median(times["hooked"]), median(times["plain"])
        rows += [Row("git commit of 10 notes + INDEX with hooks", hooked, "s", plain,
                     "same commit --no-verify"),
                 Row("hook run on that commit (difference)", hooked - plain, "s", floor,
                     "git diff --cached --name-status", target)]
    else:
        rows.append(missing("hooked commit", "n/a (hooks not installed)"))
    rows.append(Row("memrepo check --message-file F (what commit-msg runs; whole process)",
                    median(times["check"]), "s", floor, "git diff --cached --name-status",
                    Target("max", 0.2, "≤ 0.2 s")))
    rows.append(Row("python -c pass (a process start on this machine, same rounds)",
                    median(times["python"]), "s"))
    return rows


def remember_rows(root: Path, settings: Settings) -> list[Row]:
    """One commit per fact at each segment size (a scope of its own, its month's segment
    filled first by batches), beside what git itself pays for the same commit: one line
    appended, `git add` and `git commit --no-verify` (two processes)."""
    from memrepo.facts import writes

    single, batched = Target("min", 20, "≥ 20/s"), Target("min", 5000, "≥ 5,000/s")
    tag = f"{time.time_ns():x}"
    rows = []
    for lines in settings.segment_lines:
        scope = f"bench-{lines}-{tag}"
        _fill_segment(root, scope, lines)
        started, cpu = time.perf_counter(), time.process_time()
        for number in range(settings.remember_commits):
            writes.remember(root, scope=scope, subject=f"bench-{number}", relation="status",
                            object=f"state {number}", quote=f"The state is {number} now.",
                            source="conversation", session="bench")
        rate = settings.remember_commits / (time.perf_counter() - started)
        cpu = (time.process_time() - cpu) / settings.remember_commits
        floor = 1 / median([_git_append_commit(root, scope, n) for n in range(settings.rounds)])
        rows.append(Row(f"remember, one commit per fact, {lines:,}-line segment", rate, "/s",
                        floor, "git add + commit --no-verify of one appended line",
                        target=single))
        rows.append(Row(f"CPU per write at {lines:,} lines (what load does not inflate)",
                        cpu, "s", target=Target("max", 0.05, "≤ 50 ms")))
    facts = [writes.FactInput(f"bench-batch-{tag}", f"batch-{n}", "status", f"state {n}",
                              quote=f"The state is {n} now.")
             for n in range(settings.batch_facts)]
    started = time.perf_counter()
    writes.remember_many(root, facts, source="conversation", session="bench")
    rate = len(facts) / (time.perf_counter() - started)
    label = f"remember, batched ({len(facts):,} facts, one commit)"
    return [*rows, Row(label, rate, "/s", target=batched)]


def _fill_segment(root: Path, scope: str, lines: int) -> None:
    from memrepo.facts import writes

    for start in range(0, lines, 5000):
        writes.remember_many(root, [
            writes.FactInput(scope, f"fill-{n}", "status", f"state {n}", quote=f"It is {n}.")
            for n in range(start, min(lines, start + 5000))],
            source="conversation", session="bench")


def _git_append_commit(root: Path, scope: str, number: int) -> float:
    """Seconds git takes to commit one line appended to the scope's segment (no hooks)."""
    import orjson

    from memrepo.clock import now
    from memrepo.facts.ids import new_id
    from memrepo.facts.segments import segment_path

    recorded_at = now()
    path = segment_path(scope, recorded_at)
    log = root / path
    event = orjson.loads(log.read_bytes().splitlines()[-1])
    event.update(id=new_id(recorded_at), subject=f"floor-{number}")
    with log.open("ab") as out:
        out.write(orjson.dumps(event) + b"\n")
    add = git(root, "add", "--", path)
    done = git(root, "commit", "-q", "-m", f"bench: floor {number}")
    return add.seconds + done.seconds


# --- the whole run ------------------------------------------------------------------------

def prepare(directory: Path | None, notes: int, events: int, seed: int) -> tuple[Path, Row]:
    """The repository to measure: reused when it already holds a memory (as it is: its
    hooks, if any), else generated with memrepo's git hooks installed."""
    root = directory or Path(tempfile.mkdtemp(prefix="memrepo-bench-")) / "repo"
    if (root / "memory").is_dir():
        return root.resolve(), missing("synth generate", "reused existing repository")
    from memrepo.git.hook_scripts import install

    from .synth import generate

    with task(f"memrepo bench perf: generating {notes:,} notes / {events:,} events"):
        info = generate(root, notes, events, seed)
    install(info.root)  # memrepo's git hooks, as `memrepo init` installs them
    label = f"synth generate {notes:,} notes / {info.events:,} events"
    return info.root, Row(label, info.seconds["total"], "s", note=f"{info.commit_method}")


GIT_SCENARIOS = ("sync", "hooks", "remember")
"""What `--only` may pick: the scenarios that need no cache build of their own."""


def run_benchmark(root: Path, settings: Settings, seed: int = 0,
                  only: Sequence[str] = ()) -> list[Row]:
    rng = random.Random(seed)
    if only:
        return git_scenario_rows(root, settings, rng, only)
    with task("memrepo bench perf: cache rebuild", total=6) as steps:

        def next_section(name: str) -> None:
            steps.advance()
            steps.describe(f"memrepo bench perf: {name}")

        with tempfile.TemporaryDirectory(prefix="memrepo-bench-work-") as work:
            rows, corpus = rebuild_rows(root, Path(work))
        next_section("recall")
        rows += recall_rows(root, corpus, settings, rng)
        next_section("search")
        rows += search_rows(root, corpus, settings, rng)
        next_section("checkout and cache sync")
        rows += sync_rows(root, corpus, settings, rng)
        next_section("commit hooks")
        rows += hook_rows(root, corpus, settings, rng)
        next_section("remember")
        rows += remember_rows(root, settings)
    return rows


def git_scenario_rows(root: Path, settings: Settings, rng: random.Random,
                      only: Sequence[str]) -> list[Row]:
    """The scenarios named in `only` (GIT_SCENARIOS), on the entity notes git lists."""
    listed = git(root, "ls-files", "-z", "--", "memory/entities/").stdout.split("\0")
    corpus = Corpus(notes=[path for path in listed
                           if path.endswith(".md") and not path.endswith("/INDEX.md")])
    rows: list[Row] = []
    if "sync" in only:
        rows += sync_rows(root, corpus, settings, rng)
    if "hooks" in only:
        rows += hook_rows(root, corpus, settings, rng)
    if "remember" in only:
        rows += remember_rows(root, settings)
    return rows


def run(args: argparse.Namespace) -> int:
    root, generated = prepare(args.dir, args.notes, args.events, args.seed)
    try:
        settings = QUICK if args.quick else Settings()
        load_before = os.getloadavg()
        rows = [generated, *run_benchmark(root, settings, args.seed, args.only or ())]
        load_after, bytecode = os.getloadavg(), has_bytecode()
        print(f"memrepo bench perf on {root}\n")
        print(render_table(rows))
        print(f"\nload average (1, 5, 15 min) before {_loads(load_before)}, after "
              f"{_loads(load_after)}; {os.cpu_count()} CPUs")
        if not bytecode:
            print(NO_BYTECODE)
        if args.json:
            document = {"repo": str(root), "rows": [row.to_json() for row in rows],
                        "load_before": load_before, "load_after": load_after,
                        "bytecode": bytecode}
            args.json.write_text(json.dumps(document, indent=2, ensure_ascii=False),
                                 encoding="utf-8")
    finally:
        if args.dir is None and not args.keep:
            shutil.rmtree(root.parent, ignore_errors=True)
        elif args.dir is None:
            print(f"\nkept the repository in {root}")
    return 0


def _loads(loads: tuple[float, float, float]) -> str:
    return " / ".join(f"{load:.1f}" for load in loads)


def main(argv: Sequence[str] | None = None) -> int:
    """`memrepo bench perf [options]` (the options: `parse_args`)."""
    return run(parse_args(argv))


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="memrepo bench perf",
        description="Generate a synthetic memory (or reuse --dir) and print a markdown "
                    "table: metric | value | floor | ratio | target | met?")
    parser.add_argument("--notes", type=_at_least(100), default=10_000, metavar="N",
                        help="notes to generate (default 10,000)")
    parser.add_argument("--events", type=_at_least(100), default=100_000, metavar="M",
                        help="fact events to generate (default 100,000)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help="measure this repository; generated there when it holds no "
                             "memory yet; always kept")
    parser.add_argument("--keep", action="store_true",
                        help="keep the generated temporary repository and print its path")
    parser.add_argument("--seed", type=int, default=0, help="generator seed (default 0)")
    parser.add_argument("--quick", action="store_true",
                        help="fewer repetitions: a smoke run, not a measurement")
    parser.add_argument("--only", nargs="+", choices=GIT_SCENARIOS, metavar="SCENARIO",
                        help="run only these git scenarios (sync: checkout + cache refresh; "
                             "hooks: a 10-note commit through the hooks and `memrepo check`; "
                             "remember): no rebuild, recall or search")
    parser.add_argument("--json", type=Path, metavar="FILE",
                        help="also write the rows as one JSON document")
    return parser.parse_args(argv)


def _at_least(minimum: int) -> Callable[[str], int]:
    """An argparse type: a whole number ≥ minimum (the generator samples from the notes)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        return value

    return parse


if __name__ == "__main__":
    sys.exit(main())
