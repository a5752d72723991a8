"""`memrepo bench fleet`: many clones writing and syncing through one bare repository at
once (issue 13 item 8).

A bare remote with memrepo's pre-receive hook (installed as docs/shared-server.md says), a
first clone made by `memrepo init`, and plain `git clone`s of it (their hooks come with their
first sync). The remote is reached through a real git server by default: `git daemon` on a
free loopback port with pushes enabled (`--serve daemon`; `--serve file`: the bare
repository's path, git's local transport). Every clone gets one
writer process: `remember` FACTS facts, `memrepo sync` after every EVERY of them and once at
the end, all writers at once. When they have all stopped, sequential sync rounds run over
the clones until every HEAD is the same commit: the convergence time. Then every clone's
fact logs must hold every written event exactly once.

Floors from the same run: one sync of one new fact by a clone alone (what a sync costs
without contention), and for the convergence one more round over the converged clones
(every sync with nothing to bring in or push).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.bench.measure import (
    Row,
    Target,
    render_table,
    run_process,
    start_process,
    start_server,
)
from memrepo.core.problems import InputError
from memrepo.facts.writes import remember
from memrepo.git.porcelain import git
from memrepo.maintenance.init import create_memory_repo
from memrepo.maintenance.sync import sync
from memrepo.progress import task

if TYPE_CHECKING:
    from subprocess import Popen

SCOPE = "team"
MAX_ROUNDS = 5
SERVE_MODES = ("daemon", "file")
DAEMON_START_SECONDS = 10.0
WRITER = ("import sys; from memrepo.bench.fleet import write_and_sync; "
          "write_and_sync(sys.argv[1:])")


@dataclass(frozen=True, slots=True)
class WriterReport:
    ids: list[str]
    syncs: int
    attempts: int  # pushes tried by the syncs that landed
    sync_seconds: float
    refused: list[str]  # the first line of each sync that gave up
    most_attempts: int = 0  # pushes tried by this writer's unluckiest sync that landed
    longest_sync: float = 0.0  # seconds, this writer's longest sync


@dataclass(frozen=True, slots=True)
class FleetReport:
    clones: int
    facts: int
    every: int
    lone_sync: float  # floor: one clone syncing one new fact alone
    writing: float  # all writers started → the last one stopped
    writers: list[WriterReport]
    convergence: float  # writers stopped → every HEAD the same commit
    rounds: int
    idle_round: float  # floor: one more round, nothing left to exchange
    heads_equal: bool
    wrong: dict[str, str]  # clone → what its logs lack or hold twice
    lost: int = 0  # written events missing from some clone (counted once per event)
    doubled: int = 0  # events some clone holds more than once
    served: str = "file"  # how the clones reach the remote (SERVE_MODES)

    @property
    def refused(self) -> int:
        return sum(len(writer.refused) for writer in self.writers)

    @property
    def exactly_once(self) -> bool:
        return self.heads_equal and not self.wrong

    def rows(self) -> list[Row]:
        syncs = sum(writer.syncs for writer in self.writers)
        landed = syncs - sum(len(writer.refused) for writer in self.writers)
        attempts = sum(writer.attempts for writer in self.writers)
        mean_sync = sum(writer.sync_seconds for writer in self.writers) / max(syncs, 1)
        label = (f"{self.clones} clones × {self.facts} facts, sync every {self.every}, "
                 f"remote: {self.served}")
        return [
            Row(f"writing phase ({label})", self.writing, "s"),
            Row("one sync, mean over every writer's syncs", mean_sync, "s", self.lone_sync,
                "one clone syncing one fact alone"),
            Row("syncs that landed", landed, "", note=f"of {syncs}; {attempts} pushes "
                f"tried ({attempts / max(landed, 1):.1f} per landed sync)"),
            Row("retries after a lost race (by the syncs that landed)", attempts - landed, "",
                note="fetch, merge and push again after a jittered pause"),
            Row("most pushes tried by one sync", max(
                (w.most_attempts for w in self.writers), default=0), "",
                note="the unluckiest sync that landed"),
            Row("longest sync", max((w.longest_sync for w in self.writers), default=0.0),
                "s"),
            Row("syncs refused (gave up)", self.refused, "", target=Target("max", 0, "0")),
            Row("events missing from some clone", self.lost, "", target=Target("max", 0, "0")),
            Row("events held twice by some clone", self.doubled, "",
                target=Target("max", 0, "0")),
            Row("convergence after the writers stopped", self.convergence, "s",
                self.idle_round, "a round with nothing to exchange",
                note=f"{self.rounds} sequential round(s)"),
            Row("every event on every clone exactly once", None, "",
                target=Target("none", text="yes"), note="yes" if self.exactly_once
                else "NO: " + "; ".join(f"{c}: {w}" for c, w in self.wrong.items())),
        ]


def make_bare(directory: Path) -> Path:
    """`remote.git`: a bare repository with the server's pre-receive hook installed."""
    bare = directory / "remote.git"
    git(directory, "init", "-q", "--bare", "-b", "main", str(bare))
    installed = run_process([sys.executable, "-m", "memrepo.scripts.pre_receive",
                             "--install", str(bare)])
    if installed.returncode != 0:
        raise RuntimeError(f"installing the pre-receive hook: {installed.stderr.strip()}")
    return bare


