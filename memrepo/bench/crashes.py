"""`memrepo bench crashes`: kill -9 during a remember, then retry it as an agent would
(issue 21 target: 300 trials, 0 lost, 0 duplicated).

Each trial starts a real `memrepo remember` process (or, for a share of the trials, the
Python API's `Memory.remember` in a process of its own: the MCP server's path), kills it
with SIGKILL after a random delay and runs the same remember again to its end — the same
arguments, as an agent that saw no answer sends them again. The delays are jittered over
the whole process (start-up, the write lock, the checks, the commit, showing the line,
the index, exit: a delay past the end kills nothing) and, for most trials, around the
moment the branch moved — in calibration runs, then in the last retries (each a whole
remember: the delays follow the machine's load) — where a kill leaves the most to put right.

The facts are agent-like: new keys, new values of earlier keys (a value change), with and
without a valid-from, a quote and a source. Each fact is unique, so at the end every one
must be in HEAD's fact logs exactly once (lost: none; duplicated: more), the working logs
must equal HEAD's, `git status` must be clean (else: repairable by `memrepo doctor
--repair`?), `memrepo doctor` healthy and `memrepo verify` must accept every commit.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

from memrepo.bench.measure import Row, Target, median, render_table, run_process, start_process
from memrepo.core.problems import InputError, Problem
from memrepo.git.porcelain import config_get, git
from memrepo.maintenance.init import create_memory_repo
from memrepo.progress import task

SCOPE = "crashbench"
RELATIONS = ("status", "location", "owner", "price", "serial_number", "warranty_until")
CALIBRATION_RUNS = 3
RECENT = 9  # the retries whose timing the next kill's delay follows (a machine's load moves)
API_SHARE = 0.3  # of the trials, through the Python API in a process of its own
AROUND_COMMIT = 0.6  # of the trials, killed around the moment the branch moved
API = ("import json, sys; from memrepo import Memory; "
       "result = Memory.open(sys.argv[1]).remember(**json.loads(sys.argv[2])); "
       "print(json.dumps(result.to_json()))")


@dataclass(frozen=True, slots=True)
class Fact:
    """One remember as an agent sends it (and sends again)."""

    door: str  # "cli" | "api"
    subject: str
    relation: str
    object: str
    valid_from: str | None = None
    quote: str | None = None

    def command(self, root: Path) -> list[str]:
        if self.door == "api":
            fields = {"scope": SCOPE, "subject": self.subject, "relation": self.relation,
                      "object": self.object, "valid_from": self.valid_from,
                      "quote": self.quote, "source": "agent" if self.quote else "manual",
                      "session": "crash-bench"}
            return [sys.executable, "-c", API, str(root), json.dumps(fields)]
        command = [sys.executable, "-m", "memrepo", "--repo", str(root), "remember",
                   "--scope", SCOPE, self.subject, self.relation, self.object, "--json",
                   "--session", "crash-bench"]
        if self.valid_from:
            command += ["--valid-from", self.valid_from]
        if self.quote:
            command += ["--quote", self.quote, "--source", "agent"]
        return command


@dataclass(frozen=True, slots=True)
class Trial:
    number: int
    fact: Fact
    delay: float  # seconds from the start of the process to its SIGKILL
    finished_first: bool  # the process had exited before the kill (an acknowledged write)
    retry: str  # the retry's status: added | unchanged | error
    error: str = ""  # the retry's complaint, when it failed
    dirty: str = ""  # `git status --porcelain` right after the retry, when not clean
    retry_seconds: float = 0.0  # the retry, a whole remember: the timing follows the load
    retry_commit_at: float | None = None  # when the retry moved the branch, if it did


@dataclass(slots=True)
class CrashReport:
    trials: list[Trial] = field(default_factory=list)
    process_seconds: float = 0.0  # a whole remember process, median of the calibration
    commit_at: float = 0.0  # when its branch moved, from the process's start
    lost: list[str] = field(default_factory=list)  # facts HEAD does not hold
    duplicated: list[str] = field(default_factory=list)  # facts HEAD holds more than once
    work_differs: list[str] = field(default_factory=list)  # working logs unlike HEAD's
    status: str = ""  # `git status --porcelain` at the end
    repaired: bool | None = None  # None: nothing to repair
    doctor: str = ""  # `memrepo doctor`'s complaint at the end ("" when healthy)
    verify: str = ""  # `memrepo verify`'s complaint ("" when every commit passes)

    @property
    def errors(self) -> list[Trial]:
        return [trial for trial in self.trials if trial.retry == "error"]

    @property
    def passed(self) -> bool:
        return not (self.lost or self.duplicated or self.errors or self.work_differs
                    or self.doctor or self.verify or (self.status and not self.repaired))

    def rows(self) -> list[Row]:
        zero = Target("max", 0, "0")
        by_retry = Counter(trial.retry for trial in self.trials)
        finished = sum(trial.finished_first for trial in self.trials)
        return [
            Row("trials (kill -9, then the same remember again)", len(self.trials), "",
                target=Target("min", 300, "≥ 300"),
                note=f"{sum(t.fact.door == 'api' for t in self.trials)} through the API; "
                     f"{finished} had finished before the kill"),
            Row("one remember process, whole (median of the calibration)",
                self.process_seconds, "s", note=f"branch moved at {self.commit_at:.3f} s"),
            Row("retries that answered added / unchanged", None, "",
                note=f"{by_retry['added']} / {by_retry['unchanged']}"),
            Row("killed after its commit (retry answered `unchanged`), before exit", sum(
                not t.finished_first and t.retry == "unchanged" for t in self.trials), ""),
            Row("facts lost", len(self.lost), "", target=zero),
            Row("facts duplicated", len(self.duplicated), "", target=zero),
            Row("retries that failed (errors)", len(self.errors), "", target=zero),
            Row("trials leaving `git status` unclean after the retry",
                sum(bool(t.dirty) for t in self.trials), ""),
            Row("working logs unlike HEAD's at the end", len(self.work_differs), "",
                target=zero),
            Row("at the end: git status clean, or repaired by doctor --repair", None, "",
                target=Target("none", text="yes"), note=_yes(
                    not self.status or bool(self.repaired), self.status)),
            Row("at the end: memrepo doctor healthy, memrepo verify passes", None, "",
                target=Target("none", text="yes"),
                note=_yes(not (self.doctor or self.verify), self.doctor or self.verify)),
        ]


def _yes(good: bool, why: str) -> str:
    return "yes" if good else "NO: " + " ".join(why.split())[:200]


# --- the repository and the facts --------------------------------------------------------


def prepare(directory: Path) -> Path:
    """`directory` as a memory repository made by `memrepo init` (reused when it holds one),
    with an identity to commit with where git has none."""
    if not (directory / "memory").is_dir():
        create_memory_repo(directory)
    if not (os.environ.get("GIT_AUTHOR_NAME") or config_get(directory, "user.name")):
        git(directory, "config", "user.name", "memrepo bench")
        git(directory, "config", "user.email", "bench@memrepo.invalid")
    return directory.resolve()


def make_facts(count: int, rng: random.Random, api_share: float, offset: int = 0) -> list[Fact]:
    """`count` unique facts: mostly new keys, a quarter new values of earlier keys."""
    facts: list[Fact] = []
    for number in range(offset, offset + count):
        door = "api" if rng.random() < api_share else "cli"
        if facts and rng.random() < 0.25:
            earlier = rng.choice(facts)
            subject, relation = earlier.subject, earlier.relation
        else:
            subject, relation = f"device-{number}", rng.choice(RELATIONS)
        valid_from = f"20{rng.randint(20, 25)}-{rng.randint(1, 12):02d}-01" \
            if rng.random() < 0.4 else None
        quote = f"the agent heard: value {number}" if rng.random() < 0.5 else None
        facts.append(Fact(door, subject, relation, f"value {number}", valid_from, quote))
    return facts


# --- one trial -----------------------------------------------------------------------------


def _branch_ref(root: Path) -> Path:
    name = git(root, "symbolic-ref", "HEAD").strip()
    path = Path(git(root, "rev-parse", "--git-path", name).strip())
    return path if path.is_absolute() else root / path


def calibrate(root: Path, facts: Sequence[Fact]) -> tuple[float, float]:
    """(a whole remember process, when its branch moved from its start): medians of runs
    of `facts` to their end."""
    ref = _branch_ref(root)
    wholes, commits = [], []
    for fact in facts:
        started = time.time_ns()
        done = run_process(fact.command(root))
        if not done.ok:
            raise RuntimeError(f"remember failed: {done.stderr.strip()}")
        wholes.append(done.seconds)
        try:
            commits.append((ref.stat().st_mtime_ns - started) / 1e9)
        except OSError:  # a packed or reftable branch: no file to date the move by
            commits.append(done.seconds * 0.8)
    return median(wholes), median(commits)


def kill_delay(rng: random.Random, whole: float, commit_at: float) -> float:
    if rng.random() < AROUND_COMMIT:
        spread = max(0.03, 0.1 * whole)
        return max(0.0, rng.uniform(commit_at - spread, commit_at + spread))
    return rng.uniform(0.0, 1.1 * whole)


def run_trial(root: Path, number: int, fact: Fact, delay: float) -> Trial:
    process = start_process(fact.command(root))
    time.sleep(delay)
    finished = process.poll() is not None
    process.kill()  # SIGKILL (nothing when it has exited)
    process.communicate()
    started = time.time_ns()
    retry = run_process(fact.command(root))
    status, error = _status(retry.returncode, retry.stdout, retry.stderr)
    dirty = git(root, "status", "--porcelain").strip()
    commit_at = None
    if status == "added":  # the retry moved the branch: when, from its start
        with suppress(OSError):
            commit_at = (_branch_ref(root).stat().st_mtime_ns - started) / 1e9
    return Trial(number, fact, delay, finished, status, error, dirty, retry.seconds,
                 commit_at)


def _status(code: int, stdout: str, stderr: str) -> tuple[str, str]:
    if code == 0 and "Traceback" not in stderr:
        try:
            status = str(json.loads(stdout.strip().splitlines()[-1])["status"])
        except (ValueError, KeyError, IndexError):
            status = ""
        if status in ("added", "unchanged"):
            return status, ""
    complaint = (stderr.strip() or stdout.strip() or f"exit {code}").splitlines()
    return "error", f"exit {code}: {complaint[-1] if complaint else ''}"


# --- the end: what HEAD and the working logs hold ------------------------------------------


def head_counts(root: Path) -> tuple[Counter[tuple[str, str, str]], list[str]]:
    """How many asserts of each (subject, relation, object) HEAD's logs of the scope
    hold; the logs whose working file differs from HEAD's."""
    folder = f"memory/facts/{SCOPE}"
    paths = git(root, "ls-tree", "-r", "--name-only", "HEAD", "--", folder).split()
    counts: Counter[tuple[str, str, str]] = Counter()
    differs = []
    for path in paths:
        committed = git(root, "show", f"HEAD:{path}")
        try:
            work = (root / path).read_text("utf-8")
        except OSError:
            work = ""
        if work != committed:
            differs.append(path)
        for line in committed.splitlines():
            event = json.loads(line)
            if event.get("op") == "assert":
                counts[(event["subject"], event["relation"], event["object"])] += 1
    return counts, differs


