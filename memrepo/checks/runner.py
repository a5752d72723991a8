"""Runs the §6 commit-time checks (the modules of memrepo.hooks) over a `Change`.

Stages (ARCHITECTURE.md): `pre-commit` runs the checks that need no commit message,
`commit-msg` those that do, `all` both. A check that needs the message is skipped when
there is none (e.g. `memrepo check --all` without `--message-file`). The checks come from
one static registry (`memrepo.hooks.checks()`): a check module that cannot be imported
refuses every commit, naming it. A crash inside a check becomes a Problem — a refusal
never shows a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from typing import TYPE_CHECKING, Literal, Protocol

from memrepo.core.problems import InputError, Problem
from memrepo.crashlog import write_crash_log

if TYPE_CHECKING:
    from memrepo.core.change import Change

Stage = Literal["pre-commit", "commit-msg", "all"]
STAGES: tuple[Stage, ...] = ("pre-commit", "commit-msg", "all")
Check = Callable[["Change"], list[Problem]]


class CheckModule(Protocol):
    """One module of memrepo.hooks (hooks/ in the source tree)."""

    __name__: str
    NEEDS_MESSAGE: bool

    def check(self, change: Change) -> list[Problem]: ...


def run_checks(change: Change, stage: Stage, history: bool = False,
               only: frozenset[str] | None = None) -> list[Problem]:
    """Every problem the checks of `stage` find in `change`. `history`: re-checking a
    commit already made (`memrepo verify`): the checks that judge only what is being
    committed now (a module with `IN_HISTORY = False`) are left out. `only`: the checks of
    these names (`check_name`) alone."""
    try:
        modules = registered_checks()
    except Exception as err:  # a broken installation refuses, never crashes
        return [_crash_problem("memrepo.hooks", err)]
    problems: list[Problem] = []
    for module in modules:
        if history and not getattr(module, "IN_HISTORY", True):
            continue
        if only is not None and check_name(module) not in only:
            continue
        if _runs_at(module, stage, change):
            problems.extend(guarded(module.__name__, module.check, change))
    return problems


def registered_checks() -> tuple[CheckModule, ...]:
    """Every check, in running order: memrepo.hooks.checks() (hooks/__init__.py)."""
    from memrepo.hooks import checks  # hooks/ is installed as memrepo.hooks (package-dir)

    modules: tuple[CheckModule, ...] = checks()
    return modules


def check_name(module: CheckModule) -> str:
    """A check's name: its module's (`headers`, `fact_logs`, …)."""
    return module.__name__.rpartition(".")[2]


def prepare_checks() -> None:
    """Import every check ahead of the change (while git works). A check that cannot be
    imported is left to `run_checks`, which reports it. (The schema validator is left to
    the first note: its import overlaps git reading the blobs, and a change without notes
    or logs needs none.)"""
    with suppress(Exception):
        registered_checks()


def _runs_at(module: CheckModule, stage: Stage, change: Change) -> bool:
    if module.NEEDS_MESSAGE and change.message is None:
        return False
    return stage == "all" or (stage == "commit-msg") == module.NEEDS_MESSAGE


def guarded(name: str, check: Check, change: Change) -> list[Problem]:
    """Run one check (`name`: its module); an exception inside it becomes a Problem."""
    try:
        return list(check(change))
    except InputError as err:  # e.g. the repository's own schema/ is unusable
        return [err.detail]
    except Exception as err:  # the one place a check's crash is caught
        return [_crash_problem(name, err)]


def _crash_problem(module: str, err: BaseException) -> Problem:
    name = module.rpartition(".")[2]
    write_crash_log(f"memrepo check: {name}")
    return Problem(module, f"the {name} check failed unexpectedly "
                   f"({type(err).__name__}: {err})",
                   "this is a bug in memrepo, not in your change; report it (the commit "
                   "was refused to be safe; `git -c core.hooksPath=/dev/null commit` skips "
                   "the checks)")
