"""ARCHITECTURE.md is true: every path it names exists, every module is named in it, and the
imports keep to the boundaries of its table (what each folder may touch): every import is
read — at the top, inside functions, and under `if TYPE_CHECKING:` (checked on their own) —
against the allowed-imports matrix below; no package and no module imports itself back."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
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
                   "memrepo/maintenance/demo.py", "scripts/pre_receive.py",
                   "memrepo/cache/deferred.py"),  # the background `cache sync`
    "pygit2": ("memrepo/git/read.py", "memrepo/git/write.py", "memrepo/git/branch_update.py"),
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


@cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of a module, parsed once for every test here (none changes it)."""
    return ast.parse(path.read_text(encoding="utf-8"))


@cache
def runtime_imports(path: Path) -> frozenset[str]:
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

    visit(parsed(path).body)
    return frozenset(found)


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
    body = parsed(path).body
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


# --- the allowed-imports matrix -------------------------------------------------------------

ADAPTERS = frozenset({"files", "local_state", "crashlog", "faults", "clock", "resources",
                      "progress"})
LIBRARY = frozenset({"core", "git", "repo_root", "schemas", "config", "check_support", "hooks",
                     "checks", "cache", "answer", "facts", "agent", "maintenance"}) | ADAPTERS

MAY_IMPORT: dict[str, frozenset[str]] = {  # a unit (package or loose module) → what it may
    "core": frozenset(),                    # import of memrepo besides itself
    "local_state": frozenset(),
    "crashlog": frozenset(),
    "resources": frozenset(),
    "progress": frozenset(),
    "clock": frozenset({"core"}),
    "faults": frozenset({"core"}),
    "files": frozenset({"core", "local_state"}),
    "git": frozenset({"core", "files", "local_state", "clock"}),
    "repo_root": frozenset({"core", "git"}),
    "schemas": frozenset({"core", "resources"}),
    "config": frozenset({"core", "files", "git", "schemas"}),
    "check_support": frozenset({"core", "crashlog", "git", "repo_root"}),
    "hooks": frozenset({"core", "check_support", "config", "schemas", "local_state"}),
    "checks": frozenset({"core", "clock", "crashlog", "progress", "git", "repo_root",
                         "check_support", "hooks"}),
    "cache": frozenset({"core", "files", "local_state", "clock", "progress", "resources",
                        "repo_root", "git", "schemas", "config"}),
    "answer": frozenset({"core", "git", "cache"}),
    "facts": frozenset({"core", "files", "local_state", "faults", "clock", "git", "schemas",
                        "config", "checks", "cache"}),
    "agent": frozenset({"core", "files", "local_state", "faults", "clock", "repo_root",
                        "schemas", "config", "cache", "answer", "facts"}),
    "maintenance": LIBRARY - {"maintenance", "agent", "answer", "hooks"},
    "bench": LIBRARY,
    "commands": LIBRARY | {"bench", "cli", "check_support"},
    "cli": frozenset({"core", "crashlog", "faults", "progress"}),  # commands: by name, in one place
    "__main__": frozenset({"cli"}),
    # `from memrepo import Memory, InputError, …`: the Python API's names, each on first use
    "memrepo": frozenset({"core", "clock", "agent", "answer", "facts", "maintenance"}),
    "scripts": frozenset({"core", "cli", "repo_root", "git", "cache", "progress"}),
}

KNOWN_VIOLATIONS: dict[tuple[str, str], str] = {}  # (module, unit it imports) → why it stays


@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the memrepo module imported
    line: int
    inner: bool  # inside a function
    type_checking: bool  # under `if TYPE_CHECKING:`


def module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[0] in ("hooks", "scripts"):
        parts.insert(0, "memrepo")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_of(p): p for p in SOURCES}


def unit_of(module: str) -> str:
    """The package (`cache`, `hooks`, …) or loose module (`files`, `config`) a module is in."""
    parts = module.split(".")
    return "memrepo" if len(parts) == 1 else parts[1]


@cache
def imports_of(module: str) -> tuple[Import, ...]:
    """Every import of a memrepo module that `module` makes, wherever it stands."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, inner: bool, checking: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                for name in _names(child, package):
                    target = _known(name)
                    if target is not None and target != module:
                        found.append(Import(module, target, child.lineno, inner, checking))
            visit(child, inner or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef),
                  checking or (isinstance(child, ast.If)
                               and "TYPE_CHECKING" in ast.unparse(child.test)))

    visit(parsed(path), False, False)
    return tuple(found)


def _names(node: ast.Import | ast.ImportFrom, package: str) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        up = package.split(".")[:len(package.split(".")) - node.level + 1]
        base = ".".join([*up, *([base] if base else [])])
    for alias in node.names:
        yield f"{base}.{alias.name}"  # a module, or a name in module `base`


def _known(name: str) -> str | None:
    """The memrepo module `name` is (or is a name in); None outside memrepo."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def all_imports() -> list[Import]:
    return [found for module in sorted(MODULES) for found in imports_of(module)]


