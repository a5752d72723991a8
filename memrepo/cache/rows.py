"""File contents → cache rows. Shared by the full build and the incremental sync, so both
produce exactly the same rows from the same bytes."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import lru_cache
from itertools import chain
from operator import itemgetter
from typing import Any

import orjson

from memrepo.cache.halves import in_halves
from memrepo.core.facts.bitemporal import KnownHolding, timeline
from memrepo.core.facts.events import (
    Event,
    Key,
    first_recorded,
    folded_key,
)
from memrepo.core.facts.line_rules import LineRules, judged_lines, text_refusal
from memrepo.core.facts.log_lines import MAX_LINE_BYTES, split_lines
from memrepo.core.facts.segment_names import is_log_path, parse_log_path
from memrepo.core.notes.headers import Note, classify, parse_note
from memrepo.core.notes.links import find_links, wiki_name
from memrepo.core.problems import with_fix
from memrepo.core.record_base import Record, init_field
from memrepo.core.stems import NUMBER_WORD, stem_column, stem_words, text_words
from memrepo.core.text import fold, key_slug, passage_lines
from memrepo.files import complete_lines

IsMany = Callable[[str], bool]
Row = tuple[Any, ...]

_NOTE_LINK = re.compile(r"/memory/[a-z]+/(?P<name>[^/#?]+)\.md(?:[#?].*)?")



def file_kind(path: str) -> str | None:
    """`note`, `log` or `config` for the files the cache indexes; None for the rest."""
    if path == "memory/config.yaml":
        return "config"
    if is_log_path(path):
        return "log"
    kind, _ = classify(path)
    return "note" if kind == "note" else None


# --- notes ----------------------------------------------------------------------------------

class NoteRows(Record):
    __slots__ = ("aliases", "fts", "links", "note", "passages")
    note: Row  # without rowid: path, name, category, description, aliases, body, updated
    fts: Row  # without rowid: name, description, aliases, body folded, then their stems
    aliases: list[Row]
    links: list[Row]
    passages: list[Row]  # without rowid: head, text folded, then their stems

    def __init__(self, note: Row, fts: Row, aliases: list[Row], links: list[Row],
                 passages: list[Row]) -> None:
        init_field(self, "note", note)
        init_field(self, "fts", fts)
        init_field(self, "aliases", aliases)
        init_field(self, "links", links)
        init_field(self, "passages", passages)


def note_rows(path: str, data: bytes) -> NoteRows | Skipped:
    """The rows of one note; for a note that cannot be parsed (the hooks refuse it; the
    cache leaves it out), the `skipped` row that says why."""
    note = parse_note(path, data, fast=True)
    if not isinstance(note, Note):
        return (note.line or 1, with_fix(note.problem, note.fix), None)
    refused = text_refusal(data.decode("utf-8", "replace"))
    if refused is not None:  # what the commit's checks refuse is never served
        return (*refused, None)
    description = _text(note.header.get("description"))
    described = " ; ".join([description, *note.tags])  # tags are searched with it
    aliases = _aliases(note.header.get("aliases"))
    body, passage_rows = _body_columns(f"{note.name} {described}", note.body)
    return NoteRows(
        note=(path, note.name, note.category, description,
              orjson.dumps(aliases).decode("utf-8"), note.body, note.updated),
        fts=search_row([*map(_text_columns, (note.name, described, " ; ".join(aliases))),
                        body]),
        aliases=[(fold(alias), alias, note.name, path) for alias in aliases],
        links=[(path, note.name, target, line) for target, line in _link_targets(note)],
        passages=passage_rows,
    )


def _body_columns(head: str, body: str) -> tuple[tuple[str, str], list[Row]]:
    """The body's (folded, base forms) and the rows of its passages (memrepo.core.text
    .passages), each with `head`; the words of each passage are found once for both (no
    word spans a line: memrepo.answer.question.text_words)."""
    groups = passage_lines(body)
    if not groups:
        return (fold(body), stem_column(body)), []
    texts = ["\n".join(group) for group in groups]
    words = [text_words(text) for text in texts]
    folded_head, head_stems = _text_columns(head)
    rows: list[Row] = [(folded_head, fold(text), head_stems, stem_words(each))
                       for text, each in zip(texts, words, strict=True)]
    return (fold(body), stem_words(chain.from_iterable(words))), rows


def search_columns(texts: Sequence[str]) -> Row:
    """The full-text columns of a document: each text folded, then each text's base forms
    (memrepo.answer.question.stem_column)."""
    return search_row([_text_columns(text) for text in texts])


def search_row(columns: Sequence[tuple[str, str]]) -> Row:
    """(folded, base forms) of each text → every folded text, then every text's base
    forms."""
    return (*(folded for folded, _ in columns), *(stems for _, stems in columns))


def _text_columns(text: str) -> tuple[str, str]:
    return _short_columns(text) if len(text) <= SHORT_TEXT else (fold(text), stem_column(text))


SHORT_TEXT = 200
"""Texts up to this long (names, subjects, relations: they repeat) are folded and stemmed
once per process."""


@lru_cache(maxsize=1 << 16)
def _short_columns(text: str) -> tuple[str, str]:
    return fold(text), _numbered_stems(NUMBER_WORD.sub("0", text))


@lru_cache(maxsize=1 << 12)
def _numbered_stems(text: str) -> str:
    """`stem_column` of a text whose number words are 0 (a few shapes of many values)."""
    return stem_column(text)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _aliases(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def _link_targets(note: Note) -> Iterator[tuple[str, int]]:
    for link in find_links(note.body, note.body_line):
        if link.kind == "wiki":
            name = wiki_name(link.target)
            if name is not None:  # None: [[#heading]], a place in the note itself
                yield name, link.line
            continue
        match = _NOTE_LINK.fullmatch(link.target)
        if match:
            yield match["name"], link.line


# --- fact events ------------------------------------------------------------------------

Skipped = tuple[int, str, str | None]
"""(line, reason, the repeated id or None) of a line the cache leaves out."""


def repeated(line: int, event_id: str) -> Skipped:
    return (line, f"repeats the id {event_id} of an earlier line", event_id)


UNFINISHED = with_fix("has no newline at its end, so nothing reads it yet", "end the line "
                      "with a newline: some editors, VS Code by default, save without one; "
                      "an unfinished write: `memrepo doctor --repair` moves it aside")
"""The reason listed for a log's last line without its newline: queries read a log up to
its last newline only (a write may be under way); doctor reports the line on its own."""


def unfinished_line(data: bytes) -> Skipped | None:
    """The `skipped` row of a log's last line when it has no newline yet."""
    if not data or data.endswith(b"\n"):
        return None
    return (data.count(b"\n") + 1, UNFINISHED, None)


