"""Doctor: a merge, rebase, cherry-pick or revert left unfinished; missing git hooks;
symbolic links."""

from __future__ import annotations

import os
from pathlib import Path

from memrepo.files import LINK_FIX
from memrepo.git import porcelain
from memrepo.git import write as gitw
from memrepo.git.hook_scripts import install, states
from memrepo.local_state import STATE_DIR

from .findings import GIT_FIX, Finding, done, relative

SYNC_MERGE_PREFIX = "memrepo sync: merge"


def unfinished_operation(root: Path, repair: bool) -> list[Finding]:

    found = porcelain.unfinished_operation(Path(gitw.open_repo(root).path))
    if found is None:
        return []
    path = f".git/{found.file}"
    if found.command == "merge" and _merge_message(root).startswith(SYNC_MERGE_PREFIX):
        finding = Finding(path, "a merge an interrupted `memrepo sync` began is unfinished; "
                          "memrepo does not commit on top of it",
                          "run `memrepo doctor --repair` (it aborts the merge; `memrepo "
                          "sync` then does it again)")
        if not repair:
            return [finding]
        porcelain.git(root, "merge", "--abort", fix=GIT_FIX)
        return [done(finding, "aborted the merge (run `memrepo sync` again)")]
    return [Finding(path, f"{found.what} is in progress in this clone; memrepo does not "
                    "commit on top of it", f"finish it (`git commit`, `git {found.command} "
                    f"--continue`) or abort it (`git {found.command} --abort`)")]


def _merge_message(root: Path) -> str:

    try:
        return (Path(gitw.open_repo(root).path) / "MERGE_MSG").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def hooks(root: Path, repair: bool) -> list[Finding]:

    wrong = [state for state in states(root) if not state.runs_memrepo]
    if not wrong:
        return []
    names = ", ".join(f"{s.hook_type} ({s.state})" for s in wrong)
    finding = Finding(relative(root, wrong[0].path.parent), f"git hooks are missing in this "
                      f"clone, so bad commits are not refused: {names}",
                      "run `memrepo hooks install` (or `memrepo doctor --repair`)")
    if not repair:
        return [finding]
    install(root)
    return [done(finding, "installed memrepo's git hooks")]


def links(root: Path, repair: bool) -> list[Finding]:

    return [Finding(path, "is a symbolic link", LINK_FIX) for path in symlinks(root)]


def symlinks(root: Path) -> list[str]:
    """Symbolic links under memory/ and .memrepo/ (not followed), repo-relative."""
    found = []
    for top in ("memory", STATE_DIR):
        if (root / top).is_symlink():
            found.append(top)
            continue
        found += _links_beneath(str(root / top), top)
    return sorted(found)


def _links_beneath(folder: str, relative: str) -> list[str]:
    """The symbolic links in `folder` and its sub-folders (one `scandir` each: the kind
    of every entry comes with the listing, no stat per file); an unreadable folder is
    passed over, as `os.walk` passes it."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    found = []
    for entry in entries:
        if entry.is_symlink():
            found.append(f"{relative}/{entry.name}")
        elif entry.is_dir(follow_symlinks=False):
            found += _links_beneath(entry.path, f"{relative}/{entry.name}")
    return found
