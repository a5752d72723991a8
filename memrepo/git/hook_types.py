"""The git hooks memrepo installs, by what each does: which refuse a git command, which
refresh the cache, which take the write lock. Plain names, nothing imported: what git runs
after a checkout reads them without the hook scripts' code (memrepo.git.hook_scripts)."""

from __future__ import annotations

TRANSACTION = "reference-transaction"
HOOK_TYPES = ("pre-commit", "pre-merge-commit", "commit-msg", "post-checkout", "post-merge",
              "post-rewrite", TRANSACTION)
REFUSING = ("pre-commit", "pre-merge-commit", "commit-msg", TRANSACTION)
"""Hooks whose exit code refuses the git command; the others only report (a failed cache
refresh must not turn a checkout into an error: the cache is derived data)."""

REFRESHING = ("post-checkout", "post-merge", "post-rewrite")
"""Hooks that refresh the cache (memrepo.maintenance.git_hooks)."""

LOCKING = ("pre-commit", "pre-merge-commit")
"""Hooks that take the write lock (memrepo.maintenance.git_hooks.run_hook)."""