class ParsedLog(Record):
    """The events of a log (with line numbers) and the lines left out, with why."""

    __slots__ = ("events", "skipped")
    events: list[tuple[int, Event]]
    skipped: list[Skipped]

    def __init__(self, events: list[tuple[int, Event]], skipped: list[Skipped]) -> None:
        init_field(self, "events", events)
        init_field(self, "skipped", skipped)


def parse_events(data: bytes, path: str, rules: LineRules, first_line: int = 1,
                 seen: set[str] | None = None, *, split: bool = False) -> ParsedLog:
    """Every event of the log `path` that the checks accept (core.facts.line_rules: its
    structure, credentials, hidden text, schema, segment and — not committed yet — its
    time), with its line number. A line the checks would refuse — a committed one is
    possible with `git commit --no-verify` — is skipped and listed with its reason, never
    served; so is a repeated id: the first occurrence (`seen`: ids met before, in file
    order) wins. A partial last line is not indexed (yet) and not listed. `split`: a
    large log's lines are judged on two processes (memrepo.cache.halves; a sync's, not a
    build's: a build has its processes already)."""
    parsed = ParsedLog([], [])
    ids = set() if seen is None else seen
    segment = parse_log_path(path)
    if segment is None:  # callers pass only paths that file_kind() called logs
        raise ValueError(f"not a fact log path: {path}")
    scope, month = segment.scope, segment.month

    def judge(lines: Sequence[tuple[int, bytes]]) -> list[Event | str]:
        return _verdicts(lines, path, scope, month, rules)

    lines = list(split_lines(complete_lines(data), first_line))
    verdicts = in_halves(judge, lines) if split else judge(lines)
    for (number, _), event in zip(lines, verdicts, strict=True):
        if isinstance(event, str):
            parsed.skipped.append((number, event, None))
        elif event.id in ids:
            parsed.skipped.append(repeated(number, event.id))
        else:
            ids.add(event.id)
            parsed.events.append((number, event))
    return parsed


def _verdicts(lines: Sequence[tuple[int, bytes]], path: str, scope: str, month: str,
              rules: LineRules) -> list[Event | str]:
    """The event of each (number, line) of the log `path`, or why it is left out."""
    judged = iter(judged_lines([(raw_line, rules.committed(path, number))
                                for number, raw_line in lines
                                if len(raw_line) <= MAX_LINE_BYTES], scope, month, rules))
    return [next(judged) if len(raw_line) <= MAX_LINE_BYTES else _TOO_LONG
            for _, raw_line in lines]


_TOO_LONG = f"line is longer than {MAX_LINE_BYTES // 1024} KiB"


def skipped_rows(path: str, skipped: Iterable[Skipped]) -> list[Row]:
    return [(path, line, reason, event_id) for line, reason, event_id in skipped]


def event_row(rowid: int, event: Event, path: str, line: int, key: Key | None) -> Row:
    """`key`: the event's key as written; for a retract the key of its target (None: not
    known). The folded key (SPEC §4) is stored beside it."""
    subject, relation = (None, None) if key is None else (key[1], key[2])
    subject_key, relation_key = ((None, None) if key is None
                                 else (key_slug(key[1]), key_slug(key[2])))
    return (rowid, event.id, event.op, event.scope, subject, relation, subject_key,
            relation_key, event.object, event.valid_from, event.valid_to, event.recorded_at,
            event.target, event.confidence, event.source, event.session, event.quote,
            event.trust, event.reason, path, line)


