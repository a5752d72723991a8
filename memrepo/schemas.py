"""JSON Schemas from schema/: the one source the checks, the writers and the cache load.

A memory repository carries its own schema/ (so it can extend note headers per
category); the copy packaged with memrepo is the fallback for repositories without one.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from memrepo.resources import data_dir

EVENT_SCHEMA = "fact-event.schema.json"
CONFIG_SCHEMA = "config.schema.json"


def note_schema_name(note_type: str) -> str:
    return f"notes/{note_type}.schema.json"


def schema_dir(repo_root: Path | None) -> Path:
    """The repository's schema/ when it has one, else the packaged schemas."""
    if repo_root is not None and (repo_root / "schema" / EVENT_SCHEMA).is_file():
        return repo_root / "schema"
    return data_dir("schema")


@cache
def _validator(directory: Path, name: str) -> Any:
    from jsonschema import Draft202012Validator  # imported on first use: ~60 ms

    schema = json.loads((directory / name).read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


def schema_errors(instance: Any, name: str, repo_root: Path | None = None) -> list[str]:
    """Readable reasons why `instance` breaks schema `name`; empty when it is valid."""
    validator = _validator(schema_dir(repo_root), name)
    errors = sorted(validator.iter_errors(instance), key=lambda e: list(e.absolute_path))
    return [_describe(error) for error in errors]


def _describe(error: Any) -> str:
    """One line per error; for `oneOf` pick the branch that matches the `op`."""
    if error.validator == "oneOf" and isinstance(error.instance, dict):
        op = error.instance.get("op")
        for sub in error.context or ():
            branch = sub.relative_schema_path[0] if sub.relative_schema_path else None
            if _branch_op(branch) == op:
                return _describe(sub)
    where = ".".join(str(p) for p in error.absolute_path)
    if error.validator == "additionalProperties":
        return f"unknown key(s): {error.message.split('(')[-1].rstrip(')')}"
    return f"{where}: {error.message}" if where else str(error.message)


def _branch_op(index: object) -> str | None:
    return {0: "assert", 1: "end", 2: "retract"}.get(index) if isinstance(index, int) else None
