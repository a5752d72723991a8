"""Timing helpers for the benchmarks: percentiles, whole-process runs with peak RSS, and
the result table (metric | value | floor | ratio | target | met?).

A figure is printed beside a floor measured in the same run on the same machine, so the
ratio means something on a busy 2-core box where absolute numbers wander.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import BinaryIO, Literal

import memrepo.core.text

TargetKind = Literal["ratio_max", "max", "min", "speedup_min", "none"]
def percentile(samples: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation between closest ranks."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    position = (len(ordered) - 1) * q / 100
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def time_calls(action: Callable[[], object], repeat: int) -> list[float]:
    """Wall time of each of `repeat` calls, in seconds."""
    samples = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        samples.append(time.perf_counter() - started)
    return samples


@dataclass(frozen=True, slots=True)
class ProcessRun:
    seconds: float
    peak_rss: int  # bytes, of the process itself (the largest of it and its children)
    returncode: int
    stdout: str
    stderr: str
    cpu: float = 0.0  # user + system seconds of the process and the children it waited for

    @property
    def ok(self) -> bool:
        return self.returncode == 0


def run_process(command: Sequence[str], cwd: Path | None = None,
                env: dict[str, str] | None = None) -> ProcessRun:
    """Run a command to completion; wall time from spawn to exit, peak RSS via wait4."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(list(command), cwd=cwd, env=env, stdout=out, stderr=err,
                                   stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return ProcessRun(seconds, usage.ru_maxrss * 1024, process.returncode,
                          out.read().decode("utf-8", "replace"),
                          err.read().decode("utf-8", "replace"),
                          usage.ru_utime + usage.ru_stime)


def start_process(command: Sequence[str]) -> subprocess.Popen[str]:
    """Start a command with its stdout and stderr on pipes (text); `communicate()` it."""
    return subprocess.Popen(list(command), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True)


def start_server(command: Sequence[str], log: BinaryIO) -> subprocess.Popen[bytes]:
    """Start a long-running server (`git daemon`), its output to `log`; stop it with
    `terminate()` and `wait()`."""
    return subprocess.Popen(list(command), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=log)


def process_times(command: Sequence[str], repeat: int, cwd: Path | None = None,
                  env: dict[str, str] | None = None) -> list[float] | ProcessRun:
    """Wall times of `repeat` runs, or the first failed run."""
    samples = []
    for _ in range(repeat):
        run = run_process(command, cwd, env)
        if not run.ok:
            return run
        samples.append(run.seconds)
    return samples


@dataclass(frozen=True, slots=True)
class Target:
    kind: TargetKind
    limit: float = 0.0
    text: str = ""

    def met(self, value: float | None, floor: float | None) -> bool | None:
        if value is None or self.kind == "none":
            return None
        if self.kind == "max":
            return value <= self.limit
        if self.kind == "min":
            return value >= self.limit
        if floor is None or value <= 0:
            return None
        if self.kind == "ratio_max":
            return value / floor <= self.limit
        return floor / value >= self.limit  # speedup_min: how many times faster than floor


@dataclass(frozen=True, slots=True)
class Row:
    metric: str
    value: float | None  # None: not measured (see note)
    unit: str
    floor: float | None = None
    floor_label: str = ""
    target: Target = Target("none")
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.value is None or self.floor is None or self.floor <= 0:
            return None
        return self.value / self.floor

    @property
    def met(self) -> bool | None:
        return self.target.met(self.value, self.floor)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        data["target"] = self.target.text
        data["ratio"], data["met"] = self.ratio, self.met
        return data


def missing(metric: str, why: str, target: Target = Target("none")) -> Row:
    """A row without a figure, saying why (e.g. "n/a (hooks not installed)")."""
    return Row(metric, None, "", target=target, note=why)


def format_amount(value: float | None, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "s" and value < 1:
        return f"{value * 1000:.1f} ms"
    if unit == "s":
        return f"{value:.2f} s"
    if unit == "MiB":
        return f"{value / 2**20:.0f} MiB"
    if unit == "/s":
        return f"{value:,.0f}/s"
    return f"{value:.3g} {unit}".strip()


def render_table(rows: Sequence[Row]) -> str:
    """The markdown table every benchmark prints."""
    lines = ["| metric | value | floor | ratio | target | met? |", "|---|---|---|---|---|---|"]
    for row in rows:
        value = row.note if row.value is None else format_amount(row.value, row.unit)
        floor = format_amount(row.floor, row.unit) if row.floor is not None else ""
        if row.floor_label and row.floor is not None:
            floor += f" ({row.floor_label})"
        ratio = _ratio_text(row)
        met = {True: "yes", False: "NO", None: ""}[row.met]
        if row.value is not None and row.note:
            value += f" ({row.note})"
        lines.append(f"| {row.metric} | {value} | {floor} | {ratio} | {row.target.text} "
                     f"| {met} |")
    return "\n".join(lines)


def _ratio_text(row: Row) -> str:
    if row.ratio is None:
        return ""
    if row.target.kind == "speedup_min":
        return f"{1 / row.ratio:.1f}× faster"
    return f"{row.ratio:.2f}"


def has_bytecode() -> bool:
    """Whether memrepo's modules have up-to-date compiled bytecode (not so for an editable
    install run with PYTHONDONTWRITEBYTECODE=1: every process then compiles them from
    source, ≈3× the import time of an installed package)."""
    import importlib.util

    source = Path(memrepo.core.text.__file__)
    try:
        header = Path(importlib.util.cache_from_source(str(source))).read_bytes()[:16]
    except OSError:
        return False
    flags = int.from_bytes(header[4:8], "little")
    if flags:  # hash-based bytecode: checked against the source by hash, or not at all
        return True
    return int.from_bytes(header[8:12], "little") == int(source.stat().st_mtime) & 0xFFFFFFFF


NO_BYTECODE = ("memrepo's modules have no bytecode here (PYTHONDONTWRITEBYTECODE=1 with an "
               "editable install?): each process above compiled them from source. "
               "`python -m compileall -q <the memrepo package>` does what pip does at install.")