def finish(root: Path, report: CrashReport, facts: Sequence[Fact], first: str) -> None:
    counts, report.work_differs = head_counts(root)
    for fact in facts:
        held = counts[(fact.subject, fact.relation, fact.object)]
        name = f"{fact.subject}.{fact.relation} = {fact.object}"
        if held == 0:
            report.lost.append(name)
        elif held > 1:
            report.duplicated.append(f"{name} ×{held}")
    report.status = git(root, "status", "--porcelain").strip()
    memrepo = [sys.executable, "-m", "memrepo", "--repo", str(root)]
    if report.status:
        repair = run_process([*memrepo, "doctor", "--repair"])
        report.repaired = repair.ok and not git(root, "status", "--porcelain").strip()
    doctor = run_process([*memrepo, "doctor"])
    report.doctor = "" if doctor.ok else (doctor.stdout + doctor.stderr).strip()
    verify = run_process([*memrepo, "verify", f"{first}..HEAD"])
    report.verify = "" if verify.ok else (verify.stdout + verify.stderr).strip()


def run_crashes(root: Path, trials: int, seed: int = 0,
                api_share: float = API_SHARE) -> CrashReport:
    rng = random.Random(seed)
    first = git(root, "rev-parse", "HEAD").strip()
    report = CrashReport()
    calibration = make_facts(CALIBRATION_RUNS, rng, 0.0, offset=trials)
    report.process_seconds, report.commit_at = calibrate(root, calibration)
    facts = make_facts(trials, rng, api_share)
    wholes = deque([report.process_seconds], maxlen=RECENT)
    commits = deque([report.commit_at], maxlen=RECENT)
    with task("memrepo bench crashes: kill -9 and retry", total=trials) as steps:
        for number, fact in enumerate(facts):
            delay = kill_delay(rng, median(wholes), median(commits))
            trial = run_trial(root, number, fact, delay)
            report.trials.append(trial)
            if trial.retry_commit_at is not None and trial.retry_commit_at > 0:
                wholes.append(trial.retry_seconds)  # a whole remember that committed
                commits.append(trial.retry_commit_at)
            steps.advance()
    finish(root, report, [*calibration, *facts], first)
    return report


