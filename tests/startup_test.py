"""What the CLI's most frequent paths import (issue 24 item 3): `remember`, `recall` and
`check`, each run for real with `python -X importtime`, the commit-msg hook as a real
`git commit` runs it and the post-checkout hook as a real `git checkout` runs it, each held
to the modules it may not import — heavy third-party packages and memrepo's parts of other
paths. A guard on import cost that never looks at a clock: a module that is not imported
costs nothing, and a new import on these paths has to be a decision (widen a set here)
rather than an accident. The refresh after a checkout is also held to building no
dataclass (each compiles its methods at import: memrepo's records are core.record_base's).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import git, note, write

EVERY_PATH = frozenset({
    "mcp", "numpy", "httpx", "anyio", "pydantic", "starlette", "rich", "hypothesis",
    "jsonschema",  # the pure-Python one: the checks use jsonschema_rs
    "ulid", "importlib.metadata",  # python-ulid read its own metadata: ids are memrepo's own
    "memrepo.bench", "memrepo.maintenance", "memrepo.scripts", "memrepo.agent.mcp_server",
    "memrepo.agent.llm", "memrepo.agent.extract",
})
"""Never imported by remember, recall or check."""

NOT_IMPORTED: dict[str, frozenset[str]] = {
    # a query of a current cache: no git objects, no YAML, no checks, no write path, no build
    "recall": EVERY_PATH | {
        "pygit2", "jsonschema_rs", "yaml", "re2", "rapidfuzz", "memrepo.facts",
        "memrepo.hooks", "memrepo.checks.runner", "memrepo.schemas",
        "memrepo.git.write", "memrepo.git.read", "memrepo.cache.build",
        "memrepo.cache.incremental", "memrepo.cache.indexer", "memrepo.core.policy.secrets",
        "memrepo.core.duplicates"},
    # a key's values: the question's path without its concept table (orjson), the meta
    # read with the standard json module
    "recall-key": EVERY_PATH | {
        "pygit2", "jsonschema_rs", "yaml", "re2", "rapidfuzz", "orjson", "memrepo.facts",
        "memrepo.hooks", "memrepo.checks.runner", "memrepo.schemas", "memrepo.git.write",
        "memrepo.git.read", "memrepo.cache.build", "memrepo.cache.incremental",
        "memrepo.cache.indexer", "memrepo.core.policy.secrets", "memrepo.core.duplicates"},
    # a write: no question answering, no cache build, no search
    "remember": EVERY_PATH | {
        "memrepo.answer", "memrepo.agent", "memrepo.cache.build", "memrepo.cache.fulltext",
        "Stemmer"},
    # the commit-time checks: git's plumbing, never pygit2; no cache, no answers, no writes;
    # no YAML parser for a config and note headers of the plain forms
    "check": EVERY_PATH | {
        "pygit2", "sqlite3", "Stemmer", "rapidfuzz", "memrepo.cache", "memrepo.answer",
        "memrepo.agent", "memrepo.facts", "memrepo.git.write", "memrepo.git.read", "yaml",
        "memrepo.core.strict_yaml"},
}

COMMANDS = {
    "remember": ["remember", "--scope", "michal", "car", "colour", "blue"],
    "recall": ["recall", "--scope", "michal", "car"],
    "recall-key": ["recall", "--scope", "michal", "--subject", "car", "--relation", "colour",
                   "--json"],
    "check": ["check"],
}

COMMIT_MSG_HOOK = (EVERY_PATH | NOT_IMPORTED["check"]) - {
    "memrepo.maintenance", "memrepo.facts", "rapidfuzz"} | {
    "memrepo.maintenance.doctor", "memrepo.maintenance.sync", "memrepo.maintenance.init",
    "memrepo.maintenance.triage", "memrepo.maintenance.indexes", "memrepo.checks.rewrites",
    "memrepo.checks.history", "memrepo.facts.appender", "memrepo.facts.segments",
    "memrepo.facts.writes", "memrepo.git.branch_update", "memrepo.git.staging"}
"""What `memrepo hooks run commit-msg` may not import: `check`'s set, with the hook's own
module (maintenance.git_hooks), the write lock it takes (facts.write_lock) and, for a commit
that adds a note, the near-duplicate comparison (rapidfuzz) — not the write path (pygit2
with it: ≈30 ms a commit) nor the checks of a moved branch."""


REFRESH_HOOK = (EVERY_PATH - {"memrepo.maintenance"}) | {
    "pygit2", "yaml", "rapidfuzz", "multiprocessing", "concurrent", "ctypes", "shlex",
    "memrepo.answer", "memrepo.agent", "memrepo.facts", "memrepo.checks", "memrepo.hooks",
    "memrepo.core.duplicates", "memrepo.core.strict_yaml", "memrepo.cache.build",
    "memrepo.cache.audit", "memrepo.cache.fulltext", "memrepo.git.read", "memrepo.git.write",
    "memrepo.git.activity", "memrepo.git.hook_scripts", "memrepo.maintenance.hook_checks",
    "memrepo.maintenance.doctor", "memrepo.maintenance.sync", "memrepo.maintenance.init",
    "memrepo.maintenance.triage", "memrepo.maintenance.indexes"}
"""What `memrepo hooks run post-checkout` may not import: the check stages' code (the write
lock, git's activity, the hook scripts and ctypes with them), the checks, the write path,
the build, the YAML parser (the config comes from the cache), the question path."""


def imported(root: Path, *args: str) -> set[str]:
    """The modules `python -X importtime -m memrepo ARGS` imports (in `root`)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "memrepo", *args],
                          cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
            if line.startswith("import time:") and line.count("|") == 2} - {"package"}


