"""One module per `memrepo` subcommand: `add_parser(subparsers)` and `run(args) -> int`."""

from __future__ import annotations

import sys
from contextlib import closing
from pathlib import Path


def warn_if_scope_is_empty(command: str, root: Path, scope: str) -> None:
    """A misspelt --scope answers "not recorded" like any unrecorded fact: when the scope
    holds no facts at all, say so on stderr, with the scopes that do. Called when nothing
    was found, after the command brought the cache up to date: the cache file is read as
    it is (a second look at the work tree would cost a second git scan)."""
    from memrepo.cache.db import cache_path, open_trusted
    from memrepo.cache.query import holds_facts, recorded_scopes
    from memrepo.core.config import QUARANTINE_PREFIX

    conn = open_trusted(cache_path(root))
    if conn is None:
        return
    with closing(conn):
        if holds_facts(conn, scope):
            return
        offered = [s for s in recorded_scopes(conn) if not s.startswith(QUARANTINE_PREFIX)]
    print(f"memrepo {command}: scope '{scope}' holds no facts (scopes that do: "
          f"{', '.join(offered) or 'none yet'})\n"
          "  To fix: give --scope one of those, or remember a fact in this one first",
          file=sys.stderr)