def make_fleet(directory: Path, clones: int, remote: str) -> list[Path]:
    """`clone0` made by `memrepo init` and pushed to `remote` (a URL or path of the bare
    repository), and `clones - 1` plain clones of it."""

    first = directory / "clone0"
    create_memory_repo(first)
    git(first, "remote", "add", "origin", remote)
    sync(first)
    for number in range(1, clones):
        git(directory, "clone", "-q", remote, str(directory / f"clone{number}"))
    return [first, *(directory / f"clone{n}" for n in range(1, clones))]


@contextmanager
def served(directory: Path, bare: Path, mode: str) -> Iterator[str]:
    """The URL the clones push to: `git daemon` serving `bare` (pushes enabled, no limit
    on connections) on a free loopback port while the block runs, or the bare path."""
    if mode == "file":
        yield str(bare)
        return
    port = free_port()
    log = (directory / "git-daemon.log").open("wb")
    daemon = start_server(
        ["git", "daemon", "--reuseaddr", "--listen=127.0.0.1", f"--port={port}",
         f"--base-path={directory}", "--export-all", "--enable=receive-pack",
         "--informative-errors", "--max-connections=0", str(directory)], log)
    try:
        _wait_for_port(daemon, port, directory / "git-daemon.log")
        yield f"git://127.0.0.1:{port}/{bare.relative_to(directory)}"
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        log.close()


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_port(daemon: Popen[bytes], port: int, log: Path) -> None:
    deadline = time.monotonic() + DAEMON_START_SECONDS
    while time.monotonic() < deadline:
        if daemon.poll() is not None:
            error = log.read_text(encoding="utf-8", errors="replace").strip()
            raise RuntimeError(f"git daemon stopped (exit {daemon.returncode}): {error}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"git daemon did not listen on 127.0.0.1:{port} within "
                       f"{DAEMON_START_SECONDS:.0f} s")


def run_fleet(directory: Path, clones: int, facts: int, every: int,
              serve: str = "daemon") -> FleetReport:
    bare = make_bare(directory)
    with served(directory, bare, serve) as remote:
            return _run_fleet(make_fleet(directory, clones, remote), facts, every, serve)


def _run_fleet(fleet: list[Path], facts: int, every: int, serve: str) -> FleetReport:
    clones = len(fleet)
    with task(f"memrepo bench fleet: {clones} clones writing and syncing", total=4) as steps:
        lone = remembered(fleet[0], "lone-sync", 1, "bench")
        started = time.perf_counter()
        sync(fleet[0])
        lone_sync = time.perf_counter() - started
        steps.advance()
        started = time.perf_counter()
        writers = [start_process([sys.executable, "-c", WRITER, str(clone), f"c{n}",
                                  str(facts), str(every)])
                   for n, clone in enumerate(fleet)]
        reports = [_writer_report(writer) for writer in writers]
        writing = time.perf_counter() - started
        steps.advance()
        started = time.perf_counter()
        rounds, heads_equal = 0, False
        while not heads_equal and rounds < MAX_ROUNDS:
            rounds += 1
            for clone in fleet:
                sync(clone)
            heads_equal = len({_head(clone) for clone in fleet}) == 1
        convergence = time.perf_counter() - started
        steps.advance()
        started = time.perf_counter()
        for clone in fleet:
            sync(clone)
        idle_round = time.perf_counter() - started
    written = [lone, *(event_id for report in reports for event_id in report.ids)]
    held = [Counter(fact_ids(clone)) for clone in fleet]
    wrong = {clone.name: found for clone, counts in zip(fleet, held, strict=True)
             if (found := _compare(counts, written))}
    lost = sum(1 for event_id in written if any(counts[event_id] == 0 for counts in held))
    doubled = len({event_id for counts in held for event_id, n in counts.items() if n > 1})
    return FleetReport(clones, facts, every, lone_sync, writing, reports, convergence, rounds,
                       idle_round, heads_equal, wrong, lost, doubled, serve)