def forbidden_in(modules: set[str], forbidden: frozenset[str]) -> list[str]:
    return sorted(module for module in modules
                  if any(module == name or module.startswith(f"{name}.") for name in forbidden))


@pytest.fixture()
def ready_repo(memory_repo: Path) -> Path:
    """A memory with a fact, a staged note and a current cache."""
    assert imported(memory_repo, *COMMANDS["remember"][:-1], "red")  # the first write
    write(memory_repo, "memory/entities/acme-supplies.md",
          note("entities", "acme-supplies", "Supplier of packaging crates"))
    assert imported(memory_repo, "index")
    git(memory_repo, "add", "-A")
    assert imported(memory_repo, *COMMANDS["recall"])  # the cache is current after it
    return memory_repo


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_frequent_path_imports_none_of_what_it_does_not_need(
        ready_repo: Path, command: str) -> None:
    modules = imported(ready_repo, *COMMANDS[command])
    assert "memrepo.cli" in modules  # the parse saw the whole run
    assert forbidden_in(modules, NOT_IMPORTED[command]) == []
    assert forbidden_in(imported(ready_repo, COMMANDS[command][0], "--help"),
                        NOT_IMPORTED[command]) == []


def test_the_commit_msg_hook_imports_none_of_what_it_does_not_need(ready_repo: Path) -> None:
    """The hook as git runs it: a real commit, the hook's Python told to list its imports."""
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    done = git(ready_repo, "commit", "-q", "-m", "Add acme-supplies", env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
               if line.startswith("import time:") and line.count("|") == 2} - {"package"}
    assert {"memrepo.maintenance.git_hooks", "memrepo.checks.entry"} <= modules
    assert forbidden_in(modules, COMMIT_MSG_HOOK) == []


def test_the_guard_sees_a_forbidden_import() -> None:
    modules = {"memrepo.cli", "pygit2", "pygit2._pygit2", "memrepo.cache.build", "yamlish"}
    assert forbidden_in(modules, frozenset({"pygit2", "memrepo.cache", "yaml"})) == [
        "memrepo.cache.build", "pygit2", "pygit2._pygit2"]


@pytest.fixture()
def branch_apart(ready_repo: Path) -> tuple[Path, str, str]:
    """`ready_repo` committed, and a branch `apart` from it by a note and a fact; checked
    out on the first branch, its cache current (refreshed by the hook)."""
    first = git(ready_repo, "rev-parse", "--abbrev-ref", "HEAD").stdout.strip()
    assert git(ready_repo, "commit", "-q", "-m", "Add acme-supplies", check=False).returncode == 0
    git(ready_repo, "checkout", "-q", "-b", "apart")
    assert imported(ready_repo, *COMMANDS["remember"][:-1], "green")  # a fact (its commit)
    write(ready_repo, "memory/entities/zenon-bakery.md",
          note("entities", "zenon-bakery", "Bakery delivering bread to the canteen daily"))
    assert imported(ready_repo, "index")
    git(ready_repo, "add", "-A")
    assert git(ready_repo, "commit", "-q", "-m", "Add zenon-bakery", check=False).returncode == 0
    git(ready_repo, "checkout", "-q", first)
    return ready_repo, first, "apart"


def test_the_refresh_after_a_checkout_imports_none_of_what_it_does_not_need(
        branch_apart: tuple[Path, str, str]) -> None:
    """The post-checkout hook as git runs it, re-indexing a note and a fact log."""
    root, _first, apart = branch_apart
    env = {**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}
    done = git(root, "checkout", "-q", apart, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
               if line.startswith("import time:") and line.count("|") == 2} - {"package"}
    assert {"memrepo.maintenance.git_hooks", "memrepo.cache.incremental",
            "jsonschema_rs"} <= modules  # the sync ran, and judged the fact's line
    assert forbidden_in(modules, REFRESH_HOOK) == []


SPY = """
import dataclasses, runpy, sys
built, real = [], dataclasses.dataclass
def spy(cls=None, /, **options):
    def make(cls):
        built.append(f"{cls.__module__}.{cls.__qualname__}")
        return real(cls, **options)
    return make if cls is None else make(cls)
dataclasses.dataclass = spy
sys.argv = ["memrepo", *sys.argv[1:]]
try:
    runpy.run_module("memrepo", run_name="__main__")
finally:
    print("built:", *sorted(name for name in built if name.startswith("memrepo")))
"""
"""`python -m memrepo ARGS` with every dataclass made while it runs listed on stdout."""


def test_the_refresh_after_a_checkout_builds_no_dataclass(
        branch_apart: tuple[Path, str, str]) -> None:
    root, first, apart = branch_apart
    moved = [git(root, "rev-parse", first).stdout.strip(),
             git(root, "rev-parse", apart).stdout.strip()]
    git(root, "-c", "core.hooksPath=/dev/null", "checkout", "-q", apart)
    done = subprocess.run([sys.executable, "-c", SPY, "hooks", "run", "post-checkout",
                           *moved, "1"], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stderr == ""  # the cache was refreshed, no warning
    assert done.stdout.split() == ["built:"]
    status = subprocess.run([sys.executable, "-m", "memrepo", "cache", "status", "--json"],
                            cwd=root, capture_output=True, text=True, check=True)
    assert json.loads(status.stdout)["current"]  # the refresh synced it
