"""What a memory repository may track at all (issue 10 B1): nothing under .memrepo/, no
symbolic links where memrepo reads or writes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from memrepo.hooks import tracked_paths

from memrepo.checks.runner import run_checks
from memrepo.core.change import SYMLINK_MODE, Change, DictSnapshot, FileChange
from memrepo.core.config import Config
from tests.support import HOOKS_OFF, git


def change(*files: FileChange) -> Change:
    snapshot = DictSnapshot({f.path: b"x" for f in files})
    return Change(DictSnapshot(), snapshot, files, Config(), commit_time=0)


def test_nothing_under_memrepo_is_ever_committed() -> None:
    [problem] = tracked_paths.check(change(FileChange("added", ".memrepo/journal/a.jsonl")))
    assert problem.path == ".memrepo/journal/a.jsonl" and "git rm --cached" in problem.fix
    assert tracked_paths.check(change(FileChange("deleted", ".memrepo/cache.sqlite"))) == []
    [link] = tracked_paths.check(change(FileChange("added", ".memrepo", SYMLINK_MODE)))
    assert link.path == ".memrepo" and "never committed" in link.problem


def test_a_planted_cache_folder_link_is_refused_not_read(
        memory_repo: Path, tmp_path: Path, git_env: dict[str, str]) -> None:
    """A pulled commit (made with --no-verify) that tracks `.memrepo` as a link to a cache
    of its own, or a link beside the cache, is refused by `memrepo verify`, and a query in a
    clone that has it anyway names the link instead of reading or writing through it."""
    planted = tmp_path / "planted"
    planted.mkdir()
    (memory_repo / ".memrepo").rename(planted / "state")
    (memory_repo / ".memrepo").symlink_to(planted / "state")
    git(memory_repo, "add", "-f", ".memrepo")
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-m", "harmless looking")
    verify = run_memrepo(memory_repo, "verify")
    assert verify.returncode == 1 and ".memrepo" in verify.stdout + verify.stderr
    recall = run_memrepo(memory_repo, "recall", "--scope", "michal", "phone")
    assert recall.returncode == 1 and "Traceback" not in recall.stderr
    assert recall.stderr.startswith("memrepo recall: .memrepo: is a symbolic link")
    registered = planted / "state" / "git-commands" / "99999"  # a dead pid's entry
    registered.parent.mkdir(exist_ok=True)
    registered.write_text("git")
    write = run_memrepo(memory_repo, "remember", "--scope", "michal", "car", "colour", "red",
                        "--source", "manual")
    assert write.returncode == 1 and "is a symbolic link" in write.stderr
    assert registered.exists()  # nothing deleted through the link
    (memory_repo / ".memrepo").unlink()
    (memory_repo / ".memrepo").mkdir()
    victim = tmp_path / "victim"
    victim.write_text("mine\n")
    (memory_repo / ".memrepo" / "cache.sqlite-journal").symlink_to(victim)
    again = run_memrepo(memory_repo, "recall", "--scope", "michal", "phone")
    assert again.returncode == 1 and ".memrepo/cache.sqlite-journal" in again.stderr
    assert victim.read_text() == "mine\n"


def run_memrepo(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(root), *args],
                          capture_output=True, text=True, check=False, timeout=120)


def test_symbolic_links_are_refused_where_memrepo_reads_and_writes() -> None:
    for path in ("memory/facts/ext", "memory/entities/x.md", "schema/notes",
                 ".gitattributes", "memory/config.yaml", ".memrepo-allowed-signers"):
        [problem] = tracked_paths.check(change(FileChange("added", path, SYMLINK_MODE)))
        assert "symbolic link" in problem.problem, path
    for path in ("docs/link.md", "tools/bin"):
        assert tracked_paths.check(change(FileChange("added", path, SYMLINK_MODE))) == []


def test_it_runs_with_the_other_message_free_checks() -> None:
    local = change(FileChange("added", ".memrepo/cache.sqlite"))
    assert any(p.path == ".memrepo/cache.sqlite" for p in run_checks(local, "pre-commit"))


def test_a_planted_journal_link_never_redirects_the_journal(
        memory_repo: Path, tmp_path: Path, git_env: dict[str, str]) -> None:
    """A tracked symlink .memrepo/journal/<session>.jsonl (committed with --no-verify, the
    way a hostile peer would) is refused by the checks, and in a clone that has it anyway
    the session's journal is not written through it: the call is refused."""
    victim = tmp_path / "bashrc"
    victim.write_text("# my shell settings\n")
    journal = memory_repo / ".memrepo" / "journal"
    journal.mkdir(parents=True, exist_ok=True)
    (journal / "mail-agent.jsonl").symlink_to(os.path.relpath(victim, journal))
    git(memory_repo, "add", "-f", ".memrepo/journal/mail-agent.jsonl")
    refused = git(memory_repo, "commit", "-q", "-m", "harmless looking", check=False)
    assert refused.returncode == 1 and ".memrepo/journal/mail-agent.jsonl" in refused.stderr
    params = StdioServerParameters(
        command=sys.executable, env=git_env, cwd=str(memory_repo),
        args=["-m", "memrepo", "--repo", str(memory_repo), "serve", "--scope", "michal",
              "--session", "mail-agent", "--trust", "untrusted"])
    answer = anyio.run(_recall, params)
    # answered: refused, never run unjournaled (issue 21 item 6)
    assert '"status": "refused"' in answer and "symbolic link" in answer
    assert victim.read_text() == "# my shell settings\n"


async def _recall(params: StdioServerParameters) -> str:
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("recall", {"query": "$(touch pwned) phone"})
        return str(result.content)
