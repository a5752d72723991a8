"""memrepo: a git-native long-term memory for AI agents.

    from memrepo import Memory, InputError   # the Python API (memrepo.agent.api.Memory)

Errors: every refusal is an `InputError` (a `ValueError`) whose text is one line naming
what is wrong and how to fix it, and whose `.detail` is the `Problem`; the kinds a caller may
act on are its subclasses `NotAMemory`, `MemoryBusy` (retry later) and `CheckRefused`
(change the input). Results are the typed records of memrepo.core.records (`RecallResult`,
`Fact`, `WriteResult`, …), each with `to_json()`.

Everything is imported on first use, so the command line starts without it.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from memrepo.agent.api import Memory
    from memrepo.answer.why import Trace
    from memrepo.clock import TimeInput
    from memrepo.core.context_block import Block
    from memrepo.core.problems import CheckRefused, InputError, MemoryBusy, NotAMemory, Problem
    from memrepo.core.records import (
        Fact,
        HistoryEntry,
        NoteMatch,
        RecallResult,
        Replaced,
        SearchHit,
        SearchResult,
        SimilarKey,
        WriteResult,
    )
    from memrepo.facts.new_event import FactInput
    from memrepo.maintenance.sync import SyncRefused

_HOMES = {
    "Memory": "memrepo.agent.api",
    "InputError": "memrepo.core.problems", "NotAMemory": "memrepo.core.problems",
    "MemoryBusy": "memrepo.core.problems", "CheckRefused": "memrepo.core.problems",
    "Problem": "memrepo.core.problems", "SyncRefused": "memrepo.maintenance.sync",
    "TimeInput": "memrepo.clock", "FactInput": "memrepo.facts.new_event",
    "Block": "memrepo.core.context_block", "Trace": "memrepo.answer.why",
    **{name: "memrepo.core.records" for name in (
        "Fact", "HistoryEntry", "NoteMatch", "RecallResult", "Replaced", "SearchHit",
        "SearchResult", "SimilarKey", "WriteResult")},
}

__all__ = [
    "Block", "CheckRefused", "Fact", "FactInput", "HistoryEntry", "InputError", "Memory",
    "MemoryBusy", "NotAMemory", "NoteMatch", "Problem", "RecallResult", "Replaced",
    "SearchHit", "SearchResult", "SimilarKey", "SyncRefused", "TimeInput", "Trace",
    "WriteResult",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(home), name)
