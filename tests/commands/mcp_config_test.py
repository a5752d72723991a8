"""`memrepo mcp-config`: each client's snippet, as printed, starts a server that a real MCP
client talks to (SPEC §8, §11)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from mcp.client.stdio import StdioServerParameters

from memrepo.agent.api import Memory
from memrepo.agent.clients import CLIENTS, memrepo_command
from tests.support import IDENTITY, ROOT, cli, git, mcp_calls, memrepo, output

APRIL_BILL = ("recall", {"subject": "electricity_bill", "relation": "amount",
                         "as_of": "2026-04-15"})


def _client_env(git_env: dict[str, str]) -> dict[str, str]:
    """What a desktop client gives the server: a short PATH (git's folder, never the folder
    memrepo is installed in), HOME and the test's git identity."""
    git_folder = str(Path(shutil.which("git") or "/usr/bin/git").parent)
    return {**IDENTITY, "PATH": os.pathsep.join(dict.fromkeys([git_folder, "/usr/bin", "/bin"])),
            "HOME": git_env["HOME"], "GIT_CONFIG_NOSYSTEM": "1", "MEMREPO_VECTORS": "0"}


def _printed_command(client: str, done: subprocess.CompletedProcess[str],
                     ) -> tuple[str, list[str]]:
    """(command, args) exactly as the snippet on stdout says; the rest of stdout is empty."""
    assert done.returncode == 0, output(done)
    if client == "claude-code":
        (line,) = done.stdout.splitlines()
        words = shlex.split(line)
        assert words[:7] == ["claude", "mcp", "add", "--transport", "stdio", "memrepo", "--"]
        return words[7], words[8:]
    snippet: dict[str, Any] = json.loads(done.stdout)
    key = "servers" if client == "vscode" else "mcpServers"
    assert list(snippet) == [key] and list(snippet[key]) == ["memrepo"], snippet
    server = snippet[key]["memrepo"]
    fields = {"type", "command", "args"} if client == "vscode" else {"command", "args"}
    assert set(server) == fields and server.get("type", "stdio") == "stdio", server
    return server["command"], server["args"]


@pytest.mark.parametrize("client", ["claude-desktop", "claude-code", "cursor", "vscode"])
def test_the_printed_snippet_starts_a_server_that_answers(
        client: str, demo_repo: Path, git_env: dict[str, str], tmp_path: Path) -> None:
    done = cli(demo_repo, "mcp-config", "--client", client, "--scope", "michal",
               "--session", f"{client}-session")
    command, args = _printed_command(client, done)
    assert Path(command).is_absolute() and os.access(command, os.X_OK), command
    assert args[args.index("--repo") + 1] == str(demo_repo.resolve())
    assert args[-6:] == ["--scope", "michal", "--session", f"{client}-session", "--trust",
                         "host"]
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 2, done.stderr
    elsewhere = tmp_path / "client-working-directory"
    elsewhere.mkdir()
    (found,) = mcp_calls(StdioServerParameters(command=command, args=args,
                                               env=_client_env(git_env), cwd=str(elsewhere)),
                         [APRIL_BILL])
    assert [fact["object"] for fact in found["facts"]] == ["280 zł"], found


def test_an_untrusted_snippet_writes_to_quarantine(memory_repo: Path,
                                                   git_env: dict[str, str]) -> None:
    """Run as a person runs it (the `memrepo` on PATH, inside the repository, no --repo)."""
    done = memrepo(memory_repo, "mcp-config", "--client", "cursor", "--scope", "michal",
                   "--session", "web", "--trust", "untrusted")
    command, args = _printed_command("cursor", done)
    assert args[args.index("--repo") + 1] == str(memory_repo.resolve())
    (added,) = mcp_calls(StdioServerParameters(command=command, args=args,
                                               env=_client_env(git_env)), [
        ("remember", {"subject": "michal", "relation": "city", "object": "Łódź",
                      "quote": "I live in Łódź"})])
    assert added["status"] == "added", added
    memory = Memory.open(memory_repo)
    assert memory.recall("michal", subject="michal", relation="city").status == "not_recorded"
    (fact,) = memory.recall("quarantine-michal", subject="michal", relation="city").facts
    assert fact.object == "Łódź" and fact.trust == "untrusted"


def test_the_snippet_is_all_stdout_holds(memory_repo: Path, tmp_path: Path) -> None:
    """`… > file` writes the snippet alone; where it goes is said on stderr. `--repo` may
    follow the command, and `--name` names the server."""
    target = tmp_path / "mcp.json"
    with target.open("w", encoding="utf-8") as handle:
        done = subprocess.run(
            ["memrepo", "mcp-config", "--client", "vscode", "--scope", "michal", "--session",
             "code", "--name", "memory-work", "--repo", str(memory_repo)],
            stdout=handle, stderr=subprocess.PIPE, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert list(json.loads(target.read_text(encoding="utf-8"))["servers"]) == ["memory-work"]
    assert ".vscode/mcp.json" in done.stderr and "To check:" in done.stderr


def test_bad_input_is_refused_in_one_line(memory_repo: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    git(plain, "init", "-q")
    base = ["mcp-config", "--scope", "michal", "--session", "s"]
    unknown = cli(memory_repo, *base, "--client", "zed")
    assert unknown.returncode == 2 and unknown.stdout == "", output(unknown)
    assert unknown.stderr.startswith("memrepo mcp-config: argument --client: invalid choice: "
                                     "'zed'"), unknown.stderr
    refusals = {
        "not a memory repository": cli(plain, *base, "--client", "cursor"),
        "is not a directory": cli(memory_repo, *base, "--client", "cursor", "--repo",
                                  str(tmp_path / "missing")),
        "holds the character U+001B": cli(memory_repo, "mcp-config", "--client", "vscode",
                                           "--scope", "michal", "--session", "a\x1b[2Jb"),
        "is not a slug": cli(memory_repo, "mcp-config", "--client", "cursor", "--scope",
                             "Michał", "--session", "s"),
        "is not a plain name": cli(memory_repo, *base, "--client", "cursor", "--name",
                                   "my server"),
    }
    for expected, done in refusals.items():
        assert done.returncode == 1 and done.stdout == "", (expected, output(done))
        first, fix = done.stderr.splitlines()
        assert expected in first and fix.startswith("  To fix:"), (expected, done.stderr)
        assert "\x1b" not in done.stderr


DOC_SESSIONS = {"claude-desktop": "desktop", "claude-code": "code", "cursor": "cursor",
                "vscode": "vscode"}


@pytest.mark.parametrize("client", sorted(DOC_SESSIONS))
def test_docs_show_what_the_command_prints(client: str, memory_repo: Path) -> None:
    """docs/mcp.md's snippet for each client is the command's output, with the example's
    paths in place of this machine's."""
    doc = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    section = doc.split(f"\n## {CLIENTS[client].label}\n")[1].split("\n## ")[0]
    shown = re.search(r"```(?:json|sh|text)\n(.*?)\n```", section, re.DOTALL)
    assert shown is not None, client
    done = cli(memory_repo, "mcp-config", "--client", client, "--scope", "michal",
               "--session", DOC_SESSIONS[client])
    assert done.returncode == 0, output(done)
    (command,) = memrepo_command()  # the test's interpreter has its console script
    printed = done.stdout.rstrip("\n").replace(command, "/home/michal/.local/bin/memrepo")
    assert printed.replace(str(memory_repo.resolve()), "/home/michal/memory") == shown.group(1)
