"""`memrepo mcp-config --client C --scope S --session ID`: the snippet that connects an MCP
client (Claude Desktop, Claude Code, Cursor, VS Code) to `memrepo serve` (SPEC §8)."""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any

from memrepo.agent.clients import CLIENTS, SERVER_NAME


def add_parser(subparsers: Any) -> None:
    where = "\n".join(textwrap.fill(f"{name}: {client.where}", 79, initial_indent="  ",
                                    subsequent_indent="    ")
                      for name, client in CLIENTS.items())
    parser = subparsers.add_parser(
        "mcp-config", help="print the configuration that connects an MCP client to serve",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Print, on stdout and nothing else, what CLIENT's configuration takes to\n"
                    "start `memrepo serve` for this repository: the installed memrepo and\n"
                    "the repository by their absolute paths. Where to put it goes to stderr,\n"
                    "so `memrepo mcp-config … > file` writes only the snippet.",
        epilog=f"where each client's snippet goes:\n{where}")
    parser.add_argument("--client", required=True, choices=tuple(CLIENTS),
                        help="the MCP client to configure")
    parser.add_argument("--scope", required=True, help="the memory scope (a slug)")
    parser.add_argument("--session", required=True,
                        help="the session id the server journals under, e.g. desktop")
    parser.add_argument("--trust", choices=("host", "untrusted"), default="host",
                        help="untrusted sessions write only to quarantine-<scope> and read "
                             "only that quarantine (default: host)")
    parser.add_argument("--grant-host-reads", action="store_true",
                        help="let an untrusted session also read the host scope's facts "
                             "and the notes (it still writes only to quarantine)")
    parser.add_argument("--name", default=SERVER_NAME,
                        help=f"the server's name in the client (default: {SERVER_NAME})")
    parser.add_argument("--repo", metavar="PATH", default=argparse.SUPPRESS,
                        help="the memory repository (as `memrepo --repo PATH`)")


def run(args: argparse.Namespace) -> int:
    from memrepo.agent.clients import (
        check_server_name,
        memrepo_command,
        serve_command,
        snippet,
    )
    from memrepo.core.policy.trust import check_scope
    from memrepo.facts.appender import require_memory
    from memrepo.repo_root import find_root

    root = find_root(args.repo)
    require_memory(root)
    command = serve_command(memrepo_command(), root, check_scope(args.scope), args.session,
                            args.trust, args.grant_host_reads)
    print(snippet(args.client, check_server_name(args.name), command))
    client = CLIENTS[args.client]
    print(f"memrepo mcp-config: {client.label}: {client.where}.\n"
          f"  To check: {client.check}.", file=sys.stderr)
    return 0
