"""kill -9 at random points of remember / remember_many, of `memrepo cache rebuild` and of
`memrepo cache sync` (real subprocesses, real SIGKILL, seeded delays). After each kill:
`memrepo doctor --repair` leaves a healthy clone; no committed event is lost; every new
commit passes `memrepo verify`; `git status` is clean; the cache, after the next query,
equals a fresh rebuild."""

from __future__ import annotations

import random
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memrepo.cache import open_fresh
from memrepo.cache.build import build_into
from memrepo.cli import main
from memrepo.facts import writes as store
from memrepo.facts.segments import read_scope
from memrepo.maintenance.doctor import doctor
from tests.support import dump, git

LOOP = """
import sys
from pathlib import Path
from memrepo.facts import writes as store
root, tag = Path(sys.argv[1]), sys.argv[2]
number = 0
while True:
    if number % 4 == 3:
        store.remember_many(root, [store.FactInput("crash", f"{tag}-{number}-{k}", "status",
                                                   f"v{k}", quote="q") for k in range(20)],
                            source="test")
    else:
        store.remember(root, scope="crash", subject=f"{tag}-{number}", relation="status",
                       object=f"v{number}", source="test", quote=f"said {number}")
    number += 1
"""
_ID = re.compile(r'"id":"([0-9A-Z]{26})"')


@pytest.fixture()
def synth_repo(tmp_path: Path, git_env: dict[str, str]) -> Path:
    from memrepo.bench.synth import generate

    return generate(tmp_path / "repo", notes=60, events=3000, seed=7).root


def committed_ids(root: Path) -> set[str]:
    out = subprocess.run(["git", "grep", "-h", "-o", '"id":"[0-9A-Z]*"', "HEAD", "--",
                          "memory/facts"], cwd=root, capture_output=True, text=True).stdout
    return set(_ID.findall(out))


def working_ids(root: Path) -> set[str]:
    return {m for path in (root / "memory/facts").glob("*/*.jsonl")
            for m in _ID.findall(path.read_text("utf-8"))}


def kill_after(command: list[str], delay: float, env: dict[str, str]) -> None:
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    time.sleep(delay)
    process.kill()  # SIGKILL
    process.wait()


def remember_trial(root: Path, rng: random.Random, trial: int, env: dict[str, str]) -> None:
    before, head = committed_ids(root), git(root, "rev-parse", "HEAD").stdout.strip()
    kill_after([sys.executable, "-c", LOOP, str(root), f"t{trial}"],
               rng.uniform(0.4, 1.5), env)
    report = doctor(root, repair=True)
    assert report.healthy, report.to_json()
    assert doctor(root).findings == []
    after = committed_ids(root)
    assert before <= after  # no committed event lost
    assert after <= working_ids(root)
    crash_log_ids = {m for path in (root / "memory/facts/crash").glob("*.jsonl")
                     for m in _ID.findall(path.read_text("utf-8"))}
    assert {e.id for e in read_scope(root, "crash")} == crash_log_ids  # every line valid
    assert main(["--repo", str(root), "verify", f"{head}..HEAD"]) == 0
    assert git(root, "status", "--porcelain").stdout == ""


def cache_trial(root: Path, rng: random.Random, trial: int, env: dict[str, str],
                work: Path) -> None:
    open_fresh(root).close()
    store.remember_many(root, [store.FactInput("crash", f"c{trial}-{k}", "status", "v")
                               for k in range(30)])
    command = "rebuild" if trial % 2 else "sync"
    kill_after([sys.executable, "-m", "memrepo", "--repo", str(root), "cache", command],
               rng.uniform(0.2, 1.2), env)
    assert doctor(root, repair=True).healthy
    open_fresh(root).close()  # the next query
    reference = work / f"reference-{trial}.sqlite"
    build_into(root, reference)
    assert dump(root / ".memrepo/cache.sqlite") == dump(reference)


def run_trials(root: Path, seed: int, remember_trials: int, cache_trials: int,
               env: dict[str, str], work: Path) -> None:
    rng = random.Random(seed)
    kinds = ["remember"] * remember_trials + ["cache"] * cache_trials
    rng.shuffle(kinds)
    for trial, kind in enumerate(kinds):
        if kind == "remember":
            remember_trial(root, rng, trial, env)
        else:
            cache_trial(root, rng, trial, env, work)
    assert main(["--repo", str(root), "verify"]) == 0


def test_six_kills(synth_repo: Path, git_env: dict[str, str], tmp_path: Path) -> None:
    """Four writers and a cache rebuild and a cache sync (seed 2 shuffles them so) killed
    at random moments: what each kind of kill leaves behind is proven; more trials of the
    same are the --long variant's and `memrepo bench crashes`'."""
    run_trials(synth_repo, seed=2, remember_trials=4, cache_trials=2, env=git_env,
               work=tmp_path)


@pytest.mark.long
def test_a_hundred_and_twenty_kills(synth_repo: Path, git_env: dict[str, str],
                                    tmp_path: Path) -> None:
    run_trials(synth_repo, seed=2, remember_trials=80, cache_trials=40, env=git_env,
               work=tmp_path)
