"""memrepo: a git-native long-term memory for AI agents.

    from memrepo import Memory    # the Python API (memrepo.agent.api.Memory)

`Memory` is imported on first use, so the command line starts without it.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memrepo.agent.api import Memory

__all__ = ["Memory"]


def __getattr__(name: str) -> object:
    if name == "Memory":
        from memrepo.agent.api import Memory

        return Memory
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
