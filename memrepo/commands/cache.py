"""`memrepo cache rebuild | sync | status | vectors`: the disposable SQLite cache (SPEC §7)."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "cache", help="rebuild, refresh or inspect the SQLite cache (.memrepo/cache.sqlite)",
        description="The cache is derived from the files: deleting it loses nothing. Queries "
                    "refresh it themselves when they notice it is stale; the post-checkout, "
                    "post-merge and post-rewrite hooks run `memrepo-refresh-cache --quiet "
                    "--hook` (the same as `cache sync --quiet --hook`).")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    actions.add_parser("rebuild", help="build the whole cache anew and swap it in")
    sync = actions.add_parser("sync", help="re-index only what changed (builds it if missing)")
    sync.add_argument("--quiet", action="store_true", help="print nothing")
    sync.add_argument("--hook", action="store_true",
                      help="after a checkout, merge or rewrite: re-index what changed between "
                           "commits without scanning the work tree (what the git hooks run)")
    status = actions.add_parser("status", help="what the cache holds and whether it is current")
    status.add_argument("--json", action="store_true", help="print one JSON document")
    actions.add_parser(
        "vectors", help="encode every key and note description ahead for the semantic "
                        "layer (pip install 'memrepo[vectors]'), with a progress bar; queries "
                        "otherwise encode what they meet and keep it")


def run(args: argparse.Namespace) -> int:
    from memrepo import cache
    from memrepo.repo_root import find_root

    root = find_root(args.repo)
    started = time.perf_counter()
    if args.action == "rebuild":
        print(cache.rebuild(root).describe(time.perf_counter() - started))
    elif args.action == "vectors":
        return _encode_vectors(root)
    elif args.action == "sync":
        report = cache.sync(root, force=not args.hook, hook=args.hook)
        if not args.quiet:
            print(report.describe(time.perf_counter() - started))
    else:
        _print_status(cache.status(root), args.json)
    return 0


def _print_status(status: Any, as_json: bool) -> None:
    if as_json:
        print(json.dumps(status.to_json()))
        return
    if not status.exists:
        print(f"no cache at {status.path} (any query or `memrepo cache rebuild` builds it)")
        return
    state = "current" if status.current else "stale (the next query syncs it)"
    print(f"{status.path}: {state}; built from {status.commit or 'no commit'}; "
          f"{status.notes} notes, {status.events} fact events, {status.holdings} holdings")


VECTOR_BATCH = 64


def _encode_vectors(root: Any) -> int:
    """Encode every key's words and every note's description into the vector store, a
    batch at a time, with progress."""
    import sys

    from memrepo import cache
    from memrepo.answer.semantic import SWITCH, Semantic, installed, key_text
    from memrepo.cache.lookups import every_key
    from memrepo.cache.query import note_descriptions_by_rowid

    if not installed():
        print(f"memrepo: the semantic layer is not installed (or {SWITCH}=0): "
              "pip install 'memrepo[vectors]'", file=sys.stderr)
        return 1
    conn = cache.open_fresh(root)
    keys = list(dict.fromkeys(key_text(k.subject, k.relation) for k in every_key(conn)))
    notes = list(dict.fromkeys(note_descriptions_by_rowid(conn).values()))
    texts = list(dict.fromkeys([*keys, *notes]))
    semantic = Semantic(root)
    for done in range(0, len(texts), VECTOR_BATCH):
        semantic.vectors(texts[done:done + VECTOR_BATCH])
        _progress(min(done + VECTOR_BATCH, len(texts)), len(texts))
    print(f"{_counted(len(keys), 'key')} and {_counted(len(notes), 'note description')} "
          "encoded (kept in .memrepo/vectors.sqlite)")
    return 0


def _counted(number: int, thing: str) -> str:
    return f"{number} {thing}" + ("" if number == 1 else "s")


def _progress(done: int, total: int) -> None:
    import sys

    if not sys.stderr.isatty():
        return
    width = 30
    filled = width * done // max(total, 1)
    end = "\n" if done >= total else ""
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}{end}")
    sys.stderr.flush()
