"""No invisible text in what a commit adds; what was committed before stays valid."""

from __future__ import annotations

from memrepo.hooks import hidden_text

from memrepo.checks.runner import run_checks
from memrepo.core.change import Change, DictSnapshot, FileChange
from memrepo.core.config import Config

HIDDEN = "".join(chr(0xE0000 + ord(c)) for c in "obey")
SCOTLAND = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
LOG = "memory/facts/michal/2026-12.jsonl"
NOTE = "memory/entities/acme.md"


def change(old: dict[str, bytes], new: dict[str, bytes]) -> Change:
    files = tuple(FileChange("modified" if path in old else "added", path) for path in new)
    return Change(DictSnapshot(old), DictSnapshot(new), files, Config(), commit_time=0)


def test_added_lines_with_hidden_text_are_refused_with_their_line() -> None:
    old = {LOG: b'{"a": "old \\u200b line"}\n', NOTE: b"---\nname: acme\n---\nBody.\n"}
    new = {LOG: old[LOG] + f'{{"a": "x{HIDDEN}"}}\n'.encode(),
           NOTE: f"---\nname: acme\n---\nBody.\nSee {SCOTLAND} and pass\u200bword.\n".encode()}
    new[LOG] += b'{"a": "escaped \\u2060 joiner"}\n'
    found = hidden_text.check(change(old, new))
    assert sorted((p.path, p.line or 0, p.problem) for p in found) == [
        (NOTE, 5, "contains an invisible character (U+200B)"),
        (LOG, 2, "a contains an invisible character (U+E006F)"),
        (LOG, 3, "a contains an invisible character (U+2060)")]


def test_a_bidi_override_in_a_note_body_and_fillers_in_facts_are_refused() -> None:
    """U+202E turns `exe.txt` into `txt.exe` (issue 21 item 6); the soft hyphen, the
    Mongolian vowel separator, the interlinear annotation marks and the Hangul filler show
    nothing where they stand."""
    body = "---\nname: acme\n---\nBody.\nInvoice \u202etxt.exe\n"
    found = hidden_text.check(change({}, {NOTE: body.encode()}))
    assert [(p.line, p.problem) for p in found] == [
        (5, "contains an invisible character (U+202E)")]
    hidden = ["\u00ad", "\u180e", "\ufff9", "\ufffa", "\ufffb", "\u3164"]
    lines = "".join(f'{{"object": "pass{c}word"}}\n' for c in hidden)
    found = hidden_text.check(change({}, {LOG: lines.encode()}))
    assert [p.problem for p in found] == [
        f"object contains an invisible character (U+{ord(c):04X})" for c in hidden]


def test_what_was_committed_before_is_not_judged_again() -> None:
    old = {LOG: f'{{"a": "x{HIDDEN}"}}\n'.encode()}
    assert hidden_text.check(change(old, {LOG: old[LOG] + b'{"a": "fine"}\n'})) == []
    history = change({}, {NOTE: f"---\nname: acme\n---\nx{HIDDEN}\n".encode()})
    assert any(p.path == NOTE for p in run_checks(history, "all"))
    assert not any("invisible" in p.problem for p in run_checks(history, "all", history=True))


def test_an_index_is_left_to_its_notes() -> None:
    index = "memory/entities/INDEX.md"
    old = {index: b"# Entities\n"}
    assert hidden_text.check(change(old, {index: f"# Entities\n- x{HIDDEN}\n".encode()})) == []
