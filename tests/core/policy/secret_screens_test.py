"""The screens that spare a cache build most of the detector's work (issue 21's rebuild
cost) say exactly what judging every text would: a fact's finding equals the first kind
found by judging each of its texts and the fact as one line in full, whatever the texts
hold (names ending in "-ski" hold a format's keyword, credential words, long tokens, Greek
final sigma, invisible characters); the invisible-character check of all fields at once
equals the check of each."""

from __future__ import annotations

import re
import sys
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.bench.secret_samples import format_sample
from memrepo.core.display import invisible_character
from memrepo.core.facts.line_rules import hidden_field
from memrepo.core.policy import secrets
from memrepo.core.policy.secrets import Finding, fact_finding, secret_kind
from memrepo.core.policy.token_formats import FORMATS, format_set

PIECES = ["marta-grabowski", "Gdańsk", "karpaty", "SK" + "0123456789abcdef" * 2, "sk-",
          "password: Zaq12wsx!", "PIN 4821", "my pin is 4821", "api token ",
          "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
          "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx", "hasło do banku: Kot123zielony", "ΑΣ",
          "Σ", "ſecret", "\u212aey", "key-", "redis://:pass@host:6379/0", "discord",
          "xoxb-", "\u200b", "\u3000", "\n", " ", "status", "active", "AKIA", "ghp_",
          "Basic dXNlcjpwYXNz", "seed", "apple " * 12]
texts = st.lists(st.sampled_from(PIECES), max_size=5).map("".join)
FIELDS = ["subject", "relation", "object", "quote", "source", "session", "reason", "id"]


def reference(fields: dict[str, Any]) -> Finding | None:
    """SPEC §6.6 read literally: the key, then every text in full, then the whole."""
    kind = secrets.key_credential(fields)
    if kind is not None:
        return Finding(kind, by_key=True)
    for text in secrets._strings(fields):
        if found := secret_kind(text):
            return Finding(found)
    whole = secrets._whole_fact_line(fields)
    found = None if whole is None else secret_kind(whole)
    return None if found is None else Finding(found)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), texts | st.lists(texts, max_size=2),
                       max_size=6))
def test_a_fact_is_found_as_if_every_text_were_judged_in_full(fields: dict[str, Any]) -> None:
    assert outcome(fact_finding, fields) == outcome(reference, fields)


def outcome(judge: Any, fields: dict[str, Any]) -> object:
    """The finding, or the error raised (a Basic header with a non-ASCII token raises
    ValueError in the detector itself: known, reported, the same either way)."""
    try:
        return judge(fields)
    except ValueError as err:
        return type(err)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS),
                       st.text(alphabet=st.sampled_from("ab \u200b\u202e\u00ad\ufe0f\u3164🏴"
                                                        "\U000e0067\U000e007f\n"), max_size=8)
                       | st.integers(), max_size=5))
def test_hidden_fields_are_found_as_if_each_were_checked(fields: dict[str, Any]) -> None:
    expected = next(((name, char) for name, value in fields.items()
                     if isinstance(value, str) and (char := invisible_character(value))),
                    None)
    assert hidden_field(fields) == expected


def test_no_whitespace_character_is_part_of_a_long_token() -> None:
    """The long-token rule's value is 32+ characters of a class without whitespace (under
    `re.I`, in every code point), so a text without a 32-character run between
    whitespace cannot match it (`_has_long_word`)."""
    value = re.compile(r"(?i)[A-Za-z0-9_+/=-]")
    assert "[A-Za-z0-9_+/=-]{32,}" in secrets.NEAR_KEY_WORD
    assert not [hex(code) for code in range(sys.maxunicode + 1)
                if chr(code).isspace() and value.match(chr(code))]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from(FIELDS), texts, max_size=5), max_size=8))
def test_a_fact_a_batch_screen_passes_is_found_as_its_own_screen_finds_it(
        facts: list[dict[str, Any]]) -> None:
    """`screens_passing`: one screen of many facts' texts, each fact then held against
    what it found — a fact it passes has nothing but its key to judge."""
    passing = secrets.screens_passing([secrets.screen_text(fields) for fields in facts])
    for fields, passed in zip(facts, passing, strict=True):
        if passed:
            assert outcome(fact_finding, fields) == outcome(
                lambda one: fact_finding(one, screened=True), fields)


def every_line_judged(text: str) -> list[tuple[int, str]]:
    """What `find_secrets` must say: each line of `text` judged alone."""
    return [(number, kind) for number, line in enumerate(text.split("\n"), start=1)
            if (kind := secrets.line_secret(line))]


SAMPLES = [format_sample(f, format_set()) for f in FORMATS]
"""A token of every format: lines that hold them, beside lines that hold only a keyword."""


@settings(max_examples=300, deadline=None)
@given(st.lists(texts | st.sampled_from(SAMPLES), min_size=1, max_size=12),
       st.sampled_from(["\n", " ", "", "\n\n", "-", "x"]))
def test_a_note_is_found_as_if_every_line_were_judged(pieces: list[str], glue: str,
                                                      ) -> None:
    """`find_secrets` runs each format whose keyword the note holds once over the whole
    note (`FormatSet.lines_reached`) and judges only the lines a match reaches or that
    hold a credential word: the same hits as judging every line, whatever sits on the
    lines before and after a token (a match that runs on past a line's end, a keyword on
    one line and a token on the next)."""
    text = glue.join(pieces)
    assert [(hit.line, hit.kind) for hit in secrets.find_secrets(text)] == \
        every_line_judged(text)


def test_every_format_is_found_on_any_line_of_a_note() -> None:
    for sample in SAMPLES:
        alone = secrets.line_secret(sample)
        if alone is None:
            continue  # a sample its own format's entropy or test refuses
        text = f"sk: the first line, Gdańsk\n{sample}\nmarta-grabowski, the last line"
        assert [(hit.line, hit.kind) for hit in secrets.find_secrets(text)] == \
            [(2, alone)], sample
