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

Pure: labels in, matches out. `ScopeKeys` answers the gate for one scope's keys;
`NoteNames` answers the commit check for the names and descriptions of the existing notes
(the INDEX.md lines of every category hold both).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA

from memrepo.core.text import key_slug, slug, words

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
    if _is_plural_of(a, b) or _is_plural_of(b, a):
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


def _compact(label_words_: Sequence[str]) -> str:
    return "".join(label_words_)


def _signature(label_words_: Sequence[str]) -> tuple[str, ...]:
    """Equal for labels that differ by word order or singular/plural."""
    return tuple(sorted(_singular(w) for w in label_words_))


def _singular(word: str) -> str:
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith("es") and len(word) > 4:
        return word[:-2]
    if word.endswith("s") and len(word) > 3:
        return word[:-1]
    return word


class LabelIndex:
    """Labels (each with a payload) that can be searched for variants of a new label.

    A variant's joined letters are within SCREEN_DISTANCE edits of the label's (typos,
    word breaks, "-s"/"-es" plurals) or share its signature (word order, "-ies" plurals);
    rapidfuzz screens the first, a dict the second, `label_variant` judges both."""

    def __init__(self, min_typo_word: int, shared_words: dict[str, int] | None = None,
                 count_words: bool = True) -> None:
        """`shared_words`: the word counts the known-word rule reads (another index's, or
        kept by the caller with `count_words` False)."""
        self._min_typo_word = min_typo_word
        self._count_words = count_words
        self._compacts: list[str] = []
        self._labels: list[tuple[str, ...]] = []
        self._by_signature: dict[tuple[str, ...], list[int]] = {}
        self._by_words: dict[tuple[str, ...], int] = {}
        self._words: dict[str, int] = {} if shared_words is None else shared_words

    def add(self, label: str) -> int:
        """Add a label; its number (a label equal after folding keeps its first number)."""
        folded = tuple(label_words(label))
        known = self._by_words.get(folded)
        if known is not None:
            return known
        number = len(self._labels)
        self._labels.append(folded)
        self._compacts.append(_compact(folded))
        self._by_signature.setdefault(_signature(folded), []).append(number)
        self._by_words[folded] = number
        for word in set(folded) if self._count_words else ():
            self._words[word] = self._words.get(word, 0) + 1
        return number

    def find(self, label: str) -> int | None:
        """The number of the label equal to `label` after folding, if any."""
        return self._by_words.get(tuple(label_words(label)))

    def variants(self, label: str) -> list[tuple[int, str]]:
        """(number, why) of every indexed label that is a variant of `label`, by number."""
        folded = label_words(label)
        if not folded:
            return []
        found: dict[int, str] = {}
        for number in self._screened(folded):
            variant = label_variant("_".join(folded), "_".join(self._labels[number]),
                                    self._min_typo_word)
            if variant is not None and not self._known_word(variant):
                found[number] = variant.how
        return sorted(found.items())

    def _known_word(self, variant: Variant) -> bool:
        """The new label's differing word is one other labels already use — a word of the
        memory, not a typo: "konrad-borowski" beside "konrad-borkowski" passes when
        "piotr-borowski" is recorded. Singular/plural pairs are judged all the same."""
        return (variant.words is not None
                and self._words.get(variant.words[0], 0) > 0
                and not _is_plural_of(*variant.words) and not _is_plural_of(
                    variant.words[1], variant.words[0]))

    def _screened(self, folded: Sequence[str]) -> Iterator[int]:
        yield from self._by_signature.get(_signature(folded), ())
        compact = _compact(folded)
        for _, _, number in process.extract(compact, self._compacts, scorer=OSA.distance,
                                            score_cutoff=SCREEN_DISTANCE, limit=None):
            yield number


# --- fact keys (the write gate) -----------------------------------------------------------

Key = tuple[str, str]
"""(subject, relation) as written."""


def folded_key(subject: str, relation: str) -> Key:
    """The key as compared (SPEC §4)."""
    return key_slug(subject), key_slug(relation)


@dataclass(frozen=True, slots=True)
class SimilarKey:
    """An existing key a new key looks like: `subject`/`relation` as first recorded.
    `recorded` is False for a suggestion that combines an existing subject with the new
    relation (the subject is a variant, the relation is new to it)."""

    subject: str
    relation: str
    how: str
    recorded: bool = True

    def to_json(self) -> dict[str, object]:
        return {"subject": self.subject, "relation": self.relation, "how": self.how,
                "recorded": self.recorded}


