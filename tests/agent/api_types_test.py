"""The public surface of `memrepo`: its exceptions, times as date/datetime as well as text,
`Memory.context`, and the typed results."""

from __future__ import annotations

import subprocess
from datetime import UTC, date, datetime, timedelta, timezone
from pathlib import Path

import pytest

import memrepo
from memrepo import (
    Block,
    CheckRefused,
    FactInput,
    InputError,
    Memory,
    MemoryBusy,
    NotAMemory,
    RecallResult,
    WriteResult,
)
from memrepo.core.policy.trust import Reader
from tests.support import git


def test_every_name_memrepo_exports_is_importable() -> None:
    for name in memrepo.__all__:
        assert getattr(memrepo, name) is not None, name
    assert issubclass(NotAMemory, InputError) and issubclass(MemoryBusy, InputError)
    assert issubclass(CheckRefused, InputError) and issubclass(InputError, ValueError)
    with pytest.raises(AttributeError):
        memrepo.Nothing  # type: ignore[attr-defined]  # noqa: B018


def test_the_command_line_does_not_import_the_api() -> None:
    done = subprocess.run(["python", "-c", "import sys, memrepo; "
                           "print('memrepo.agent.api' in sys.modules)"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_not_a_memory_is_its_own_error(tmp_path: Path) -> None:
    with pytest.raises(NotAMemory, match="not inside a git repository"):
        Memory.open(tmp_path)
    git(tmp_path, "init", "-q")
    with pytest.raises(NotAMemory, match=r"no memory/config\.yaml"):
        Memory.open(tmp_path).remember(scope="s", subject="a", relation="b", object="c")


def test_a_secret_is_refused_by_the_checks(memory_repo: Path) -> None:
    memory = Memory.open(memory_repo)
    with pytest.raises(CheckRefused) as refused:
        memory.remember(scope="michal", subject="server", relation="url",
                        object="redis://:hunter2hunter2@cache.example.com:6379")
    assert "hunter2" not in str(refused.value) and refused.value.detail.fix


def test_a_held_lock_is_busy_and_the_call_can_be_retried(memory_repo: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         ) -> None:
    from memrepo.facts.appender import LOCK_PATH

    monkeypatch.setenv("MEMREPO_LOCK_TIMEOUT", "0.1")
    memory = Memory.open(memory_repo)
    lock = memory_repo / LOCK_PATH
    lock.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen(["python", "-c", "import fcntl, sys, time; "
                               "f = open(sys.argv[1], 'a'); fcntl.flock(f, fcntl.LOCK_EX); "
                               "print('held', flush=True); time.sleep(30)", str(lock)],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        with pytest.raises(MemoryBusy):
            memory.remember(scope="michal", subject="shoe", relation="size", object="44")
    finally:
        holder.kill()
        holder.wait()
    added = memory.remember(scope="michal", subject="shoe", relation="size", object="44")
    assert added.status == "added"


def test_times_may_be_dates_and_aware_datetimes(memory_repo: Path) -> None:
    memory = Memory.open(memory_repo)
    added = memory.remember(scope="michal", subject="electricity_bill", relation="amount",
                            object="280 zł", valid_from=date(2026, 3, 1))
    assert isinstance(added, WriteResult) and added.status == "added"
    warsaw = timezone(timedelta(hours=2))
    memory.forget(scope="michal", subject="electricity_bill", relation="amount",
                  reason="moved out", valid_to=datetime(2026, 10, 1, 0, 0, tzinfo=UTC))
    april = memory.recall("michal", subject="electricity_bill", relation="amount",
                          as_of=datetime(2026, 4, 15, 9, 0, tzinfo=warsaw))
    assert isinstance(april, RecallResult) and april.facts[0].valid_from == "2026-03-01"
    assert april.facts[0].valid_to == "2026-10-01"
    assert memory.recall("michal", subject="electricity_bill", relation="amount",
                         as_of=date(2026, 11, 1)).status == "not_recorded"
    assert memory.recall("michal", subject="electricity_bill", relation="amount",
                         as_of=date(2026, 4, 1), known_at=date(2026, 1, 1)
                         ).status == "not_recorded"  # not yet known then
    assert [t.fact.object for t in memory.why("michal", "electricity_bill", "amount",
                                              as_of=date(2026, 4, 1))] == ["280 zł"]
    [batch] = memory.remember_many([FactInput("michal", "gas_bill", "amount", "90 zł",
                                              valid_from=date(2026, 1, 1))])
    assert batch.status == "added"


def test_a_naive_datetime_or_a_number_is_refused_in_one_line(memory_repo: Path) -> None:
    memory = Memory.open(memory_repo)
    with pytest.raises(InputError, match="has no time zone") as naive:
        memory.recall("michal", subject="x", relation="y", as_of=datetime(2026, 4, 15, 9))
    assert "\n  To fix: give an aware datetime" in str(naive.value)
    with pytest.raises(InputError, match="is a int, not a time"):
        memory.remember(scope="michal", subject="x", relation="y", object="z",
                        valid_from=20260415)  # type: ignore[arg-type]


def test_context_is_a_method_of_memory(memory_repo: Path) -> None:
    memory = Memory.open(memory_repo)
    memory.remember(scope="michal", subject="shoe", relation="size", object="44")
    block = memory.context("michal", "What is my shoe size?", budget=800)
    assert isinstance(block, Block) and 'shoe.size = "44"' in block.text
    assert block.tokens <= 800 and block.facts == 1
    assert memory.context("michal", "What is my shoe size?").text == block.text
    with pytest.raises(InputError, match="larger --budget"):
        memory.context("michal", "What is my shoe size?", budget=5)
    untrusted = Memory(memory_repo, Reader("michal", "untrusted"))
    with pytest.raises(InputError, match="only for a host session"):
        untrusted.context("michal", "What is my shoe size?")
