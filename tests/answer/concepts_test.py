"""The concept table (memrepo.answer.concepts): its file, its index, and how words of a
question and of a key find their concepts."""

from __future__ import annotations

from pathlib import Path

import yaml

from memrepo.answer import concepts
from memrepo.answer.concepts import INDEX_FILE, index_json, read_table, shipped, table_for

HERE = Path(concepts.__file__).resolve().parent
TABLE = (HERE / "concepts.yaml").read_text(encoding="utf-8")


def test_the_line_reader_reads_what_yaml_reads() -> None:
    entries, roles = read_table(TABLE)
    loaded = yaml.safe_load(TABLE)["concepts"]
    assert entries == {name: entry["words"] for name, entry in loaded.items()}
    assert sorted(roles) == sorted(name for name, entry in loaded.items() if entry.get("role"))


def test_the_shipped_index_is_built_from_the_table() -> None:
    """After editing concepts.yaml: `python -m memrepo.answer.concepts` rewrites it."""
    assert (HERE / INDEX_FILE).read_bytes() == index_json(TABLE)


def test_a_phrase_is_one_concept_and_its_words_mean_the_phrase() -> None:
    table = shipped()
    [span] = table.spans(["mother", "in", "law"])
    assert "mother_in_law" in span.concepts and "mother" not in span.concepts
    assert any("occupation" in s.concepts for s in table.spans(["do", "for", "a", "living"]))
    assert table.spans(["family", "doctors"])[0].concepts >= {"doctor"}  # a base form


def test_words_find_their_concepts_across_languages_and_inflections() -> None:
    table = shipped()
    for word, concept in (("mieszka", "residence"), ("byvam", "residence"),
                          ("weterynarzem", "vet"), ("telefon", "phone"), ("salary", "salary"),
                          ("placimy", "price")):
        assert concept in table.word_concepts(word), word
    assert "mother" not in table.word_concepts("mamy")  # Polish "we have": too short
    assert "dog" not in table.word_concepts("pesel")  # a short base form is no match


def test_a_memory_adds_its_own_words() -> None:
    table = table_for({"residence": ["chalupa"], "boat": ["boat", "jacht"]})
    assert "residence" in table.word_concepts("chalupa")
    assert "boat" in table.word_concepts("jacht")
    assert "boat" not in shipped().word_concepts("jacht")
