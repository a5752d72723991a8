"""The floor of a rebuild: raw parsing of the same files into plain SQLite tables —
deliberately not memrepo's cache, so its SQL lives here — and the corpus drawn from it."""

from __future__ import annotations

import json
import random
import sqlite3
import time
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.core.config import CATEGORIES

if TYPE_CHECKING:
    pass


from .common import FLOOR_EVENT_FIELDS, Corpus

# --- the floor of a rebuild: raw parse + insert ---------------------------------------------

def floor_build(root: Path, target: Path) -> None:
    """orjson every log line, YAML every note header, executemany into plain tables: no
    FTS, no folding, no bitemporal fold. The least a cache build must do."""
    import orjson
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    conn = sqlite3.connect(target)
    conn.executescript(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
        "CREATE TABLE notes(path, category, name, description, aliases, body);"
        f"CREATE TABLE events({', '.join(FLOOR_EVENT_FIELDS)});")
    for category in CATEGORIES:
        rows = []
        for path in sorted((root / "memory" / category).glob("*.md")):
            if path.name == "INDEX.md":
                continue
            _, header, body = path.read_text(encoding="utf-8").split("---\n", 2)
            meta = yaml.load(header, Loader=loader)
            rows.append((str(path.relative_to(root)), category, meta.get("name"),
                         meta.get("description"), orjson.dumps(meta.get("aliases", [])), body))
        conn.executemany("INSERT INTO notes VALUES (?,?,?,?,?,?)", rows)
    marks = ",".join("?" * len(FLOOR_EVENT_FIELDS))
    for scope in sorted((root / "memory" / "facts").iterdir()):
        rows = []
        for segment in sorted(scope.glob("*.jsonl")):
            for line in segment.read_bytes().splitlines():
                event = orjson.loads(line)
                rows.append(tuple(event.get(name) for name in FLOOR_EVENT_FIELDS))
        conn.executemany(f"INSERT INTO events VALUES ({marks})", rows)
    conn.commit()
    conn.close()


def full_text_seconds(cache: Path, target: Path, postings_bytes: int) -> float:
    """CPU seconds of the full-text indexing alone: every document of the cache's FTS5
    tables inserted into empty copies of them (the same columns and tokenizer, the build's
    in-memory postings size), then each merged into one segment (`optimize`), as a build
    does. Reading the texts back is not counted."""
    source = sqlite3.connect(f"file:{cache}?mode=ro", uri=True)
    conn = sqlite3.connect(target, isolation_level=None)
    conn.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;")
    spent = 0.0
    for name, sql in source.execute(
            "SELECT name, sql FROM sqlite_master WHERE sql LIKE "
            "'CREATE VIRTUAL TABLE % USING fts5(%' ORDER BY name").fetchall():
        conn.execute(sql)
        conn.execute(f"INSERT INTO {name}({name}, rank) VALUES ('hashsize', ?)",
                     (postings_bytes,))
        columns = [row[1] for row in source.execute(f"PRAGMA table_info({name})")]
        insert = (f"INSERT INTO {name}(rowid, {', '.join(columns)}) "
                  f"VALUES ({', '.join('?' * (len(columns) + 1))})")
        rows = source.execute(f"SELECT rowid, {', '.join(columns)} FROM {name}")
        conn.execute("BEGIN")
        while batch := rows.fetchmany(5000):
            started = time.process_time()
            conn.executemany(insert, batch)
            spent += time.process_time() - started
        started = time.process_time()
        conn.execute("COMMIT")
        conn.execute(f"INSERT INTO {name}({name}) VALUES ('optimize')")
        spent += time.process_time() - started
    conn.close()
    source.close()
    return spent


def corpus_from(db: Path, rng: random.Random) -> Corpus:
    conn = sqlite3.connect(db)
    keys = conn.execute("SELECT DISTINCT scope, subject, relation FROM events "
                        "WHERE op = 'assert'").fetchall()
    notes = conn.execute("SELECT path, aliases, body FROM notes WHERE category = 'entities'"
                         ).fetchall()
    conn.close()
    names = sorted({alias for _, aliases, _ in notes for alias in json.loads(aliases)})
    sample = rng.sample(notes, min(len(notes), 300))
    words = sorted({word for _, _, body in sample for word in body.split()
                    if word.isalpha() and len(word) >= 7})
    return Corpus(keys=[tuple(k) for k in rng.sample(keys, min(len(keys), 5000))],
                  names=names, words=words, notes=[path for path, _, _ in notes])
