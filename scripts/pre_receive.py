"""A pre-receive hook for a shared bare memory repository: `memrepo verify` on every push.

Hooks on clones can be skipped (`git commit --no-verify`); this cannot. For each updated
branch git hands the hook `<old> <new> <ref>` on stdin. History is the audit trail, so an
update that does not keep the old commit (`git push --force` after a reset or a rebase: a
non-fast-forward) is refused, and so is deleting a branch. Otherwise the hook runs
`memrepo verify <old>..<new>` (a new branch: `memrepo verify <new>`, its whole history)
with the rules each commit's parent carries, and refuses the whole push when any commit
fails a check. Tags and other refs pass unchecked.

Pushes are verified one at a time, under the server's push lock (push_lock.py). A push
whose branch is no longer at the commit it expected (another clone's push landed since
the pusher fetched) cannot land whatever it holds: it is refused at once, before and
again after waiting for the lock, with `LOST_RACE_LINE` ("another push landed first;
fetch, merge and push again"), which `memrepo sync` recognises and retries; no CPU is
spent verifying it.

Install into a bare repository (see docs/shared-server.md):

    python -m memrepo.scripts.pre_receive --install /srv/memory.git [--require-signatures]

which writes `hooks/pre-receive` calling this module with the current Python, and sets
`receive.denyNonFastForwards` and `receive.denyDeletes` in the repository (a second guard:
the hook refuses both itself, whatever the configuration says).
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from memrepo.git.porcelain import git, is_ancestor, rev_parse
from memrepo.git.push_race import LOST_RACE_LINE

from .push_lock import WAIT_SECONDS, push_lock

ZERO = "0" * 40
BRANCH_PREFIX = "refs/heads/"


@dataclass(frozen=True, slots=True)
class Update:
    old: str
    new: str
    ref: str

    @property
    def is_deletion(self) -> bool:
        return set(self.new) == {"0"}

    @property
    def is_creation(self) -> bool:
        return set(self.old) == {"0"}

    def verify_range(self) -> str:
        return self.new if self.is_creation else f"{self.old}..{self.new}"


def parse_updates(lines: TextIO) -> list[Update]:
    """`<old> <new> <ref>` lines as git writes them to pre-receive's stdin."""
    updates = []
    for line in lines:
        parts = line.split()
        if len(parts) == 3:
            updates.append(Update(*parts))
    return updates


def check_update(update: Update, require_signatures: bool) -> tuple[bool, str]:
    """(accepted, what to tell the pusher) for one ref update."""
    if not update.ref.startswith(BRANCH_PREFIX):
        return True, ""
    if update.is_deletion:
        return False, (f"{update.ref}: deleting a memory branch is refused (memory is never "
                       "deleted)\n  To fix: keep the branch; archive notes or end facts "
                       "instead, or ask the server's admin to delete it there")
    if not update.is_creation and not _is_ancestor(update.old, update.new):
        return False, (f"{update.ref}: non-fast-forward update refused: the push drops "
                       f"commits the server has (up to {update.old[:12]}); history is the "
                       "audit trail\n  To fix: fetch and merge instead of rewriting "
                       "(`memrepo sync`), then push without --force")
    command = [sys.executable, "-m", "memrepo", "verify", update.verify_range()]
    if require_signatures:
        command.append("--require-signatures")
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          env=_hook_env(), errors="replace")
    if done.returncode == 0:
        return True, ""
    return False, (f"{update.ref}: memrepo verify refused the push:\n"
                   f"{(done.stdout + done.stderr).strip()}")


def _is_ancestor(old: str, new: str) -> bool:
    """Run where git runs the hook (the bare repository), with the pushed objects still in
    git's quarantine (its GIT_OBJECT_DIRECTORY is kept)."""
    return is_ancestor(Path.cwd(), old, new)


