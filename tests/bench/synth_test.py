"""The synthetic memory generator: a valid repository (the checks and `memrepo verify`
accept it), one commit with the import trailers, deterministic for a seed."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from memrepo.bench.synth import APPROVER, SynthInfo, generate
from memrepo.bench.synth_content import MANY_VALUED
from memrepo.core.config import CATEGORIES
from memrepo.core.notes.index_file import parse_index
from memrepo.core.trailers import trailer_values
from tests.support import git, isolated_env

NOTES, EVENTS = 160, 12_000


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory, git_home: Path) -> Iterator[SynthInfo]:
    with pytest.MonkeyPatch.context() as patch:
        for key, value in isolated_env(git_home).items():
            patch.setenv(key, value)
        yield generate(tmp_path_factory.mktemp("synth") / "repo", NOTES, EVENTS, seed=7)


def events_of(root: Path) -> list[dict[str, object]]:
    return [orjson.loads(line) for path in sorted((root / "memory" / "facts").rglob("*.jsonl"))
            for line in path.read_bytes().splitlines()]


def test_counts_and_layout(synth: SynthInfo) -> None:
    root = synth.root
    assert sum(len(names) for names in synth.notes.values()) == NOTES
    assert len(synth.notes["entities"]) > NOTES // 2
    assert all(synth.notes[category] for category in CATEGORIES)
    assert synth.events == len(events_of(root)) == EVENTS
    assert len(synth.scopes) == 3  # 5,000 events per scope
    months = {p.stem for p in (root / "memory" / "facts").rglob("*.jsonl")}
    assert len(months) > 12


def test_indexes_are_the_rendered_ones(synth: SynthInfo) -> None:
    for category in CATEGORIES:
        text = (synth.root / "memory" / category / "INDEX.md").read_text(encoding="utf-8")
        assert f"entries: {len(synth.notes[category])}\n" in text
        names = [line.split("](")[0][3:] for line in text.splitlines() if line.startswith("- [")]
        assert names == synth.notes[category]
        assert not isinstance(parse_index(category, text.encode()), list)


def test_notes_are_realistic(synth: SynthInfo) -> None:
    entities = synth.root / "memory" / "entities"
    texts = [p.read_text(encoding="utf-8") for p in entities.glob("*.md") if p.stem != "INDEX"]
    sizes = [len(text.encode()) for text in texts]
    assert min(sizes) > 150 and max(sizes) < 8_000
    assert any("aliases:" in t and any(c in t for c in "łśźžčřø") for t in texts)
    assert sum("[[" in text for text in texts) > len(texts) // 5


def test_events_mix_ops_relations_and_quotes(synth: SynthInfo) -> None:
    events = events_of(synth.root)
    ops = {str(e["op"]) for e in events}
    assert ops == {"assert", "end", "retract"}
    assert any(e.get("relation") in MANY_VALUED and e["op"] == "end" and "object" in e
               for e in events)
    assert all(e.get("quote") for e in events if e["op"] == "assert")
    ids = {e["id"] for e in events}
    assert len(ids) == len(events)
    assert all(e["target"] in ids for e in events if e["op"] == "retract")
    assert 'many_valued_relations: ["speaks"' in (
        synth.root / "memory" / "config.yaml").read_text()


def test_one_commit_with_trailers_and_a_clean_tree(synth: SynthInfo) -> None:
    root = synth.root
    assert git(root, "rev-list", "--count", "HEAD").stdout.strip() == "2"  # init + synth
    message = git(root, "log", "-1", "--format=%B").stdout
    assert trailer_values(message, "Imported-from") == ["synth"]
    assert trailer_values(message, "Approved-by") == [APPROVER]
    assert git(root, "status", "--porcelain").stdout == ""


def test_memrepo_verify_accepts_the_history(synth: SynthInfo) -> None:
    done = subprocess.run([sys.executable, "-m", "memrepo", "verify"], cwd=synth.root,
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_same_seed_same_files_either_method(synth: SynthInfo, tmp_path: Path,
                                            git_env: dict[str, str]) -> None:
    again = generate(tmp_path / "again", NOTES, EVENTS, seed=7, method="add")
    other = generate(tmp_path / "other", NOTES, 100, seed=8)
    tree = git(synth.root, "rev-parse", "HEAD:memory").stdout
    assert git(again.root, "rev-parse", "HEAD:memory").stdout == tree
    assert git(again.root, "status", "--porcelain").stdout == ""
    assert git(other.root, "rev-parse", "HEAD:memory").stdout != tree
