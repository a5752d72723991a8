"""The built wheel, installed without `-e` into a fresh virtual environment, runs every part
of memrepo: an editable install hides a subpackage the wheel lacks (SPEC §11).

The wheel is built from the files git tracks, without build isolation, and installed with
`--no-deps` (by this interpreter's pip) into a venv without pip of its own that sees this
interpreter's packages: the test needs no network.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from mcp.client.stdio import StdioServerParameters

from tests.support import ROOT, git, mcp_calls, note
from tests.support import isolated_env as _isolated_env


def _tracked_copy(target: Path) -> Path:
    """The project's tracked files (as they are in the work tree) copied to `target`."""
    listed = git(ROOT, "ls-files", "-z").stdout.split("\0")
    for relative in filter(None, listed):
        source = ROOT / relative
        if source.is_file():
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            (target / relative).write_bytes(source.read_bytes())
    return target


def _run(*command: str | Path, cwd: Path | None = None,
         env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env,
                          capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = _tracked_copy(work / "memrepo-source")
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "-q", "-w", work / "dist", source)
    assert built.returncode == 0, built.stdout + built.stderr
    (found,) = (work / "dist").glob("memrepo-*.whl")
    return found


@pytest.fixture(scope="module")
def venv_bin(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    venv = tmp_path_factory.mktemp("venv") / "env"
    made = _run(sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv)
    assert made.returncode == 0, made.stderr
    # this interpreter's pip installs into the venv (`--python`): a pip of the venv's own
    # would cost seconds of ensurepip and install nothing the test looks at
    installed = _run(sys.executable, "-m", "pip", "--python", venv / "bin" / "python",
                     "install", "-q", "--no-deps", wheel)
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return venv / "bin"


@pytest.fixture()
def venv_env(venv_bin: Path, tmp_path: Path) -> dict[str, str]:
    """An isolated environment (own HOME, test identity) whose PATH starts at the venv."""
    home = tmp_path / "home"
    home.mkdir()
    env = _isolated_env(home)
    env["PATH"] = f"{venv_bin}:{env.get('PATH', '')}"
    env.pop("PYTHONPATH", None)
    return env


def _source_packages() -> set[str]:
    found = {".".join(("memrepo", *p.parent.relative_to(ROOT / "memrepo").parts)).rstrip(".")
             for p in (ROOT / "memrepo").rglob("__init__.py")}
    return found | {"memrepo.hooks", "memrepo.scripts"}


def test_the_wheel_holds_every_package_and_the_packaged_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    packages = {name.rsplit("/", 1)[0].replace("/", ".") for name in names
                if name.endswith("/__init__.py")}
    assert _source_packages() <= packages
    assert {"memrepo/schema/fact-event.schema.json", "memrepo/schema/cache.sql"} <= names
    assert any(n.startswith("memrepo/demo_memory/entities/") for n in names)
    assert "memrepo/py.typed" in names


def test_the_installed_package_is_the_wheel_not_the_source_tree(
        venv_bin: Path, venv_env: dict[str, str]) -> None:
    done = _run(venv_bin / "python", "-c",
                "import memrepo, memrepo.hooks, memrepo.maintenance.doctor as d;"
                "print(memrepo.__file__); print(memrepo.hooks.__file__); print(d.__file__)",
                env=venv_env, cwd=venv_bin)
    assert done.returncode == 0, done.stderr
    assert all(line.startswith(str(venv_bin.parent)) for line in done.stdout.split())


def test_version_help_and_benchmark_help(venv_bin: Path, venv_env: dict[str, str]) -> None:
    version = _run(venv_bin / "memrepo", "--version", env=venv_env)
    assert version.returncode == 0 and version.stdout.startswith("memrepo 0.")
    for command in (["--help"], ["doctor", "--help"], ["bench", "perf", "--help"]):
        done = _run(venv_bin / "memrepo", *command, env=venv_env)
        assert done.returncode == 0, (command, done.stderr)


def test_init_commit_through_the_hooks_doctor_and_cache_scripts(
        venv_bin: Path, venv_env: dict[str, str], tmp_path: Path) -> None:
    repo = tmp_path / "memory"
    memrepo = venv_bin / "memrepo"
    made = _run(memrepo, "init", repo, "--approver", "Ann Example <ann@example.com>",
                env=venv_env)
    assert made.returncode == 0, made.stderr
    hook = (repo / ".git" / "hooks" / "commit-msg").read_text(encoding="utf-8")
    assert str(venv_bin.parent) in hook  # the hooks run the venv's interpreter

    path = repo / "memory" / "entities" / "acme-supplies.md"
    path.write_bytes(note("entities", "acme-supplies", "Ordering profile of Acme: minimum "
                          "200 boxes, net 30 payment"))
    assert _run(memrepo, "index", cwd=repo, env=venv_env).returncode == 0
    _run("git", "add", "-A", cwd=repo, env=venv_env)
    accepted = _run("git", "commit", "-m", "Acme's ordering profile", cwd=repo, env=venv_env)
    assert accepted.returncode == 0, accepted.stdout + accepted.stderr

    path.write_bytes(note("entities", "acme-supplies", "Notes"))
    _run("git", "add", "-A", cwd=repo, env=venv_env)
    refused = _run("git", "commit", "-m", "vague", cwd=repo, env=venv_env)
    assert refused.returncode != 0 and "To fix:" in refused.stdout + refused.stderr
    _run("git", "checkout", "--", ".", cwd=repo, env=venv_env)
    _run("git", "reset", "-q", "--hard", cwd=repo, env=venv_env)

    doctor = _run(memrepo, "doctor", cwd=repo, env=venv_env)
    assert doctor.returncode == 0, doctor.stdout + doctor.stderr
    for script in ("memrepo-build-cache", "memrepo-refresh-cache"):
        done = _run(venv_bin / script, "--repo", repo, env=venv_env)
        assert done.returncode == 0, (script, done.stderr)
    found = _run(memrepo, "search", "acme", "--json", cwd=repo, env=venv_env)
    assert '"acme-supplies"' in found.stdout


def test_serve_as_mcp_config_prints_it_answers_a_real_mcp_client(
        venv_bin: Path, venv_env: dict[str, str], tmp_path: Path) -> None:
    repo = tmp_path / "memory"
    assert _run(venv_bin / "memrepo", "init", repo, "--approver",
                "Ann Example <ann@example.com>", env=venv_env).returncode == 0
    printed = _run(venv_bin / "python", "-m", "memrepo", "mcp-config", "--client",
                   "claude-desktop", "--scope", "ann", "--session", "wheel-test", cwd=repo,
                   env=venv_env)
    assert printed.returncode == 0, printed.stderr
    server = json.loads(printed.stdout)["mcpServers"]["memrepo"]
    assert server["command"] == str(venv_bin / "memrepo")  # the wheel's, by its full path
    params = StdioServerParameters(command=server["command"], args=server["args"],
                                   cwd=str(tmp_path), env=venv_env)
    added, found = mcp_calls(params, [
        ("remember", {"subject": "ann", "relation": "city", "object": "Brno",
                      "quote": "I live in Brno."}),
        ("recall", {"subject": "ann", "relation": "city"}),
    ])
    assert added["status"] == "added"
    assert found["facts"][0]["object"] == "Brno"
