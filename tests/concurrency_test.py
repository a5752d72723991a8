"""Concurrent writers on one clone (SPEC §10): library processes and MCP servers append to
the same log at once; the write lock serialises them. Every event lands exactly once, in
id and recorded_at order, every commit passes `memrepo verify`, `git status` is clean.
And a person committing while an agent writes: neither is refused for the other."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from memrepo.cli import main
from memrepo.facts.segments import read_scope
from memrepo.maintenance.doctor import doctor
from tests.support import git, write

SCOPE = "shared"
WORKER = """
import sys
from pathlib import Path
from memrepo.facts import writes as store
root, name, count = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for number in range(count):
    store.remember(root, scope="shared", subject=f"{name}-{number}", relation="status",
                   object=f"value {number}", source="test", quote=f"{name} said {number}",
                   session=name)
"""


def start_workers(root: Path, names: list[str], count: int,
                  env: dict[str, str]) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", WORKER, str(root), name, str(count)],
                             env=env, stderr=subprocess.PIPE) for name in names]


async def _mcp_writer(root: Path, name: str, count: int, env: dict[str, str]) -> None:
    params = StdioServerParameters(
        command=sys.executable, env=env, cwd=str(root),
        args=["-m", "memrepo", "--repo", str(root), "serve", "--scope", SCOPE,
              "--session", name, "--trust", "host"])
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        for number in range(count):
            result: Any = await session.call_tool("remember", {
                "subject": f"{name}-{number}", "relation": "status",
                "object": f"value {number}", "quote": f"{name} said {number}"})
            assert not result.is_error, result.content
            assert "added" in str(result.content), result.content


async def _mcp_writers(root: Path, names: list[str], count: int,
                       env: dict[str, str]) -> None:
    async with anyio.create_task_group() as group:
        for name in names:
            group.start_soon(_mcp_writer, root, name, count, env)


def run_concurrently(root: Path, processes: int, servers: int, count: int,
                     env: dict[str, str]) -> list[str]:
    env = {**env, "MEMREPO_LOCK_TIMEOUT": "300"}
    workers = [f"p{n}" for n in range(processes - servers)]
    mcp = [f"mcp{n}" for n in range(servers)]
    running = start_workers(root, workers, count, env)
    anyio.run(_mcp_writers, root, mcp, count, env)
    for process in running:
        _, err = process.communicate(timeout=600)
        assert process.returncode == 0, err.decode()
    return workers + mcp


def check_invariants(root: Path, names: list[str], count: int) -> None:
    events = read_scope(root, SCOPE)
    subjects = sorted(e.subject or "" for e in events)
    assert subjects == sorted(f"{n}-{i}" for n in names for i in range(count))
    ids = [e.id for e in events]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)  # file order = id order
    times = [e.recorded_at for e in events]
    assert times == sorted(times)
    assert main(["--repo", str(root), "verify"]) == 0
    assert subprocess.run(["git", "status", "--porcelain"], cwd=root, capture_output=True,
                          check=True).stdout == b""
    assert doctor(root).findings == []
    commits = subprocess.run(["git", "rev-list", "--count", "HEAD"], cwd=root,
                             capture_output=True, text=True, check=True).stdout
    assert int(commits) == 1 + len(names) * count  # memrepo init + one per remember


def test_four_writers_two_of_them_mcp_servers(memory_repo: Path,
                                              git_env: dict[str, str]) -> None:
    names = run_concurrently(memory_repo, processes=4, servers=2, count=10, env=git_env)
    check_invariants(memory_repo, names, 10)


@pytest.mark.long
def test_eight_writers_fifty_each(memory_repo: Path, git_env: dict[str, str]) -> None:
    names = run_concurrently(memory_repo, processes=8, servers=2, count=50, env=git_env)
    check_invariants(memory_repo, names, 50)


# --- a person committing while an agent writes (SPEC §10, issue 10 #8) -------------------

AGENT_LOOP = """
import json, subprocess, sys
from pathlib import Path
repo, stop, log = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
number = 0
while not stop.exists() or number < 3:
    done = subprocess.run([sys.executable, "-m", "memrepo", "--repo", repo, "remember",
                           "--scope", "agent", f"subject{number}", "status",
                           f"value {number}", "--json"], capture_output=True, text=True)
    with log.open("a") as out:
        out.write(json.dumps({"number": number, "rc": done.returncode,
                              "stdout": done.stdout, "stderr": done.stderr}) + "\\n")
    number += 1
"""


def person_commits_while_agent_writes(repo: Path, tmp_path: Path, env: dict[str, str],
                                      commits: int) -> None:
    """An agent loop of `memrepo remember` (one process each) while a person commits,
    alternating `git add f && git commit` and `git commit -a`. Neither side may be refused
    for the other's in-flight work, nobody commits half of it, statuses are true."""
    stop, log = tmp_path / "stop", tmp_path / "agent.jsonl"
    agent = subprocess.Popen([sys.executable, "-c", AGENT_LOOP, str(repo), str(stop),
                              str(log)], env={**env, "MEMREPO_LOCK_TIMEOUT": "120"})
    person: list[subprocess.CompletedProcess[str]] = []
    try:
        while not log.exists():
            time.sleep(0.05)
        for number in range(commits):
            write(repo, "memory/TRIGGERS.md", (repo / "memory" / "TRIGGERS.md").read_text()
                  + f"\nNote {number} from the person.\n")
            if number % 2:
                person.append(git(repo, "commit", "-q", "-a", "-m", f"person {number}",
                                  check=False))
            else:
                git(repo, "add", "memory/TRIGGERS.md", check=False)
                person.append(git(repo, "commit", "-q", "-m", f"person {number}",
                                  check=False))
    finally:
        stop.touch()
        agent.wait(timeout=600)
    assert [d.stdout + d.stderr for d in person if d.returncode != 0] == []
    runs = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r for r in runs if r["rc"] != 0] == []
    logs = git(repo, "ls-tree", "-r", "--name-only", "HEAD", "memory/facts/agent").stdout
    committed = "".join(git(repo, "show", f"HEAD:{path}").stdout for path in logs.split())
    for run in runs:
        assert committed.count(f'"id":"{json.loads(run["stdout"])["id"]}"') == 1, run
    for sha in git(repo, "log", "--format=%H", "--", "memory/facts").stdout.split():
        assert "Session:" in git(repo, "log", "-1", "--format=%B", sha).stdout, sha
    assert git(repo, "status", "--porcelain").stdout == ""
    assert main(["--repo", str(repo), "verify"]) == 0
    assert doctor(repo).findings == []
    write(repo, "memory/TRIGGERS.md", "# Triggers\n\n| trigger | notes |\n|---|---|\n")
    assert git(repo, "commit", "-q", "-am", "after", check=False).returncode == 0


def test_a_person_committing_while_an_agent_writes(memory_repo: Path, tmp_path: Path,
                                                   git_env: dict[str, str]) -> None:
    person_commits_while_agent_writes(memory_repo, tmp_path, git_env, commits=4)


@pytest.mark.long
def test_a_person_committing_forty_times_while_an_agent_writes(
        memory_repo: Path, tmp_path: Path, git_env: dict[str, str]) -> None:
    person_commits_while_agent_writes(memory_repo, tmp_path, git_env, commits=40)
