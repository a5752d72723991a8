"""memrepo's own git hook scripts: written into git's hooks folder (`git rev-parse
--git-path hooks`, so `core.hooksPath` is honoured), each a few lines of sh that run
`memrepo hooks run <type>` with the Python memrepo is installed in (its absolute path is
written into the script: a virtual environment need not be on PATH, and what the committed
`.pre-commit-config.yaml` says does not matter).

A hook that is not memrepo's (the user's own, or pre-commit's) is kept as `<type>.local`
and run first, with the same arguments; its refusal refuses the commit as before.

The reference-transaction script (git ≥ 2.28) hands git's list of ref updates to
`memrepo hooks run reference-transaction` only when the branch moves in a way its shell
test cannot vouch for (`transaction_script`): a history rewrite, a revert, cherry-pick or
`git am`, a fast-forward — not an ordinary commit its commit-msg hook checked.

The pre-commit and pre-merge-commit scripts start Python only when it has work to do
(`fast_path`): on a commit with no memrepo write running and none left behind, all that
hook does is register the running git command and see the write lock free — a file and
one `flock -n` — and a Python process (≈50 ms CPU at 100k notes) would only repeat that.
"""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path

from memrepo.core.problems import InputError, Problem
from memrepo.core.record_base import Record, init_field
from memrepo.git.activity import CHECKED, HOLDER_VARIABLE
from memrepo.git.command import run_git
from memrepo.git.hook_types import HOOK_TYPES, LOCKING, REFRESHING, REFUSING, TRANSACTION
from memrepo.local_state import GIT_COMMANDS, INDEX_BEHIND, STATE_DIR, WRITE_LOCK

MARKER = "# memrepo hook:"
LOCAL_SUFFIX = ".local"
CHECKED_ELSEWHERE = "MEMREPO_REF_UPDATE_CHECKED"
"""Set (to what checked it) for the git commands of a memrepo process that checks the
branch update itself — sync's merge, and its undoing of a merge it refused: the
reference-transaction hook lets their updates through."""

REFRESHED_BY_CALLER = "MEMREPO_CACHE_REFRESHED_BY"
"""Set (to who does it) for the git commands of a memrepo process that refreshes the cache
itself once they are done — sync's merges: the refreshing hooks leave it to that process
instead of starting Python for every merge of every retried push."""


def script(hook_type: str, python: str) -> str:
    """The text of one hook script for the interpreter `python`."""
    if hook_type == TRANSACTION:
        return transaction_script(python)
    quoted = shlex.quote(python)
    failed = "exit 1" if hook_type in REFUSING else "exit 0"
    fast = f"if {fast_path()}; then exit 0; fi\n" if hook_type in LOCKING else ""
    if hook_type in REFRESHING:
        fast = f'if [ -n "${{{REFRESHED_BY_CALLER}:-}}" ]; then exit 0; fi\n'
    return f"""#!/bin/sh
{MARKER} {hook_type} (written by `memrepo hooks install`; run that again instead of editing)
if [ -x "$0{LOCAL_SUFFIX}" ]; then "$0{LOCAL_SUFFIX}" "$@" || exit $?; fi
{NOT_A_MEMORY}
{fast}if [ -x {quoted} ]; then exec {quoted} -m memrepo hooks run {hook_type} "$@"; fi
if command -v memrepo >/dev/null 2>&1; then exec memrepo hooks run {hook_type} "$@"; fi
printf 'memrepo: the %s hook cannot run: %s no longer exists.\\n' {hook_type} {quoted} >&2
echo "  To fix: run \\`memrepo hooks install\\` with the memrepo you use now." >&2
{failed}
"""


NOT_A_MEMORY = f"if [ ! -f memory/config.yaml ] && [ ! -d {STATE_DIR} ]; then exit 0; fi"
"""A repository without memory/config.yaml or .memrepo/ is not a memory (a folder named
memory/ alone proves nothing): a hooks folder that several repositories share
(`core.hooksPath`) runs memrepo's hooks in each, and they must do nothing there (git runs
hooks at the top of the work tree). A memory's clone keeps .memrepo/ (its cache) even when
a commit removes the config, so such a commit is still checked."""


