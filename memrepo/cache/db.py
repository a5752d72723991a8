"""Opening the cache file: the SQL from schema/cache.sql, pragmas, meta, and the checks
that decide whether an existing file can be trusted at all."""

from __future__ import annotations

import json
import sqlite3
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.core.problems import InputError, Problem
from memrepo.core.stems import ANALYSIS
from memrepo.files import LINK_FIX, state_link
from memrepo.local_state import CACHE_FILE
from memrepo.resources import data_dir

if TYPE_CHECKING:
    from memrepo.core.config import Config

INDEX_MARKER = "-- @indexes"
REQUIRED_TABLES = frozenset({"meta", "files", "notes", "aliases", "links", "events",
                             "holdings", "keys", "notes_fts", "keys_fts", "passages_fts",
                             "notes_terms", "keys_terms", "skipped", "log_digests"})
BUSY_TIMEOUT_MS = 30_000
CONFIG_META = "config"
"""The meta key of the config a build used (`config_meta`)."""


def cache_path(root: Path) -> Path:
    """`.memrepo/cache.sqlite` of `root`. InputError when `.memrepo`, or anything directly
    in it, is a symbolic link (memrepo.files.state_link): SQLite would open the cache, its
    journal or a build's file through it."""
    link = state_link(root)
    if link is not None:
        raise InputError(Problem(link, "is a symbolic link", LINK_FIX))
    return root / CACHE_FILE


@cache
def schema_sql() -> tuple[str, str]:
    """(tables, indexes) from the packaged schema/cache.sql."""
    text = (data_dir("schema") / "cache.sql").read_text(encoding="utf-8")
    tables, _, indexes = text.partition(f"\n{INDEX_MARKER}\n")
    return tables, indexes


@cache
def schema_version() -> str:
    """A fingerprint of the SQL and of the word analysis the stored base forms come from:
    any change to either makes old cache files untrusted."""
    import hashlib  # here: importing memrepo.cache stays light (see there)

    tables, indexes = schema_sql()
    return hashlib.sha1((tables + indexes + ANALYSIS).encode("utf-8")).hexdigest()[:16]


@cache
def require_fts5() -> None:
    """Fail clearly (once per process) when this Python's SQLite cannot do the cache."""
    fix = ("use a Python whose sqlite3 module links SQLite ≥ 3.35 built with FTS5 "
           "(python.org and most Linux distributions do)")
    if sqlite3.sqlite_version_info < (3, 35, 0):
        raise InputError(Problem("sqlite3", f"SQLite {sqlite3.sqlite_version} is too old "
                                 "for the cache (needs 3.35)", fix))
    probe = sqlite3.connect(":memory:")
    try:
        probe.execute("CREATE VIRTUAL TABLE probe USING fts5(a, tokenize='unicode61 "
                      "remove_diacritics 2')")
    except sqlite3.OperationalError:
        raise InputError(Problem("sqlite3", f"SQLite {sqlite3.sqlite_version} has no FTS5 "
                                 "(full-text search)", fix)) from None
    finally:
        probe.close()


def connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return conn


def read_only(database: str, *, any_thread: bool = False) -> sqlite3.Connection:
    """A read-only connection of its own to a cache file (`database_file`), for a second
    thread (`any_thread`: its cursors may be read from the thread that started it too)."""
    return sqlite3.connect(f"{Path(database).as_uri()}?mode=ro", uri=True,
                           timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=not any_thread)


def database_file(conn: sqlite3.Connection) -> str | None:
    """The file of `conn`'s main database (None: in memory or temporary)."""
    for _, name, file in conn.execute("PRAGMA database_list"):
        if name == "main":
            return str(file) or None
    return None


def open_trusted(path: Path) -> sqlite3.Connection | None:
    """An existing cache file that has every table and the current schema; None for a
    missing, corrupt or outdated file (which is then rebuilt, never repaired)."""
    if not path.is_file():
        return None
    conn = connect(path)
    try:
        if _is_trusted(conn):
            return conn
    except sqlite3.DatabaseError:
        pass
    conn.close()
    return None


def _is_trusted(conn: sqlite3.Connection) -> bool:
    names = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    if not names >= REQUIRED_TABLES:
        return False
    meta = read_meta(conn)
    return (meta.get("schema") == schema_version() and meta.get("complete") == "1"
            and CONFIG_META in meta)


def read_meta(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT key, value FROM meta").fetchall())


def write_meta(conn: sqlite3.Connection, values: dict[str, str]) -> None:
    conn.executemany("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                     sorted(values.items()))


def config_meta(config: Config) -> str:
    """The config a build used, as meta keeps it: JSON, or "" when JSON cannot hold it
    exactly (values of kinds the schema refuses): readers then load the file."""
    import orjson

    from memrepo.core.config import config_from_mapping, config_to_mapping

    try:
        text = orjson.dumps(config_to_mapping(config)).decode("utf-8")
        exact = config_from_mapping(orjson.loads(text)) == config
    except (TypeError, ValueError, AttributeError):
        return ""
    return text if exact else ""


def indexed_config(conn: sqlite3.Connection) -> Config | None:
    """The config the cache was built with (a change to the config rebuilds the cache);
    None when meta could not keep it. Read with the standard json module: a query that
    imports orjson only for this small document pays ≈25 ms of start-up for it."""
    from memrepo.core.config import config_from_mapping

    row = conn.execute("SELECT value FROM meta WHERE key = ?", (CONFIG_META,)).fetchone()
    return None if row is None or not row[0] else config_from_mapping(json.loads(row[0]))


class CacheUnwritable(InputError):
    """The cache file cannot be written (a full disk, a read-only file system): a command
    that builds it refuses; a query answers from the files instead."""


def memory_config(conn: sqlite3.Connection, root: Path) -> Config:
    """The work tree's config as queries read it (memrepo.config.worktree_config:
    the defaults when it is broken), from a fresh cache's meta: the cache is rebuilt
    whenever the config changes, and a query needs no YAML parser. From the file only
    when meta could not keep it."""
    found = indexed_config(conn)
    if found is not None:
        return found
    from memrepo.config import worktree_config  # lazy: the read path parses no YAML

    return worktree_config(root)


def require_cache_file(path: Path) -> None:
    """Refuse a cache path that exists but is not a regular file, or whose folder is not
    a folder (never removed by us)."""
    if path.parent.exists() and not path.parent.is_dir():
        raise InputError(Problem(str(path.parent), "is not a folder (memrepo keeps its "
                                 "cache in it)", f"move it away (`mv {path.parent} "
                                 f"{path.parent}.old`); memrepo builds the cache anew"))
    if path.is_symlink() or (path.exists() and not path.is_file()):
        raise InputError(Problem(str(path), "the cache path is not a regular file (a folder "
                                 "or a link is in its place)",
                                 f"remove it (`rm -r {path}`); memrepo builds the cache "
                                 "anew from the files"))
