from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from memrepo.cache.terms import row_tokens


@given(st.lists(st.text(), max_size=4))
def test_row_tokens_are_the_runs_of_lowercase_letters_and_digits(texts: list[str]) -> None:
    assert row_tokens(texts) == set(re.findall(r"[a-z0-9]+", " ".join(texts)))


@given(st.lists(st.text(alphabet=st.characters(max_codepoint=127)), max_size=4))
def test_ascii_rows_split_as_the_tokenizer_splits_folded_text(texts: list[str]) -> None:
    assert row_tokens(texts) == set(re.findall(r"[a-z0-9]+", " ".join(texts)))


def test_columns_are_split_apart_and_punctuation_and_capitals_separate() -> None:
    assert row_tokens(["kowalski's vat-draft", "2026 q1", "Ab_c"]) == {
        "kowalski", "s", "vat", "draft", "2026", "q1", "b", "c"}
