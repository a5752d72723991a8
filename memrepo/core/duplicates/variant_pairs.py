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

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from memrepo.core.duplicates.near_duplicates import (
    KEY_MIN_TYPO_WORD,
    Variant,
    is_plural_pair,
    label_variant,
    label_words,
    singular_form,
)

MIN_SCREENED = 3
"""Joined labels shorter than this are only grouped (same letters), never screened."""

Judge = Callable[[str, str], Variant | None]


class Label(NamedTuple):
    """(A tuple: tens of thousands are made per triage, a frozen dataclass costs thrice.)"""

    owner: int  # whose label: a note's or a key's number
    text: str  # as written
    space: str = ""  # labels are compared only with labels of their space (a key's scope)
    words: tuple[str, ...] | None = None  # `label_words(text)`, when the caller has them
    # (each word one object for all labels, as variant_pairs would hold them)


@dataclass(frozen=True, slots=True)
class Pair:
    """Two owners whose labels look like one; `how` says why, for a person."""

    first: int
    second: int
    how: str


def variant_pairs(labels: Sequence[Label], judge: Judge) -> list[Pair]:
    """Every pair of different owners with labels of one space equal after folding (a star
    per group of k labels: k-1 pairs) or variants by `judge`; each pair once, by owners."""
    held: dict[str, str] = {}  # each word once: labels repeat their words by the thousand
    once = held.setdefault
    groups: dict[tuple[str, str], list[tuple[Label, tuple[str, ...]]]] = {}
    for label in labels:
        words = label.words if label.words is not None else tuple(
            once(word, word) for word in label_words(label.text))
        if words:
            groups.setdefault((label.space, "".join(words)), []).append((label, words))
    found: dict[tuple[int, int], str] = {}
    for group in groups.values():
        if len(group) > 1:
            for a, b in _star([label for label, _ in group]):
                found.setdefault(_ordered(a.owner, b.owner), f"{a.text!r} and {b.text!r} "
                                 "are the same after folding case, accents and separators")
    firsts = [group[0] for group in groups.values()]
    judged: list[tuple[tuple[int, int], str, Variant]] = []
    for a, b in _candidates(firsts):
        pair = _ordered(a.owner, b.owner)
        if a.owner == b.owner or pair in found:
            continue
        variant = judge(a.text, b.text)
        if variant is not None:
            judged.append((pair, f"{a.text!r} and {b.text!r}: {variant.how}", variant))
    asked = {w for _, _, v in judged if v.words for w in v.words}
    users = _word_users([first for group in groups.values() for first in group], asked)
    for pair, how, variant in judged:
        if pair not in found and not _known_elsewhere(variant, users, pair):
            found[pair] = how
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


def _word_users(folded: Sequence[tuple[Label, Sequence[str]]],
                asked: Collection[str] | None = None) -> dict[str, set[int]]:
    """Word → the owners of labels using it (only the `asked` words, when given)."""
    users: dict[str, set[int]] = {}
    for label, words in folded:
        for word in words:
            if asked is None or word in asked:
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


_Candidate = tuple[tuple[object, ...], int, int]
"""(where the pair comes in the order judged, first label, second label): label numbers in
`firsts`."""


def _candidates(firsts: Sequence[tuple[Label, tuple[str, ...]]],
                ) -> Iterator[tuple[Label, Label]]:
    """Pairs that may be variants (labels of one space with their folded words, no two
    with the same letters): the same signature (the same words in another order, plurals),
    or one deletion apart in their joined letters (both at least MIN_SCREENED long, never
    deleting a digit). Of those, the rule can call variants only labels of as many words
    that differ in one word — and then those two words are one deletion apart — so they
    are found through the vocabulary: each word's neighbours one deletion apart, then the
    labels with one word replaced by a neighbour. In the order a search by shared
    deletions, one length at a time, would meet them (which pair of two owners' labels
    names them): signatures first, then by length, shared deletion, labels."""
    found = _signature_pairs(firsts) + _deletion_pairs(firsts)
    found.sort(key=lambda candidate: candidate[0])
    for _, a, b in found:
        yield firsts[a][0], firsts[b][0]


