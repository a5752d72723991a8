"""The fast paths the cache build takes give exactly what the strict, simple paths give."""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Iterable
from pathlib import Path

import pytest
import yaml
from anyascii import anyascii
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.core.facts.bitemporal import FOREVER, fold, timeline
from memrepo.core.facts.events import Event
from memrepo.core.notes.headers import parse_note
from memrepo.core.record_base import fields_of
from memrepo.core.strict_yaml import YamlError, load_fast, load_strict
from memrepo.core.text import fold as fold_text
from tests.support import dump

DAY = 86_400_000_000


def outcome(load: object, text: str) -> tuple[str, object]:
    assert callable(load)
    try:
        return "ok", load(text)
    except YamlError as err:
        return "error", (str(err), err.line)


# --- YAML -------------------------------------------------------------------------------

scalars = st.one_of(st.text(max_size=20), st.integers(), st.booleans(), st.none(),
                    st.dates().map(str), st.floats(allow_nan=False))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=8)
YAML_PIECES = ["a", "b", ":", " ", "\n", "-", "[", "]", "{", "}", ",", "'", '"', "*x", "&x",
               "#", "2026-01-01", "!!str", "|", ">", "\t", "ł", "\x85", "\u2028", "\x07",
               "  ", "? ", "%YAML 1.1\n", "---\n", "...\n", "\\", "\ufeff", "null", "~"]


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=10), values, max_size=5),
       st.sampled_from(["block", "flow", "json"]))
def test_fast_yaml_reads_valid_headers_like_the_strict_reader(header: dict[str, object],
                                                                 style: str) -> None:
    if style == "json":
        import json
        text = json.dumps(header, ensure_ascii=False)
    else:
        text = yaml.safe_dump(header, allow_unicode=True, default_flow_style=style == "flow")
    assert outcome(load_fast, text) == outcome(load_strict, text)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(YAML_PIECES), max_size=30).map("".join))
def test_fast_yaml_refuses_what_the_strict_reader_refuses(text: str) -> None:
    assert outcome(load_fast, text) == outcome(load_strict, text)


@pytest.mark.parametrize("text", [
    "a: 1\nb: 2\na: 3\n", "a: &x [1, 2]\nb: *x\n", "[" * 1000, "a: " + "x" * 70_000,
    "updated: 2026-01-01\n", "a: {b: 1, b: 2}\n", "a: \x00\n",
    "{a? }", "{a?b}", "[a?x]", "k: {a?x: 1}\n", "tags: [why?not, x]\n",  # libyaml reads
    # "a?", "a?b" …; the strict reader refuses them (found by the property, then a fuzz)
])
def test_fast_yaml_known_cases(text: str) -> None:
    assert outcome(load_fast, text) == outcome(load_strict, text)


def test_fast_note_parse_equals_the_strict_one() -> None:
    data = ("---\nname: jan-novak\ndescription: \"Accountant at Acme: invoices, VAT\"\n"
            "type: entity\naliases: [Jan Nowak, Ján]\nupdated: 2026-01-01\n---\n# Jan\n"
            ).encode()
    path = "memory/entities/jan-novak.md"
    assert parse_note(path, data, fast=True) == parse_note(path, data)
    broken = data.replace(b"type: entity", b"type: entity\ntype: rule")
    assert parse_note(path, broken, fast=True) == parse_note(path, broken)


# --- text folding -----------------------------------------------------------------------

def reference_fold(text: str) -> str:
    return anyascii(unicodedata.normalize("NFC", text)).casefold()


@settings(max_examples=500, deadline=None)
@given(st.text())
def test_text_folding_equals_the_reference(text: str) -> None:
    assert fold_text(text) == reference_fold(text)


@pytest.mark.parametrize("text", ["Łódź", "Michał Škoda", "Straße Ørsted Đurić",
                                  "Cafe\u0301 ŁÓDŹ", "plain ASCII Text", "ǅemal", "ﬁle"])
def test_text_folding_known_cases(text: str) -> None:
    assert fold_text(text) == reference_fold(text)


# --- timeline of a key with one event ---------------------------------------------------

