"""`memrepo init DIR`: a new memory repository with the memory/ + schema/ skeleton, the
hooks installed for every stage, and a first commit made by real `git commit` (so the
hooks check it like any other).
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.core.config import CATEGORIES, CONFIG_PATH
from memrepo.core.display import describe_character, shown, unsafe_character
from memrepo.core.notes.index_file import render_index
from memrepo.core.notes.triggers import TRIGGERS_PATH
from memrepo.core.policy.approval import CONTROL_FILES
from memrepo.core.problems import InputError, Problem
from memrepo.git.command import run_git
from memrepo.git.hook_scripts import install
from memrepo.git.porcelain import committer_ident_missing, git, has_head
from memrepo.local_state import STATE_DIR
from memrepo.resources import data_dir

if TYPE_CHECKING:
    pass

APPROVER = re.compile(r"[^<>\n]*[^<>\s][^<>\n]* <[^<>\s]+@[^<>\s]+>")

PRE_COMMIT_CONFIG = """\
# memrepo: the commit-time checks and the cache refresh, for people who run their git
# hooks through the pre-commit framework. memrepo does not need it: `memrepo init` and
# `memrepo hooks install` write git's own hook scripts, which run memrepo directly (faster,
# and independent of this file). With the framework instead: `pre-commit install -f` (these
# `language: system` hooks need `memrepo` on PATH; without it, point a `repo:` entry at
# memrepo's repository and use the ids of its .pre-commit-hooks.yaml).
default_install_hook_types: [pre-commit, commit-msg, post-checkout, post-merge, post-rewrite]
repos:
  - repo: local
    hooks:
      - id: memrepo-check
        name: memrepo checks (staged files)
        entry: memrepo check --stage pre-commit
        language: system
        stages: [pre-commit]
        pass_filenames: false
        always_run: true
      - id: memrepo-check-message
        name: memrepo checks (commit message)
        entry: memrepo check --stage commit-msg --message-file
        language: system
        stages: [commit-msg]
        always_run: true
      - id: memrepo-cache-sync
        name: memrepo cache sync
        entry: memrepo-refresh-cache --quiet --hook
        language: system
        stages: [post-checkout, post-merge, post-rewrite]
        pass_filenames: false
        always_run: true
"""

GITATTRIBUTES = """\
# Fact logs are append-only: a merge keeps the lines of both sides.
memory/facts/**/*.jsonl merge=union
"""

GITIGNORE = f"""\
# memrepo's local state: the disposable cache and the write lock
{STATE_DIR}/
"""

TRIGGERS = """\
# Triggers

A question that matches a trigger loads the listed notes into the context; nothing else is
loaded by default. Triggers are words or phrases (comma-separated) or a regex between slashes.

