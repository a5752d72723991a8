"""memory/config.yaml → `Config`: the one loader, for the checks, the cache, the write path
and the API.

A missing or broken config gives the defaults, with the problems found: the checks report
them (config_file), queries keep working on the defaults, and a write — which relies on the
config — refuses (`worktree_config(..., strict=True)`). The JSON Schema check (and its
validator import) runs only when asked: when the config itself is part of a change, or for a
write.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from memrepo.core.config import CONFIG_PATH, Config, config_from_mapping
from memrepo.core.problems import InputError, Problem
from memrepo.files import WorkTree, read_bytes

if TYPE_CHECKING:
    from memrepo.core.change import Snapshot

CONFIG_FIX = "correct memory/config.yaml (see schema/config.schema.json)"


def config_from_bytes(data: bytes | None, schemas: Snapshot | None = None, *,
                      validate: bool = False) -> tuple[Config, list[Problem]]:
    """Config bytes (None: no file) → (Config, problems); the defaults when it is broken.
    `schemas`: the snapshot whose schema/ validates it (None: memrepo's own)."""
    if data is None:
        return Config(), [Problem(CONFIG_PATH, "the memory has no config file",
                                  "restore memory/config.yaml (`memrepo init` writes one)")]
    raw = _parse(data)
    if isinstance(raw, Problem):
        return Config(), [raw]
    if validate:
        problems = _schema_problems(raw, schemas)
        if problems:
            return Config(), problems
    try:
        return config_from_mapping(raw), []
    except (TypeError, ValueError, AttributeError) as err:
        return Config(), [Problem(CONFIG_PATH, f"config has a value of the wrong kind: {err}",
                                  CONFIG_FIX)]


def load_config(snapshot: Snapshot, schemas: Snapshot | None = None, *,
                validate: bool = False) -> tuple[Config, list[Problem]]:
    """The config of a snapshot (a commit, the index being committed)."""
    return config_from_bytes(snapshot.read(CONFIG_PATH), schemas, validate=validate)


def rules_config(rules: Snapshot | None, new: Snapshot) -> Config:
    """The config a change is checked by: its parent's (`rules`); the change's own when the
    parent has none or a broken one (the commit that makes a repository a memory, or
    repairs its config, brings its own), else the defaults."""
    for source in (rules, new):
        if source is not None and source.exists(CONFIG_PATH):
            config, problems = load_config(source)
            if not problems:
                return config
    return Config()


def worktree_config(root: Path, *, strict: bool = False) -> Config:
    """The work tree's config. Absent: the defaults. Broken: the defaults (queries keep
    working; the hooks report it), or with `strict` (a write is about to rely on it) an
    InputError naming the first problem."""
    data = read_bytes(root, CONFIG_PATH)
    config, problems = config_from_bytes(data, WorkTree(root), validate=strict)
    if strict and data is not None and problems:
        raise InputError(problems[0])
    return config


def _parse(data: bytes) -> dict[str, Any] | Problem:
    from memrepo.core.strict_yaml import YamlError, load_fast

    try:
        raw = load_fast(data.decode("utf-8"))
    except UnicodeDecodeError:
        return Problem(CONFIG_PATH, "config is not UTF-8 text", "save it as UTF-8")
    except YamlError as err:
        return Problem(CONFIG_PATH, str(err), CONFIG_FIX, err.line)
    if not isinstance(raw, dict):
        return Problem(CONFIG_PATH, "config must be a YAML mapping (key: value lines)",
                       CONFIG_FIX)
    return raw


def _schema_problems(raw: dict[str, Any], schemas: Snapshot | None) -> list[Problem]:
    from memrepo.checks.schemas import CONFIG_SCHEMA, schema_errors

    return [Problem(CONFIG_PATH, f"config: {error}", CONFIG_FIX)
            for error in schema_errors(raw, CONFIG_SCHEMA, schemas)]
