"""The session journal keeps no secret and no flood (memrepo.agent.journal)."""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.agent import journal
from memrepo.agent.journal import journaled, read_journal, record_call


def test_secrets_are_redacted_and_long_values_cut() -> None:
    kept = journaled({"object": "password: Hunter2Secret", "quote": "A" * 5_000,
                      "query": "B" * 5_000_000, "n": 3, "list": ["heslo: Pes456modry"]})
    assert kept["object"] == "[redacted: looks like a password]"
    assert kept["quote"].startswith("A" * 200 + "… (5000 characters, sha256 ")
    assert kept["query"].startswith("[not kept: 5000000 characters, sha256 ")
    assert kept["n"] == 3 and kept["list"] == ["[redacted: looks like a password]"]
    assert journaled("bad \udcff byte") == "bad \\udcff byte"


def test_a_fact_under_a_credential_key_is_redacted_whatever_it_says() -> None:
    """A call's arguments and an answer's facts are read whole, as the write path reads
    them: `wifi.password = hunter` holds no digit, yet it is a password."""
    kept = journaled({"subject": "wifi", "relation": "password", "object": "hunter",
                      "quote": "my wifi password is hunter", "valid_from": None})
    assert kept == {"subject": "wifi", "relation": "password",
                    "object": "[redacted: looks like a password]",
                    "quote": "[redacted: looks like a password]", "valid_from": None}
    answer = journaled({"facts": [{"subject": "bank", "relation": "pin", "object": "4821"},
                                  {"subject": "bank", "relation": "iban", "object": "PL61"}]})
    assert [f["object"] for f in answer["facts"]] == ["[redacted: looks like a PIN]", "PL61"]
    whole = journaled({"subject": "adafruit", "relation": "key",
                       "object": "9fXk2LmQ8rT4vW7yZ1aB3cD5eF6gH0jK"})
    assert whole["object"] == "[redacted: looks like an Adafruit key]"


def test_a_full_journal_is_rotated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal, "JOURNAL_MAX_BYTES", 300)
    for number in range(5):
        record_call(tmp_path, "s", "michal", "host", "recall", {"query": f"q{number}"}, {})
    assert len(read_journal(tmp_path, "s")) < 5
    assert (tmp_path / ".memrepo" / "journal" / "s.jsonl.1").is_file()


def test_the_journal_is_never_written_through_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "bashrc"
    victim.write_text("# settings\n", encoding="utf-8")
    path = journal.journal_path(tmp_path, "mail-agent")
    path.parent.mkdir(parents=True)
    path.symlink_to(victim)
    record_call(tmp_path, "mail-agent", "michal", "untrusted", "recall",
                {"query": "$(touch pwned)"}, {})  # warns: the journal is not kept
    assert victim.read_text(encoding="utf-8") == "# settings\n"


def test_a_journal_that_cannot_be_written_or_rotated_only_warns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        ) -> None:
    """The call it records is done (a write is already committed): the journal never turns
    it into an error."""
    path = journal.journal_path(tmp_path, "s")
    path.mkdir(parents=True)  # a folder where the journal goes
    record_call(tmp_path, "s", "michal", "host", "recall", {"query": "q"}, {})
    assert "the session journal is not kept" in capsys.readouterr().err
    path.rmdir()
    monkeypatch.setattr(journal, "JOURNAL_MAX_BYTES", 10)
    path.write_text("x" * 20, encoding="utf-8")
    (path.parent / "s.jsonl.1").mkdir()  # rotation cannot replace a folder
    record_call(tmp_path, "s", "michal", "host", "recall", {"query": "q"}, {})
    warning = capsys.readouterr().err
    assert "the session journal is not kept" in warning and "Traceback" not in warning
    assert path.read_text(encoding="utf-8") == "x" * 20  # nothing half-written