def _crossing(found: Import) -> bool:
    source, target = unit_of(found.source), unit_of(found.target)
    return (source != target and target not in MAY_IMPORT[source]
            and (found.source, target) not in KNOWN_VIOLATIONS)


def test_every_unit_is_in_the_matrix() -> None:
    assert {unit_of(m) for m in MODULES} - set(MAY_IMPORT) == set()


def test_imports_keep_to_the_matrix() -> None:
    """Imports at the top and inside functions alike."""
    crossing = [f"{found.source}:{found.line} imports {found.target}"
                for found in all_imports() if not found.type_checking and _crossing(found)]
    assert crossing == []


def test_type_checking_imports_keep_to_the_matrix() -> None:
    """Imports for the type checker only, listed apart: they load nothing at run time, but
    a reader still follows them."""
    crossing = [f"{found.source}:{found.line} imports {found.target}"
                for found in all_imports() if found.type_checking and _crossing(found)]
    assert crossing == []


def test_the_known_violations_are_still_there() -> None:
    """An entry of KNOWN_VIOLATIONS that no import needs any more goes."""
    used = {(found.source, unit_of(found.target)) for found in all_imports()}
    assert set(KNOWN_VIOLATIONS) - used == set()


def test_no_package_imports_itself_back() -> None:
    graph: dict[str, set[str]] = {}
    for found in all_imports():
        if not found.type_checking and unit_of(found.source) != unit_of(found.target):
            graph.setdefault(unit_of(found.source), set()).add(unit_of(found.target))
    assert cycles(graph) == []


def test_no_module_imports_itself_back() -> None:
    graph: dict[str, set[str]] = {}
    for found in all_imports():
        if not found.type_checking:
            graph.setdefault(found.source, set()).add(found.target)
    assert cycles(graph) == []


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = [stack.pop()]
            while component[-1] != node:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


# --- git and local state, each in one place -------------------------------------------------

GIT_RUNNERS = ("memrepo/bench/perf/common.py",)  # `git()` there is a measured run of git


def test_no_git_wrapper_outside_git() -> None:
    """Git's verbs and the one GitError are memrepo/git/porcelain.py's: no module outside
    git/ keeps a private `_git` wrapper of its own."""
    wrappers = [f"{relative(p)}:{node.lineno}" for p in SOURCES
                if not relative(p).startswith(("memrepo/git/", *GIT_RUNNERS))
                for node in ast.walk(parsed(p))
                if isinstance(node, ast.FunctionDef)
                and re.fullmatch(r"_*(run_)?git(_checked)?", node.name)]
    assert wrappers == []


def test_local_state_is_named_in_one_module() -> None:
    """Every `.memrepo/…` path is memrepo/local_state.py's."""
    naming = [relative(p) for p in SOURCES if relative(p) != "memrepo/local_state.py"
              and any(re.match(r"\.memrepo(/|$)", node.value)
                      for node in ast.walk(parsed(p))
                      if isinstance(node, ast.Constant) and isinstance(node.value, str))]
    assert naming == []


INNER_IMPORTS_BUDGET = 49
"""Imports of memrepo's own modules inside functions, outside commands/ (where each
command's `run` imports its library, so that `memrepo <command> --help` stays cheap): the
lazy points left keep a start-up cheap (the query path, the git hooks, the check registry,
`from memrepo import Memory`). The budget only goes down."""


def test_imports_inside_functions_stay_within_the_budget() -> None:
    inner = {(found.source, found.line) for found in all_imports()
             if found.inner and not found.type_checking
             and unit_of(found.source) != "commands"}
    assert len(inner) <= INNER_IMPORTS_BUDGET


def test_the_cache_returns_rows_and_never_asks_answer() -> None:
    """One package answers questions: `cache/` holds its queries and none of its rules."""
    cache = sorted((ROOT / "memrepo" / "cache").rglob("*.py"))
    assert cache
    users = [relative(p) for p in cache
             if any(n == "memrepo.answer" or n.startswith("memrepo.answer.")
                    for n in runtime_imports(p))]
    assert users == []
