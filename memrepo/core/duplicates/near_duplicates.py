"""Near-duplicates: one key per thing (the write gate, SPEC §4) and one note per thing
(the commit check and triage, SPEC §3, §9).

Labels — a fact key's subject or relation, a note's name or alias — are compared as folded
words (`key_slug`: case, accents, ł/đ/ø/ß and separators folded, so "Electricity Bill" is
"electricity_bill"). Two different labels are *variants* of each other when

- they are the same letters with other word breaks ("phone_number" / "phonenumber"),
- they are the same words in another order ("bill_electricity" / "electricity_bill"), or
- every word but one is equal and that one is a *word variant*: singular and plural
  ("phone" / "phones", "company" / "companies"), or one typo — a substitution, insertion,
  deletion or adjacent swap — in a word of at least MIN_TYPO_WORD letters
  ("electricty" / "electricity", "kowalsky" / "kowalski").

Never variants, because they usually name different things: words with other numbers
("q2"/"q3", "2025"/"2026"), short words a letter apart ("cat"/"car", "anna"/"hanna",
"wife"/"wifi") and Slavic gender pairs ("jan"/"jana", "daniel"/"daniela",
"kowalski"/"kowalska", "novotny"/"novotna"), and a word the memory already uses in
another label (a second real surname, not a typo). Measured on realistic keys and names
(issue 11): under 0.2% false alarms at 100k notes, 0.04% on keys; ~93% of typos caught.

Pure: labels in, matches out. `ScopeKeys` (memrepo.core.duplicates.scope_keys) answers the gate for
one scope's keys; `NoteNames` answers the commit check for the names and descriptions of
the existing notes (the INDEX.md lines of every category hold both).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from memrepo.core.text import key_slug, words

NAME_MIN_TYPO_WORD = 5
"""Note names: the shortest word (the longer of the two) in which any one edit is a typo.
Short given names a letter apart are usually other people ("anna"/"hanna", "ola"/"ala")."""
KEY_MIN_TYPO_WORD = 4
"""Fact keys: a false alarm costs the agent one retry with `new_key`, a miss a parallel
key until triage, so 4-letter words count too ("nmae"/"name", "rnet"/"rent")."""
MIN_SHORT_TYPO_WORD = 3
"""Shorter words (3-4 letters) count a swap of neighbours or a doubled letter as a typo."""
DISTINCT_WORDS = frozenset({("grandma", "grandpa"), ("height", "weight"), ("wife", "wifi")})
"""One edit apart, yet different things in a personal memory."""
SCREEN_DISTANCE = 2
"""Candidates are screened with this edit distance on the joined letters, then judged
word by word (a plural "-ies" or a reordering is found by its signature instead)."""
MIN_FUZZY_DESCRIPTION = 40
"""Descriptions this long (folded) may differ by DESCRIPTION_TYPOS edits and still be one."""
DESCRIPTION_TYPOS = 2

_WORD_BREAK = re.compile(r"[_-]+")
_DIGITS = re.compile(r"\d+")
_GENDER_ENDINGS = frozenset({("i", "a"), ("y", "a")})


# --- labels -----------------------------------------------------------------------------

def label_words(label: str) -> list[str]:
    """The folded words of a label ("Electricity-Bill" → ["electricity", "bill"])."""
    return [w for w in _WORD_BREAK.split(key_slug(label)) if w]


def word_variant(a: str, b: str, min_typo_word: int = NAME_MIN_TYPO_WORD) -> str | None:
    """Why two different folded words are spellings of one word (None: they are not)."""
    if a == b or _DIGITS.findall(a) != _DIGITS.findall(b):
        return None
    if is_plural_pair(a, b):
        return f"{a!r} and {b!r} are singular and plural"
    if min(len(a), len(b)) >= MIN_SHORT_TYPO_WORD and (_swapped(a, b) or _doubled(a, b)):
        return f"{a!r} and {b!r} are one typo apart"
    if _gender_pair(a, b) or (a, b) in DISTINCT_WORDS or (b, a) in DISTINCT_WORDS:
        return None
    if max(len(a), len(b)) < min_typo_word:
        return None
    if OSA.distance(a, b, score_cutoff=1) <= 1:
        return f"{a!r} and {b!r} are one typo apart"
    return None


def _swapped(a: str, b: str) -> bool:
    """Two neighbouring letters swapped ("naem" / "name")."""
    if len(a) != len(b):
        return False
    diff = [i for i in range(len(a)) if a[i] != b[i]]
    return (len(diff) == 2 and diff[1] == diff[0] + 1
            and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])


def _doubled(a: str, b: str) -> bool:
    """One letter typed twice ("vaat" / "vat")."""
    short, long_ = sorted((a, b), key=len)
    if len(long_) != len(short) + 1:
        return False
    return any(long_[i] == long_[i + 1] and long_[:i] + long_[i + 1:] == short
               for i in range(len(long_) - 1))


def _is_plural_of(plural: str, singular: str) -> bool:
    if len(singular) < 3 or singular.isdigit():
        return False
    return plural in (singular + "s", singular + "es") or (
        singular.endswith("y") and plural == singular[:-1] + "ies")


def is_plural_pair(a: str, b: str) -> bool:
    """One word is the plural of the other."""
    return _is_plural_of(a, b) or _is_plural_of(b, a)


def _gender_pair(a: str, b: str) -> bool:
    """Masculine and feminine forms of one Slavic name: "jan"/"jana", "kowalski"/"kowalska"."""
    short, long_ = sorted((a, b), key=len)
    if long_ == short + "a":
        return True
    return (len(a) == len(b) and a[:-1] == b[:-1]
            and tuple(sorted((a[-1], b[-1]), reverse=True)) in _GENDER_ENDINGS)


@dataclass(frozen=True, slots=True)
class Variant:
    """Why two labels are spellings of one; `words`: the one differing word of each
    (None when the labels differ by word breaks or order)."""

    how: str
    words: tuple[str, str] | None = None


def label_variant(a: str, b: str, min_typo_word: int = NAME_MIN_TYPO_WORD) -> Variant | None:
    """Why two labels are spellings of one label (None: they are not, or are equal after
    folding — the same label, which the caller treats as one)."""
    wa, wb = label_words(a), label_words(b)
    if wa == wb:
        return None
    if "".join(wa) == "".join(wb):
        return Variant("the same letters with other word breaks")
    if sorted(wa) == sorted(wb):
        return Variant("the same words in another order")
    if len(wa) != len(wb):
        return None
    differing = [(x, y) for x, y in zip(wa, wb, strict=True) if x != y]
    if len(differing) != 1:
        return None
    how = word_variant(*differing[0], min_typo_word)
    return None if how is None else Variant(how, differing[0])


def signature(label_words_: Sequence[str]) -> tuple[str, ...]:
    """Equal for labels that differ by word order or singular/plural."""
    return tuple(sorted(singular_form(w) for w in label_words_))


def singular_form(word: str) -> str:
    """The word as `signature` compares it ("companies" → "company", "phones" → "phone")."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and len(word) > 3:
        return word[:-1]
    return word