# --- the command -----------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memrepo-crashes-") as scratch:
        target = args.dir or Path(scratch) / "repo"
        try:
            root = prepare(target)
        except OSError as err:
            raise InputError(Problem(str(target), f"cannot make the repository: "
                                     f"{err.strerror or err}",
                                     "pass --dir a folder you can write")) from err
        load = os.getloadavg()[0]
        report = run_crashes(root, args.trials, args.seed, args.api_share)
        print(f"memrepo bench crashes on {root}\n")
        print(render_table(report.rows()))
        print(f"\nload average {load:.1f} before, {os.getloadavg()[0]:.1f} after")
        _print_examples(report)
    return 0 if report.passed else 1


def _print_examples(report: CrashReport) -> None:
    for label, found in (("lost", report.lost), ("duplicated", report.duplicated),
                         ("working log unlike HEAD's", report.work_differs)):
        for name in found[:5]:
            print(f"{label}: {name}")
    for trial in report.errors[:5]:
        print(f"error in trial {trial.number} ({trial.fact.door}, killed at "
              f"{trial.delay:.3f} s): {trial.error}")
    for trial in [t for t in report.trials if t.dirty][:3]:
        print(f"git status after trial {trial.number} (killed at {trial.delay:.3f} s): "
              f"{' '.join(trial.dirty.split())}")


def _at_least_one(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is no number of trials") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{text} trials: give at least 1")
    return number


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memrepo bench crashes",
        description="Kill -9 a remember at a random moment (CLI and API, jittered over the "
                    "whole write, also after its commit), retry it, and count the facts "
                    "lost or duplicated. Exit 1 when any is, or a retry fails.")
    parser.add_argument("--trials", type=_at_least_one, default=300,
                        help="trials (default 300)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help="write into this repository (made by `memrepo init` when it "
                             "holds no memory yet) and keep it (default: a temporary one)")
    parser.add_argument("--seed", type=int, default=0, help="seed of delays and facts")
    parser.add_argument("--api-share", type=float, default=API_SHARE, metavar="F",
                        help=f"share of trials through the Python API (default {API_SHARE})")
    return parser
