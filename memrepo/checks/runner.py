"""Runs the §6 commit-time checks (the modules of memrepo.hooks) over a `Change`.

Stages (ARCHITECTURE.md): `pre-commit` runs the checks that need no commit message,
`commit-msg` those that do, `all` both. A check that needs the message is skipped when
there is none (e.g. `memrepo check --all` without `--message-file`). A crash inside a check
becomes a Problem — a refusal never shows a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, TextIO

from memrepo.core.config import CONFIG_PATH, Config, config_from_mapping
from memrepo.core.problems import InputError, Problem
from memrepo.core.strict_yaml import YamlError, load_strict
from memrepo.crashlog import write_crash_log

if TYPE_CHECKING:
    from memrepo.core.change import Change, Snapshot

Stage = Literal["pre-commit", "commit-msg", "all"]
STAGES: tuple[Stage, ...] = ("pre-commit", "commit-msg", "all")
Check = Callable[["Change"], list[Problem]]

HOOK_MODULES: tuple[str, ...] = (
    "config_file", "headers", "links", "indexes", "secrets", "fact_logs",
    "approval", "counts", "fact_times",
)
"""Every check, in the order they run (memrepo.hooks.<name>); missing modules are skipped."""

SCISSORS = "------------------------ >8 ------------------------"
CONFIG_FIX = "correct memory/config.yaml (see schema/config.schema.json)"


def run_checks(change: Change, stage: Stage) -> list[Problem]:
    """Every problem the checks of `stage` find in `change`."""
    problems: list[Problem] = []
    for name, module in _hook_modules():
        if isinstance(module, Problem):
            problems.append(module)
        elif _runs_at(module, stage, change):
            problems.extend(guarded(name, module.check, change))
    return problems


def _hook_modules() -> Iterator[tuple[str, ModuleType | Problem]]:
    for name in HOOK_MODULES:
        full_name = f"memrepo.hooks.{name}"
        try:
            yield name, importlib.import_module(full_name)
        except ModuleNotFoundError as err:
            if err.name != full_name:
                yield name, _crash_problem(name, err)
        except Exception as err:  # a broken check refuses, never crashes
            yield name, _crash_problem(name, err)


def _runs_at(module: ModuleType, stage: Stage, change: Change) -> bool:
    needs_message = bool(getattr(module, "NEEDS_MESSAGE", False))
    if needs_message and change.message is None:
        return False
    return stage == "all" or needs_message == (stage == "commit-msg")


def guarded(name: str, check: Check, change: Change) -> list[Problem]:
    """Run one check; an exception inside it becomes a Problem naming the check."""
    try:
        return list(check(change))
    except InputError as err:  # e.g. the repository's own schema/ is unusable
        return [err.detail]
    except Exception as err:  # the one place a check's crash is caught
        return [_crash_problem(name, err)]


def _crash_problem(name: str, err: BaseException) -> Problem:
    write_crash_log(f"memrepo check: {name}")
    return Problem(f"memrepo.hooks.{name}", f"the {name} check failed unexpectedly "
                   f"({type(err).__name__}: {err})",
                   "this is a bug in memrepo, not in your change; report it (the commit "
                   "was refused to be safe; `git commit --no-verify` skips the checks)")


def config_from_bytes(data: bytes | None, root: Path | None = None, *,
                      strict: bool = False) -> Config:
    """memory/config.yaml bytes → Config. Absent: defaults. Broken: defaults (queries keep
    working; the hooks report it), or with `strict` (a write is about to rely on it) an
    InputError naming the first problem."""
    from memrepo.core.change import DictSnapshot

    if data is None:
        return Config()
    config, problems = load_config(DictSnapshot({CONFIG_PATH: data}), root, validate=strict)
    if strict and problems:
        raise InputError(problems[0])
    return config


def load_config(snapshot: Snapshot, root: Path | None = None, *,
                validate: bool = False) -> tuple[Config, list[Problem]]:
    """memory/config.yaml of `snapshot` → (Config, problems); defaults when it is broken.

    The JSON Schema check (and its validator import) runs only with `validate`,
    i.e. when the config itself is part of the change."""
    data = snapshot.read(CONFIG_PATH)
    if data is None:
        return Config(), [Problem(CONFIG_PATH, "the memory has no config file",
                                  "restore memory/config.yaml (`memrepo init` writes one)")]
    raw = _parse_config(data)
    if isinstance(raw, Problem):
        return Config(), [raw]
    if validate:
        problems = _schema_problems(raw, root)
        if problems:
            return Config(), problems
    try:
        return config_from_mapping(raw), []
    except (TypeError, ValueError, AttributeError) as err:
        return Config(), [Problem(CONFIG_PATH, f"config has a value of the wrong kind: {err}",
                                  CONFIG_FIX)]


def _parse_config(data: bytes) -> dict[str, Any] | Problem:
    try:
        raw = load_strict(data.decode("utf-8"))
    except UnicodeDecodeError:
        return Problem(CONFIG_PATH, "config is not UTF-8 text", "save it as UTF-8")
    except YamlError as err:
        return Problem(CONFIG_PATH, str(err), CONFIG_FIX, err.line)
    if not isinstance(raw, dict):
        return Problem(CONFIG_PATH, "config must be a YAML mapping (key: value lines)",
                       CONFIG_FIX)
    return raw


def _schema_problems(raw: dict[str, Any], root: Path | None) -> list[Problem]:
    from memrepo.checks.schemas import CONFIG_SCHEMA, schema_errors

    return [Problem(CONFIG_PATH, f"config: {error}", CONFIG_FIX)
            for error in schema_errors(raw, CONFIG_SCHEMA, root)]


def read_message_file(path: str | Path) -> str:
    """The commit message git hands the commit-msg hook, without a `git commit -v` diff."""
    try:
        text = Path(path).read_bytes().decode("utf-8", errors="replace")
    except OSError as err:
        raise InputError(Problem(str(path), f"cannot read the commit message ({err.strerror})",
                                 "pass the message file git gives the commit-msg hook"),
                         ) from None
    lines = text.splitlines(keepends=True)
    for number, line in enumerate(lines):
        if line.startswith("#") and SCISSORS in line:
            return "".join(lines[:number])
    return text


def report(problems: Sequence[Problem], stream: TextIO | None = None,
           prefix: str = "") -> int:
    """Print each problem (`path[:line]: problem` + `To fix:`); 1 when there are any."""
    out = sys.stderr if stream is None else stream
    for problem in problems:
        print(prefix + problem.render(), file=out)
    if problems:
        print(f"memrepo: {len(problems)} problem(s) found", file=out)
    return 1 if problems else 0


def collect_change(repo_path: str | Path | None, message: str | None,
                   everything: bool = False) -> Change:
    """The staged change (or with `everything`, all that is staged) of the repository."""
    from memrepo.git.read import full_change, open_repository, staged_change

    repo = open_repository(repo_path)
    return full_change(repo, message) if everything else staged_change(repo, message)


def run_hook(check: Check, argv: Sequence[str] | None = None) -> int:
    """`main` of one hook module: check what is staged; argv may hold the commit message
    file (pre-commit passes it at the commit-msg stage)."""
    parser = argparse.ArgumentParser(description="one memrepo commit-time check")
    parser.add_argument("message_file", nargs="?", help="commit message file (commit-msg)")
    args = parser.parse_args(argv)
    name = getattr(check, "__module__", "check").rpartition(".")[2]
    try:
        message = None if args.message_file is None else read_message_file(args.message_file)
        change = collect_change(None, message)
    except InputError as err:
        print(err, file=sys.stderr)
        return 1
    return report(guarded(name, check, change))