def _hook_env() -> dict[str, str]:
    """git's own environment (GIT_DIR, the object quarantine) minus a stray MEMREPO_REPO."""
    env = dict(os.environ)
    env.pop("MEMREPO_REPO", None)
    return env


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None,
         receive_pack: int | None = None) -> int:
    """The hook: exit 0 to accept the push. `receive_pack`: the git process running the
    hook, which moves the branches after an accepted push (the lock is held until it has
    exited; see push_lock.py)."""
    args = _parser().parse_args(argv)
    if args.install:
        print(f"installed {install(Path(args.install), args.require_signatures)}")
        return 0
    updates = parse_updates(sys.stdin if stdin is None else stdin)
    branches = [update for update in updates if update.ref.startswith(BRANCH_PREFIX)]
    root = Path.cwd()
    if not branches:
        return 0
    if _lost_race(root, branches):
        return 1
    with push_lock(git_dir(root)) as lock:
        if lock is None:
            return _refuse_lost_race([f"another push has been verified here for over "
                                      f"{WAIT_SECONDS:.0f} s"])
        if _lost_race(root, branches):
            return 1
        refused = _refused(branches, args.require_signatures)
        if not refused and receive_pack is not None:
            lock.hold_until_exit(receive_pack)
    return 1 if refused else 0


def _refused(branches: Sequence[Update], require_signatures: bool) -> bool:
    refused = False
    for update in branches:
        accepted, message = check_update(update, require_signatures)
        if not accepted:
            refused = True
            print(message, file=sys.stderr)
    if refused:
        print("memrepo pre-receive: push refused; nothing was changed on the server",
              file=sys.stderr)
    return refused


def _lost_race(root: Path, branches: Sequence[Update]) -> bool:
    """Refuse (True) when a branch is no longer at the commit the push expected: another
    push landed since the pusher looked, so this one could not land whatever it holds."""
    moved = [f"{update.ref} is at {_short(now)}, the push expected {_short(update.old)}"
             for update in branches
             if (now := rev_parse(root, update.ref) or ZERO) != update.old]
    if moved:
        _refuse_lost_race(moved)
    return bool(moved)


def _refuse_lost_race(why: Sequence[str]) -> int:
    print(LOST_RACE_LINE, file=sys.stderr)
    for line in why:
        print(f"  {line}; nothing was changed on the server", file=sys.stderr)
    return 1


def _short(commit: str) -> str:
    return "no commit (no such branch)" if commit == ZERO else commit[:12]


def git_dir(root: Path) -> Path:
    """The repository's git folder (the hook runs in it on a bare repository)."""
    return Path(git(root, "rev-parse", "--absolute-git-dir").strip())


def install(bare: Path, require_signatures: bool = False) -> Path:
    """Write `hooks/pre-receive` into the bare repository `bare`; its path."""
    hook = bare / "hooks" / "pre-receive"
    if not (bare / "objects").is_dir():
        raise SystemExit(f"{bare}: not a bare git repository (no objects/ folder)")
    flags = " --require-signatures" if require_signatures else ""
    hook.parent.mkdir(exist_ok=True)
    hook.write_text("#!/bin/sh\n# memrepo: refuse pushes that rewrite history or fail "
                    "`memrepo verify`\n"
                    f"exec {shlex.quote(sys.executable)} -m memrepo.scripts.pre_receive"
                    f"{flags}\n", encoding="utf-8")
    hook.chmod(0o755)
    from memrepo.git.command import run_git

    for key in ("receive.denyNonFastForwards", "receive.denyDeletes"):
        run_git(bare, "config", key, "true")
    return hook


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="memrepo-pre-receive",
        description="git pre-receive hook: refuse history rewrites and branch deletion, "
                    "run `memrepo verify` on every pushed branch update (reads "
                    "`<old> <new> <ref>` lines on stdin)")
    parser.add_argument("--install", metavar="BARE_REPO",
                        help="write hooks/pre-receive into this bare repository and exit")
    parser.add_argument("--require-signatures", action="store_true",
                        help="also require SSH signatures on commits changing rules/config")
    return parser


if __name__ == "__main__":
    sys.exit(main(receive_pack=os.getppid()))
