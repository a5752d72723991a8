"""remember_many and `memrepo remember --batch`: one lock, one commit, same decisions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memrepo.cli import main
from memrepo.core.problems import InputError
from memrepo.facts import writes as store
from memrepo.facts.segments import read_key, read_scope
from tests.support import commit_count, git, status

Fact = store.FactInput


def test_a_batch_is_one_commit_with_increasing_ids(memory_repo: Path) -> None:
    before = commit_count(memory_repo)
    facts = [Fact("michal", f"s{n}", "city", f"Town {n}", valid_from="2026-01-01", quote="q")
             for n in range(20)]
    results = store.remember_many(memory_repo, facts, source="chat", session="b-1")
    assert [r.status for r in results] == ["added"] * 20
    assert commit_count(memory_repo) == before + 1
    assert {r.commit for r in results} == {git(memory_repo, "rev-parse", "HEAD").stdout.strip()}
    ids = [r.id for r in results]
    assert ids == sorted(ids) and len(set(ids)) == 20
    assert [e.id for e in read_scope(memory_repo, "michal")] == ids
    assert status(memory_repo) == ""
    assert main(["--repo", str(memory_repo), "verify"]) == 0


def test_unchanged_facts_and_the_same_key_twice(memory_repo: Path) -> None:
    store.remember(memory_repo, scope="michal", subject="bill", relation="amount",
                   object="210 zł", valid_from="2026-01-10")
    facts = [Fact("michal", "bill", "amount", "210 zł", valid_from="2026-01-10"),
             Fact("michal", "bill", "amount", "280 zł", valid_from="2026-03-01"),
             Fact("michal", "bill", "amount", "280 zł", valid_from="2026-03-01"),
             Fact("michal", "bill", "amount", "250 zł", valid_from="2026-03-01")]
    results = store.remember_many(memory_repo, facts)
    assert [r.status for r in results] == ["unchanged", "added", "unchanged", "added"]
    assert results[2].id == results[1].id
    from memrepo.core.facts.bitemporal import FOREVER, fold
    holding = fold(read_key(memory_repo, "michal", "bill", "amount"), FOREVER, False)
    assert [h.object for h in holding] == ["210 zł", "250 zł"]  # the later fact wins the tie


def test_nothing_to_change_makes_no_commit(memory_repo: Path) -> None:
    fact = Fact("michal", "bill", "amount", "210 zł", valid_from="2026-01-10")
    store.remember_many(memory_repo, [fact])
    before = commit_count(memory_repo)
    assert store.remember_many(memory_repo, [fact])[0].commit is None
    assert commit_count(memory_repo) == before


@pytest.mark.parametrize("bad, message", [
    (Fact("michal", "x", "y", "z", confidence=2.0), "fact #2 of the batch: confidence"),
    (Fact("michal", "x", "y", "z", valid_from="2026-13-01"), "fact #2 of the batch"),
    (Fact("michal", "x", "y", "sk-ant-abcdefghijklmnopqrstuvwxyz0123"), "API key"),
    (Fact("michal", "", "y", "z"), "subject"),
])
def test_one_bad_fact_refuses_the_whole_batch(memory_repo: Path, bad: store.FactInput,
                                             message: str) -> None:
    before = commit_count(memory_repo)
    with pytest.raises(InputError, match=message):
        store.remember_many(memory_repo, [Fact("michal", "a", "b", "c"), bad])
    assert commit_count(memory_repo) == before
    assert read_scope(memory_repo, "michal") == [] and status(memory_repo) == ""


def test_untrusted_batches_go_to_quarantine(memory_repo: Path) -> None:
    [result] = store.remember_many(memory_repo, [Fact("michal", "a", "b", "c", quote="c",
                                                      confidence=0.9)],
                                   trust="untrusted", source="chat")
    [event] = read_scope(memory_repo, "quarantine-michal")
    assert event.id == result.id and event.confidence == 0.3


def test_the_cli_batch_file(memory_repo: Path, tmp_path: Path,
                            capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "facts.jsonl"
    batch.write_text("\n".join(json.dumps(line, ensure_ascii=False) for line in [
        {"subject": "bill", "relation": "amount", "object": "210 zł", "valid_from": "2026-01-10"},
        {"subject": "car", "relation": "brand", "object": "Škoda", "scope": "jan"},
    ]) + "\n\n", encoding="utf-8")
    args = ["--repo", str(memory_repo), "remember", "--scope", "michal", "--batch", str(batch),
            "--json"]
    assert main(args) == 0
    results = json.loads(capsys.readouterr().out)["results"]
    assert [r["status"] for r in results] == ["added", "added"]
    assert read_key(memory_repo, "jan", "car", "brand")[0].object == "Škoda"
    assert main(args[:-1]) == 0
    assert "added 0, unchanged 2; nothing written" in capsys.readouterr().out


@pytest.mark.parametrize("line, message", [
    ("not json", "not JSON"),
    ('{"subject": "a", "relation": "b"}', "must be strings"),
    ('{"subject": "a", "relation": "b", "object": "c", "extra": 1}', "keys"),
    ('{"subject": "a", "relation": "b", "object": "c", "confidence": "high"}', "number"),
])
def test_a_bad_batch_line_is_refused_with_its_line_number(
        memory_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        line: str, message: str) -> None:
    batch = tmp_path / "facts.jsonl"
    batch.write_text('{"subject": "a", "relation": "b", "object": "c"}\n' + line + "\n")
    assert main(["--repo", str(memory_repo), "remember", "--scope", "michal", "--batch",
                 str(batch)]) == 1
    err = capsys.readouterr().err
    assert f"{batch}:2: " in err and message in err
    assert read_scope(memory_repo, "michal") == []


def test_a_refused_second_segment_leaves_the_first_untouched(memory_repo: Path) -> None:
    store.remember(memory_repo, scope="bbb", subject="x", relation="y", object="z")
    segment = next((memory_repo / "memory" / "facts" / "bbb").glob("*.jsonl"))
    with segment.open("ab") as handle:
        handle.write(b'{"partial')  # a crash mid-append
    before = {p: p.read_bytes() for p in (memory_repo / "memory" / "facts").rglob("*.jsonl")}
    with pytest.raises(InputError):
        store.remember_many(memory_repo, [Fact("aaa", "s", "r", "v"), Fact("bbb", "s", "r", "v")])
    after = {p: p.read_bytes() for p in (memory_repo / "memory" / "facts").rglob("*.jsonl")}
    assert after == before


def test_a_secret_in_a_line_left_uncommitted_refuses_the_batch(memory_repo: Path) -> None:
    """The writer judged its own lines; the commit checks still judge every appended byte,
    a line appended by hand among them."""
    from memrepo.core.facts.times import parse_instant
    from memrepo.facts.ids import new_id

    store.remember(memory_repo, scope="michal", subject="bill", relation="amount",
                   object="210 zł")
    segment = next((memory_repo / "memory" / "facts" / "michal").glob("*.jsonl"))
    event = json.loads(segment.read_bytes().splitlines()[-1])
    event.update(id=new_id(parse_instant(event["recorded_at"]), event["id"]),
                 subject="bank", quote="hasło do banku: Kot123zielony")
    with segment.open("ab") as handle:
        handle.write(json.dumps(event, ensure_ascii=False).encode() + b"\n")
    before, commits = segment.read_bytes(), commit_count(memory_repo)
    facts = [Fact("michal", f"s{n}", "city", "Town", quote="The city is Town.")
             for n in range(3)]
    with pytest.raises(InputError, match=r"credential \(a password\).*left uncommitted"):
        store.remember_many(memory_repo, facts, source="chat")
    assert segment.read_bytes() == before and commit_count(memory_repo) == commits