@st.composite
def lone_events(draw: st.DrawFn) -> Event:
    op = draw(st.sampled_from(["assert", "assert", "end", "retract"]))
    valid_from = draw(st.one_of(st.none(), st.integers(0, 10).map(lambda d: d * DAY)))
    valid_to = draw(st.one_of(st.none(), st.integers(0, 12).map(lambda d: d * DAY)))
    return Event(id="e1", op=op, recorded_at=draw(st.integers(0, 10)) * DAY, scope="s",
                 subject="x", relation="r", object=draw(st.sampled_from(["a", None])),
                 valid_from=valid_from, valid_to=valid_to, target="e0")


@settings(max_examples=300, deadline=None)
@given(lone_events(), st.booleans())
def test_a_lone_event_timeline_is_its_fold_at_every_system_time(event: Event,
                                                                many: bool) -> None:
    rows = timeline([event], many)
    for known_at in [d * DAY for d in range(-1, 12)] + [FOREVER - 1]:
        materialised = {r.holding for r in rows if r.known_from <= known_at < r.known_to}
        assert materialised == set(fold([event], known_at, many))


def test_equal_events_give_one_row_like_one_event() -> None:
    event = Event(id="e1", op="assert", recorded_at=DAY, scope="s", subject="x",
                  relation="r", object="a", valid_from=0)
    twin = Event(**{f: getattr(event, f) for f in fields_of(Event)})
    for many in (False, True):
        assert timeline([event, twin], many) == timeline([event], many)


def test_a_long_notes_rows_hold_each_text_folded_and_stemmed_on_its_own() -> None:
    from memrepo.cache.rows import note_rows
    from memrepo.core.stems import stem_column
    from memrepo.core.text import passages

    body = "\n".join(f"  Płaciłem ΑΣ czynsz {n}\u0301 \n\n" for n in range(15))
    header = "---\nname: rent\ndescription: Czynsz za mieszkanie\ntype: entity\n---\n"
    rows = note_rows("memory/entities/rent.md", (header + body).encode())
    assert rows is not None
    head = "rent Czynsz za mieszkanie"
    assert rows.passages == [(fold_text(head), fold_text(text), stem_column(head),
                              stem_column(text)) for text in passages(rows.note[5])]
    assert len(rows.passages) == 3
    assert rows.fts[3::4] == (fold_text(rows.note[5]), stem_column(rows.note[5]))


# --- the parallel build -----------------------------------------------------------------

def synthetic_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, notes: int,
                   events: int, seed: int) -> Path:
    """A generated memory, its notes cut into parts of 7 (many parts on both processes)."""
    from memrepo.bench.synth import generate
    from memrepo.cache import parts

    for name, value in (("GIT_AUTHOR_NAME", "T"), ("GIT_AUTHOR_EMAIL", "t@example.com"),
                        ("GIT_COMMITTER_NAME", "T"), ("GIT_COMMITTER_EMAIL", "t@example.com")):
        monkeypatch.setenv(name, value)
    root = tmp_path / "repo"
    generate(root, notes, events, seed=seed)
    monkeypatch.setattr(parts, "NOTES_PER_PART", 7)
    return root


def test_a_parallel_build_writes_the_same_rows_as_a_serial_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memrepo.cache.build import build_into

    root = synthetic_repo(tmp_path, monkeypatch, 120, 1500, seed=3)
    files = {}
    for workers in (1, 2):
        files[workers] = tmp_path / f"cache{workers}.sqlite"
        build_into(root, files[workers], workers=workers)
    assert everything(files[2]) == everything(files[1])
    assert dump(files[2]) == dump(files[1])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache1.sqlite", "cache2.sqlite",
                                                          "repo"]  # the notes' file is gone


