"""Nothing under .memrepo/ is committed (memrepo.hooks.local_state): a pulled file or
symbolic link there would redirect the clone's journal or lock."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from memrepo.hooks import local_state

from tests.support import CONFIG, dict_change, git

BASE = {"memory/config.yaml": CONFIG}


def test_a_path_under_memrepo_is_refused_and_removing_one_is_not() -> None:
    journal = ".memrepo/journal/mail-agent.jsonl"
    [refusal] = local_state.check(dict_change(BASE, {**BASE, journal: b"../../bashrc"}))
    assert refusal.path == journal and "git rm -r --cached" in refusal.fix
    assert local_state.check(dict_change({**BASE, journal: b"x"}, BASE)) == []
    assert local_state.check(dict_change(BASE, {**BASE, "memrepo.txt": b"x"})) == []


def test_a_planted_journal_link_never_redirects_the_journal(
        memory_repo: Path, tmp_path: Path, git_env: dict[str, str]) -> None:
    """A tracked symlink .memrepo/journal/<session>.jsonl (committed with --no-verify, the
    way a hostile peer would) is refused by the checks, and in a clone that has it anyway
    the session's journal is not written through it."""
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
    assert "not_recorded" in answer  # the call is still answered
    assert victim.read_text() == "# my shell settings\n"


async def _recall(params: StdioServerParameters) -> str:
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("recall", {"query": "$(touch pwned) phone"})
        return str(result.content)