SAME_LETTERS = Variant("the same letters after folding case, accents and separators")
_DIGIT_RUN = re.compile(r"\d+")
_IES = re.compile(r"ies(?=_|\n|$)")


def _screen_whole(labels: Sequence[str], label: str) -> set[int]:
    """Positions of the labels that may be variants of `label` (the same numbers; joined
    letters within SCREEN_DISTANCE, the same words in another order, or equal with "-ies"
    as "-y"): three rapidfuzz screens in C over lists made by whole-string operations."""
    if not labels:
        return set()
    joined = "\n".join(labels)
    compacts = joined.replace("_", "").split("\n")
    spaced = joined.replace("_", " ").split("\n")
    singular = _IES.sub("y", joined).replace("_", "").split("\n")
    screened = {at for _, _, at in process.extract(
        label.replace("_", ""), compacts, scorer=OSA.distance, score_cutoff=SCREEN_DISTANCE,
        limit=None)}
    screened.update(at for _, _, at in process.extract(
        label.replace("_", " "), spaced, scorer=fuzz.token_sort_ratio, score_cutoff=100,
        limit=None))
    screened.update(at for _, _, at in process.extract(
        _IES.sub("y", label).replace("_", ""), singular, scorer=OSA.distance,
        score_cutoff=0, limit=None))
    numbers = _numbers(label)
    return {at for at in screened if _numbers(labels[at]) == numbers}


class _LabelIndex:
    """Labels by their numbers (each bucket's joined letters, screened by rapidfuzz) and
    by their signature (sorted singular words: word order and plurals)."""

    def __init__(self, labels: Sequence[str]) -> None:
        self._buckets: dict[tuple[str, ...], tuple[list[str], list[int]]] = {}
        self._by_signature: dict[tuple[str, ...], list[int]] = {}
        for at, label in enumerate(labels):
            self.add(at, label)

    def add(self, at: int, label: str) -> None:
        words = label.split("_")
        compacts, positions = self._buckets.setdefault(_numbers(label), ([], []))
        compacts.append("".join(words))
        positions.append(at)
        self._by_signature.setdefault(signature(words), []).append(at)

    def screen(self, label: str) -> set[int]:
        screened = set(self._by_signature.get(signature(label.split("_")), ()))
        compacts, positions = self._buckets.get(_numbers(label), ([], []))
        screened.update(positions[at] for _, _, at in process.extract(
            label.replace("_", ""), compacts, scorer=OSA.distance,
            score_cutoff=SCREEN_DISTANCE, limit=None))
        return screened


def _numbers(label: str) -> tuple[str, ...]:
    """The numbers of a label, in order of size (the same after reordering words)."""
    return tuple(sorted(_DIGIT_RUN.findall(label)))


