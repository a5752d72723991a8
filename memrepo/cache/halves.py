"""A large sync's per-item work shared with a second process: the first half of the items
here, the second half on a forked copy of this process, the results joined in item order —
the same list a single process makes, so the cache is the same (a hand-appended log of
100k lines: judging its lines, then folding its new keys).

The copy is forked (POSIX), so the work and what it reads (the line rules, a compiled
schema) are inherited, not sent; only the items' results come back, pickled. Where fork
is missing, on one CPU, on a busy machine or for a small list, everything is done here.
"""

from __future__ import annotations

import multiprocessing
import os
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import TypeVar

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
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    worker = context.Process(target=_second_half, args=(work, items[half:], send),
                             daemon=True, name="memrepo-half")
    worker.start()  # forked: `work` and `items` are inherited, not pickled
    send.close()
    try:
        first = work(items[:half])
        failed, second = receive.recv()
    finally:
        receive.close()
        worker.join()
    if failed:
        raise WorkerFailed(second)
    return [*first, *second]


def _can_split() -> bool:
    cpus = os.cpu_count() or 1
    return ("fork" in multiprocessing.get_all_start_methods() and cpus >= 2
            and os.getloadavg()[0] < cpus - SPARE_CORE_LOAD)


def _second_half(work: Callable[[Sequence[Item]], list[Result]], items: Sequence[Item],
                 send: Connection) -> None:
    """Runs on the forked process; leaves with os._exit, so nothing the parent holds (its
    cache connection, its exit handlers) is closed or run twice."""
    code = 0
    try:
        try:
            send.send((False, work(items)))
        except BaseException:
            code = 1
            send.send((True, traceback.format_exc()))
        send.close()
    except BaseException:
        code = 1
    finally:
        os._exit(code)
