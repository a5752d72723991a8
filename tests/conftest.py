"""Shared fixtures: a git identity with no user config leaking in (`git_env`), and a fresh
memory repository made by `memrepo init`, hooks installed (`memory_repo`).

`memrepo init` runs once per session into a template; each test gets a copy of it.
"""

from __future__ import annotations

import compileall
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import APPROVER, ROOT, copy_repo, isolated_env, set_environment

PACKAGES = ("memrepo", "hooks", "scripts")
"""The folders of memrepo's Python modules (pyproject.toml, package-dir)."""


def _running_python_first_on_path() -> None:
    """`memrepo` (and `python`, `pre-commit`…) run by name are those of the interpreter
    running the tests — the memrepo under test — not whatever PATH finds first: a version
    manager's shim (pyenv's costs ≈100 ms of CPU per call, before Python even starts) or
    another installation. For this process and every process the tests start."""
    here = str(Path(sys.executable).parent)
    rest = [d for d in os.environ.get("PATH", "").split(os.pathsep) if d and d != here]
    os.environ["PATH"] = os.pathsep.join([here, *rest])


_running_python_first_on_path()


@pytest.fixture(scope="session")
def git_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("home")


@pytest.fixture()
def git_env(git_home: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Sets the isolated environment for this test (in-process and for subprocesses)."""
    env = isolated_env(git_home)
    set_environment(monkeypatch, env)
    return env


@pytest.fixture(scope="session")
def memory_template(tmp_path_factory: pytest.TempPathFactory, git_home: Path) -> Path:
    target = tmp_path_factory.mktemp("template") / "memory-repo"
    subprocess.run([sys.executable, "-m", "memrepo", "init", str(target), "--approver",
                    APPROVER], env=isolated_env(git_home), check=True, capture_output=True)
    return target


@pytest.fixture()
def memory_repo(memory_template: Path, tmp_path: Path, git_env: dict[str, str]) -> Path:
    """A fresh memory repository (skeleton, config naming APPROVER, hooks, one commit)."""
    return copy_repo(memory_template, tmp_path / "memory-repo")


@pytest.fixture(scope="session")
def demo_template(memory_template: Path, tmp_path_factory: pytest.TempPathFactory,
                  git_home: Path) -> Path:
    """The memory_repo template with the packaged demo memory imported through the hooks."""
    from memrepo.maintenance.demo import install_demo_memory

    target = copy_repo(memory_template, tmp_path_factory.mktemp("demo") / "memory-repo")
    install_demo_memory(target, APPROVER, isolated_env(git_home))
    return target


@pytest.fixture()
def demo_repo(demo_template: Path, tmp_path: Path, git_env: dict[str, str]) -> Path:
    """A memory repository holding the demo memory (notes + the SPEC §5 worked example)."""
    return copy_repo(demo_template, tmp_path / "demo-repo")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--long", action="store_true", default=False,
                     help="also run the long variants (crash trials, concurrency, sync)")


@pytest.fixture(autouse=True)
def _no_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answers in tests never depend on whether memrepo[vectors] is installed (its own
    tests turn it on)."""
    monkeypatch.setenv("MEMREPO_VECTORS", "0")


def pytest_sessionstart(session: pytest.Session) -> None:
    """memrepo's modules compiled to bytecode once, before any test, as `pip install` does
    for a regular install: with an editable install and PYTHONDONTWRITEBYTECODE=1 (common
    in CI) every `memrepo` process and git hook the tests start would otherwise compile
    them from source again. (Once, by the xdist controller, not by each worker.)"""
    if hasattr(session.config, "workerinput"):
        return
    for package in PACKAGES:
        compileall.compile_dir(ROOT / package, quiet=2)
    _rewrite_test_modules_once(session.config)


def _rewrite_test_modules_once(config: pytest.Config) -> None:
    """The test modules with their asserts rewritten by pytest, cached once by the xdist
    controller as pytest caches them itself when bytecode may be written: with
    PYTHONDONTWRITEBYTECODE=1 each worker would rewrite every module again (≈4 s of CPU
    each). Uses pytest's private rewriting functions; without them, nothing is cached
    and each worker rewrites as before."""
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    needed = ("_rewrite_test", "_read_pyc", "_write_pyc", "get_cache_dir", "PYC_TAIL",
              "assertstate_key")
    if (config.getoption("assertmode") != "rewrite"
            or not all(hasattr(rewrite, name) for name in needed)):
        return
    state = config.stash[rewrite.assertstate_key]
    for path in sorted({*(ROOT / "tests").rglob("*_test.py"),
                        *(ROOT / "tests").rglob("conftest.py")}):
        cache = rewrite.get_cache_dir(path)
        pyc = cache / (path.name[:-3] + rewrite.PYC_TAIL)
        try:
            cache.mkdir(exist_ok=True)
            if rewrite._read_pyc(path, pyc) is None:
                source_stat, code = rewrite._rewrite_test(path, config)
                rewrite._write_pyc(state, code, source_stat, pyc)
        except (OSError, SyntaxError):
            continue  # the worker that imports it rewrites it (and reports its error)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "long: a long variant, run only with --long")


SLOW_FIRST = (
    "tests/maintenance/sync_test.py", "tests/docs_test.py", "tests/agent/mcp_server_test.py",
    "tests/bench/fleet_test.py", "tests/bench/perf_test.py", "tests/wheel_install_test.py",
    "tests/commands/secrets_test.py", "tests/commit_hooks_test.py",
    "tests/checks/rewrites_test.py", "tests/commands/mcp_config_test.py",
    "tests/fuzz_test.py", "tests/retrieval_test.py", "tests/core/facts/bitemporal_test.py",
    "tests/cache/build_test.py", "tests/note_commits_test.py", "tests/lint_test.py",
)
"""The modules that take longest, run first: `-n 2` hands out whole modules (`--dist
loadfile`, pyproject.toml: a module's fixtures are built once, not once per worker), so
the last ones handed out must be short ones or one worker idles at the end. Only the
order of the modules depends on this list, never a result."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    rank = {path: n for n, path in enumerate(SLOW_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))
    if config.getoption("--long"):
        return
    skip = pytest.mark.skip(reason="long variant: run with --long")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)
