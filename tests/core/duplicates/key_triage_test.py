"""Near-duplicate fact keys over a whole memory (memrepo.core.duplicates.key_triage, variant_pairs):
which keys are found, which one is kept, what is left alone."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.core.config import Config
from memrepo.core.duplicates.key_triage import distinct_label, key_merges
from memrepo.core.duplicates.near_duplicates import label_words, singular_form
from memrepo.core.duplicates.variant_pairs import (
    Label,
    _known_elsewhere,
    _word_users,
    key_judge,
    note_judge,
    variant_pairs,
)
from memrepo.core.facts.events import Event
from memrepo.core.facts.times import parse_instant


def ev(id_: str, subject: str, relation: str = "amount", obj: str = "1",
       valid_from: str = "2026-01-01", recorded: str = "2026-01-02", scope: str = "michal",
       **extra: Any) -> Event:
    return Event(id=id_, op="assert", recorded_at=parse_instant(recorded), scope=scope,
                 subject=subject, relation=relation, object=obj,
                 valid_from=parse_instant(valid_from), source="chat", quote="q", **extra)


def facts(*events: Event) -> dict[tuple[str, str, str], list[Event]]:
    grouped: dict[tuple[str, str, str], list[Event]] = {}
    for event in events:
        grouped.setdefault(event.folded_key, []).append(event)
    return grouped


def test_the_key_with_more_live_asserts_is_kept() -> None:
    [merge] = key_merges(facts(
        ev("a1", "electricty_bill", valid_from="2026-01-01", recorded="2026-01-01"),
        ev("b1", "electricity_bill", valid_from="2026-02-01", obj="2"),
        ev("b2", "electricity_bill", valid_from="2026-03-01", obj="3")), Config())
    assert merge.kept[1:] == ("electricity_bill", "amount")
    assert merge.duplicate[1:] == ("electricty_bill", "amount")
    assert "one typo apart" in merge.how


def test_a_tie_keeps_the_key_first_recorded_and_shows_keys_as_first_written() -> None:
    [merge] = key_merges(facts(
        ev("a1", "Water Bill", recorded="2026-01-01"),
        ev("b1", "water_bil", recorded="2026-01-05", valid_from="2026-02-01")), Config())
    assert merge.shown == (("michal", "Water Bill", "amount"), ("michal", "water_bil",
                                                                "amount"))


def test_neighbours_quarantine_and_what_someone_said_are_left_alone() -> None:
    neighbours = facts(ev("a", "car", "model"), ev("b", "car", "make"),
                       ev("c", "vat", "q2_2026"), ev("d", "vat", "q3_2026"),
                       ev("e", "jan_kowalski", "email"), ev("f", "anna_kowalska", "email"),
                       ev("g", "x", "colour", scope="quarantine-michal"),
                       ev("h", "x", "color", scope="quarantine-michal"))
    assert key_merges(neighbours, Config()) == []
    pair = facts(ev("a", "car", "colour"), ev("b", "car", "color"))
    assert len(key_merges(pair, Config())) == 1
    said = frozenset({frozenset({distinct_label(("michal", "car", "colour")),
                                 distinct_label(("michal", "Car", "color"))})})
    assert key_merges(pair, Config(), said) == []


def test_a_merged_duplicate_is_not_found_again() -> None:
    duplicate = ev("a1", "electricty_bill")
    ended = Event(id="a2", op="end", recorded_at=parse_instant("2026-02-01"), scope="michal",
                  subject="electricty_bill", relation="amount",
                  valid_to=parse_instant("2026-01-01"), source="triage", reason="merged")
    assert key_merges(facts(duplicate, ended, ev("b1", "electricity_bill")), Config()) == []


def test_variant_pairs_group_same_letters_and_skip_one_owner() -> None:
    labels = [Label(0, "Site Roadmap"), Label(1, "site-roadmap"), Label(2, "siteroadmap"),
              Label(3, "site-roadmp"), Label(3, "roadmap-site")]
    pairs = {(p.first, p.second) for p in variant_pairs(labels, note_judge)}
    assert pairs == {(0, 1), (0, 2), (0, 3)}


WORDS = st.lists(st.text(alphabet="abeks12", min_size=1, max_size=8), min_size=1, max_size=3)


@st.composite
def edited_labels(draw: st.DrawFn) -> list[str]:
    """Labels one edit (a letter or digit deleted, added, replaced, two swapped) from a
    few base labels, and some of those edited again: the near misses the screen must see."""
    labels = ["-".join(draw(WORDS)) for _ in range(draw(st.integers(1, 3)))]
    for _ in range(draw(st.integers(1, 6))):
        text = draw(st.sampled_from(labels))
        at = draw(st.integers(0, len(text)))
        letter = draw(st.sampled_from("abeks12"))
        text = draw(st.sampled_from([text[:at] + text[at + 1:], text[:at] + letter + text[at:],
                                     text[:at] + letter + text[at + 1:],
                                     text[:at] + text[at + 1:at + 2] + text[at:at + 1]
                                     + text[at + 2:]]))
        labels.append(text)
    unique = {"".join(label_words(text)): text for text in labels if label_words(text)}
    return sorted(unique.values())


@settings(max_examples=300, deadline=None)
@given(edited_labels(), st.sampled_from([note_judge, key_judge]))
def test_variant_pairs_finds_every_pair_the_rule_accepts(texts: list[str], judge: Any) -> None:
    """The screen (one deletion apart, never deleting a digit; the same signature) misses
    no pair of labels that the rule, asked about every pair, calls variants."""
    labels = [Label(n, text) for n, text in enumerate(texts)]
    users = _word_users([(label, label_words(label.text)) for label in labels])
    expected = set()
    for a, b in combinations(labels, 2):
        variant = judge(a.text, b.text)
        if variant is not None and not _known_elsewhere(variant, users, (a.owner, b.owner)):
            expected.add((a.owner, b.owner))
    assert {(p.first, p.second) for p in variant_pairs(labels, judge)} == expected


def test_keys_of_a_scope_are_found_when_an_earlier_scope_has_one_of_their_spellings() -> None:
    """The same folded letters in two scopes are two keys: a scope's pair is found even
    when the first label with those letters is another scope's."""
    [merge] = key_merges(facts(ev("a1", "electricity_bill", scope="anna"),
                               ev("m1", "Electricity Bill", recorded="2026-01-01"),
                               ev("m2", "electricty_bill", valid_from="2026-02-01")),
                         Config())
    assert merge.kept == ("michal", "electricity_bill", "amount")
    assert merge.duplicate == ("michal", "electricty_bill", "amount")