| trigger | notes |
|---|---|
"""

FIRST_MESSAGE = "Memory repository: skeleton, config and hooks (memrepo init)"

MANY_VALUED = ("child", "children", "kid", "kids", "son", "daughter", "grandchild",
               "sibling", "brother", "sister", "parent", "speaks", "language", "languages",
               "phone", "phones", "email", "emails", "employee", "employees", "staff",
               "client", "clients", "customer", "customers", "supplier", "suppliers",
               "allergy", "allergies", "medication", "medications", "pet", "pets",
               "hobby", "hobbies", "member_of", "membership", "friend", "friends",
               "nationality", "citizenship", "account", "accounts", "skill", "skills")
"""The relations `memrepo init` declares many-valued: those a person or business usually
has several of at once."""


def with_many_valued(config: str, relations: Sequence[str]) -> str:
    """`config` (as `config_text` writes it) declaring exactly `relations` many-valued."""
    return re.sub(r"(?m)^many_valued_relations: .*$",
                  f"many_valued_relations: {json.dumps(list(relations))}", config, count=1)


def config_text(approver: str) -> str:
    return (
        "# memrepo configuration (schema: schema/config.schema.json).\n"
        "# Changing this file, like any rule, needs an `Approved-by:` trailer naming an "
        "approver.\n\n"
        f"approvers:\n  - {json.dumps(approver, ensure_ascii=False)}\n\n"
        "# Relations that hold several objects at once (a second child, language or phone\n"
        "# joins the first instead of replacing it); all others are single-valued.\n"
        f"many_valued_relations: {json.dumps(list(MANY_VALUED))}\n\n"
        "# When notes or facts of different categories contradict, the earlier wins.\n"
        "precedence: [rules, references, entities, project]\n\n"
        "stale_after_days: 365\n"
        "clock_skew_seconds: 300\n\n"
        "# Besides memory/rules/, this file and the allowed-signers file, changing these\n"
        "# needs an `Approved-by:` trailer too (a folder ends with /).\n"
        f"control_files: {json.dumps(list(CONTROL_FILES))}\n"
    )


def skeleton(approver: str) -> dict[str, str]:
    """Repo-relative path → text of every file `memrepo init` writes (besides schema/)."""
    files = {f"memory/{c}/INDEX.md": render_index(c, {}) for c in CATEGORIES}
    files.update({
        TRIGGERS_PATH: TRIGGERS,
        CONFIG_PATH: config_text(approver),
        ".gitattributes": GITATTRIBUTES,
        ".gitignore": GITIGNORE,
        ".pre-commit-config.yaml": PRE_COMMIT_CONFIG,
    })
    return files


APPENDABLE = (".gitattributes", ".gitignore")
"""Files an existing repository may already have: memrepo's lines are appended to them."""


def create_memory_repo(directory: Path, approver: str | None = None) -> str:
    """Make `directory` a memory repository; returns the first commit's id. Where git has no
    identity to commit with (a new machine), the first commit is made as the approver
    (`committer_fallback` tells a caller beforehand).

    All or nothing: when a step fails (pre-commit install, the first commit refused), what
    this call wrote is taken away again, so `memrepo init` can simply be run again."""
    directory = directory.expanduser().resolve()
    approver = _approver(approver)  # before anything is created
    existed = directory.exists()
    existing_repo = _prepare(directory)
    before = {name: (directory / name).read_bytes() for name in APPENDABLE
              if (directory / name).is_file()}
    had_schema = (directory / "schema").exists()
    try:
        return _initialise(directory, approver, existing_repo)
    except BaseException:
        _undo(directory, existed, existing_repo, before, had_schema)
        raise


def _initialise(directory: Path, approver: str, existing_repo: bool) -> str:
    if not existing_repo:
        git(directory, "init", "-q", "-b", "main", fix=RETRY_FIX)
    written = _write_files(directory, skeleton(approver))
    written.append(_copy_schemas(directory))
    _install_hooks(directory)
    git(directory, "add", "--", *written, fix=RETRY_FIX)
    message = f"{FIRST_MESSAGE}\n\nApproved-by: {approver}\n"
    identity = _identity_options(approver) if committer_fallback(directory) else []
    git(directory, *identity, "commit", "-q", "-m", message, "--", *written,
        what="git commit", fix=COMMIT_FIX)
    return git(directory, "rev-parse", "HEAD", fix=RETRY_FIX).strip()


def committer_fallback(directory: Path) -> bool:
    """Whether git has no identity to commit with in `directory` (no user.name/user.email
    and none git can guess): init then makes its first commit as the approver."""
    where = directory if directory.is_dir() else Path.cwd()
    return committer_ident_missing(where)


def _identity_options(approver: str) -> list[str]:
    name, email = approver[:-1].rsplit(" <", 1)
    return ["-c", f"user.name={name}", "-c", f"user.email={email}"]


def _install_hooks(directory: Path) -> None:
    try:
        install(directory)
    except OSError as err:
        raise InputError(Problem(str(directory), f"the git hooks could not be installed "
                                 f"({err.strerror}: {err.filename})",
                                 "make git's hooks folder writable and run `memrepo init` "
                                 "again")) from None