class ScopeKeys:
    """The keys of one scope in the order they were first recorded: the form each key is
    shown in, and the keys a new one looks like. A subject's relations are indexed for
    variants only when a question needs them (a scope of 10k keys is built in the time
    folding them takes)."""

    def __init__(self, keys: Iterable[Key] = ()) -> None:
        self._subjects = LabelIndex(KEY_MIN_TYPO_WORD)
        self._relation_words: dict[str, int] = {}  # words of every relation of the scope
        self._subject_shown: list[str] = []
        self._relations: list[dict[str, str]] = []  # per subject: folded → as first recorded
        self._relation_index: dict[int, LabelIndex] = {}
        for subject, relation in keys:
            self.add(subject, relation)

    def add(self, subject: str, relation: str) -> Key:
        """Record a key (a later spelling of a known key changes nothing); its shown form."""
        number = self._subjects.add(subject)
        if number == len(self._subject_shown):
            self._subject_shown.append(subject)
            self._relations.append({})
        relations = self._relations[number]
        folded = key_slug(relation)
        if folded not in relations:
            relations[folded] = relation
            for word in set(label_words(folded)):
                self._relation_words[word] = self._relation_words.get(word, 0) + 1
            self._relation_index.pop(number, None)
        return self._subject_shown[number], relations[folded]

    def shown(self, subject: str, relation: str) -> Key | None:
        """The recorded key equal to this one after folding, in its first-recorded form."""
        number = self._subjects.find(subject)
        if number is None:
            return None
        shown = self._relations[number].get(key_slug(relation))
        return None if shown is None else (self._subject_shown[number], shown)

    def shown_subject(self, subject: str) -> str | None:
        number = self._subjects.find(subject)
        return None if number is None else self._subject_shown[number]

    def similar(self, subject: str, relation: str) -> list[SimilarKey]:
        """Recorded keys a NEW key looks like (empty for a recorded key): the same subject
        with a variant relation; a variant subject with the same or a variant relation; a
        variant subject alone (suggested with the new relation, `recorded` False)."""
        if self.shown(subject, relation) is not None:
            return []
        found: list[SimilarKey] = []
        same = self._subjects.find(subject)
        if same is not None:
            found += self._similar_relations(same, relation, "")
        for number, how in self._subjects.variants(subject):
            shown = self._subject_shown[number]
            why = f"subject {subject!r} looks like {shown!r} ({how})"
            exact = self._relations[number].get(key_slug(relation))
            if exact is not None:
                found.append(SimilarKey(shown, exact, why))
                continue
            related = self._similar_relations(number, relation, why + "; ")
            found += related or [SimilarKey(shown, relation, why, recorded=False)]
        return found

    def _similar_relations(self, number: int, relation: str, prefix: str,
                           ) -> list[SimilarKey]:
        subject = self._subject_shown[number]
        index = self._relation_index.get(number)
        shown = list(self._relations[number].values())
        if index is None:
            index = LabelIndex(KEY_MIN_TYPO_WORD, self._relation_words, count_words=False)
            for text in shown:
                index.add(text)
            self._relation_index[number] = index
        return [SimilarKey(subject, shown[r], f"{prefix}relation {relation!r} looks like "
                           f"{shown[r]!r} ({how})")
                for r, how in index.variants(relation)]


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

    def __init__(self, names: Sequence[str], descriptions: Sequence[str]) -> None:
        self._names = list(names)  # slugs, as in INDEX.md
        joined = "\n".join(self._names)
        self._joined = f"\n{joined}\n"
        self._compacts = joined.replace("-", "").split("\n")
        self._spaced = joined.replace("-", " ").split("\n")
        self._descriptions = list(descriptions)
        self._lowered = "\n".join(d.replace("\n", " ") for d in self._descriptions
                                   ).lower().split("\n")

    def similar(self, name: str, description: str, aliases: Sequence[str] = (),
                ) -> list[SimilarNote]:
        """Existing notes a new note looks like, by name, alias or description."""
        found: dict[int, str] = {}
        for label in (name, *aliases):
            for number, how in self._label_matches(slug(label)):
                found.setdefault(number, f"{label!r} {how}")
        for number, how in self._description_matches(description):
            found.setdefault(number, how)
        matches = {self._names[n]: how for n, how in found.items() if self._names[n] != name}
        return [SimilarNote(n, how) for n, how in sorted(matches.items())]

    def _label_matches(self, label: str) -> Iterator[tuple[int, str]]:
        if not label:
            return
        compact = label.replace("-", "")
        screened = {n for _, _, n in process.extract(
            compact, self._compacts, scorer=OSA.distance, score_cutoff=SCREEN_DISTANCE,
            limit=None)}
        screened.update(n for _, _, n in process.extract(
            label.replace("-", " "), self._spaced, scorer=fuzz.token_sort_ratio,
            score_cutoff=100, limit=None))
        for number in sorted(screened):
            other = self._names[number]
            if self._compacts[number] == compact:
                yield number, f"is {other!r} after folding"
                continue
            variant = label_variant(label, other, NAME_MIN_TYPO_WORD)
            if variant is not None and not self._known_word(variant):
                yield number, f"looks like {other!r} ({variant.how})"

    def _known_word(self, variant: Variant) -> bool:
        """As `LabelIndex._known_word`: the new word is a word of another note's name."""
        if variant.words is None:
            return False
        new, old = variant.words
        if _is_plural_of(new, old) or _is_plural_of(old, new):
            return False
        return re.search(rf"[\n-]{re.escape(new)}[\n-]", self._joined) is not None

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
