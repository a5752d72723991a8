"""memory/config.yaml → `Config`: the one config loader, with an entry point for each place
a config is read from — the work tree (`worktree_config`: queries and writes), HEAD
(`head_config`: what a library commit made now is checked by), a snapshot
(`snapshot_config`: a commit, the index being committed) — and for the parent commit the
pure rule itself (`memrepo.core.config.parent_config`: the config a change is checked by;
the git layer builds each `Change` with it).

A missing or broken config gives the defaults, with the problems found: the checks report
them (config_file), queries keep working on the defaults, and a write — which relies on the
config — refuses (`worktree_config(..., strict=True)`). The JSON Schema check (and its
validator import) runs only when asked: when the config itself is part of a change, or for a
write.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from memrepo.core import config as rule
from memrepo.core.config import CONFIG_FIX, CONFIG_PATH, Config
from memrepo.core.problems import InputError, Problem
from memrepo.files import WorkTree, read_bytes
from memrepo.schemas import CONFIG_SCHEMA, schema_errors

if TYPE_CHECKING:
    from memrepo.core.change import Snapshot


def config_from_bytes(data: bytes | None, schemas: Snapshot | None = None, *,
                      validate: bool = False) -> tuple[Config, list[Problem]]:
    """Config bytes (None: no file) → (Config, problems); the defaults when it is broken.
    `validate`: also against the JSON Schema of `schemas` (a snapshot's schema/; None:
    memrepo's own)."""
    return rule.config_from_bytes(data, _schema_check(schemas) if validate else None)


def snapshot_config(snapshot: Snapshot, schemas: Snapshot | None = None, *,
                    validate: bool = False) -> tuple[Config, list[Problem]]:
    """The config of a snapshot (a commit, the index being committed)."""
    return config_from_bytes(snapshot.read(CONFIG_PATH), schemas, validate=validate)


def worktree_config(root: Path, *, strict: bool = False) -> Config:
    """The work tree's config. Absent: the defaults. Broken: the defaults (queries keep
    working; the hooks report it), or with `strict` (a write is about to rely on it) an
    InputError naming the first problem."""
    data = read_bytes(root, CONFIG_PATH)
    config, problems = config_from_bytes(data, WorkTree(root), validate=strict)
    if strict and data is not None and problems:
        raise InputError(problems[0])
    return config


def head_config(root: Path) -> Config:
    """HEAD's config (the defaults when HEAD has none, or a broken one): what a library
    commit made now is checked by. Read through pygit2, cached per config blob."""
    from memrepo.git import write  # pygit2 loads only when HEAD's config is asked for

    return write.head_config(root)


def _schema_check(schemas: Snapshot | None) -> rule.Validator:
    def problems(raw: dict[str, Any]) -> list[Problem]:
        return [Problem(CONFIG_PATH, f"config: {error}", CONFIG_FIX)
                for error in schema_errors(raw, CONFIG_SCHEMA, schemas)]
    return problems
