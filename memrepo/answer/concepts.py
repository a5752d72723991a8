"""The concept table (SPEC §7 "Words people use for relations"): which words of a question
and of a key mean the same thing, in English, Polish, Slovak and Czech.

The table is data (`concepts.yaml` beside this module, extended by a memory's config
`concepts:`). Each concept is a set of words and phrases; they are folded and reduced to
base forms (memrepo.core.stems) once, so "mieszkała" finds the concept of "mieszka".
`spans` reads a sequence of folded words for the concepts they name, the longest phrase
first ("mother-in-law" is one role, never "mother"). A phrase written with "…" between its
words takes one to MAX_GAP words there ("rent … from": "who do we RENT the shop FROM"),
as a verb and its particle go apart in English.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from memrepo.core.stems import base_forms, tokens
from memrepo.core.text import words_of

_K = TypeVar("_K")
_READ_MAX = 100_000
"""The most word sequences a table remembers the spans of (a server reads many questions)."""
MAX_PHRASE = 5
"""The most words a phrase of the table has."""
MAX_GAP = 3
"""The most words a phrase's "…" takes."""
GAP = "…"
"""The word a phrase's gap is indexed by."""
MIN_INFLECTED = 5
"""Shorter words are matched only as written: their base forms are other words too."""
MIN_FORM = 4
"""The shortest base form a concept is found by ("pesel" is not "pes", a dog)."""


@dataclass(frozen=True, slots=True)
class Span:
    """Words [start, end) of a sequence that name `concepts` (as `phrase`, folded); a
    phrase with a gap ("ODDAJEMY co miesiąc DO BANKU") has its words after the gap in
    `tail`."""

    start: int
    end: int
    concepts: frozenset[str]
    phrase: str
    tail: range = range(0)