def test_variant_pairs_compare_labels_of_one_space_only() -> None:
    labels = [Label(0, "site-roadmap", "a"), Label(1, "site-roadmap", "b"),
              Label(2, "site-roadmp", "b"), Label(3, "roadmap-site", "a")]
    pairs = {(p.first, p.second) for p in variant_pairs(labels, note_judge)}
    assert pairs == {(0, 3), (1, 2)}


def _deletions(text: str) -> set[str]:
    return {text[:i] + text[i + 1:] for i in range(len(text)) if not text[i].isdecimal()}


def _searched_as_before(texts: list[str], judge: Any, users: dict[str, set[int]] | None = None,
                        offset: int = 0) -> dict[tuple[int, int], str]:
    """The pairs (and why) of labels of one owner each, as the search before the
    vocabulary index gave them, asked about every pair: labels with the same signature
    are judged in the order given; labels one deletion apart in their joined letters
    (both at least 3 long, never deleting a digit), the shorter first. `users`: of the
    words of the whole memory, where these labels are owners `offset` on."""
    words = [label_words(text) for text in texts]
    if users is None:
        users = _word_users([(Label(n, text), w)
                             for n, (text, w) in enumerate(zip(texts, words, strict=True))])
    found: dict[tuple[int, int], str] = {}
    for i, j in combinations(range(len(texts)), 2):
        a, b = "".join(words[i]), "".join(words[j])
        if _screened(words[i]) != _screened(words[j]):
            if min(len(a), len(b)) < 3 or not (
                    _deletions(a) & _deletions(b) if len(a) == len(b)
                    else (a if len(a) < len(b) else b) in _deletions(max(a, b, key=len))):
                continue
            if len(b) < len(a):
                i, j = j, i
        variant = judge(texts[i], texts[j])
        pair = (min(i, j) + offset, max(i, j) + offset)
        if variant is not None and not _known_elsewhere(variant, users, pair):
            found[pair] = f"{texts[i]!r} and {texts[j]!r}: {variant.how}"
    return found


def _screened(words: list[str]) -> tuple[str, ...]:
    """The screen's signature: the singular of the singular ("buses" and "bus" meet)."""
    return tuple(sorted(singular_form(singular_form(word)) for word in words))


@settings(max_examples=300, deadline=None)
@given(edited_labels(), st.sampled_from([note_judge, key_judge]))
def test_variant_pairs_name_each_pair_as_the_search_by_deletions_did(texts: list[str],
                                                                     judge: Any) -> None:
    """Found through the vocabulary, each pair is still judged (and so named) as the search
    over every label's deletions judged it: byte-for-byte the same report."""
    labels = [Label(n, text) for n, text in enumerate(texts)]
    found = {(p.first, p.second): p.how for p in variant_pairs(labels, judge)}
    assert found == _searched_as_before(texts, judge)


def test_a_plural_in_es_of_a_word_in_s_is_screened() -> None:
    """"bus" and "buses" are singular and plural, two letters apart: the screen's signature
    (the singular of the singular) still pairs them (found by the property above:
    '1-111s' and '1-111ses')."""
    labels = [Label(0, "city-bus"), Label(1, "city-buses"), Label(2, "1-111s"),
              Label(3, "1-111ses")]
    assert {(p.first, p.second) for p in variant_pairs(labels, note_judge)} == {(0, 1), (2, 3)}


@settings(max_examples=200, deadline=None)
@given(edited_labels(), edited_labels(), st.sampled_from([note_judge, key_judge]))
def test_variant_pairs_of_each_space_are_named_as_that_space_alone_gives_them(
        first: list[str], second: list[str], judge: Any) -> None:
    """Two spaces searched at once give each space's pairs, named as that space searched
    alone names them (a typo's words judged against the whole memory's): no label of the
    other space is a bucket (where a pair of labels of one length is first met) or a
    neighbour."""
    labels = [*(Label(n, text, "a") for n, text in enumerate(first)),
              *(Label(len(first) + n, text, "b") for n, text in enumerate(second))]
    users = _word_users([(label, label_words(label.text)) for label in labels])
    found = {(p.first, p.second): p.how for p in variant_pairs(labels, judge)}
    assert found == {**_searched_as_before(first, judge, users),
                     **_searched_as_before(second, judge, users, len(first))}