def event_signature(event: Event, path: str, line: int, row: Row | None = None) -> Row:
    """The row as stored, minus the rowid and a retract's (resolved) key: its
    memrepo.cache.digests.SIGNATURE_COLUMNS. `row`: the
    event's row when made already (only a retract's signature differs from it)."""
    if row is not None and event.op != "retract":
        return row[1:]
    return event_row(0, event, path, line, None if event.op == "retract" else event.key)[1:]


SIGNED_OP = 1
"""Where an `event_signature` holds the op."""
signed_key: Callable[[Row], Key] = itemgetter(2, 5, 6)
"""The folded key of an assert's or end's `event_signature`: scope, subject_key,
relation_key."""


# --- holdings and keys ------------------------------------------------------------------

class KeyRows(Record):
    __slots__ = ("holdings", "key", "texts")
    key: Row  # the keys row without rowid: the folded key, its shown form, its first event,
    # whether a value is a number
    holdings: list[Row]
    texts: tuple[str, str, str, str]  # its search document's texts: subject, relation, every
    # value, every quote (folded, then their base forms, when inserted: key_document)

    def __init__(self, key: Row, holdings: list[Row], texts: tuple[str, str, str, str]) -> None:
        init_field(self, "key", key)
        init_field(self, "holdings", holdings)
        init_field(self, "texts", texts)


def key_rows(key: Key, events: Sequence[Event], is_many: IsMany) -> KeyRows | None:
    """The keys row, the materialised timeline and the search document of one folded key
    (its events, in any spelling, plus the retracts of them); None when it has no assert
    or end. Values and quotes are taken in the order recorded, whatever the order of
    lines."""
    first = events[0] if len(events) == 1 else first_recorded(events)
    if first is None or first.op == "retract":
        return None
    scope, subject_key, relation_key = key
    shown = (scope, subject_key, relation_key, first.subject, first.relation)
    holdings = [(*shown, *_holding_columns(known))
                for known in timeline(events, is_many(relation_key))]
    if len(events) == 1:  # most keys of a hand-appended log: nothing to order or merge
        objects, quotes = ((first.object or "", first.quote or "") if first.op == "assert"
                           else ("", ""))
    else:
        asserts = sorted((e for e in events if e.op == "assert"),
                         key=lambda e: (e.recorded_at, e.id))
        objects = " ; ".join(dict.fromkeys(e.object or "" for e in asserts))
        quotes = " ; ".join(dict.fromkeys(e.quote for e in asserts if e.quote))
    numeric = int(any(map(str.isdigit, objects)))
    return KeyRows((*shown, first.recorded_at, first.id, numeric), holdings,
                   (first.subject, first.relation, objects, quotes))


FoldedKey = tuple[KeyRows, Row] | None
"""A folded key's rows and its search document's full-text columns (without the rowid),
or None when it has no assert or end: all of a key's indexing that needs no rowid."""


def folded_key_rows(key: Key, events: Sequence[Event], is_many: IsMany) -> FoldedKey:
    """`key_rows`, with its search document folded and stemmed (`key_document`'s
    columns)."""
    rows = key_rows(key, events, is_many)
    return None if rows is None else (rows, search_columns(rows.texts))


KeyDocument = tuple[int, tuple[str, ...]]
"""(keys rowid, the texts of its search document): what `key_document` makes a row of."""


def key_document(document: KeyDocument) -> Row:
    """The keys_fts row of a key (SPEC §7): its texts folded, then their base forms."""
    rowid, texts = document
    return (rowid, *search_columns(texts))


def _holding_columns(known: KnownHolding) -> Row:
    holding, event = known.holding, known.holding.event
    return (holding.object, holding.start, holding.end, holding.value_start,
            holding.value_end, known.known_from, known.known_to, event.id)


def keys_of(events: Iterable[Event]) -> dict[str, Key]:
    """Event id → key as written, for the asserts and ends of one scope; a retract's key
    is its target's (the first event with that id: ids are unique in a checked
    repository)."""
    key_of_id: dict[str, Key] = {}
    for event in events:
        if event.op != "retract":
            key_of_id.setdefault(event.id, event.key)
    return key_of_id


def key_of(event: Event, key_of_id: Mapping[str, Key]) -> Key | None:
    if event.op == "retract":
        return key_of_id.get(event.target or "")
    return event.key


def group_by_key(events: Iterable[Event], key_of_id: Mapping[str, Key],
                 ) -> dict[Key, list[Event]]:
    """Events of one scope by folded key, each retract with the events it withdraws."""
    groups: dict[Key, list[Event]] = {}
    for event in events:
        key = key_of(event, key_of_id)
        if key is not None:
            groups.setdefault(folded_key(key), []).append(event)
    return groups