@dataclass(frozen=True, slots=True)
class ConceptTable:
    phrases: Mapping[tuple[str, ...], frozenset[str]]  # folded words → concepts (2+ words)
    forms: Mapping[str, frozenset[str]]  # a base form of a one-word entry → concepts
    exact: Mapping[str, frozenset[str]]  # a one-word entry as written, folded → concepts
    roles: frozenset[str]  # concepts that name a person by their relation to someone
    words_of: Mapping[str, Sequence[str]] = field(default_factory=dict)  # concept → words
    within: Mapping[str, str] = field(default_factory=dict)  # narrower → broader concept
    together: Mapping[str, tuple[tuple[str, str], ...]] = field(default_factory=dict)
    # concept → pairs of concepts a question names it by together ("what we pay the BANK
    # for the HOUSE": mortgage)
    _read: dict[tuple[str, ...], tuple[Span, ...]] = field(
        default_factory=dict, compare=False, repr=False)  # words → their spans, as read

    def word_concepts(self, word: str) -> frozenset[str]:
        """The concepts of one folded word: as written, else — a word of MIN_INFLECTED
        letters or more — by any of its base forms ("weterynarzem" → vet; not "mamy", we
        have, → mother)."""
        found = self.exact.get(word)
        if not found and word.endswith("s") and len(word) > 3:  # "DADS phone": dad's
            found = self.exact.get(word[:-1], frozenset()) & self.roles
        if found or len(word) < MIN_INFLECTED:
            return found or frozenset()
        hits = [self.forms[form] for form in base_forms(word)
                if len(form) >= MIN_FORM and form in self.forms]
        return frozenset().union(*hits) if hits else frozenset()

    def knows(self, word: str) -> bool:
        """Whether a folded word is a word of the table (it is never respelled)."""
        return bool(self.word_concepts(word))

    def spans(self, words: Sequence[str]) -> list[Span]:
        """The concepts named in `words` (folded), left to right, each word in at most one
        span: at each position the longest phrase of the table (its words as written or
        in a base form: "family doctors"), else the word alone."""
        said = tuple(words)
        read = self._read.get(said)
        if read is None:
            if len(self._read) >= _READ_MAX:
                self._read.clear()
            read = self._read[said] = tuple(self._spans(said))
        return list(read)

    def _spans(self, words: tuple[str, ...]) -> list[Span]:
        found: list[Span] = []
        tails: set[int] = set()  # the words after a gap, read with their phrase
        i = 0
        while i < len(words):
            if i in tails:
                i += 1
                continue
            for size in range(min(MAX_PHRASE, len(words) - i), 1, -1):
                part = tuple(words[i:i + size])
                concepts = self._phrase(part)
                if concepts:
                    found.append(Span(i, i + size, concepts, " ".join(words[i:i + size])))
                    i += size
                    break
            else:
                if gapped := self._gapped(words, i):
                    found.append(gapped[0])
                    tails.update(gapped[1])
                    i = gapped[0].end
                    continue
                concepts = self.word_concepts(words[i])
                if concepts:
                    found.append(Span(i, i + 1, concepts, words[i]))
                i += 1
        return found

    def _phrase(self, part: tuple[str, ...]) -> frozenset[str] | None:
        found = (self.phrases.get(part) or self.phrases.get(_stems(part))
                 or self.phrases.get(_with_the(part)))
        if found or len(part) < 3:
            return found
        inner = _without_inner_possessives(part)  # only when the phrase as said is none
        return (inner != part and (self.phrases.get(inner)
                                   or self.phrases.get(_stems(inner)))) or None

    def _gapped(self, words: Sequence[str], i: int) -> tuple[Span, range] | None:
        """The phrase with a gap starting at `i` ("RENT the rooms FROM"): its head's span
        and the positions of its tail, the shortest gap first — never across a clause ("the
        RENT go up, and FROM how much") nor before one ("got moved FROM when")."""
        for head in (2, 1):
            for gap in range(1, MAX_GAP + 1):
                for tail in (1, 2):
                    start = i + head + gap
                    if start + tail > len(words) or any(
                            _opens_clause(words, j)  # the gap or after the tail
                            for j in range(i + head, min(len(words), start + tail + 1))):
                        continue
                    concepts = self._phrase((*words[i:i + head], GAP,
                                             *words[start:start + tail]))
                    if concepts:
                        phrase = f"{' '.join(words[i:i + head])} {GAP} " \
                                 f"{' '.join(words[start:start + tail])}"
                        after = range(start, start + tail)
                        return Span(i, i + head, concepts, phrase, after), after
        return None

    def concepts_of_words(self, words: Sequence[str]) -> frozenset[str]:
        """Every concept the words name, as a phrase and each alone (a key's relation or
        subject words: `payment_terms` is of payment_terms and of payment)."""
        alone = [self.word_concepts(word) for word in words]
        return frozenset().union(*(span.concepts for span in self.spans(words)), *alone)

    def concepts_as_written(self, words: Sequence[str]) -> frozenset[str]:
        """The concepts of words as written, never through a base form: a subject key's
        words (`daniel` is a name, not a form of "daň", tax), its phrases among them
        (`pet_food_supplier`: "pet food")."""
        phrases = [self.phrases.get(tuple(words[i:i + n]), frozenset())
                   for n in range(2, len(words) + 1) for i in range(len(words) - n + 1)]
        return frozenset().union(*phrases, *(self.exact.get(word, frozenset())
                                             for word in words))

    def narrowest(self, found: frozenset[str]) -> frozenset[str]:
        """`found` without the concepts another of them is narrower than ("mortgage":
        mortgage, not loan)."""
        broader = {self.within.get(concept) for concept in found}
        return frozenset(concept for concept in found if concept not in broader)

    def extended(self, extra: Mapping[str, Sequence[str]]) -> ConceptTable:
        """The table with a memory's own words (config `concepts:`): more words for a
        concept of the table, or concepts of its own (only those words are indexed)."""
        if not extra:
            return self
        added = _index({name: list(words) for name, words in extra.items()})
        words_of = {name: tuple(words) for name, words in self.words_of.items()}
        for name, words in extra.items():
            words_of[name] = (*words_of.get(name, ()), *words)
        return ConceptTable(_merged(self.phrases, added[0]), _merged(self.forms, added[1]),
                            _merged(self.exact, added[2]), self.roles, words_of, self.within,
                            self.together)


def _stems(words: tuple[str, ...]) -> tuple[str, ...]:
    """A phrase's words each in one base form (the first stem), for inflected phrases."""
    out = []
    for word in words:
        forms = base_forms(word)
        out.append(forms[1] if len(forms) > 1 else forms[0])
    return tuple(out)