def fast_path() -> str:
    """A shell test that does what the pre-commit hook's Python does when there is nothing
    else to do, and is true when it did: no process that runs this git command holds the
    write lock (HOLDER_VARIABLE unset), no write left index entries behind, the running git
    command registered (`$PPID`, as memrepo.git.activity.register does; before the lock is
    looked at, so a write that starts later sees it) and the lock free (`flock -n`: no
    write is between its branch update and its index update). Links are never followed.
    Anything else — a held lock, a write left behind, no registry folder or no `flock` —
    runs memrepo, which waits, repairs and refuses with its own messages."""
    folder, lock = shlex.quote(WRITE_LOCK.rpartition("/")[0]), shlex.quote(WRITE_LOCK)
    registry, entry = shlex.quote(GIT_COMMANDS), f'{shlex.quote(GIT_COMMANDS)}/"$PPID"'
    return " && ".join((
        f'[ -z "${{{HOLDER_VARIABLE}:-}}" ]', f"[ ! -e {shlex.quote(INDEX_BEHIND)} ]",
        f"[ ! -L {folder} ]", f"[ -d {registry} ]", f"[ ! -L {registry} ]",
        f"[ ! -L {entry} ]", f"true 2>/dev/null >{entry}",
        f"[ -f {lock} ]", f"[ ! -L {lock} ]", "command -v flock >/dev/null 2>&1",
        f"flock -n {lock} true 2>/dev/null"))


def transaction_script(python: str) -> str:
    """The reference-transaction hook (git ≥ 2.28 runs it; older git never does — `memrepo
    verify` and the server's hook still refuse what it would). git hands it the state
    (`prepared`, `committed`, `aborted`) and the updates on stdin, `<old> <new> <ref>` a
    line; only a refusal at `prepared` stops the update. Python starts only when the
    branch checked out (or being rebased) moves in a way the shell test (`settled_test`) cannot
    vouch for; a commit or merge whose commit-msg hook passed, a new branch, a tag, a fetch,
    `git reset` to where the branch is, the ref updates inside a rebase (HEAD detached) and
    the commands of CHECKED_ELSEWHERE never start it."""
    quoted = shlex.quote(python)
    feed = f"<<{_END}\n$memrepo_updates\n{_END}"
    return f"""#!/bin/sh
{MARKER} {TRANSACTION} (written by `memrepo hooks install`; run that again instead of editing)
memrepo_updates=$(cat)
if [ -x "$0{LOCAL_SUFFIX}" ]; then
  if [ -n "$memrepo_updates" ]; then printf '%s\\n' "$memrepo_updates"; fi \\
    | "$0{LOCAL_SUFFIX}" "$@" || exit $?
fi
{NOT_A_MEMORY}
if [ "$1" != prepared ] || [ -n "${{{CHECKED_ELSEWHERE}:-}}" ]; then exit 0; fi
case "$memrepo_updates" in *" refs/heads/"*) ;; *) exit 0 ;; esac
{settled_test()}
if memrepo_settled; then exit 0; fi
if [ -x {quoted} ]; then exec {quoted} -m memrepo hooks run {TRANSACTION} "$@" {feed}
fi
if command -v memrepo >/dev/null 2>&1; then exec memrepo hooks run {TRANSACTION} "$@" {feed}
fi
printf 'memrepo: the %s hook cannot run: %s no longer exists.\\n' {TRANSACTION} {quoted} >&2
echo "  To fix: run \\`memrepo hooks install\\` with the memrepo you use now." >&2
exit 1
"""


_END = "MEMREPO_UPDATES"


def settled_test() -> str:
    """A shell function, true when no branch update in `$memrepo_updates` needs Python:
    each `refs/heads/` line deletes a branch (`git branch -m`), does not move it, is the
    one commit this git command's commit-msg hook checked (its registration says `checked
    <branch> <old>`, memrepo.git.activity.mark_checked, and the new commit's first parent
    is `<old>`: an amend's is not), moves another branch than HEAD's, or re-points the
    branch where it already is (`git rebase --abort`). A detached HEAD (a rebase about to
    move its branch) leaves it to Python. Links are never followed."""

    registry, entry = shlex.quote(GIT_COMMANDS), f'{shlex.quote(GIT_COMMANDS)}/"$PPID"'
    return f"""memrepo_settled() {{
  memrepo_checked= memrepo_branch=
  if [ ! -L {STATE_DIR} ] && [ ! -L {registry} ] && [ ! -L {entry} ] && [ -f {entry} ]; then
    read -r memrepo_checked < {entry} || :
  fi
  while read -r memrepo_old memrepo_new memrepo_ref; do
    case "$memrepo_ref" in refs/heads/*) ;; *) continue ;; esac
    case "$memrepo_new" in *[!0]*) ;; *) continue ;; esac
    if [ "$memrepo_new" = "$memrepo_old" ]; then continue; fi
    if [ "$memrepo_checked" = "{CHECKED} $memrepo_ref $memrepo_old" ] &&
       [ "$(git rev-parse -q --verify "$memrepo_new^1" 2>/dev/null)" = "$memrepo_old" ]; then
      continue
    fi
    if [ -z "$memrepo_branch" ]; then
      memrepo_branch=$(git symbolic-ref -q HEAD 2>/dev/null) || return 1
    fi
    if [ "$memrepo_ref" != "$memrepo_branch" ]; then continue; fi
    case "$memrepo_old" in *[!0]*) return 1 ;; esac
    [ "$(git rev-parse -q --verify "$memrepo_ref" 2>/dev/null)" = "$memrepo_new" ] || return 1
  done <<{_END}
$memrepo_updates
{_END}
  return 0
}}"""


