"""Progress of long work (issue 13 item 7): a bar on a terminal, nothing anywhere else.

Long operations (a full cache build, verify of a range, sync, triage --apply, the
benchmarks) report their steps through `task()`. Nothing is shown unless the process
allowed it (`show_on_terminal()`: the `memrepo` command and the cache scripts do, a library
user, the MCP server and the git hooks do not) AND stderr is a terminal — never on a pipe or
in a file, whatever FORCE_COLOR says. rich (≈45 ms to import) is imported only then; one
display serves nested tasks (a benchmark that rebuilds the cache shows both bars).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.progress import Progress, TaskID

REFRESHES_PER_SECOND = 2
"""Few: a benchmark measures in-process queries while its bar is shown."""

_allowed = False
_display: Progress | None = None
_open_tasks = 0


class Steps:
    """What a task reports: steps done, and what it is doing now."""

    def __init__(self, display: Progress | None = None, task_id: TaskID | None = None) -> None:
        self._display, self._task_id = display, task_id

    def advance(self, steps: int = 1) -> None:
        if self._display is not None and self._task_id is not None:
            self._display.advance(self._task_id, steps)

    def describe(self, description: str) -> None:
        if self._display is not None and self._task_id is not None:
            self._display.update(self._task_id, description=description)


def show_on_terminal() -> None:
    """Let this process draw progress bars (on stderr, when it is a terminal)."""
    global _allowed
    _allowed = True


@contextmanager
def task(description: str, total: int | None = None) -> Iterator[Steps]:
    """One piece of long work of `total` steps (None: not known in advance)."""
    display = _terminal_display()
    if display is None:
        yield Steps()
        return
    global _open_tasks
    if _open_tasks == 0:
        display.start()
    _open_tasks += 1
    task_id = display.add_task(description, total=total)
    try:
        yield Steps(display, task_id)
    finally:
        display.remove_task(task_id)
        _open_tasks -= 1
        if _open_tasks == 0:
            display.stop()


def _terminal_display() -> Progress | None:
    global _display
    if not _allowed or not _is_terminal():
        return None
    if _display is None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        # stdout is redrawn above the bar only when it is this terminal too: output sent
        # to a file or a pipe must stay there
        _display = Progress(TextColumn("{task.description}"), BarColumn(),
                            MofNCompleteColumn(), TimeElapsedColumn(),
                            console=Console(file=sys.stderr, force_terminal=True),
                            transient=True, refresh_per_second=REFRESHES_PER_SECOND,
                            redirect_stdout=_stdout_is_terminal(), redirect_stderr=True)
    return _display


def _is_terminal() -> bool:
    try:
        return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # replaced or closed stderr
        return False


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