Index = tuple[dict[tuple[str, ...], set[str]], dict[str, set[str]], dict[str, set[str]]]
"""phrases (their words, as written and in base forms), base forms, words as written →
the concepts they name."""


def _index(entries: Mapping[str, Iterable[str]]) -> Index:
    phrases: dict[tuple[str, ...], set[str]] = {}
    forms: dict[str, set[str]] = {}
    exact: dict[str, set[str]] = {}
    for name, words in entries.items():
        for entry in words:
            folded = _folded_entry(str(entry))
            if len(folded) > 1:
                phrases.setdefault(folded, set()).add(name)
                phrases.setdefault(_stems(folded), set()).add(name)
            elif folded:
                exact.setdefault(folded[0], set()).add(name)
                for form in base_forms(folded[0]):
                    forms.setdefault(form, set()).add(name)
    return phrases, forms, exact


def _folded_entry(entry: str) -> tuple[str, ...]:
    """An entry's folded words, a gap ("rent … from", "rent ... from") as GAP."""
    head, gap, tail = entry.replace("...", GAP).partition(GAP)
    words = tuple(word for _, word in tokens(head))
    return (*words, GAP, *(word for _, word in tokens(tail))) if gap else words


def _merged(old: Mapping[_K, frozenset[str]], new: Mapping[_K, set[str]],
            ) -> dict[_K, frozenset[str]]:
    out = dict(old)
    for key, names in new.items():
        out[key] = out.get(key, frozenset()) | frozenset(names)
    return out


INDEX_FILE = "concepts.index.json"
"""The shipped table indexed ahead (`python -m memrepo.answer.concepts` writes it; a test
checks it matches concepts.yaml): stemming its ~8,600 words costs ≈0.4 s, the index ≈20 ms."""


