"""One module per `memrepo` subcommand: `add_parser(subparsers)` and `run(args) -> int`."""

from __future__ import annotations

import sys
from pathlib import Path


def warn_if_scope_is_empty(command: str, root: Path, scope: str) -> None:
    """A misspelt --scope answers "not recorded" like any unrecorded fact: when the scope
    holds no facts at all, say so on stderr, with the scopes that do (called only when
    nothing was found, so the common path never opens the cache twice)."""
    from memrepo.agent.api import Memory

    memory = Memory(root)
    if memory.holds_facts(scope):
        return
    print(f"memrepo {command}: scope '{scope}' holds no facts (scopes that do: "
          f"{', '.join(memory.scopes()) or 'none yet'})\n"
          "  To fix: give --scope one of those, or remember a fact in this one first",
          file=sys.stderr)