def _signature_pairs(firsts: Sequence[tuple[Label, tuple[str, ...]]]) -> list[_Candidate]:
    # the singular of the singular: "bus" (→ "bu") and "buses" (→ "bus" → "bu") meet, as
    # the rule calls them singular and plural
    singular = {word: singular_form(singular_form(word))
                for word in {w for _, words in firsts for w in words}}
    form = singular.__getitem__
    by_signature: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for at, (label, words) in enumerate(firsts):
        by_signature.setdefault((label.space, tuple(sorted(map(form, words)))), []).append(at)
    return [((0, bucket[0], a, b), a, b) for bucket in by_signature.values()
            if len(bucket) > 1 for x, a in enumerate(bucket) for b in bucket[x + 1:]]


def _deletion_pairs(firsts: Sequence[tuple[Label, tuple[str, ...]]]) -> list[_Candidate]:
    neighbours = _word_neighbours({word for _, words in firsts for word in words})
    # both labels of a pair hold a word with a neighbour: only those labels are looked at
    near = [(at, label.space, words) for at, (label, words) in enumerate(firsts)
            if not neighbours.keys().isdisjoint(words)]
    number = {(space, words): at for at, space, words in near}
    pairs = []
    for at, space, words in near:
        for k, word in enumerate(words):
            for other in neighbours.get(word, ()):
                match = number.get((space, (*words[:k], other, *words[k + 1:])))
                if match is not None and match > at and min(
                        _letters(words), _letters(firsts[match][1])) >= MIN_SCREENED:
                    pairs.append((at, match))
    if not pairs:
        return []
    joined = {at: "".join(firsts[at][1]) for pair in pairs for at in pair}
    by_letters = _shorter_by_one(firsts, joined, pairs)
    return [_deletion_candidate(a, b, joined, firsts[a][0].space, by_letters)
            for a, b in pairs]


def _letters(words: tuple[str, ...]) -> int:
    return sum(map(len, words))


def _shorter_by_one(firsts: Sequence[tuple[Label, tuple[str, ...]]], joined: dict[int, str],
                    pairs: Sequence[tuple[int, int]]) -> dict[tuple[str, str], int]:
    """(space, letters) → the label with those letters, of the labels one letter shorter
    than a pair of labels of one length (where `_deletion_candidate` looks for a bucket)."""
    lengths = {(firsts[a][0].space, len(joined[a]) - 1) for a, b in pairs
               if len(joined[a]) == len(joined[b])}
    return {(label.space, letters): at for at, (label, words) in enumerate(firsts)
            if (label.space, _letters(words)) in lengths and len(
                letters := "".join(words)) >= MIN_SCREENED}


def _deletion_candidate(a: int, b: int, joined: Mapping[int, str], space: str,
                        by_letters: dict[tuple[str, str], int]) -> _Candidate:
    """Where labels `a` < `b` one deletion apart come in a search that puts each label of
    length n-1 and every deletion of each label of length n in buckets: in the bucket of
    the shorter label's letters (shorter label first), or of their shared deletion (first
    a label of length n-1 with those letters, else the first of the pair)."""
    if len(joined[a]) != len(joined[b]):
        short, long_ = (a, b) if len(joined[a]) < len(joined[b]) else (b, a)
        return (1, len(joined[long_]), (0, short), (0, short), (1, long_)), short, long_
    shared = _deletions(joined[a]) & _deletions(joined[b])
    bucket = min((0, by_letters[space, d]) if (space, d) in by_letters else (1, a)
                 for d in shared)
    return (1, len(joined[a]), bucket, (1, a), (1, b)), a, b


def _word_neighbours(vocabulary: set[str]) -> dict[str, set[str]]:
    """Each word → the words one deletion apart from it (one is the other without one
    letter, or both without one letter are equal; never deleting a digit)."""
    by_deletion: dict[str, list[str]] = {}
    for word in vocabulary:
        for deleted in _deletions(word):
            by_deletion.setdefault(deleted, []).append(word)
    neighbours: dict[str, set[str]] = {}
    for deleted, longer in by_deletion.items():
        group = [*longer, deleted] if deleted in vocabulary else longer
        if len(group) > 1:
            for word in group:
                neighbours.setdefault(word, set()).update(group)
    for word, near in neighbours.items():
        near.discard(word)
    return neighbours


def _deletions(joined: str) -> set[str]:
    """`joined` without one of its letters. Never without a digit: labels whose letters
    differ by a digit hold other numbers, which the rule never calls variants (labels with
    the same letters or the same words are paired by their group and signature)."""
    if joined.isalpha():  # most labels: no digit to keep
        return {joined[:i] + joined[i + 1:] for i in range(len(joined))}
    return {joined[:i] + joined[i + 1:] for i in range(len(joined))
            if not joined[i].isdecimal()}