def write_and_sync(argv: Sequence[str]) -> None:
    """One writer (its own process): ROOT LABEL FACTS EVERY → a JSON WriterReport."""

    root, label, facts, every = Path(argv[0]), argv[1], int(argv[2]), int(argv[3])
    ids: list[str] = []
    totals = {"syncs": 0, "attempts": 0, "seconds": 0.0, "most": 0, "longest": 0.0}
    refused: list[str] = []

    def one_sync() -> None:
        started = time.perf_counter()
        try:
            attempts = sync(root).attempts
            totals["attempts"] += attempts
            totals["most"] = max(totals["most"], attempts)
        except InputError as err:  # SyncRefused too: counted, the next sync retries
            refused.append(str(err).splitlines()[0])
        totals["syncs"] += 1
        totals["seconds"] += time.perf_counter() - started
        totals["longest"] = max(totals["longest"], time.perf_counter() - started)

    for number in range(facts):
        ids.append(remembered(root, f"{label}-item{number}", number, label))
        if (number + 1) % every == 0:
            one_sync()
    if facts % every:
        one_sync()
    print(json.dumps({"ids": ids, "syncs": totals["syncs"], "attempts": totals["attempts"],
                      "sync_seconds": totals["seconds"], "refused": refused,
                      "most_attempts": totals["most"], "longest_sync": totals["longest"]}))


def remembered(root: Path, subject: str, count: int, session: str) -> str:
    """Remember `subject.count = count` (a new fact): its event id."""

    result = remember(root, scope=SCOPE, subject=subject, relation="count",
                      object=str(count), session=session)
    if result.id is None:
        raise RuntimeError(f"{root}: remembering {subject} wrote nothing ({result.status})")
    return result.id


def fact_ids(clone: Path) -> list[str]:
    """Every event id in the clone's fact logs, as often as it occurs."""
    return [json.loads(line)["id"] for log in sorted((clone / "memory/facts").rglob("*.jsonl"))
            for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def _compare(counts: Counter[str], written: list[str]) -> str:
    """What a clone holding `counts` events lacks, holds twice or holds besides `written`
    ('' when it holds each written event exactly once)."""
    problems = [f"{amount} {what}" for what, amount in (
        ("missing", sum(1 for event_id in written if counts[event_id] == 0)),
        ("twice", sum(1 for count in counts.values() if count > 1)),
        ("not written by the fleet", len(counts.keys() - set(written)))) if amount]
    return ", ".join(problems)


def _writer_report(writer: Popen[str]) -> WriterReport:
    out, err = writer.communicate()
    if writer.returncode != 0:
        raise RuntimeError(f"a fleet writer failed (exit {writer.returncode}):\n{err[-3000:]}")
    data = json.loads(out.strip().splitlines()[-1])
    return WriterReport(data["ids"], data["syncs"], data["attempts"], data["sync_seconds"],
                        data["refused"], data["most_attempts"], data["longest_sync"])


def _head(clone: Path) -> str:
    return git(clone, "rev-parse", "HEAD").strip()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memrepo-fleet-") as scratch:
        directory = args.dir or Path(scratch)
        directory.mkdir(parents=True, exist_ok=True)
        load = os.getloadavg()[0]
        report = run_fleet(directory.resolve(), args.clones, args.facts, args.every,
                           args.serve)
    print(render_table(report.rows()))
    print(f"\nload average {load:.1f} before, {os.getloadavg()[0]:.1f} after")
    for reason, count in Counter(r for w in report.writers for r in w.refused).most_common(3):
        print(f"refused ×{count}: {reason}")
    return 0 if report.exactly_once else 1


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memrepo bench fleet",
        description="CLONES clones of one bare repository, each with a writer remembering "
                    "FACTS facts and syncing every EVERY of them, all at once; then sync "
                    "rounds until every clone has the same HEAD. Exit 1 when an event is "
                    "missing or doubled anywhere.")
    parser.add_argument("--clones", type=int, default=20, help="clones (default 20)")
    parser.add_argument("--facts", type=int, default=10, help="facts per clone (default 10)")
    parser.add_argument("--every", type=int, default=5,
                        help="sync after every EVERY facts (default 5)")
    parser.add_argument("--serve", choices=SERVE_MODES, default="daemon",
                        help="how the clones reach the bare repository: daemon (default: "
                             "`git daemon` on a free loopback port, git:// pushes through "
                             "the server's pre-receive hook) or file (its path)")
    parser.add_argument("--dir", type=Path, metavar="DIR",
                        help="build the clones here and keep them (default: a temporary "
                             "directory)")
    return parser