class LabelList:
    """Folded labels (words joined by "_") searched for variants of a new label.

    Asked once (the commit check), the lists are screened whole: they are made in a few
    string operations (no Python work per label) and each of three rapidfuzz screens runs
    in C. Asked again (the write gate over a batch, an MCP session), the labels are
    indexed instead — by their numbers (labels with other numbers are never variants, so a
    batch of numbered keys costs no screening) and by their signature (word order,
    plurals) — and each question screens only its bucket. `label_variant` judges the few
    candidates either way; `add` appends."""

    def __init__(self, labels: Sequence[str], min_typo_word: int,
                 known_word: Callable[[str], bool] | None = None) -> None:
        """`known_word`: whether a word is one the memory uses (default: a word of one of
        these labels; a caller holding only some labels answers for the whole memory)."""
        self.labels = list(labels)
        self._min_typo_word = min_typo_word
        self._known = known_word
        self._asked = 0
        self._index: _LabelIndex | None = None
        self._joined: str | None = None

    def add(self, label: str) -> None:
        self.labels.append(label)
        if self._index is not None:
            self._index.add(len(self.labels) - 1, label)
        self._joined = None

    def variants(self, label: str) -> list[tuple[int, Variant]]:
        """(position, why) of every label that is a variant of `label` (folded) or has its
        letters (equal after folding, or other word breaks: `SAME_LETTERS`)."""
        if not label:
            return []
        self._asked += 1
        if self._index is None and self._asked > 1:
            self._index = _LabelIndex(self.labels)
        screened = (self._index.screen(label) if self._index is not None
                    else _screen_whole(self.labels, label))
        found = []
        compact = label.replace("_", "")
        for at in sorted(screened):
            if self.labels[at].replace("_", "") == compact:
                found.append((at, SAME_LETTERS))  # equal, or other word breaks
                continue
            variant = label_variant(label, self.labels[at], self._min_typo_word)
            if variant is not None and not self._known_word(variant):
                found.append((at, variant))
        return found

    def _known_word(self, variant: Variant) -> bool:
        """The new label's differing word is one the memory already uses — a word, not a
        typo: "konrad-borowski" beside "konrad-borkowski" passes when "piotr-borowski"
        is recorded. Singular/plural pairs are judged all the same."""
        if variant.words is None or is_plural_pair(*variant.words):
            return False
        word = variant.words[0]
        if self._known is not None:
            return self._known(word)
        if self._joined is None:
            self._joined = "\n" + "\n".join(self.labels) + "\n"
        return re.search(rf"[\n_]{re.escape(word)}[\n_]", self._joined) is not None


# --- notes (the commit check) -------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SimilarNote:
    name: str  # the existing note
    how: str


def description_key(text: str) -> str:
    """A description as compared: folded words, single spaces."""
    return " ".join(words(text))


class NoteNames:
    """Existing notes' names and descriptions — what the INDEX.md lines of the categories
    hold — searched for notes a new note looks like.

    Built for a commit hook at 100k notes: construction is a few whole-list operations
    (no Python work per note); each question screens the lists with rapidfuzz and judges
    only the few candidates with `label_variant`."""

    def __init__(self, names: Sequence[str], descriptions: Sequence[str],
                 known_word: Callable[[str], bool] | None = None) -> None:
        """`known_word`: whether a word is a word of an existing note's name (default:
        of one of `names`; a caller that holds only some names passes the whole memory's
        answer)."""
        self._names = list(names)  # slugs, as in INDEX.md
        folded = "\n".join(self._names).replace("-", "_").split("\n") if names else []
        self._labels = LabelList(folded, NAME_MIN_TYPO_WORD, known_word)
        self._descriptions = list(descriptions)
        self._lowered = "\n".join(d.replace("\n", " ") for d in self._descriptions
                                   ).lower().split("\n")

    def similar(self, name: str, description: str, aliases: Sequence[str] = (),
                ) -> list[SimilarNote]:
        """Existing notes a new note looks like, by name, alias or description."""
        found: dict[int, str] = {}
        for label in (name, *aliases):
            for number, how in self._label_matches(key_slug(label)):
                found.setdefault(number, how if label == name else f"alias {label!r}: {how}")
        for number, how in self._description_matches(description):
            found.setdefault(number, how)
        matches = {self._names[n]: how for n, how in found.items() if self._names[n] != name}
        return [SimilarNote(n, how) for n, how in sorted(matches.items())]

    def _label_matches(self, label: str) -> Iterator[tuple[int, str]]:
        for at, variant in self._labels.variants(label):
            yield at, variant.how

    def _description_matches(self, description: str) -> Iterator[tuple[int, str]]:
        key = description_key(description)
        if not key:
            return
        for _, _, number in process.extract(
                description.lower(), self._lowered, scorer=OSA.distance,
                score_cutoff=DESCRIPTION_TYPOS, limit=None):
            other = description_key(self._descriptions[number])
            if other == key:
                yield number, "the same description"
            elif (len(key) >= MIN_FUZZY_DESCRIPTION
                  and _DIGITS.findall(key) == _DIGITS.findall(other)):
                yield number, "nearly the same description"
