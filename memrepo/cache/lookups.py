"""The rows answering a question needs (memrepo.answer.keys): a scope's subjects and keys by
their words, entity notes by name, alias or description. Each look-up goes through an index
(FTS5 or a B-tree) and is capped: its cost does not grow with the memory."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from memrepo.core.stems import WORD
from memrepo.core.text import fold

CANDIDATES = 200
"""The most rows one look-up returns (best first where FTS5 ranks them)."""


@dataclass(frozen=True, slots=True)
class KeyRow:
    rowid: int
    subject_key: str
    relation_key: str
    subject: str  # as first recorded
    relation: str
    numeric: bool  # a value of the key has a digit


@dataclass(frozen=True, slots=True)
class NoteRow:
    name: str
    description: str
    aliases: tuple[str, ...]


def _any_of(forms: Iterable[str]) -> str:
    """An FTS5 OR of quoted forms (user text never reaches FTS5 syntax); '' for none."""
    quoted = ['"' + form.replace('"', '""') + '"' for form in dict.fromkeys(forms) if form]
    return " OR ".join(quoted)


def _keys(rows: Iterable[tuple[int, str, str, str, str, int]]) -> list[KeyRow]:
    return [KeyRow(rowid, subject_key, relation_key, subject, relation, bool(numeric))
            for rowid, subject_key, relation_key, subject, relation, numeric in rows]


_KEY_COLUMNS = "k.rowid, k.subject_key, k.relation_key, k.subject, k.relation, k.numeric"


def keys_with_words(conn: sqlite3.Connection, scope: str, forms: Iterable[str],
                    columns: str, limit: int = CANDIDATES) -> list[KeyRow]:
    """Keys of `scope` whose `columns` ("subject", "relation", "object" or "quote": the
    folded words and their base forms; the object column holds every value the key had,
    the quote column what was said when each was recorded) hold any of the folded
    `forms`."""
    match = _any_of(forms)
    if not match:
        return []
    column = {"subject": "{subject subject_s}", "relation": "{relation relation_s}",
              "object": "{object object_s}", "quote": "{quote quote_s}"}[columns]
    return _keys(conn.execute(
        f"SELECT {_KEY_COLUMNS} FROM keys_fts f CROSS JOIN keys k ON k.rowid = f.rowid "
        f"WHERE keys_fts MATCH ? AND k.scope = ? ORDER BY bm25(keys_fts) LIMIT ?",
        (f"{column} : ({match})", scope, limit)))


def keys_of_subjects(conn: sqlite3.Connection, scope: str, subject_keys: Iterable[str],
                     limit: int = CANDIDATES) -> list[KeyRow]:
    """Every key of those folded subjects of `scope` (at most `limit`)."""
    wanted = sorted(set(subject_keys))
    if not wanted:
        return []
    marks = ", ".join("?" * len(wanted))
    return _keys(conn.execute(
        f"SELECT {_KEY_COLUMNS} FROM keys k WHERE k.scope = ? AND k.subject_key IN ({marks}) "
        "ORDER BY k.first_at, k.first_id LIMIT ?", (scope, *wanted, limit)))


def values_of_subjects(conn: sqlite3.Connection, scope: str, subject_keys: Iterable[str],
                       ) -> dict[tuple[str, str], list[str]]:
    """Every value each key of those folded subjects of `scope` has held, as known at any
    time, by (subject_key, relation_key)."""
    wanted = sorted(set(subject_keys))
    marks = ", ".join("?" * len(wanted))
    out: dict[tuple[str, str], list[str]] = {}
    for subject_key, relation_key, value in conn.execute(
            f"SELECT DISTINCT subject_key, relation_key, object FROM holdings WHERE scope = ? "
            f"AND subject_key IN ({marks}) ORDER BY subject_key, relation_key, object",
            (scope, *wanted)):
        out.setdefault((subject_key, relation_key), []).append(value)
    return out


def name_values(conn: sqlite3.Connection, scope: str, relations: Iterable[str],
                holding: Iterable[str]) -> list[tuple[str, str]]:
    """(subject_key, values) of the keys of `scope` whose relation is one of the
    `relations` (name words) and whose values hold any of the folded words `holding`:
    every value each held, as one text (`cleaner.name` = "Zuzana Mrázová"). One query
    whatever the number of names asked about."""
    naming, held = _any_of(relations), _any_of(holding)
    if not naming or not held:
        return []
    return [(str(subject), str(values)) for subject, values in conn.execute(
        "SELECT k.subject_key, f.object FROM keys_fts f CROSS JOIN keys k ON k.rowid = f.rowid "
        "WHERE keys_fts MATCH ? AND k.scope = ?",
        ("{object object_s} : (" + held + ") AND {relation relation_s} : (" + naming + ")",
         scope))]


def quotes_holding(conn: sqlite3.Connection, scope: str, forms: Iterable[str],
                   limit: int = CANDIDATES) -> list[tuple[str, str, str]]:
    """(subject_key, subject as written, its quotes folded, " ; " between two) of the keys
    of `scope` a verbatim quote of whose facts holds one of the folded `forms` (or a word
    whose base forms hold one)."""
    if not (expression := _any_of(forms)):
        return []
    return [(str(key), str(subject), str(quotes)) for key, subject, quotes in conn.execute(
        "SELECT k.subject_key, k.subject, f.quote FROM keys_fts f CROSS JOIN keys k ON "
        "k.rowid = f.rowid WHERE keys_fts MATCH ? AND k.scope = ? LIMIT ?",
        ("{quote quote_s} : (" + expression + ")", scope, limit))]


def subject_spelled_like(conn: sqlite3.Connection, scope: str, slug: str) -> str:
    """The subject of `scope` spelled like the folded `slug` but for its separators (scope
    `danubebyte`: `danube_byte`), else `slug` itself."""
    if conn.execute("SELECT 1 FROM keys WHERE scope = ? AND subject_key = ? LIMIT 1",
                    (scope, slug)).fetchone():
        return slug
    row = conn.execute("SELECT subject_key FROM keys WHERE scope = ? AND "
                       "replace(subject_key, '_', '') = ? ORDER BY subject_key LIMIT 1",
                       (scope, slug.replace("_", ""))).fetchone()
    return str(row[0]) if row else slug


def existing_subjects(conn: sqlite3.Connection, scope: str, subject_keys: Iterable[str],
                      ) -> set[str]:
    """Those of the folded `subject_keys` that `scope` holds a key of."""
    wanted = sorted(set(subject_keys))
    if not wanted:
        return set()
    marks = ", ".join("?" * len(wanted))
    return {row[0] for row in conn.execute(
        f"SELECT DISTINCT subject_key FROM keys WHERE scope = ? AND subject_key IN ({marks})",
        (scope, *wanted))}


def _notes(rows: Iterable[Sequence[object]]) -> list[NoteRow]:
    out = []
    for name, description, aliases in rows:
        value = json.loads(str(aliases) or "[]")
        listed = tuple(a for a in value if isinstance(a, str)) if isinstance(value, list) else ()
        out.append(NoteRow(str(name), str(description), listed))
    return out


def entity_notes_with_words(conn: sqlite3.Connection, forms: Iterable[str], columns: str,
                            limit: int = CANDIDATES) -> list[NoteRow]:
    """Entity notes whose `columns` ("names": name and aliases, "description") hold any of
    the folded `forms`."""
    match = _any_of(forms)
    if not match:
        return []
    column = {"names": "{name aliases name_s aliases_s}",
              "description": "{description description_s}"}[columns]
    return _notes(conn.execute(
        "SELECT n.name, n.description, n.aliases FROM notes_fts f "
        "JOIN notes n ON n.rowid = f.rowid WHERE notes_fts MATCH ? "
        "AND n.category = 'entities' ORDER BY bm25(notes_fts) LIMIT ?",
        (f"{column} : ({match})", limit)))


def scope_term_counts(conn: sqlite3.Connection, scope: str, forms: Iterable[str],
                      ) -> tuple[dict[str, int], int]:
    """How many keys of `scope` hold each folded form, and how many keys it has: the
    words' document frequencies within the one memory a question reads (what another
    scope holds never changes how this one's answers are weighed). The form is matched once
    and the scope's keys looked up in the list of its rows: joined the other way round,
    SQLite ran the match again for each key of the scope (≈3× slower at 20k notes)."""
    counts = {}
    for form in sorted(set(forms)):
        if not form.isalnum():
            continue
        counts[form] = int(conn.execute(
            "SELECT count(*) FROM keys k WHERE k.scope = ? AND k.rowid IN "
            "(SELECT rowid FROM keys_fts WHERE keys_fts MATCH ?)",
            (scope, f'"{form}"')).fetchone()[0])
    total = int(conn.execute("SELECT count(*) FROM keys WHERE scope = ?",
                             (scope,)).fetchone()[0])
    return {form: n for form, n in counts.items() if n}, total


def scope_vocabulary(conn: sqlite3.Connection, scope: str, first: str, shortest: int,
                     longest: int, limit: int = CANDIDATES) -> list[str]:
    """Words of the subjects and relations of `scope`'s keys that start with `first` and
    have `shortest` to `longest` letters: what a misspelt word may be respelled to."""
    after = first[:-1] + chr(ord(first[-1]) + 1)
    rows = conn.execute(
        "SELECT t.term FROM keys_terms t WHERE t.term >= ? AND t.term < ? "
        "AND length(t.term) BETWEEN ? AND ? AND EXISTS (SELECT 1 FROM keys_fts f JOIN keys k "
        "ON k.rowid = f.rowid WHERE keys_fts MATCH '{subject relation} : \"' || "
        "replace(t.term, '\"', '\"\"') || '\"' AND k.scope = ?) LIMIT ?",
        (first, after, shortest, longest, scope, limit))
    return [row[0] for row in rows]


def naming_value_vocabulary(conn: sqlite3.Connection, scope: str, first: str, shortest: int,
                            longest: int, naming: Iterable[str],
                            limit: int = CANDIDATES) -> list[str]:
    """Words of the values of `scope`'s keys whose relation is one of the `naming` words
    (`car.model` = "Toyota Yaris") that start with `first` and have `shortest` to `longest`
    letters: what a misspelt name of a thing may be respelled to."""
    after = first[:-1] + chr(ord(first[-1]) + 1)
    rows = conn.execute(
        "SELECT t.term FROM keys_terms t WHERE t.term >= ? AND t.term < ? "
        "AND length(t.term) BETWEEN ? AND ? AND EXISTS (SELECT 1 FROM keys_fts f JOIN keys k "
        "ON k.rowid = f.rowid WHERE keys_fts MATCH 'object : \"' || "
        "replace(t.term, '\"', '\"\"') || '\" AND {relation relation_s} : (' || ? || ')' "
        "AND k.scope = ?) LIMIT ?",
        (first, after, shortest, longest, _any_of(naming), scope, limit))
    return [row[0] for row in rows]


def entity_name_vocabulary(conn: sqlite3.Connection, first: str, shortest: int, longest: int,
                           limit: int = CANDIDATES) -> list[str]:
    """Words of entity notes' names and aliases that start with `first` and have
    `shortest` to `longest` letters: what a misspelt name may be respelled to."""
    after = first[:-1] + chr(ord(first[-1]) + 1)
    rows = conn.execute(
        "SELECT t.term FROM notes_terms t WHERE t.term >= ? AND t.term < ? "
        "AND length(t.term) BETWEEN ? AND ? AND EXISTS (SELECT 1 FROM notes_fts f JOIN notes n "
        "ON n.rowid = f.rowid WHERE notes_fts MATCH '{name aliases} : \"' || "
        "replace(t.term, '\"', '\"\"') || '\"' AND n.category = 'entities') LIMIT ?",
        (first, after, shortest, longest, limit))
    return [row[0] for row in rows]


def quoted_groups(conn: sqlite3.Connection, rowids: Iterable[int],
                  groups: Mapping[int, Iterable[str]]) -> dict[int, set[int]]:
    """For each key (by rowid), the groups of folded forms (by their number) of which a
    verbatim quote of its facts holds one: what the person said when it was recorded.

    The keys' quotes are read by rowid and matched here as FTS5 would (its tokens of the
    folded text; a form of several words as a phrase): a concept's few hundred forms
    matched by FTS5 walk every posting list of each (0.3 s at 20k notes)."""
    wanted = sorted(set(rowids))
    found: dict[int, set[int]] = {}
    if not wanted:
        return found
    marks = ", ".join("?" * len(wanted))
    said = {rowid: (WORD.findall(fold(quote)), WORD.findall(fold(stems)))
            for rowid, quote, stems in conn.execute(
                f"SELECT rowid, quote, quote_s FROM keys_fts WHERE rowid IN ({marks})",
                wanted)}
    for number, forms in groups.items():
        phrases = {tuple(WORD.findall(form)) for form in forms} - {()}
        single = {phrase[0] for phrase in phrases if len(phrase) == 1}
        longer = [phrase for phrase in phrases if len(phrase) > 1]
        for rowid, columns in said.items():
            if any(single.intersection(tokens) or any(_holds_phrase(tokens, phrase)
                                                       for phrase in longer)
                   for tokens in columns):
                found.setdefault(rowid, set()).add(number)
    return found


def _holds_phrase(tokens: Sequence[str], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(tuple(tokens[i:i + size]) == phrase for i in range(len(tokens) - size + 1)
               if tokens[i] == phrase[0])


def keys_quoting(conn: sqlite3.Connection, scope: str, groups: Mapping[int, Iterable[str]],
                 limit: int = CANDIDATES) -> dict[KeyRow, set[int]]:
    """The keys of `scope` a verbatim quote of whose facts holds one of the folded forms of
    each group (by the group's number), at most `limit` keys a group."""
    found: dict[int, set[int]] = {}
    rows: dict[int, KeyRow] = {}
    for number, forms in groups.items():
        if not (expression := _any_of(forms)):
            continue
        for row in _keys(conn.execute(
                f"SELECT {_KEY_COLUMNS} FROM keys k WHERE k.scope = ? AND k.rowid IN "
                "(SELECT rowid FROM keys_fts WHERE keys_fts MATCH ?) LIMIT ?",
                (scope, "{quote quote_s} : (" + expression + ")", limit))):
            rows[row.rowid] = row
            found.setdefault(row.rowid, set()).add(number)
    return {rows[rowid]: numbers for rowid, numbers in found.items()}


def key_name_words(conn: sqlite3.Connection, forms: Iterable[str]) -> set[str]:
    """Those of the folded `forms` that some key's subject or relation holds (a word only a
    value or a quote holds names no key)."""
    found = set()
    for form in dict.fromkeys(forms):
        if form and conn.execute(
                "SELECT 1 FROM keys_fts WHERE keys_fts MATCH ? LIMIT 1",
                ("{subject relation subject_s relation_s} : " + _any_of([form]),)).fetchone():
            found.add(form)
    return found


def notes_hold_any(conn: sqlite3.Connection, forms: Iterable[str]) -> bool:
    """Whether any note (any category: name, description, aliases, body) holds one of the
    folded `forms` or a word of that base form."""
    match = _any_of(forms)
    return bool(match) and conn.execute(
        "SELECT 1 FROM notes_fts WHERE notes_fts MATCH ? LIMIT 1", (match,)).fetchone() is not None


def every_key(conn: sqlite3.Connection) -> list[KeyRow]:
    """Every key of every scope, once (the semantic layer encodes them ahead)."""
    return _keys(conn.execute(f"SELECT {_KEY_COLUMNS} FROM keys k ORDER BY k.rowid"))
