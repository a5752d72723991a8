"""Concurrent writers on one clone (SPEC §10): library processes and MCP servers append to
the same log at once; the write lock serialises them. Every event lands exactly once, in
id and recorded_at order, every commit passes `memrepo verify`, `git status` is clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from memrepo.cli import main
from memrepo.facts.segments import read_scope
from memrepo.maintenance.doctor import doctor

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
