"""Helpers for the note-rule tests: notes as bytes and in-memory Changes."""

from __future__ import annotations

import json
from collections.abc import Mapping

from memrepo.core.change import Change, DictSnapshot, diff_snapshots
from memrepo.core.config import Config
from memrepo.core.index_file import render_index

TYPES = {"rules": "rule", "entities": "entity", "references": "reference",
         "project": "project"}


def note(category: str, name: str, description: str, body: str = "Body text.\n",
         **extra: str) -> bytes:
    lines = [f"name: {name}", f"description: {json.dumps(description, ensure_ascii=False)}",
             f"type: {TYPES[category]}"]
    if category == "rules" and "origin" not in extra:
        extra["origin"] = "2026-03-02: Michał corrected a wrong supplier address"
    lines += [f"{key}: {value}" for key, value in extra.items()]
    return ("---\n" + "\n".join(lines) + "\n---\n" + body).encode()


def with_indexes(files: Mapping[str, bytes], descriptions: Mapping[str, Mapping[str, str]],
                 ) -> dict[str, bytes]:
    out = dict(files)
    for category, notes in descriptions.items():
        out[f"memory/{category}/INDEX.md"] = render_index(category, notes).encode()
    return out


def change(old: Mapping[str, bytes], new: Mapping[str, bytes],
           config: Config | None = None) -> Change:
    return Change(DictSnapshot(dict(old)), DictSnapshot(dict(new)),
                  diff_snapshots(old, new), config or Config(), commit_time=0)
