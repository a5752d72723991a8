"""memrepo serve --scope S --session ID [--trust host|untrusted]: the MCP stdio server."""

from __future__ import annotations

import argparse
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve", help="run the MCP server (stdio) for one scope, session and trust level",
        description="Serve remember / recall / forget over MCP on stdio. Scope, session "
                    "and trust are fixed here; the agent cannot change them.")
    parser.add_argument("--scope", required=True, help="the memory scope (a slug)")
    parser.add_argument("--session", required=True, help="the session id to journal under")
    parser.add_argument("--trust", choices=("host", "untrusted"), default="host",
                        help="untrusted sessions write only to quarantine-<scope> and read "
                             "only that quarantine")
    parser.add_argument("--grant-host-reads", action="store_true",
                        help="let an untrusted session also read the host scope's facts "
                             "and the notes (it still writes only to quarantine)")


def run(args: argparse.Namespace) -> int:
    from memrepo.agent.mcp_server import Session, build_server
    from memrepo.core.policy.trust import check_scope
    from memrepo.repo_root import find_root

    session = Session(find_root(args.repo), check_scope(args.scope), args.session, args.trust,
                      args.grant_host_reads)
    build_server(session).run("stdio")
    return 0
