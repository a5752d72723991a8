"""`memrepo bench perf`: git scenarios — a checkout and the cache refresh after it, a commit
through the hooks and `memrepo check`, single and batched remembers."""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

from memrepo.clock import now
from memrepo.core.facts.log_lines import event_to_json
from memrepo.core.facts.segment_names import sorted_segments
from memrepo.core.notes.index_file import parse_index, render_index
from memrepo.facts import writes
from memrepo.facts.ids import new_id
from memrepo.facts.segments import newest_segment

from ..measure import (
    Row,
    Target,
    median,
    missing,
    run_process,
)
from ..synth_content import event_id
from .common import Corpus, Settings, cli, failed, git

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

    scope = rng.choice(sorted(p for p in (root / "memory" / "facts").iterdir()))
    segment = root / sorted_segments(
        str(p.relative_to(root)) for p in scope.glob("*.jsonl"))[-1].path
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
                return [failed("cache sync after a 10-file checkout", run, target)]
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
    """10-note commits through the hooks against the same commits `--no-verify`. Both start
    from the index exactly as `git add` left it (a copy put back before each): a commit
    first computes the trees of the changed folders into the index and writes it (≈0.1 s
    at 100k notes), and a second commit after `git reset --soft` would find that done and
    be measured without it. The two alternate which goes first."""
    target = Target("max", 0.25, "≤ 0.25 s")
    base = head(root)
    index = root / git(root, "rev-parse", "--git-path", "index").stdout.strip()
    times: dict[str, list[float]] = {"hooked": [], "plain": [], "check": [], "floor": [],
                                     "python": []}
    failure: Row | None = None
    message = root / ".git" / "bench-message"
    message.write_text("bench: edit 10 notes\n", encoding="utf-8")
    for round_number in range(settings.rounds):
        paths = edit_notes(root, rng.sample(corpus.notes, 10), f"hooks {round_number}",
                           describe_first=True)
        git(root, "add", "--", *paths)
        staged = index.read_bytes()
        times["floor"].append(git(root, "diff", "--cached", "--name-status").seconds)
        times["python"].append(run_process([sys.executable, "-c", "pass"]).seconds)
        check = run_process(cli(root, "check", "--message-file", str(message)))
        times["check"].append(check.seconds)
        failure = failure or (None if check.ok else failed("check", check, target))
        for hooks in (True, False) if round_number % 2 == 0 else (False, True):
            index.write_bytes(staged)
            if hooks:
                hooked = run_process(["git", "commit", "-q", "-m", "bench: edit 10 notes"],
                                     cwd=root)
                failure = failure or (None if hooked.ok else
                                      failed("hooked commit", hooked, target))
                times["hooked"].append(hooked.seconds)
            else:
                times["plain"].append(git(root, "commit", "-q", "--no-verify", "-m",
                                          "bench").seconds)
            git(root, "reset", "-q", "--soft", base)
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

    for start in range(0, lines, 5000):
        writes.remember_many(root, [
            writes.FactInput(scope, f"fill-{n}", "status", f"state {n}", quote=f"It is {n}.")
            for n in range(start, min(lines, start + 5000))],
            source="conversation", session="bench")


def _git_append_commit(root: Path, scope: str, number: int) -> float:
    """Seconds git takes to commit one line appended to the scope's segment (no hooks)."""
    import orjson


    recorded_at = now()
    path = newest_segment(root, scope, recorded_at).path
    log = root / path
    event = orjson.loads(log.read_bytes().splitlines()[-1])
    event.update(id=new_id(recorded_at), subject=f"floor-{number}")
    with log.open("ab") as out:
        out.write(orjson.dumps(event) + b"\n")
    add = git(root, "add", "--", path)
    done = git(root, "commit", "-q", "-m", f"bench: floor {number}")
    return add.seconds + done.seconds
