"""Real git repositories for the cache tests: write files, commit, run the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

GIT_ENV = {
    "GIT_AUTHOR_NAME": "Test", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test", "GIT_COMMITTER_EMAIL": "test@example.com",
    "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent-home-for-tests",
}


def env(**extra: str) -> dict[str, str]:
    merged = {k: v for k, v in os.environ.items() if k != "MEMREPO_REPO"}
    return {**merged, **GIT_ENV, **extra}


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(root), *args], env=env(), capture_output=True,
                          text=True, check=True)
    return done.stdout


def init_repo(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    (root / ".gitignore").write_text(".memrepo/\n", encoding="utf-8")
    return root


def commit(root: Path, message: str = "change") -> str:
    git(root, "add", "-A")
    git(root, "commit", "-q", "--no-verify", "--allow-empty", "-m", message)
    return git(root, "rev-parse", "HEAD").strip()


def write(root: Path, path: str, text: str) -> None:
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")


def append_events(root: Path, path: str, events: list[dict[str, Any]]) -> None:
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    with file.open("a", encoding="utf-8") as handle:
        for event in events:
            handle.write(json.dumps(event, ensure_ascii=False) + "\n")


def note(name: str, category: str, description: str, body: str = "",
         aliases: list[str] | None = None) -> str:
    types = {"rules": "rule", "entities": "entity", "references": "reference",
             "project": "project"}
    lines = ["---", f"name: {name}", f"description: {json.dumps(description)}",
             f"type: {types[category]}"]
    if aliases:
        lines.append(f"aliases: {json.dumps(aliases, ensure_ascii=False)}")
    if category == "rules":
        lines.append("origin: 2026-01-01 a correction")
    return "\n".join([*lines, "---", body]) + "\n"


def assert_event(id_: str, recorded: str, subject: str, relation: str, obj: str,
                 valid_from: str, scope: str = "michal", **extra: Any) -> dict[str, Any]:
    return {"id": id_, "op": "assert", "recorded_at": recorded, "scope": scope,
            "subject": subject, "relation": relation, "object": obj,
            "valid_from": valid_from, "confidence": 1.0, "trust": "host",
            "source": "manual", "session": "test", **extra}


def memrepo(root: Path, *args: str, now: str = "2026-11-30") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(root), *args],
                          env=env(MEMREPO_NOW=now), capture_output=True, text=True,
                          check=False)


def memrepo_json(root: Path, *args: str, now: str = "2026-11-30") -> Any:
    done = memrepo(root, *args, "--json", now=now)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


DUMPS: dict[str, str] = {
    "meta": "SELECT key, value FROM meta WHERE key IN ('commit', 'dirty', 'schema')",
    "files": "SELECT * FROM files",
    "notes": "SELECT path, name, category, description, aliases, body FROM notes",
    "aliases": "SELECT * FROM aliases",
    "links": "SELECT * FROM links",
    "events": "SELECT id, op, scope, subject, relation, object, valid_from, valid_to, "
              "recorded_at, target, confidence, source, session, quote, trust, reason, "
              "path, line FROM events",
    "holdings": "SELECT * FROM holdings",
    "notes_fts": "SELECT n.path, f.name, f.description, f.aliases, f.body FROM notes_fts f "
                 "JOIN notes n ON n.rowid = f.rowid",
    "facts_fts": "SELECT e.path, e.line, f.subject, f.relation, f.object, f.quote "
                 "FROM facts_fts f JOIN events e ON e.rowid = f.rowid",
}


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of a cache file, without rowids, sorted: equal dumps = equal caches."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        for table in ("notes_fts", "facts_fts"):
            conn.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
        return {name: sorted(conn.execute(sql).fetchall(), key=repr)
                for name, sql in DUMPS.items()}
    finally:
        conn.close()
