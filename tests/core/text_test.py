from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from memrepo.core.text import fold, fts_query, words


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
