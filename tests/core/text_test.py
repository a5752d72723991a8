from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from memrepo.core.text import PASSAGE_SPAN, fold, fts_query, key_slug, passages, words


def test_letters_without_a_decomposition_are_folded() -> None:
    assert fold("Michał Łódź Škoda Straße Đorđe Øster") == "michal lodz skoda strasse dorde oster"


def test_nfd_and_nfc_fold_alike() -> None:
    assert fold(unicodedata.normalize("NFD", "Škoda Łódź")) == fold("Škoda Łódź")


def test_user_text_becomes_quoted_terms() -> None:
    assert fts_query('foo-bar "x" OR NEAR(') == '"foo" "bar" "x" "or" "near"'
    assert fts_query("  --- ") == ""


def test_words() -> None:
    assert words("Łódź Packaging, Sp. z o.o.") == ["lodz", "packaging", "sp", "z", "o", "o"]


@given(st.text())
def test_a_folded_query_is_always_safe_fts_syntax(text: str) -> None:
    query = fts_query(text)
    assert all(term.startswith('"') and term.endswith('"') for term in query.split())
    assert '"' not in "".join(term[1:-1] for term in query.split())


def test_a_long_body_is_cut_into_passages_of_six_non_empty_lines() -> None:
    assert passages("one\n\ntwo\n") == []
    body = "\n".join(f"line {n}" for n in range(14))
    cut = passages("\n\n" + body.replace("line 3", "line 3\n\n"))
    assert [len(p.split("\n")) for p in cut] == [6, 6, 2]
    assert cut[0].startswith("line 0") and cut[2] == "line 12\nline 13"


def test_a_note_has_at_most_passage_span_passages() -> None:
    body = "\n".join(f"line {n}" for n in range(6 * PASSAGE_SPAN + 7))
    cut = passages(body)
    assert len(cut) == PASSAGE_SPAN and cut[-1].endswith(f"line {6 * PASSAGE_SPAN + 6}")


def test_key_slug_folds_case_accents_and_separators() -> None:
    for text in ("Electricity Bill", "electricity-bill", "electricity_bill", " ELECTRICITY  bill!"):
        assert key_slug(text) == "electricity_bill"
    assert key_slug("Łódź Packaging") == "lodz_packaging"
    assert key_slug("ElectricityBill") == "electricitybill"  # another key (a near key)
