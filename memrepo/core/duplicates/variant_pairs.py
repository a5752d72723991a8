"""Near-duplicates across a whole memory (`memrepo triage`, SPEC §9): every pair of labels
that `near_duplicates` calls variants, found without comparing all pairs.

Labels (note names, titles and aliases; fact keys) are folded into words. Labels with the
same letters after folding are grouped; one label of each group is then paired only with
labels that could be a variant of it: one deletion apart in their joined letters (a typo,
a plural "-s", a doubled letter) or with the same signature (the same words in another
order, "-es"/"-ies" plurals). The judge is `near_duplicates`' one rule; two differing
words that labels of other owners use too are words of the memory, not a typo.
Memory follows the largest class of labels of one length, never the number of pairs.

Pure: labels in, pairs out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from memrepo.core.duplicates.near_duplicates import (
    KEY_MIN_TYPO_WORD,
    Variant,
    is_plural_pair,
    label_variant,
    label_words,
    signature,
)

MIN_SCREENED = 3
"""Joined labels shorter than this are only grouped (same letters), never screened."""

Judge = Callable[[str, str], Variant | None]


@dataclass(frozen=True, slots=True)
class Label:
    owner: int  # whose label: a note's or a key's number
    text: str  # as written


@dataclass(frozen=True, slots=True)
class Pair:
    """Two owners whose labels look like one; `how` says why, for a person."""

    first: int
    second: int
    how: str


def variant_pairs(labels: Sequence[Label], judge: Judge) -> list[Pair]:
    """Every pair of different owners with labels equal after folding (a star per group of
    k labels: k-1 pairs) or variants by `judge`; each pair once, by owners."""
    held: dict[str, str] = {}  # each word once: labels repeat their words by the thousand
    once = held.setdefault
    folded = [(label, [once(word, word) for word in label_words(label.text)])
              for label in labels]
    groups: dict[str, list[Label]] = {}
    for label, words in folded:
        if words:
            groups.setdefault("".join(words), []).append(label)
    found: dict[tuple[int, int], str] = {}
    for group in groups.values():
        for a, b in _star(group):
            found.setdefault(_ordered(a.owner, b.owner), f"{a.text!r} and {b.text!r} are the "
                             "same after folding case, accents and separators")
    users = _word_users(folded)
    words_of = {id(label): words for label, words in folded}
    firsts = [(group[0], words_of[id(group[0])]) for group in groups.values()]
    for a, b in _candidates(firsts):
        pair = _ordered(a.owner, b.owner)
        if a.owner == b.owner or pair in found:
            continue
        variant = judge(a.text, b.text)
        if variant is not None and not _known_elsewhere(variant, users, pair):
            found[pair] = f"{a.text!r} and {b.text!r}: {variant.how}"
    return [Pair(i, j, how) for (i, j), how in sorted(found.items())]


def note_judge(a: str, b: str) -> Variant | None:
    return label_variant(a, b)


def key_judge(a: str, b: str) -> Variant | None:
    """Fact keys "subject.relation": a typo counts in shorter words than in note names."""
    return label_variant(a, b, KEY_MIN_TYPO_WORD)


def _ordered(i: int, j: int) -> tuple[int, int]:
    return (i, j) if i <= j else (j, i)


def _star(group: Sequence[Label]) -> Iterator[tuple[Label, Label]]:
    for label in group[1:]:
        if label.owner != group[0].owner:
            yield group[0], label


def _word_users(folded: Sequence[tuple[Label, list[str]]]) -> dict[str, set[int]]:
    users: dict[str, set[int]] = {}
    for label, words in folded:
        for word in words:
            users.setdefault(word, set()).add(label.owner)
    return users


def _known_elsewhere(variant: Variant, users: dict[str, set[int]],
                     pair: tuple[int, int]) -> bool:
    """Both differing words are used by labels of other owners too: both are words of the
    memory, not a typo ("konrad-borowski" beside "konrad-borkowski" when there are a
    "piotr-borowski" and a "piotr-borkowski"). At commit time the new word alone decides;
    here neither label is the new one, so one word found nowhere else is a typo."""
    if variant.words is None or is_plural_pair(*variant.words):
        return False
    return all(users.get(word, set()) - set(pair) for word in variant.words)


def _candidates(labels: Sequence[tuple[Label, list[str]]]) -> Iterator[tuple[Label, Label]]:
    """Pairs that may be variants (labels with their folded words): one deletion apart in
    their joined letters (labels of one length sharing a deletion, or one label a deletion
    of a label one longer), or the same signature. One length class at a time."""
    by_signature: dict[tuple[str, ...], list[Label]] = {}
    by_length: dict[int, list[tuple[str, Label]]] = {}
    for label, words in labels:
        by_signature.setdefault(signature(words), []).append(label)
        joined = "".join(words)
        if len(joined) >= MIN_SCREENED:
            by_length.setdefault(len(joined), []).append((joined, label))
    for bucket in by_signature.values():
        if len(bucket) > 1:
            yield from _bucket_pairs(bucket)
    for length, longer in sorted(by_length.items()):
        yield from _one_deletion_apart(by_length.get(length - 1, []), longer)


def _one_deletion_apart(shorter: Sequence[tuple[str, Label]],
                        longer: Sequence[tuple[str, Label]]) -> Iterator[tuple[Label, Label]]:
    """Pairs of `longer` labels sharing a deletion, or a `shorter` label (one letter less)
    and a deletion of a `longer` one; buckets in order of their first label. A bucket gets
    a list only when a second label comes: most hold one (a million at 20k notes)."""
    first: dict[str, Label] = {}
    shared: dict[str, list[Label]] = {}
    for joined, label in shorter:
        _bucket(first, shared, joined, label)
    put = first.setdefault  # the loop below runs for every letter of every label: inlined
    for joined, label in longer:
        for deleted in _deletions(joined):
            found = put(deleted, label)
            if found is not label:
                shared.setdefault(deleted, [found]).append(label)
    for key in first:
        bucket = shared.get(key)
        if bucket is not None:
            yield from _bucket_pairs(bucket)


def _bucket(first: dict[str, Label], shared: dict[str, list[Label]], key: str,
            label: Label) -> None:
    found = first.setdefault(key, label)
    if found is not label:
        shared.setdefault(key, [found]).append(label)


def _deletions(joined: str) -> set[str]:
    """`joined` without one of its letters. Never without a digit: labels whose letters
    differ by a digit hold other numbers, which the rule never calls variants (labels with
    the same letters or the same words are paired by their group and signature)."""
    if joined.isalpha():  # most labels: no digit to keep
        return {joined[:i] + joined[i + 1:] for i in range(len(joined))}
    return {joined[:i] + joined[i + 1:] for i in range(len(joined))
            if not joined[i].isdecimal()}


def _bucket_pairs(bucket: Sequence[Label]) -> Iterator[tuple[Label, Label]]:
    for x, a in enumerate(bucket):
        yield from ((a, b) for b in bucket[x + 1:] if a.owner != b.owner)