def _undo(directory: Path, existed: bool, existing_repo: bool, before: dict[str, bytes],
          had_schema: bool) -> None:
    """Take back what a failed init wrote (a new directory goes entirely)."""
    if not existing_repo:
        if not existed:
            shutil.rmtree(directory, ignore_errors=True)
            return
        for entry in directory.iterdir():  # it was empty before
            _remove(entry)
        return
    created = ["memory", ".pre-commit-config.yaml", *(n for n in APPENDABLE if n not in before),
               *([] if had_schema else ["schema"])]
    unstage = (["reset", "-q", "--", *created, *before] if has_head(directory) else
               ["rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", *created])
    run_git(directory, *unstage)
    for name in created:
        _remove(directory / name)
    for name, data in before.items():
        (directory / name).write_bytes(data)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        path.unlink(missing_ok=True)


def _prepare(directory: Path) -> bool:
    """Create `directory` or accept it; True when it already is a git repository."""
    if directory.exists() and not directory.is_dir():
        raise InputError(Problem(str(directory), "exists and is not a directory",
                                 "choose a new directory name"))
    if (directory / "memory").exists():
        raise InputError(Problem(str(directory / "memory"), "a memory/ folder already exists",
                                 "choose another directory; this one already holds a memory"))
    is_repo = (directory / ".git").exists()
    if (directory / ".pre-commit-config.yaml").exists():
        raise InputError(Problem(str(directory / ".pre-commit-config.yaml"), "the repository "
                                 "already has a pre-commit configuration; memrepo's hooks "
                                 "would not be installed", "add the `repo: local` hooks of "
                                 "memrepo's own .pre-commit-config.yaml to it and commit the "
                                 "memory by hand, or remove it and run `memrepo init` again"))
    if directory.is_dir() and any(directory.iterdir()) and not is_repo:
        raise InputError(Problem(str(directory), "the directory is not empty and not a git "
                                 "repository", "give a new or empty directory, or run "
                                 "`git init` there first to add a memory to existing files"))
    directory.mkdir(parents=True, exist_ok=True)
    return is_repo


def _approver(given: str | None) -> str:
    fix = 'give --approver "Your Name <you@example.com>"'
    if given is None:
        ident = run_git(Path.cwd(), "var", "GIT_COMMITTER_IDENT")
        if ident.returncode != 0:
            raise InputError(Problem("--approver", "not given, and git has no identity to "
                                     "take it from (no user.name / user.email)", fix))
        given = ident.stdout.rsplit(">", 1)[0] + ">"
    given = given.strip()
    char = unsafe_character(given)
    if char is not None:
        raise InputError(Problem("--approver", "contains a control character "
                                 f"({describe_character(char)})", fix))
    if len(given) > MAX_APPROVER:
        raise InputError(Problem("--approver", f"is longer than {MAX_APPROVER} characters "
                                 f"({len(given)})", fix))
    if not APPROVER.fullmatch(given):
        raise InputError(Problem("--approver", f"{shown(given)} is not 'Name <email>'", fix))
    return given


MAX_APPROVER = 200
"""schema/config.schema.json's limit for an approver."""


def _write_files(directory: Path, files: dict[str, str]) -> list[str]:
    """Write the skeleton; an existing .gitignore / .gitattributes keeps its lines and gets
    memrepo's appended (the union merge of logs and the ignored cache depend on them)."""
    for relative, text in files.items():
        target = directory / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        current = target.read_text(encoding="utf-8") if target.is_file() else ""
        missing = [line for line in text.splitlines()
                   if line.strip() and not line.startswith("#")
                   and line not in current.splitlines()]
        if not current:
            target.write_text(text, encoding="utf-8")
        elif missing:
            separator = "" if current.endswith("\n") else "\n"
            target.write_text(current + separator + "\n".join(missing) + "\n",
                              encoding="utf-8")
    return list(files)


def _copy_schemas(directory: Path) -> str:
    ignore = shutil.ignore_patterns("__pycache__", "__init__.py", "*.pyc")
    shutil.copytree(data_dir("schema"), directory / "schema", ignore=ignore,
                    dirs_exist_ok=True)
    return "schema"


COMMIT_FIX = ("fix the problems listed above (the first commit was refused); init took back "
              "what it wrote, so run it again")
RETRY_FIX = "fix the cause shown above and run `memrepo init` again in a new directory"
