"""A large sync's per-item work shared with a second process: the first half of the items
here, the second half on a forked copy of this process, the results joined in item order —
the same list a single process makes, so the cache is the same (a hand-appended log of
100k lines: judging its lines, then folding its new keys).

The copy is forked (POSIX, `os.fork`: multiprocessing's machinery, ≈15 ms of every sync's
start-up, is not needed for one child and one pipe), so the work and what it reads (the
line rules, a compiled schema) are inherited, not sent; only the items' results come back,
pickled. Where fork is missing, on one CPU, on a busy machine or for a small list,
everything is done here.
"""

from __future__ import annotations

import os
import pickle
import traceback
from collections.abc import Callable, Sequence
from typing import NoReturn, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")

SPLIT_MIN_ITEMS = 20_000
"""Fewer items are done here: starting a process and sending results back would cost more
than half of their work."""


SPARE_CORE_LOAD = 0.5
"""A second process is started only while the 1-minute load average leaves a core to
spare (below the CPUs less this much): on a busy machine it only competes with this one
(measured at load 10 on 2 CPUs: 45 s against 38 s for the first query after 100k
hand-appended lines)."""


class WorkerFailed(RuntimeError):
    """The second process failed: its traceback, as text."""


def in_halves(work: Callable[[Sequence[Item]], list[Result]], items: Sequence[Item],
              ) -> list[Result]:
    """`work(items)`, the second half of `items` done by a forked process meanwhile.
    `work` must be pure (its result depends on the items alone) and keep one result per
    item, in order; only its results cross between processes."""
    if len(items) < SPLIT_MIN_ITEMS or not _can_split():
        return work(items)
    half = len(items) // 2
    receive, send = os.pipe()
    child = os.fork()  # `work` and `items` are inherited, not pickled
    if child == 0:
        os.close(receive)
        _second_half(work, items[half:], send)
    os.close(send)
    pipe = os.fdopen(receive, "rb")
    try:
        first = work(items[:half])
        failed, second = pickle.load(pipe)
    finally:
        pipe.close()  # first: a child still writing gets a broken pipe, not a wait
        os.waitpid(child, 0)
    if failed:
        raise WorkerFailed(second)
    return [*first, *second]


def _can_split() -> bool:
    cpus = os.cpu_count() or 1
    return hasattr(os, "fork") and cpus >= 2 and os.getloadavg()[0] < cpus - SPARE_CORE_LOAD


def _second_half(work: Callable[[Sequence[Item]], list[Result]], items: Sequence[Item],
                 send: int) -> NoReturn:
    """Runs on the forked process; leaves with os._exit, so nothing the parent holds (its
    cache connection, its exit handlers) is closed or run twice."""
    code = 0
    try:
        with os.fdopen(send, "wb") as pipe:
            try:
                pickle.dump((False, work(items)), pipe, pickle.HIGHEST_PROTOCOL)
            except BaseException:
                code = 1
                pickle.dump((True, traceback.format_exc()), pipe, pickle.HIGHEST_PROTOCOL)
    except BaseException:
        code = 1
    finally:
        os._exit(code)
