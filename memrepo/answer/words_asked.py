"""The words a question asks by (memrepo.answer.keys), as read (memrepo.answer.reading)
and set against whom it names: whether it asks anything beyond whom it names, whether a
word of it is one that neither a mention nor the concept table explains (only then may the
semantic layer answer), the words naming whom it asks about or as written, and every word
of the roles and the concepts it names.
"""

from __future__ import annotations

from collections.abc import Iterable

from memrepo.answer.answer_kinds import asks_days_or_time
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import words
from memrepo.answer.mentions import Mentions
from memrepo.answer.question import asks_change_word
from memrepo.answer.reading import WHERE_CUE, Reading, asks_since_when
from memrepo.answer.roles_named import role_spans
from memrepo.answer.stopwords import STOP_WORDS


def uninterpreted(read: Reading, mentions: Mentions, concepts: ConceptTable) -> bool:
    """Whether the question has a content word that neither a mention nor the concept
    table explains: only then may the semantic layer answer — a question whose words the
    table reads ("Ondra's PHONE") and no key holds is "not recorded", not a near match."""
    inside = {i for m in mentions.found for i in range(m.start, m.end)}
    return any(i not in inside and i not in read.optional and not read.concepts.get(i)
               for i in read.salient)


def naming_words(read: Reading, mentions: Mentions) -> list[str]:
    """The words by which the question names the people it asks about ("mama Agnieszki"),
    a name with its capital ("Maja", not "maja": Polish for "they have")."""
    return [read.raw[i][:1].upper() + read.raw[i][1:] if i in read.capitalised else read.raw[i]
            for m in mentions.found if m.identities for i in range(m.start, m.end)]


def asks_beyond(read: Reading, mentions: Mentions) -> bool:
    """Whether the question asks something of whom it names: a word outside its mentions
    (besides fillers, optional words and a possessor) or a cue ("how much", "who"; not
    "where", which asks of whom it names where they are)."""
    inside = {i for m in mentions.found if m.identities for i in range(m.start, m.end)}
    since = asks_since_when(read.folded)  # "SINCE WHEN has Kasia been my second shooter": the
    # fact that makes her so, not all of her
    return bool(set(read.cues) - {WHERE_CUE}) or asks_days_or_time(read.folded) or any(
        i not in inside and (i not in read.optional or i in since or _changed_by_name(read, i))
        and i not in mentions.set_aside for i in read.salient)  # "WHICH DAYS do we go (gym)"


def _changed_by_name(read: Reading, i: int) -> bool:
    """A word of change that names what changed, in a question asking how a value changed
    ("When did Halina MOVE in": her address, not everything of hers that ever changed)."""
    return read.asks_change and asks_change_word(read.folded[i]) and bool(read.concepts.get(i))


def said(read: Reading, start: int, end: int) -> str:
    """The question's words from `start` to `end` as written (nobody named: the asker)."""
    return " ".join(read.raw[start:end]) or "the asker"


def role_words_asked(read: Reading, concepts: ConceptTable) -> set[str]:
    """Every word of the roles the question names ("my mum": mother, mum, mama, …)."""
    return {w for said in words_of_roles_asked(read, concepts).values() for w in said}


def words_of_roles_asked(read: Reading, concepts: ConceptTable,
                         among: frozenset[str] | None = None) -> dict[str, set[str]]:
    """Each role the question names (of `among`, when given) → every word of it ("my
    DAD": father → tata, dad, otec …)."""
    roles = {c for span in role_spans(read.folded, concepts) for c in span.concepts
             & (concepts.roles if among is None else among)}
    return {role: words_of_concepts({role}, concepts) - STOP_WORDS for role in sorted(roles)}


def words_of_concepts(found: Iterable[str], concepts: ConceptTable) -> set[str]:
    """Every word of the entries of these concepts ("mechanic": mechanic, garage, mechanik,
    warsztat, samochodowy …)."""
    return {w for concept in found for entry in concepts.words_of.get(concept, ())
            for w in words(entry)}


def concept_forms(read: Reading, concepts: ConceptTable, roles: bool = False) -> set[str]:
    """Every word of the concepts the question's words name (`roles`: of the role concepts
    alone, "the LANDLORD" of nobody named: `hala.pronajimatel`)."""
    names = frozenset().union(*(read.concepts.get(i, frozenset()) for i in read.salient))
    names = names & concepts.roles if roles else names - concepts.roles
    return {w for name in names for entry in concepts.words_of.get(name, ())
            for w in words(entry)} - STOP_WORDS
