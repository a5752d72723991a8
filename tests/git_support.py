"""Helpers for the check tests: git commands, fact events, in-memory Changes."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson

from memrepo.checks.config import load_config
from memrepo.core.change import Change, DictSnapshot, diff_snapshots
from memrepo.core.times import parse_instant

CONFIG = b'approvers:\n  - "Ann Example <ann@example.com>"\n'


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True,
                          check=check)


def commit(repo: Path, message: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """A real `git commit` (hooks run); never raises — look at returncode and output."""
    return git(repo, "commit", "-m", message, *extra, check=False)


def memrepo(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["memrepo", *args], cwd=repo, capture_output=True, text=True,
                          check=False)


def write(repo: Path, relative: str, data: bytes | str) -> Path:
    path = repo / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def add_note(repo: Path, category: str, name: str, description: str) -> None:
    """Write a valid note, regenerate the indexes (`memrepo index`) and stage everything."""
    from notes_support import note

    extra = {"origin": '"2026-03-02 Ann asked for it"'} if category == "rules" else {}
    write(repo, f"memory/{category}/{name}.md", note(category, name, description, **extra))
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")


def now_stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def event(event_id: str = "e1", recorded_at: str = "2026-05-03T10:00:00Z",
          **fields: Any) -> dict[str, Any]:
    """An `assert` in scope michal, valid per schema/fact-event.schema.json."""
    base: dict[str, Any] = {
        "id": event_id, "op": "assert", "recorded_at": recorded_at, "session": "s1",
        "source": "chat", "scope": "michal", "subject": "electricity_bill",
        "relation": "amount", "object": "210 zł", "valid_from": "2026-01-10",
        "confidence": 0.9, "trust": "host", "quote": "the bill is 210 zł",
    }
    base.update(fields)
    return base


def retract(event_id: str, target: str, recorded_at: str = "2026-05-03T11:00:00Z",
            ) -> dict[str, Any]:
    return {"id": event_id, "op": "retract", "recorded_at": recorded_at, "session": "s1",
            "source": "chat", "target": target, "reason": "misread"}


def lines(*events: Mapping[str, Any]) -> bytes:
    return b"".join(orjson.dumps(dict(e)) + b"\n" for e in events)


def segment(recorded_at: str, scope: str = "michal") -> str:
    return f"memory/facts/{scope}/{recorded_at[:7]}.jsonl"


def dict_change(old: Mapping[str, bytes], new: Mapping[str, bytes], message: str | None = None,
                commit_time: str = "2026-05-03T12:00:00Z",
                parent_time: str | None = "2026-05-03T09:00:00Z") -> Change:
    """A Change between two in-memory trees, config read from the new one."""
    new_snapshot = DictSnapshot(dict(new))
    config, _ = load_config(new_snapshot)
    return Change(DictSnapshot(dict(old)), new_snapshot, diff_snapshots(old, new), config,
                  commit_time=parse_instant(commit_time),
                  parent_time=None if parent_time is None else parse_instant(parent_time),
                  message=message)