class _Sets(Mapping[_K, frozenset[str]]):
    """A read-only mapping of lists, each made a frozenset when first read (a question
    reads a few dozen of the index's entries: converting them all cost ≈15 ms)."""

    def __init__(self, data: dict[_K, list[str]]) -> None:
        self._data = data
        self._made: dict[_K, frozenset[str]] = {}

    def __getitem__(self, key: _K) -> frozenset[str]:
        found = self._made.get(key)
        if found is None:
            found = self._made[key] = frozenset(self._data[key])
        return found

    def get(self, key: _K, default: frozenset[str] | None = None,  # type: ignore[override]
            ) -> frozenset[str] | None:
        found = self._made.get(key)
        if found is None:
            listed = self._data.get(key)
            if listed is None:
                return default
            found = self._made[key] = frozenset(listed)
        return found

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def __iter__(self) -> Iterator[_K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


@lru_cache(maxsize=1)
def shipped() -> ConceptTable:
    """The table shipped with memrepo (concepts.yaml, indexed in INDEX_FILE), loaded once
    per process."""
    from importlib.resources import files

    import orjson

    data = orjson.loads(files("memrepo.answer").joinpath(INDEX_FILE).read_bytes())
    return ConceptTable(_Sets({tuple(k.split(" ")): v for k, v in data["phrases"].items()}),
                        _Sets(data["forms"]), _Sets(data["exact"]), frozenset(data["roles"]),
                        data["words"], data["within"],
                        {name: tuple((a, b) for a, b in pairs)
                         for name, pairs in data["together"].items()})


def index_json(table_text: str) -> bytes:
    """INDEX_FILE for the text of concepts.yaml."""
    import orjson

    table = read_table(table_text)
    phrases, forms, exact = _index(table.entries)
    data = {"roles": sorted(table.roles), "words": table.entries, "within": table.within,
            "together": table.together,
            "phrases": {" ".join(k): sorted(v) for k, v in sorted(phrases.items())},
            "forms": {k: sorted(v) for k, v in sorted(forms.items())},
            "exact": {k: sorted(v) for k, v in sorted(exact.items())}}
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


_ENTRY = re.compile(r"^  ([a-z0-9_]+):\s*$")
_ROLE = re.compile(r"^    role:\s*true\s*$")
_WITHIN = re.compile(r"^    within:\s*([a-z0-9_]+)\s*$")
_WORDS = re.compile(r"^    words:\s*\[(.*)\]\s*$")
_TOGETHER = re.compile(r"^    together:\s*\[(.*)\]\s*$")


@dataclass(frozen=True, slots=True)
class TableText:
    """What concepts.yaml says: name → words, the role concepts, each narrower concept's
    broader one, and the pairs of concepts that name a concept together."""

    entries: dict[str, list[str]]
    roles: list[str]
    within: dict[str, str]
    together: dict[str, list[list[str]]]


def read_table(text: str) -> TableText:
    """The concepts of concepts.yaml. The file keeps to a fixed shape (see its head), read
    line by line: a question must not pay for importing a YAML parser
    (tests/answer/concepts_test.py reads it with PyYAML too)."""
    entries: dict[str, list[str]] = {}
    roles: list[str] = []
    within: dict[str, str] = {}
    together: dict[str, list[list[str]]] = {}
    current = ""
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#") or line == "concepts:":
            continue
        if found := _ENTRY.match(line):
            current = found.group(1)
        elif _ROLE.match(line) and current:
            roles.append(current)
        elif (found := _WITHIN.match(line)) and current:
            within[current] = found.group(1)
        elif (found := _WORDS.match(line)) and current:
            entries[current] = [w.strip() for w in found.group(1).split(",") if w.strip()]
        elif (found := _TOGETHER.match(line)) and current:
            together[current] = [[c.strip() for c in pair.split("+")]
                                 for pair in found.group(1).split(",")]
        else:
            raise ValueError(f"concepts.yaml: a line out of its shape: {line!r}")
    return TableText(entries, roles, within, together)


def table_for(extra: Mapping[str, Sequence[str]] | None) -> ConceptTable:
    """The shipped table with a memory's config `concepts:` added."""
    return shipped().extended(extra or {})


def main() -> int:
    """Write INDEX_FILE beside this module from concepts.yaml (after editing the table)."""
    here = Path(__file__).resolve().parent
    (here / INDEX_FILE).write_bytes(index_json((here / "concepts.yaml").read_text(
        encoding="utf-8")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


_CLAUSE = frozenset((
    "and", "or", "but", "i", "a", "ale", "albo", "lub", "alebo", "nebo", "when", "how", "what",
    "kiedy", "kedy", "kdy", "jak", "ako", "ile", "kolko", "kolik", "co", "czo"))
"""Words that open or join a clause: a phrase's gap takes none, and its tail is never
followed by one."""

_EVERY = frozenset(("co", "czo"))
_UNITS = frozenset((
    "miesiac", "miesiace", "tydzien", "rok", "roku", "dzien", "kwartal", "mesiac",
    "tyzden", "den", "mesic", "tyden"))
"""Polish "CO miesiąc" (every month): no clause, though "co" alone opens one."""


def _opens_clause(words: Sequence[str], j: int) -> bool:
    return words[j] in _CLAUSE and not (
        words[j] in _EVERY and j + 1 < len(words) and words[j + 1] in _UNITS)


_POSSESSIVES = frozenset(("our", "my", "your", "his", "her", "their", "its"))


def _without_inner_possessives(part: tuple[str, ...]) -> tuple[str, ...]:
    """A phrase without the possessives inside it ("właściciel NASZEGO lokalu": "właściciel
    lokalu"), as Polish, Slovak and Czech put them where English says "the"."""
    return (*part[:1], *(w for w in part[1:-1] if w not in _SLAVIC_POSSESSIVES), *part[-1:])


_SLAVIC_POSSESSIVES = frozenset(words_of("""
nasz nasza nasze naszego naszej naszym naszych moj moja moje mojego mojej moim moich twoj
twoja twoje twojego twojej nasa nase nasho nasej nasom nasu nasou mojho mojom moju mojou
meho moji mym svoj svoja svoje svojho svojej sveho svuj"""))
"""Possessives of the asker and the listener in Polish, Slovak and Czech, folded (not "nas",
which is also "us")."""


def _with_the(part: tuple[str, ...]) -> tuple[str, ...]:
    """A phrase with "our", "my", … read as "the" ("who does OUR books": "does the books")."""
    return tuple("the" if word in _POSSESSIVES else word for word in part)
