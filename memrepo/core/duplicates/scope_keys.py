"""The write gate's view of one scope's fact keys (SPEC §4, issue 11): the form each key is
shown in, in the order keys were first recorded, and the recorded keys a new one looks like
— by the near-duplicate rule of memrepo.core.duplicates.near_duplicates."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from memrepo.core.duplicates.near_duplicates import KEY_MIN_TYPO_WORD, LabelList
from memrepo.core.records import SimilarKey
from memrepo.core.text import key_slug

Key = tuple[str, str]
"""(subject, relation) as written."""


FoldedKey = tuple[str, str, str, str]
"""(subject_key, relation_key, subject, relation): a key folded and as first recorded."""

RecordedKey = tuple[int, str, str, str, str, str]
"""(first recorded at, first event id, then a `FoldedKey`): a key with its place in the
order keys were first recorded."""


class ScopeKeys:
    """The keys of one scope in the order they were first recorded: the form each key is
    shown in, and the keys a new one looks like. Built from 10k keys in milliseconds
    (`from_folded`: the cache's pre-folded columns), or over the folded subjects alone
    (`on_demand`: a subject's keys are loaded when a question needs them); a subject's
    relations are listed for variants only when a question needs them."""

    def __init__(self, keys: Iterable[Key] = ()) -> None:
        self._number: dict[str, int] = {}  # folded subject → its number
        self._shown: list[str] = []  # subjects as first recorded ("" until loaded)
        self._relations: list[dict[str, str] | None] = []  # folded → first recorded
        self._rank: list[tuple[int, str]] = []  # where each subject was first recorded
        self._relation_lists: dict[int, LabelList] = {}
        self._relation_words: str | None = None  # every folded relation, "\n"-joined
        self._load: Callable[[Sequence[str]], Iterable[RecordedKey]] | None = None
        self._scope_relations: Callable[[], Iterable[str]] | None = None
        self._fill((key_slug(s), key_slug(r), s, r) for s, r in keys)

    @classmethod
    def from_folded(cls, rows: Iterable[FoldedKey]) -> ScopeKeys:
        """From keys already folded, in the order first recorded."""
        keys = cls()
        keys._fill(rows)
        return keys

    @classmethod
    def on_demand(cls, subjects: Iterable[str],
                  load: Callable[[Sequence[str]], Iterable[RecordedKey]],
                  relations: Callable[[], Iterable[str]]) -> ScopeKeys:
        """From every folded subject of the scope (in any order); `load(subjects)` gives
        the keys of those subjects, `relations()` every folded relation of the scope (asked
        only to judge a relation variant). One write's gate reads the subjects and a few
        keys instead of every key."""
        keys = cls()
        keys._load, keys._scope_relations = load, relations
        labels = list(dict.fromkeys(subjects))
        keys._number = {subject: number for number, subject in enumerate(labels)}
        keys._shown, keys._rank = [""] * len(labels), [(0, "")] * len(labels)
        keys._relations = [None] * len(labels)
        keys._subjects = LabelList(labels, KEY_MIN_TYPO_WORD)
        return keys

    def _fill(self, rows: Iterable[FoldedKey]) -> None:
        for subject_key, relation_key, subject, relation in rows:
            number = self._number.setdefault(subject_key, len(self._shown))
            if number == len(self._shown):
                self._new_subject(subject, {}, (number, ""))
            self._keys(number).setdefault(relation_key, relation)
        self._subjects = LabelList(list(self._number), KEY_MIN_TYPO_WORD)

    def _new_subject(self, shown: str, relations: dict[str, str] | None,
                     rank: tuple[int, str]) -> None:
        self._shown.append(shown)
        self._relations.append(relations)
        self._rank.append(rank)

    def _keys(self, number: int) -> dict[str, str]:
        """The relations of subject `number` (folded → first recorded), loaded if need be."""
        relations = self._relations[number]
        if relations is None:
            self._load_subjects([number])
            relations = self._relations[number] = self._relations[number] or {}
        return relations

    def _load_subjects(self, numbers: Sequence[int]) -> None:
        """Load the keys of the subjects `numbers` not loaded yet (one question to `load`)."""
        missing = [self._subjects.labels[n] for n in numbers if self._relations[n] is None]
        if not missing or self._load is None:
            return
        for at, first_id, subject_key, relation_key, subject, relation in self._load(missing):
            number = self._number[subject_key]
            relations = self._relations[number]
            if relations is None:
                self._shown[number], relations = subject, {}
                self._relations[number], self._rank[number] = relations, (at, first_id)
            relations.setdefault(relation_key, relation)

    def add(self, subject: str, relation: str) -> Key:
        """Record a key (a later spelling of a known key changes nothing); its shown form."""
        subject_key, relation_key = key_slug(subject), key_slug(relation)
        number = self._number.setdefault(subject_key, len(self._shown))
        if number == len(self._shown):
            self._new_subject(subject, {}, (FOREVER_RANK + number, ""))
            self._subjects.add(subject_key)
        relations = self._keys(number)
        if relation_key not in relations:
            relations[relation_key] = relation
            self._relation_lists.pop(number, None)
            self._relation_words = None
        return self._shown[number], relations[relation_key]

    def shown(self, subject: str, relation: str) -> Key | None:
        """The recorded key equal to this one after folding, in its first-recorded form."""
        number = self._number.get(key_slug(subject))
        if number is None:
            return None
        shown = self._keys(number).get(key_slug(relation))
        return None if shown is None else (self._shown[number], shown)

    def shown_subject(self, subject: str) -> str | None:
        number = self._number.get(key_slug(subject))
        if number is None:
            return None
        self._keys(number)
        return self._shown[number] or None

    def resolve(self, subject: str, relation: str) -> tuple[Key, list[SimilarKey]]:
        """Where a write of (subject, relation) goes — a recorded key in the form first
        recorded; a new key with its subject as first recorded (when the subject is known)
        — and, for a new key, the recorded keys it looks like (the write gate stops it
        unless the caller insists it is new)."""
        shown = self.shown(subject, relation)
        if shown is not None:
            return shown, []
        return (self.shown_subject(subject) or subject, relation), self.similar(subject,
                                                                                relation)

    def similar(self, subject: str, relation: str) -> list[SimilarKey]:
        """Recorded keys a NEW key looks like (empty for a recorded key): the same subject
        with a variant relation; a variant subject with the same or a variant relation; a
        variant subject alone (suggested with the new relation, `recorded` False)."""
        if self.shown(subject, relation) is not None:
            return []
        found: list[SimilarKey] = []
        same = self._number.get(key_slug(subject))
        if same is not None:
            found += self._similar_relations(same, relation, "")
        variants = [(self._number[self._subjects.labels[at]], variant)
                    for at, variant in self._subjects.variants(key_slug(subject))
                    if self._subjects.labels[at] != key_slug(subject)]  # same: above
        self._load_subjects([number for number, _ in variants])
        for number, variant in sorted(variants, key=lambda found: self._rank[found[0]]):
            shown = self._shown[number]
            why = f"subject {subject!r} looks like {shown!r} ({variant.how})"
            exact = self._keys(number).get(key_slug(relation))
            if exact is not None:
                found.append(SimilarKey(shown, exact, why))
                continue
            related = self._similar_relations(number, relation, why + "; ")
            found += related or [SimilarKey(shown, relation, why, recorded=False)]
        return found

    def _similar_relations(self, number: int, relation: str, prefix: str,
                           ) -> list[SimilarKey]:
        relations = self._keys(number)
        listed = self._relation_lists.get(number)
        if listed is None:
            listed = LabelList(list(relations), KEY_MIN_TYPO_WORD, self._relation_word)
            self._relation_lists[number] = listed
        return [SimilarKey(self._shown[number], relations[listed.labels[at]],
                           f"{prefix}relation {relation!r} looks like "
                           f"{relations[listed.labels[at]]!r} ({variant.how})")
                for at, variant in listed.variants(key_slug(relation))]

    def _relation_word(self, word: str) -> bool:
        """A word of any relation of the scope (a word of the memory, not a typo)."""
        if self._relation_words is None:
            everything = {r for relations in self._relations for r in relations or ()}
            if self._scope_relations is not None:
                everything.update(self._scope_relations())
            self._relation_words = "\n" + "\n".join(everything) + "\n"
        return re.search(rf"[\n_]{re.escape(word)}[\n_]", self._relation_words) is not None


FOREVER_RANK = 2**63
"""The rank of a key recorded by `add` (after every key loaded)."""
