"""Every path of a clone's local state: `.memrepo/` beside `memory/` — git-ignored, never
committed (the tracked_paths check refuses it), opened without following a symbolic link
(`files.open_beneath`). Each name is relative to the work tree's top, in `/` form."""

from __future__ import annotations

STATE_DIR = ".memrepo"
"""This clone's own state: the cache, locks, journals, what doctor moved aside."""

CACHE_FILE = f"{STATE_DIR}/cache.sqlite"
"""The disposable SQLite cache (memrepo.cache)."""

VECTORS_FILE = f"{STATE_DIR}/vectors.sqlite"
"""The semantic layer's vectors, kept across rebuilds of the cache."""

WRITE_LOCK = f"{STATE_DIR}/write.lock"
"""One writer at a time per clone: library writes and the checking git hooks hold it."""

INDEX_BEHIND = f"{STATE_DIR}/index-behind"
"""The index entries a killed write left behind HEAD (repaired by the next write)."""

GIT_COMMANDS = f"{STATE_DIR}/git-commands"
"""`<pid>` for each git command the pre-commit hook registered (memrepo.git.activity)."""

JOURNAL_DIR = f"{STATE_DIR}/journal"
"""`<session>.jsonl`: what each MCP session did (memrepo.agent.journal)."""

PARTIAL_DIR = f"{STATE_DIR}/partial"
"""The partial and uncommitted log lines `memrepo doctor --repair` moved aside."""

AUDIT_MEMO = f"{STATE_DIR}/audit-memo.json"
"""What the cache was like at doctor's last clean audit of it (memrepo.cache.audit_memo):
a later doctor that finds it so again does not audit it again."""
