"""ARCHITECTURE.md is true: every path it names exists, every module is named in it, and the
imports keep to the boundaries of its table (what each folder may touch)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import ROOT

MAP = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8").split("## Fixed decisions")[0]
TOP_LEVEL = ("memrepo", "hooks", "scripts", "tests", "schema", "docs", "memory")
SOURCES = sorted(p for folder in ("memrepo", "hooks", "scripts")
                 for p in (ROOT / folder).rglob("*.py"))

ONLY_IN = {  # an import → the only modules that may make it at run time
    "sqlite3": ("memrepo/cache/", "memrepo/bench/perf/floor.py"),
    "subprocess": ("memrepo/git/command.py", "memrepo/bench/measure.py",
                   "memrepo/maintenance/demo.py", "scripts/pre_receive.py"),
    "pygit2": ("memrepo/git/read.py", "memrepo/git/write.py"),
    "httpx": ("memrepo/agent/llm.py",),
    "mcp": ("memrepo/agent/mcp_server.py",),
    "memrepo.commands": ("memrepo/commands/", "memrepo/cli.py"),
    "memrepo.cli": ("memrepo/commands/", "memrepo/__main__.py", "scripts/"),
}
NOT_IN_CORE = ("os", "sys", "io", "time", "random", "pathlib", "tempfile", "shutil", "socket",
               "subprocess", "sqlite3", "pygit2", "httpx", "mcp")


def named_paths() -> Iterator[tuple[str, Path]]:
    """(as written, resolved) for each path in backticks. A path inside the package may
    leave out `memrepo/`; a bare file name is relative to the folder of the first path on
    its line, else to the folder of its section heading."""
    section = ""
    for line in MAP.splitlines():
        tokens = [t for t in re.findall(r"`([^`\s]+)`", line)
                  if "<" not in t and not t.startswith(".") and ("/" in t or t.endswith(".py"))]
        paths = [_from_root(t) for t in tokens if "/" in t]
        if line.startswith("### "):
            section = next((p for p in paths if p.endswith("/")), "")
        folder = paths[0].rpartition("/")[0] + "/" if paths and "/" in tokens[0] else section
        for token in tokens:
            yield token, ROOT / (_from_root(token) if "/" in token else folder + token)


def _from_root(token: str) -> str:
    return token if token.split("/")[0] in TOP_LEVEL else f"memrepo/{token}"


def runtime_imports(path: Path) -> set[str]:
    """Absolute module names `path` imports when it runs (`if TYPE_CHECKING:` left out)."""
    found: set[str] = set()

    def visit(nodes: list[ast.stmt]) -> None:
        for node in nodes:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module)
                found.update(f"{node.module}.{alias.name}" for alias in node.names)
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    visit([child])

    visit(ast.parse(path.read_text(encoding="utf-8")).body)
    return found


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_every_path_named_exists() -> None:
    missing = [token for token, path in named_paths() if not path.exists()]
    assert missing == []


def test_every_module_is_named() -> None:
    named = {path.resolve() for _, path in named_paths()}
    unnamed = [relative(p) for p in SOURCES
               if p.resolve() not in named and not _obvious(p)]
    assert unnamed == []


def _obvious(path: Path) -> bool:
    """A subcommand (`memrepo/commands/<name>.py`) or a package's docstring-only __init__."""
    if path.parent == ROOT / "memrepo" / "commands":
        return True
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return path.name == "__init__.py" and all(isinstance(n, ast.Expr) for n in body)


@pytest.mark.parametrize("module", sorted(ONLY_IN))
def test_an_import_stays_where_the_map_puts_it(module: str) -> None:
    allowed = ONLY_IN[module]
    users = [relative(p) for p in SOURCES
             if any(name == module or name.startswith(f"{module}.")
                    for name in runtime_imports(p))]
    assert [u for u in users if not u.startswith(allowed)] == []


def test_the_core_touches_nothing() -> None:
    core = sorted((ROOT / "memrepo" / "core").rglob("*.py"))
    assert core
    for path in core:
        imports = runtime_imports(path)
        outside = [n for n in imports
                   if n.startswith("memrepo.") and not n.startswith("memrepo.core")]
        io = [n for n in imports if n.split(".")[0] in NOT_IN_CORE]
        assert (outside, io) == ([], []), relative(path)


def test_the_cache_returns_rows_and_never_asks_answer() -> None:
    """One package answers questions: `cache/` holds its queries and none of its rules."""
    cache = sorted((ROOT / "memrepo" / "cache").rglob("*.py"))
    assert cache
    users = [relative(p) for p in cache
             if any(n == "memrepo.answer" or n.startswith("memrepo.answer.")
                    for n in runtime_imports(p))]
    assert users == []