class HookState(Record):
    """One hook type in a clone: `ok`; `framework` (the pre-commit framework's script, with
    a .pre-commit-config.yaml that runs memrepo); `missing`; `foreign` (another program's
    script that does not run memrepo); `stale` (memrepo's script, its Python is gone)."""

    __slots__ = ("hook_type", "path", "state")
    hook_type: str
    path: Path
    state: str

    def __init__(self, hook_type: str, path: Path, state: str) -> None:
        init_field(self, "hook_type", hook_type)
        init_field(self, "path", path)
        init_field(self, "state", state)

    @property
    def runs_memrepo(self) -> bool:
        return self.state in ("ok", "framework")


def hooks_dir(root: Path) -> Path:
    """Where git looks for the hooks of the repository at `root`."""
    done = run_git(root, "rev-parse", "--git-path", "hooks")
    if done.returncode != 0:
        raise InputError(Problem(str(root), "not a git repository",
                                 "run `memrepo init DIR` or pass --repo PATH"))
    return root / done.stdout.strip()


def install(root: Path, python: str | None = None) -> list[Path]:
    """Write memrepo's hook scripts; the paths written. Another program's hook is kept as
    `<type>.local` (run first by memrepo's); where the pre-commit framework already runs
    memrepo's script as `<type>.legacy`, that script is the one rewritten."""
    directory = hooks_dir(root)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for hook_type in HOOK_TYPES:
        path = directory / hook_type
        legacy = directory / f"{hook_type}.legacy"
        if _wraps_memrepo(path, legacy):
            path = legacy
        elif path.is_symlink() or (path.exists() and not _is_memrepo(path)):
            _keep_local(path)
        temporary = directory / f".{hook_type}.memrepo.tmp"
        temporary.write_text(script(hook_type, python or sys.executable), encoding="utf-8")
        temporary.chmod(0o755)
        os.replace(temporary, path)
        written.append(path)
    return written


def _keep_local(path: Path) -> None:
    local = path.with_name(path.name + LOCAL_SUFFIX)
    if local.exists() or local.is_symlink():
        raise InputError(Problem(str(path), f"a hook that is not memrepo's exists, and so "
                                 f"does {local.name}", f"merge the two into {local.name} by "
                                 "hand, remove the other, then `memrepo hooks install`"))
    os.replace(path, local)


def states(root: Path) -> list[HookState]:
    directory = hooks_dir(root)
    framework = _config_runs_memrepo(root)
    return [HookState(t, directory / t, _state(directory / t, framework))
            for t in HOOK_TYPES]


def _config_runs_memrepo(root: Path) -> bool:
    try:
        return "memrepo" in (root / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False


def _state(path: Path, framework: bool = False) -> str:
    if not path.is_file() or not os.access(path, os.X_OK):
        return "missing"
    text = _text(path)
    if MARKER in text:
        python = _python_of(text)
        return "ok" if python is None or _runs(python) else "stale"
    legacy = path.with_name(f"{path.name}.legacy")
    if _wraps_memrepo(path, legacy):
        return _state(legacy)
    return "framework" if framework and "pre-commit" in text else "foreign"


def _wraps_memrepo(path: Path, legacy: Path) -> bool:
    """pre-commit's script, which runs memrepo's (moved to `<type>.legacy`) first."""
    return (path.is_file() and not _is_memrepo(path) and legacy.is_file()
            and _is_memrepo(legacy))


def _is_memrepo(path: Path) -> bool:
    return MARKER in _text(path)


def _text(path: Path) -> str:
    try:
        return path.read_bytes()[:4096].decode("utf-8", errors="replace")
    except OSError:
        return ""


def _python_of(text: str) -> str | None:
    for line in text.splitlines():
        if line.startswith("if [ -x ") and "-m memrepo" in line:
            return shlex.split(line.removeprefix("if [ -x "))[0]
    return None


def _runs(python: str) -> bool:
    return os.access(python, os.X_OK)
