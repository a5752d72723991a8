"""The keys' search documents of a 2-process build, handed from the logs' process (which
makes the keys) to the notes' one (which inserts them into its keys_fts, then counts and
merges that table with its own; the join copies it whole).

Folding and stemming a document costs the same on either process, so whichever is free
does it: while the notes' process still loads notes, the logs' process folds each part's
documents before it sends them; once the notes are loaded, it sends the texts as they are
and the notes' process folds them. The two then finish close together whatever the mix of
notes and logs. Rows are inserted in the order sent (rowid order): the table is the same
as a serial build's.
"""

from __future__ import annotations

from collections.abc import Iterator
from multiprocessing.context import BaseContext

from memrepo.cache.indexer import Indexer
from memrepo.cache.rows import KeyDocument, Row, key_document

Message = tuple[list[Row], list[KeyDocument]]
"""One part's keys: keys_fts rows folded by the sender, or documents left to fold."""


class KeyHandoff:
    """Made before the notes' process starts, and inherited by it (a queue cannot be sent
    to a running process)."""

    def __init__(self, context: BaseContext) -> None:
        self._queue = context.Queue()
        # The rebuild reads the notes' result, which comes only after every message: a
        # process leaving with messages still buffered has lost its reader, and must not
        # wait for one (the default would hang it).
        self._queue.cancel_join_thread()
        self._notes_loaded = context.Event()
        self._closed = False

    @property
    def notes_loaded(self) -> bool:
        return self._notes_loaded.is_set()

    def send(self, documents: list[KeyDocument]) -> None:
        """On the logs' process: one part's documents, folded here while the notes'
        process is busy with notes."""
        if self.notes_loaded:
            self._queue.put(([], documents))
        else:
            self._queue.put(([key_document(document) for document in documents], []))

    def close(self) -> None:
        """On the logs' process, once every key is sent (or the load failed)."""
        if not self._closed:
            self._closed = True
            self._queue.put(None)

    def receive(self, indexer: Indexer) -> None:
        """On the notes' process, once its notes are loaded: every document sent, in
        order, until `close`."""
        self._notes_loaded.set()
        for rows, documents in self._messages():
            indexer.add_key_search_rows(rows)
            indexer.add_key_documents(documents)

    def _messages(self) -> Iterator[Message]:
        return iter(self._queue.get, None)
