"""The memory's configuration (memory/config.yaml) as a typed record, with defaults."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from memrepo.core.plain_config import plain_config
from memrepo.core.problems import Problem
from memrepo.core.record_base import Record, init_field
from memrepo.core.text import key_slug

if TYPE_CHECKING:
    from memrepo.core.change import Snapshot

CATEGORIES: tuple[str, ...] = ("rules", "entities", "references", "project")
"""The four note folders under memory/ (precedence is separate: DEFAULT_PRECEDENCE)."""

TYPE_OF_CATEGORY: dict[str, str] = {
    "rules": "rule", "entities": "entity", "references": "reference", "project": "project",
}

DEFAULT_PRECEDENCE: tuple[str, ...] = ("rules", "references", "entities", "project")
DEFAULT_EPHEMERAL: tuple[str, ...] = ("/tmp/", "/var/tmp/", "~/Downloads/", "scratch/", "inbox/")
DEFAULT_LIMITS: dict[str, int] = {
    "rules": 100, "entities": 5000, "references": 1000, "project": 500,
}

CONFIG_PATH = "memory/config.yaml"
FACTS_PREFIX = "memory/facts/"
"""Where the fact logs live: memory/facts/<scope>/<YYYY-MM>.jsonl (SPEC §4)."""

QUARANTINE_PREFIX = "quarantine-"
"""Untrusted writes of scope S go to scope `quarantine-S` (SPEC §8)."""

DEFAULT_SEGMENT_MAX_BYTES = 1024 * 1024
"""A fact-log segment that has reached this size is closed (SPEC §4: `YYYY-MM.2.jsonl`…)."""

SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")
"""Note names and scopes: lower-case letters, digits and dashes (use with fullmatch)."""


class Config(Record):
    """The config's values, each with its default (no `__slots__`: `many_valued_keys` is
    kept on the instance once computed)."""

    approvers: tuple[str, ...]
    many_valued_relations: frozenset[str]
    precedence: tuple[str, ...]
    limits: Mapping[str, int]  # DEFAULT_LIMITS by default
    ephemeral_paths: tuple[str, ...]
    vague_descriptions: tuple[str, ...]
    stale_after_days: int
    clock_skew_seconds: int
    segment_max_bytes: int  # a fact-log segment's cap (§4)
    control_files: tuple[str, ...]  # need approval besides rules (core.approval)
    self_subjects: Mapping[str, str]  # scope → the asker
    concepts: Mapping[str, tuple[str, ...]]  # words people use

    def __init__(self, approvers: tuple[str, ...] = (),
                 many_valued_relations: frozenset[str] = frozenset(),
                 precedence: tuple[str, ...] = DEFAULT_PRECEDENCE,
                 limits: Mapping[str, int] | None = None,
                 ephemeral_paths: tuple[str, ...] = DEFAULT_EPHEMERAL,
                 vague_descriptions: tuple[str, ...] = (), stale_after_days: int = 365,
                 clock_skew_seconds: int = 300,
                 segment_max_bytes: int = DEFAULT_SEGMENT_MAX_BYTES,
                 control_files: tuple[str, ...] = (),
                 self_subjects: Mapping[str, str] | None = None,
                 concepts: Mapping[str, tuple[str, ...]] | None = None) -> None:
        init_field(self, "approvers", approvers)
        init_field(self, "many_valued_relations", many_valued_relations)
        init_field(self, "precedence", precedence)
        init_field(self, "limits", dict(DEFAULT_LIMITS) if limits is None else limits)
        init_field(self, "ephemeral_paths", ephemeral_paths)
        init_field(self, "vague_descriptions", vague_descriptions)
        init_field(self, "stale_after_days", stale_after_days)
        init_field(self, "clock_skew_seconds", clock_skew_seconds)
        init_field(self, "segment_max_bytes", segment_max_bytes)
        init_field(self, "control_files", control_files)
        init_field(self, "self_subjects", {} if self_subjects is None else self_subjects)
        init_field(self, "concepts", {} if concepts is None else concepts)

    def asker(self, scope: str) -> str:
        """The folded subject by which the asker of `scope` is recorded ("my phone" is its
        phone): the config's `self` for the scope, else the subject spelled like it."""
        return key_slug(self.self_subjects.get(scope, scope))

    def is_many(self, relation: str) -> bool:
        """Whether `relation` is declared many-valued, compared as a key (SPEC §4: folded,
        so "Speaks" is many-valued when `speaks` is declared)."""
        return key_slug(relation) in self.many_valued_keys

    @cached_property
    def many_valued_keys(self) -> frozenset[str]:
        return frozenset(key_slug(relation) for relation in self.many_valued_relations)

    def rank(self, category: str) -> int:
        """Precedence rank of a category: 0 is the strongest."""
        return self.precedence.index(category) if category in self.precedence else 99


