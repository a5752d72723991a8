"""Writes across a small `segment_max_bytes` (SPEC §4) through the real CLI and hooks: the
month's newest segment takes the appends, `.2`, `.3` … open at the cap, every commit passes
the checks, recall and verify see every fact, a hand-made segment out of turn is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memrepo.core.facts.segment_names import sorted_segments
from tests.support import (
    cli,
    copy_repo,
    git,
    isolated_env,
    output,
    set_environment,
    set_segment_cap,
)

CAP = 1024


def segments(repo: Path, scope: str = "michal") -> list[str]:
    """The scope's segment names, oldest first, with the month written as `M`."""
    folder = repo / "memory" / "facts" / scope
    found = sorted_segments(f"memory/facts/{scope}/{p.name}" for p in folder.iterdir())
    return [s.name.replace(s.month, "M") for s in found]


def remember(repo: Path, number: int, env: dict[str, str]) -> None:
    done = cli(repo, "remember", "--scope", "michal", f"supplier-{number}", "phone",
               f"+48 600 100 {number:03d}", "--quote", f"call supplier {number}",
               "--source", "chat", "--json", env=env)
    assert done.returncode == 0, output(done)
    assert json.loads(done.stdout)["status"] == "added"


@pytest.fixture(scope="module")
def four_written(memory_template: Path, git_home: Path,
                 tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A memory whose segments are capped at CAP, after four `memrepo remember`s: both
    tests' start, written once."""
    repo = copy_repo(memory_template, tmp_path_factory.mktemp("capped") / "memory-repo")
    with pytest.MonkeyPatch.context() as patch:
        env = isolated_env(git_home)
        set_environment(patch, env)
        set_segment_cap(repo, CAP)
        for number in range(4):
            remember(repo, number, env)
    return repo


@pytest.fixture()
def capped_repo(four_written: Path, tmp_path: Path, git_env: dict[str, str]) -> Path:
    """four_written, copied for one test (memory_repo's environment: git_env)."""
    return copy_repo(four_written, tmp_path / "memory-repo")


def test_writes_across_the_cap_open_numbered_segments_and_recall_sees_every_fact(
        capped_repo: Path, git_env: dict[str, str]) -> None:
    for number in range(4, 12):  # after the four of four_written
        remember(capped_repo, number, git_env)
    names = segments(capped_repo)
    assert names[:3] == ["M.jsonl", "M.2.jsonl", "M.3.jsonl"]  # (a month may turn meanwhile)
    folder = capped_repo / "memory" / "facts" / "michal"
    sizes = [path.stat().st_size for path in folder.iterdir()]
    assert all(size <= CAP for size in sizes)  # lines of ≈ 330 bytes: none passes the cap
    assert git(capped_repo, "status", "--porcelain").stdout == ""
    for number in (0, 5, 11):
        done = cli(capped_repo, "recall", "--scope", "michal", "--subject",
                   f"supplier-{number}", "--relation", "phone", "--json",
                   env=git_env)
        facts = json.loads(done.stdout)["facts"]
        assert [f["object"] for f in facts] == [f"+48 600 100 {number:03d}"]
    history = cli(capped_repo, "history", "--scope", "michal", "supplier-11", "phone",
                  "--json", env=git_env)
    assert len(json.loads(history.stdout)["events"]) == 1
    verified = cli(capped_repo, "verify", env=git_env)
    assert verified.returncode == 0, output(verified)
    doctor = cli(capped_repo, "doctor", "--json", env=git_env)
    assert doctor.returncode == 0, output(doctor)


def test_a_person_committing_a_segment_out_of_turn_is_refused(
        capped_repo: Path) -> None:
    assert segments(capped_repo) == ["M.jsonl", "M.2.jsonl"]
    folder = capped_repo / "memory" / "facts" / "michal"
    month = next(folder.glob("*.2.jsonl")).name[:7]
    line = (folder / f"{month}.2.jsonl").read_bytes().splitlines(keepends=True)[0]
    moved = json.loads(line)
    moved["id"] = moved["id"][:-4] + "ZZZZ"
    (folder / f"{month}.4.jsonl").write_text(json.dumps(moved) + "\n")
    git(capped_repo, "add", "-A")
    refused = git(capped_repo, "commit", "-q", "-m", "by hand", check=False)
    assert refused.returncode == 1
    assert f"{month}.4.jsonl: segment {month}.4.jsonl is opened without {month}.3.jsonl" in (
        refused.stdout + refused.stderr)
    git(capped_repo, "rm", "-q", "--cached", f"memory/facts/michal/{month}.4.jsonl")
    (folder / f"{month}.4.jsonl").unlink()
    with (folder / f"{month}.jsonl").open("a") as closed:
        closed.write(json.dumps(moved) + "\n")
    git(capped_repo, "add", "-A")
    refused = git(capped_repo, "commit", "-q", "-m", "by hand", check=False)
    assert refused.returncode == 1 and f"is closed ({month}.2.jsonl follows it)" in (
        refused.stdout + refused.stderr)
