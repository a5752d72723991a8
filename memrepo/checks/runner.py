"""Runs the §6 commit-time checks (the modules of memrepo.hooks) over a `Change`.

Stages (ARCHITECTURE.md): `pre-commit` runs the checks that need no commit message,
`commit-msg` those that do, `all` both. A check that needs the message is skipped when
there is none (e.g. `memrepo check --all` without `--message-file`). The checks come from
one static registry (`memrepo.hooks.checks()`): a check module that cannot be imported
refuses every commit, naming it. A crash inside a check becomes a Problem — a refusal
never shows a traceback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import TYPE_CHECKING, Literal

from memrepo.check_support import CheckModule, crash_problem, guarded
from memrepo.core.problems import Problem
from memrepo.hooks import checks  # hooks/ is installed as memrepo.hooks (package-dir)

if TYPE_CHECKING:
    from memrepo.core.change import Change

Stage = Literal["pre-commit", "commit-msg", "all"]
STAGES: tuple[Stage, ...] = ("pre-commit", "commit-msg", "all")
Registry = Callable[[], Sequence[CheckModule]]
"""The checks in running order; a module that cannot be imported raises."""


def run_checks(change: Change, stage: Stage, history: bool = False,
               only: frozenset[str] | None = None, registry: Registry = checks,
               ) -> list[Problem]:
    """Every problem the checks of `stage` find in `change`. `history`: re-checking a
    commit already made (`memrepo verify`): the checks that judge only what is being
    committed now (a module with `IN_HISTORY = False`) are left out. `only`: the checks of
    these names (`check_name`) alone. `registry`: the checks, in running order (the
    static one of memrepo.hooks)."""
    try:
        modules = registry()
    except Exception as err:  # a broken installation refuses, never crashes
        return [crash_problem("memrepo.hooks", err)]
    problems: list[Problem] = []
    for module in modules:
        if history and not getattr(module, "IN_HISTORY", True):
            continue
        if only is not None and check_name(module) not in only:
            continue
        if _runs_at(module, stage, change):
            problems.extend(guarded(module.__name__, module.check, change))
    return problems


def registered_checks(registry: Registry = checks) -> tuple[CheckModule, ...]:
    """Every check, in running order (hooks/__init__.py: memrepo.hooks.checks)."""
    return tuple(registry())


def check_name(module: CheckModule) -> str:
    """A check's name: its module's (`headers`, `fact_logs`, …)."""
    return module.__name__.rpartition(".")[2]


def prepare_checks(registry: Registry = checks) -> None:
    """Import every check ahead of the change (while git works). A check that cannot be
    imported is left to `run_checks`, which reports it. (The schema validator is left to
    the first note: its import overlaps git reading the blobs, and a change without notes
    or logs needs none.)"""
    with suppress(Exception):
        registry()


def _runs_at(module: CheckModule, stage: Stage, change: Change) -> bool:
    if module.NEEDS_MESSAGE and change.message is None:
        return False
    return stage == "all" or (stage == "commit-msg") == module.NEEDS_MESSAGE