def config_from_mapping(raw: Mapping[str, Any]) -> Config:
    """Build a Config from the YAML mapping; TypeError or ValueError for a value of the
    wrong kind (queries read the config without its schema: `precedence: [[1]]` or
    `stale_after_days: .inf` must be refused here, not crash a query later)."""
    return Config(
        approvers=_strings(raw, "approvers", ()),
        many_valued_relations=frozenset(_strings(raw, "many_valued_relations", ())),
        precedence=_strings(raw, "precedence", DEFAULT_PRECEDENCE),
        limits={**DEFAULT_LIMITS, **{key: _whole(value) for key, value
                                     in dict(raw.get("limits", {})).items()}},
        ephemeral_paths=_strings(raw, "ephemeral_paths", DEFAULT_EPHEMERAL),
        vague_descriptions=_strings(raw, "vague_descriptions", ()),
        stale_after_days=_whole(raw.get("stale_after_days", 365)),
        clock_skew_seconds=_whole(raw.get("clock_skew_seconds", 300)),
        segment_max_bytes=_whole(raw.get("segment_max_bytes", DEFAULT_SEGMENT_MAX_BYTES)),
        control_files=_strings(raw, "control_files", ()),
        self_subjects=_text_mapping(raw.get("self", {})),
        concepts={name: _strings(dict(raw.get("concepts", {})), name, ())
                  for name in dict(raw.get("concepts", {}))},
    )


def _text_mapping(value: Any) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise TypeError("self must map each scope to a subject")
    return dict(value)


def _strings(raw: Mapping[str, Any], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    value = raw.get(key, default)
    if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"{key} must be a list of strings")
    return tuple(value)


def _whole(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def config_to_mapping(config: Config) -> dict[str, Any]:
    """The mapping `config_from_mapping` turns back into `config` (lists for tuples and
    sets): how the cache keeps the config it was built with."""
    return {
        "approvers": list(config.approvers),
        "many_valued_relations": sorted(config.many_valued_relations),  # a set: one order
        "precedence": list(config.precedence),
        "limits": dict(config.limits),
        "ephemeral_paths": list(config.ephemeral_paths),
        "vague_descriptions": list(config.vague_descriptions),
        "stale_after_days": config.stale_after_days,
        "clock_skew_seconds": config.clock_skew_seconds,
        "segment_max_bytes": config.segment_max_bytes,
        "control_files": list(config.control_files),
        "self": dict(config.self_subjects),
        "concepts": {name: list(words) for name, words in config.concepts.items()},
    }


# --- config bytes → Config (the rule; memrepo.config loads the bytes) ----------------------

CONFIG_FIX = "correct memory/config.yaml (see schema/config.schema.json)"
Validator = Callable[[dict[str, Any]], list[Problem]]
"""A check of the parsed mapping beyond its kinds (the JSON Schema: memrepo.schemas)."""


def config_from_bytes(data: bytes | None, validate: Validator | None = None,
                      ) -> tuple[Config, list[Problem]]:
    """Config bytes (None: no file) → (Config, problems); the defaults when it is broken
    (or when `validate` finds problems)."""
    if data is None:
        return Config(), [Problem(CONFIG_PATH, "the memory has no config file",
                                  "restore memory/config.yaml (`memrepo init` writes one)")]
    raw = _parse(data)
    if isinstance(raw, Problem):
        return Config(), [raw]
    if validate is not None:
        problems = validate(raw)
        if problems:
            return Config(), problems
    try:
        return config_from_mapping(raw), []
    except (TypeError, ValueError, AttributeError) as err:
        return Config(), [Problem(CONFIG_PATH, f"config has a value of the wrong kind: {err}",
                                  CONFIG_FIX)]


def parent_config(rules: Snapshot | None, new: Snapshot) -> Config:
    """The config a change is checked by: its parent commit's (`rules`); the change's own
    when the parent has none or a broken one (the commit that makes a repository a memory,
    or repairs its config, brings its own), else the defaults."""
    for source in (rules, new):
        if source is not None and source.exists(CONFIG_PATH):
            config = _good_config(source.read(CONFIG_PATH))
            if config is not None:
                return config
    return Config()


@lru_cache(maxsize=8)
def _good_config(data: bytes) -> Config | None:
    """The Config of these bytes, None when they are broken; a history of many commits
    (a sync bringing in a fleet's pushes, the server's verify) mostly shares one config,
    parsed once (a Config is never changed once made)."""
    config, problems = config_from_bytes(data)
    return None if problems else config


@lru_cache(maxsize=8)
def _parse(data: bytes) -> dict[str, Any] | Problem:
    """The mapping of config bytes, parsed once per process for the same bytes (a write
    reads the work tree's config and HEAD's, mostly the same file); never changed by its
    readers (`config_from_mapping` copies what it keeps). A config of the plain forms
    (memrepo.core.plain_config) is read without PyYAML, to the same mapping."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return Problem(CONFIG_PATH, "config is not UTF-8 text", "save it as UTF-8")
    plain = plain_config(text)
    if plain is not None:
        return plain
    from memrepo.core.strict_yaml import YamlError, load_fast  # PyYAML: only for the rest

    try:
        raw = load_fast(text)
    except YamlError as err:
        return Problem(CONFIG_PATH, str(err), CONFIG_FIX, err.line)
    if not isinstance(raw, dict):
        return Problem(CONFIG_PATH, "config must be a YAML mapping (key: value lines)",
                       CONFIG_FIX)
    return raw
