"""Adding one note file or the events of one log to the cache (build and sync alike), the
work tree's state captured before any file is read, and the cycle collector paused
meanwhile."""

from __future__ import annotations

import gc
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import orjson

from memrepo.cache.gitstate import DirtyQuery, KnownDirty, head_commit
from memrepo.cache.parts import NotesPart, Part
from memrepo.cache.rows import (
    SIGNED_OP,
    FoldedKey,
    KeyDocument,
    KeyRows,
    NoteRows,
    Row,
    Skipped,
    key_document,
    note_rows,
    signed_key,
    skipped_rows,
)
from memrepo.cache.staleness import fingerprint
from memrepo.cache.terms import TermDeltas
from memrepo.cache.writer import Batch, next_rowid
from memrepo.core.config import Config
from memrepo.core.facts.events import Key
from memrepo.core.record_base import Record, init_field
from memrepo.core.text import PASSAGE_SPAN
from memrepo.files import blob_id


class Indexer:
    """Assigns rowids and turns files into rows of a Batch. `terms`: a sync counts the
    full-text rows it adds (a full build counts them all at the end instead)."""

    def __init__(self, conn: sqlite3.Connection, config: Config,
                 terms: TermDeltas | None = None,
                 send_key_documents: Callable[[list[KeyDocument]], None] | None = None,
                 ) -> None:
        """`send_key_documents`: where a part's keys' search documents go instead of this
        cache's keys_fts (memrepo.cache.handoff)."""
        self.batch = Batch(conn)
        self._part_key_documents = send_key_documents or self.add_key_documents
        self.config = config
        self.terms = terms
        self._note_rowid = next_rowid(conn, "notes")
        self._event_rowid = next_rowid(conn, "events")
        self.first_event_rowid = self._event_rowid
        """The rowid of the first event it adds (every later one is its too)."""
        self._key_rowid = next_rowid(conn, "keys")

    def add_file(self, path: str, kind: str, data: bytes) -> None:
        self.batch.add("files", (path, kind, blob_id(data), len(data)))

    def add_note(self, path: str, data: bytes) -> None:
        self.add_file(path, "note", data)
        self._add_note_rows(path, note_rows(path, data))

    def _add_note_rows(self, path: str, rows: NoteRows | Skipped) -> None:
        if not isinstance(rows, NoteRows):
            self.add_skipped(path, [rows])
            return
        rowid = self._note_rowid
        self._note_rowid += 1
        self.batch.add("notes", (rowid, *rows.note))
        self.batch.add("notes_fts", (rowid, *rows.fts))
        first = rowid * PASSAGE_SPAN
        self.batch.extend("passages_fts", [(first + i, *passage)
                                           for i, passage in enumerate(rows.passages)])
        self.batch.extend("aliases", rows.aliases)
        self.batch.extend("links", rows.links)
        if self.terms is not None:
            self.terms.count("notes_fts", rows.fts, 1)

    def _add_key_row(self, rows: KeyRows) -> KeyDocument:
        """The keys row; its search document is left to `add_key_documents`."""
        rowid = self._key_rowid
        self._key_rowid += 1
        self.batch.add("keys", (rowid, *rows.key))
        return rowid, rows.texts

    def add_key_documents(self, documents: Iterable[KeyDocument]) -> None:
        self.add_key_search_rows(map(key_document, documents))

    def add_key_search_rows(self, rows: Iterable[Row]) -> None:
        """keys_fts rows (rowid first), made by `key_document` here or on another
        process."""
        for row in rows:
            self.batch.add("keys_fts", row)
            if self.terms is not None:
                self.terms.count("keys_fts", row[1:], 1)

    def add_part(self, part: Part) -> None:
        """The rows a worker parsed (memrepo.cache.parts), given their rowids here."""
        self.batch.extend("files", part.files)
        if isinstance(part, NotesPart):
            for path, rows in part.notes:
                self._add_note_rows(path, rows)
            return
        base = self._event_rowid
        self._event_rowid += len(part.events)
        self.batch.extend("events", [(base + row[0], *row[1:]) for row in part.events])
        self.batch.extend("holdings", part.holdings)
        self._part_key_documents([self._add_key_row(key) for key in part.keys])
        self.batch.extend("skipped", part.skipped)
        self.batch.extend("log_digests", part.digests)

    def add_event_rows(self, signatures: Sequence[Row]) -> set[Key]:
        """The events rows of a log's new events, in line order, from their signatures
        (memrepo.cache.rows.event_signature: the row without its rowid, a retract's key
        left to SQL); the folded keys of the asserts and ends among them."""
        first = self._event_rowid
        self._event_rowid += len(signatures)
        self.batch.extend("events", [(first + n, *signature)
                                     for n, signature in enumerate(signatures)])
        return {signed_key(signature) for signature in signatures
                if signature[SIGNED_OP] != "retract"}

    def add_folded_keys(self, folded: Iterable[FoldedKey]) -> None:
        """The keys row, holdings and search document of each folded key, made from all
        its events (memrepo.cache.rows.folded_key_rows; None: a key with no assert or end,
        which has none), given their rowids in order; their search rows' terms counted at
        once."""
        made = [one for one in folded if one is not None]
        first = self._key_rowid
        self._key_rowid += len(made)
        self.batch.extend("keys", [(first + n, *rows.key) for n, (rows, _) in enumerate(made)])
        search = [(first + n, *columns) for n, (_, columns) in enumerate(made)]
        self.batch.extend("keys_fts", search)
        if self.terms is not None:
            self.terms.count_rows("keys_fts", [columns for _, columns in made])
        self.batch.extend("holdings", [row for rows, _ in made for row in rows.holdings])

    def add_skipped(self, path: str, skipped: Sequence[Skipped]) -> None:
        self.batch.extend("skipped", skipped_rows(path, skipped))

    def flush(self) -> None:
        self.batch.flush()


class WorkTreeState(Record):
    """What the cache is built from, captured BEFORE reading any file: a change made
    while reading then shows up as a different fingerprint at the next query."""

    __slots__ = ("commit", "dirty", "fingerprint")
    commit: str | None
    dirty: list[str]
    fingerprint: str

    def __init__(self, commit: str | None, dirty: list[str], fingerprint: str) -> None:
        init_field(self, "commit", commit)
        init_field(self, "dirty", dirty)
        init_field(self, "fingerprint", fingerprint)


def capture_state(root: Path, query: DirtyQuery | KnownDirty | None = None,
                  ) -> WorkTreeState:
    """`query`: a dirty query started earlier (it runs while the caller does other work)."""
    commit = head_commit(root)
    dirty = (query or DirtyQuery(root)).paths()
    return WorkTreeState(commit, dirty, fingerprint(root, dirty))


def state_meta(state: WorkTreeState) -> dict[str, str]:
    return {"commit": state.commit or "", "dirty": orjson.dumps(state.dirty).decode(),
            "fingerprint": state.fingerprint}


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused: a build makes millions of objects that hold no
    cycles (events, rows) and live until their part is inserted, and passes over them cost
    about a tenth of its CPU (a sync of a hand-appended log of 100k lines: a seventh)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