def everything(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row with its rowid, in rowid order (the same rowids = the same file)."""
    conn = sqlite3.connect(path)
    try:
        tables = {table: conn.execute(f"SELECT rowid, * FROM {table} ORDER BY rowid").fetchall()
                  for table in ("notes", "notes_fts", "aliases", "links", "events", "keys",
                                "keys_fts", "holdings")}
        for table in ("notes_terms", "keys_terms"):
            tables[table] = conn.execute(f"SELECT * FROM {table} ORDER BY term").fetchall()
        return tables
    finally:
        conn.close()


def test_a_build_pauses_cycle_collection_only_while_it_loads(
        memory_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import gc

    from memrepo.cache import build

    root = memory_repo
    from memrepo.cache.terms import fill_terms

    seen: list[bool] = []

    def fill_terms_seen(conn: sqlite3.Connection) -> None:
        seen.append(gc.isenabled())
        fill_terms(conn)

    monkeypatch.setattr(build, "fill_terms", fill_terms_seen)
    assert gc.isenabled()
    build.build_into(root, tmp_path / "on.sqlite", workers=1)
    assert gc.isenabled() and seen and not any(seen)
    gc.disable()
    try:
        build.build_into(root, tmp_path / "off.sqlite", workers=1)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_build_leaves_the_full_text_tables_with_sqlites_own_postings_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The build gathers postings in memory while it loads; a sync's writes afterwards
    use SQLite's default (1 MiB), on both processes' tables."""
    from memrepo.cache.build import SQLITE_POSTINGS_BYTES, build_into

    root = synthetic_repo(tmp_path, monkeypatch, 60, 600, seed=1)
    built = tmp_path / "cache.sqlite"
    build_into(root, built, workers=2)
    conn = sqlite3.connect(built)
    try:
        for table in ("notes_fts", "passages_fts", "keys_fts"):
            config = dict(conn.execute(f"SELECT k, v FROM {table}_config").fetchall())
            assert config.get("hashsize", SQLITE_POSTINGS_BYTES) == SQLITE_POSTINGS_BYTES
        assert conn.execute("SELECT count(*) FROM notes_fts").fetchone()[0] > 0
    finally:
        conn.close()


def test_the_keys_documents_make_the_same_rows_whichever_process_folds_them(
        tmp_path: Path) -> None:
    """A part sent while the notes' process still loads notes is folded by the sender; a
    part sent after is folded by the receiver: the rows, in order, are the same."""
    import multiprocessing
    import threading
    import time

    from memrepo.cache.db import schema_sql
    from memrepo.cache.handoff import KeyHandoff
    from memrepo.cache.indexer import Indexer
    from memrepo.cache.rows import KeyDocument, key_document
    from memrepo.core.config import Config

    class Receiver(Indexer):
        folded_here = 0

        def add_key_documents(self, documents: Iterable[KeyDocument]) -> None:
            documents = list(documents)
            self.folded_here += len(documents)
            super().add_key_documents(documents)

    conn = sqlite3.connect(tmp_path / "notes.sqlite")
    conn.executescript(schema_sql()[0])
    receiver = Receiver(conn, Config())
    early = [(1, ("Ładny dom", "kolor", "zielony ; Żółty", "Dom jest żółty")),
             (2, ("Ann", "city", "Kraków", ""))]
    late = [(3, ("Łódź", "population", "670 000", "about 670k people"))]
    handoff = KeyHandoff(multiprocessing.get_context("spawn"))
    handoff.send(early)  # the notes are not loaded yet: folded here
    thread = threading.Thread(target=handoff.receive, args=(receiver,))
    thread.start()
    while not handoff.notes_loaded:
        time.sleep(0.01)
    handoff.send(late)
    handoff.close()
    thread.join(timeout=30)
    receiver.flush()
    assert receiver.folded_here == len(late)
    stored = conn.execute("SELECT rowid, * FROM keys_fts ORDER BY rowid").fetchall()
    assert stored == [key_document(document) for document in early + late]
    conn.close()


def test_a_failing_logs_process_fails_the_parallel_build_without_waiting_forever(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memrepo.cache import build
    from memrepo.cache.parts import Job, Part, parse_part
    from memrepo.core.facts.line_rules import LineRules

    root = synthetic_repo(tmp_path, monkeypatch, 60, 600, seed=2)

    def failing(root: Path, job: Job, many: frozenset[str], rules: LineRules | None) -> Part:
        if job[0] == "scope":
            raise RuntimeError("a log that breaks the build")
        return parse_part(root, job, many, rules)

    monkeypatch.setattr(build, "parse_part", failing)
    with pytest.raises(RuntimeError, match="breaks the build"):
        build.build_into(root, tmp_path / "cache.sqlite", workers=2)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache.sqlite", "repo"]
