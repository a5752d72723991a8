"""`memrepo init`: skeleton, hooks for every stage, a first commit the hooks accepted."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import yaml

from memrepo.maintenance.init import PRE_COMMIT_CONFIG
from tests.support import APPROVER, ROOT, git, memrepo


def init(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["memrepo", "init", *args], cwd=where, capture_output=True,
                          text=True, check=False)


def test_the_skeleton_hooks_and_first_commit(memory_repo: Path) -> None:
    for category in ("rules", "entities", "references", "project"):
        index = (memory_repo / "memory" / category / "INDEX.md").read_text()
        assert index.startswith(f"---\ncategory: {category}\nentries: 0\n---\n")
    assert (memory_repo / "memory" / "TRIGGERS.md").is_file()
    assert (memory_repo / "schema" / "fact-event.schema.json").is_file()
    assert not (memory_repo / "schema" / "__init__.py").exists()
    config = yaml.safe_load((memory_repo / "memory" / "config.yaml").read_text())
    assert config["approvers"] == [APPROVER]
    assert "merge=union" in (memory_repo / ".gitattributes").read_text()
    assert ".memrepo/" in (memory_repo / ".gitignore").read_text()
    for hook in ("pre-commit", "pre-merge-commit", "commit-msg", "post-checkout",
                 "post-merge", "post-rewrite"):
        assert "memrepo hooks run" in (memory_repo / ".git" / "hooks" / hook).read_text()
    message = git(memory_repo, "log", "-1", "--format=%B").stdout
    assert f"Approved-by: {APPROVER}" in message
    assert git(memory_repo, "status", "--porcelain").stdout == ""
    done = memrepo(memory_repo, "check", "--all")
    assert done.returncode == 0, done.stderr
    assert memrepo(memory_repo, "verify").returncode == 0


def test_the_default_approver_is_the_git_identity(tmp_path: Path,
                                                  git_env: dict[str, str]) -> None:
    done = init(tmp_path, "fresh")
    assert done.returncode == 0, done.stderr
    config = yaml.safe_load((tmp_path / "fresh" / "memory" / "config.yaml").read_text())
    assert config["approvers"] == [APPROVER]


def test_refusals_are_clear(tmp_path: Path, git_env: dict[str, str]) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    done = init(tmp_path, "busy")
    assert done.returncode == 1 and "not empty and not a git repository" in done.stderr
    assert "Traceback" not in done.stderr
    done = init(tmp_path, "")
    assert done.returncode == 1 and "DIR: is empty" in done.stderr
    done = init(tmp_path, "new", "--approver", "just-a-name")
    assert done.returncode == 1 and "is not 'Name <email>'" in done.stderr
    assert not (tmp_path / "new").exists()
    for approver, said in (("Evil \x1b[2J <e@x.com>", "control character (U+001B)"),
                           (f"{'a' * 300} <a@b.c>", "longer than 200 characters (308)")):
        done = init(tmp_path, "new", "--approver", approver)
        assert done.returncode == 1 and said in done.stderr and "\x1b" not in done.stderr
        assert len(done.stderr.splitlines()) <= 2 and not (tmp_path / "new").exists()


def test_this_repository_uses_the_same_hook_configuration() -> None:
    assert (ROOT / ".pre-commit-config.yaml").read_text() == PRE_COMMIT_CONFIG
    offered = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    ids = {hook["id"] for hook in offered}
    assert {"memrepo-approval", "memrepo-counts", "memrepo-fact-logs",
            "memrepo-fact-times", "memrepo-headers"} <= ids


def test_an_existing_repository_keeps_its_files_and_gains_memrepos_lines(
        tmp_path: Path, git_env: dict[str, str]) -> None:
    repo = tmp_path / "existing"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / ".gitignore").write_text("*.log\n")
    (repo / ".gitattributes").write_text("*.png binary\n")
    done = init(tmp_path, "existing", "--approver", APPROVER)
    assert done.returncode == 0, done.stderr
    assert (repo / ".gitignore").read_text() == "*.log\n.memrepo/\n"
    assert (repo / ".gitattributes").read_text() == (
        "*.png binary\nmemory/facts/**/*.jsonl merge=union\n")


def test_an_existing_pre_commit_configuration_is_refused(tmp_path: Path,
                                                         git_env: dict[str, str]) -> None:
    repo = tmp_path / "hooked"
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / ".pre-commit-config.yaml").write_text("repos: []\n")
    done = init(tmp_path, "hooked", "--approver", APPROVER)
    assert done.returncode == 1 and "pre-commit configuration" in done.stderr
    assert not (repo / "memory").exists()


def test_a_failed_init_takes_back_what_it_wrote(tmp_path: Path,
                                                git_env: dict[str, str]) -> None:
    repo = tmp_path / "stubborn"
    repo.mkdir()
    git(repo, "init", "-q")
    git(repo, "config", "core.hooksPath", ".gitignore/hooks")  # a folder inside a file
    (repo / ".gitignore").write_text("*.log\n")
    done = init(tmp_path, "stubborn", "--approver", APPROVER)
    assert done.returncode == 1 and "hooks could not be installed" in done.stderr
    assert sorted(p.name for p in repo.iterdir()) == [".git", ".gitignore"]
    assert (repo / ".gitignore").read_text() == "*.log\n"
    git(repo, "config", "--unset", "core.hooksPath")
    assert init(tmp_path, "stubborn", "--approver", APPROVER).returncode == 0


def test_a_machine_without_a_git_identity(tmp_path: Path) -> None:
    """A new laptop or CI runner: no user.name/user.email anywhere. The first commit is made
    as the approver and init says so; without --approver it says in one line what to give."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "EMAIL"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home), GIT_CONFIG_NOSYSTEM="1")
    # git may guess an identity from the host name; useConfigOnly makes it refuse, as it
    # does on a host whose name has no domain
    env.update(GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="user.useConfigOnly",
               GIT_CONFIG_VALUE_0="true")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["memrepo", "init", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, check=False)

    refused = run("bare")
    assert refused.returncode == 1 and "\\u000a" not in refused.stderr
    assert "git has no identity" in refused.stderr and "--approver" in refused.stderr
    assert len(refused.stderr.splitlines()) == 2 and not (tmp_path / "bare").exists()

    made = run("given", "--approver", APPROVER)
    assert made.returncode == 0, made.stderr
    assert "first commit was made as the approver" in made.stderr
    assert "git config --global user.name" in made.stderr
    author = git(tmp_path / "given", "log", "-1", "--format=%an <%ae>").stdout.strip()
    assert author == APPROVER
