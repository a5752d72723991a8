"""The MCP clients people connect memrepo to (SPEC §8): the snippet each one's own
configuration takes to start `memrepo serve`, and where that configuration lives.

A client starts the server from its own working directory with a short PATH (Claude
Desktop starts it from `/`), so the snippet names the installed `memrepo` by its absolute
path and the repository by `--repo` with its absolute path.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import sys
import sysconfig
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from memrepo.core.display import describe_character, invisible_character, unsafe_character
from memrepo.core.problems import InputError, Problem

SERVER_NAME = "memrepo"
"""The server's name in a client's configuration unless `--name` says otherwise."""
_SERVER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


@dataclass(frozen=True)
class Client:
    """One client: where its configuration lives and how a server is written in it."""

    label: str
    where: str
    """What to do with the snippet: where it goes (said on stderr and in `--help`)."""
    check: str
    """How to see that the client started the server."""
    render: Callable[[str, Sequence[str]], str]


def _servers_json(key: str, with_type: bool) -> Callable[[str, Sequence[str]], str]:
    """`{key: {name: {command, args}}}`, indented, with the arguments on one line (as the
    clients' own documentation writes them)."""
    def render(name: str, command: Sequence[str]) -> str:
        def text(value: object) -> str:
            return json.dumps(value, ensure_ascii=False)

        fields = [*(['"type": "stdio"'] if with_type else []),
                  f'"command": {text(command[0])}', f'"args": {text(list(command[1:]))}']
        return "\n".join(["{", f"  {text(key)}: {{", f"    {text(name)}: {{",
                          ",\n".join(f"      {field}" for field in fields),
                          "    }", "  }", "}"])
    return render


def _claude_mcp_add(name: str, command: Sequence[str]) -> str:
    return shlex.join(["claude", "mcp", "add", "--transport", "stdio", name, "--", *command])


CLIENTS: dict[str, Client] = {
    "claude-desktop": Client(
        "Claude Desktop",
        'put it in claude_desktop_config.json, under "mcpServers" (macOS: ~/Library/Application '
        "Support/Claude/, Windows: %APPDATA%\\Claude\\; Settings > Developer > Edit Config "
        "opens it), beside any servers already there; then quit and reopen Claude Desktop",
        "the tools menu of a new chat lists remember, recall and forget",
        _servers_json("mcpServers", with_type=False)),
    "claude-code": Client(
        "Claude Code",
        "run it in the project's folder (Claude Code keeps it in ~/.claude.json "
        "for that project; add `-s user` before the name for every project, or put the "
        'server under "mcpServers" in .mcp.json at the project root)',
        "`claude mcp list` says connected; /mcp inside Claude Code lists the tools",
        _claude_mcp_add),
    "cursor": Client(
        "Cursor",
        'put it in .cursor/mcp.json in the project (or ~/.cursor/mcp.json for every '
        'project), under "mcpServers" beside any servers already there',
        "Cursor Settings > MCP (Tools & MCP) shows the server enabled with three tools",
        _servers_json("mcpServers", with_type=False)),
    "vscode": Client(
        "VS Code",
        'put it in .vscode/mcp.json in the workspace (or the user mcp.json that "MCP: Open User '
        'Configuration" opens), under "servers" beside any servers already there',
        '"MCP: List Servers" shows it running; the Chat view\'s tools list its three tools',
        _servers_json("servers", with_type=True)),
}


def memrepo_command(argv0: str | None = None,
                    scripts_dirs: Sequence[Path] | None = None) -> list[str]:
    """The installed `memrepo` this process runs from, as an absolute command: the script
    it was started as, else this interpreter's own `memrepo` script, else this interpreter
    with `-m memrepo` (never a `memrepo` found on PATH: it may be another installation)."""
    started_as = Path(sys.argv[0] if argv0 is None else argv0)
    if _is_memrepo_script(started_as):
        return [os.path.abspath(started_as)]
    for folder in _scripts_dirs() if scripts_dirs is None else scripts_dirs:
        for name in ("memrepo", "memrepo.exe"):
            if _is_memrepo_script(folder / name):
                return [os.path.abspath(folder / name)]
    return [os.path.abspath(sys.executable), "-m", "memrepo"]


def _is_memrepo_script(path: Path) -> bool:
    return (path.name in ("memrepo", "memrepo.exe") and path.is_file()
            and os.access(path, os.X_OK))


def _scripts_dirs() -> list[Path]:
    """Where this interpreter's installs put console scripts: its own, then the user's."""
    folders = [sysconfig.get_path("scripts")]
    with suppress(KeyError):  # an interpreter without a user scheme
        folders.append(sysconfig.get_path("scripts", sysconfig.get_preferred_scheme("user")))
    return [Path(folder) for folder in folders if folder]


def serve_command(memrepo: Sequence[str], root: Path, scope: str, session: str,
                  trust: str, grant_host_reads: bool = False) -> list[str]:
    """The command line a client runs: `memrepo --repo ROOT serve …`, every part printable
    as it is (no control or invisible character: a person reads the snippet)."""
    if not session.strip() or session.startswith("-"):
        raise InputError(Problem("--session", "is empty" if not session.strip() else
                                 f"{session[:80]!r} starts with '-' (read as an option)",
                                 "name the session, e.g. --session desktop"))
    named = [("--session", session), ("--repo", str(root)),
             *(("the memrepo command", part) for part in memrepo)]
    for what, text in named:
        bad = unsafe_character(text) or invisible_character(text)
        if bad is not None:
            raise InputError(Problem(what, f"holds the character {describe_character(bad)}",
                                     "use names and folders of visible characters"))
    return [*memrepo, "--repo", str(root), "serve", "--scope", scope, "--session", session,
            "--trust", trust, *(["--grant-host-reads"] if grant_host_reads else [])]


def check_server_name(name: str) -> str:
    """A server name every client accepts: letters, digits, '-' and '_'."""
    if not _SERVER_NAME.fullmatch(name):
        raise InputError(Problem("--name", f"{name[:80]!r} is not a plain name",
                                 "use letters, digits, '-' and '_', e.g. --name memrepo-work"))
    return name


def snippet(client: str, name: str, command: Sequence[str]) -> str:
    """What the client's configuration takes to start `command` as server `name`."""
    return CLIENTS[client].render(name, command)
