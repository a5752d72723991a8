"""Who does a job for us where the memory keeps the job beside the person's name in a
value: "Kdo je náš TRAKTORISTA?" is the `employee` "Petr Říha – traktorista", and only
that value — not every employee's.

The question asks who, names no person, and has one word of its own; the job part of one
key's values ("Name – job", "Name (job)", "Name, job") holds it.
"""

from __future__ import annotations

import re

from memrepo.answer.answer_kinds import NAME, value_kinds
from memrepo.answer.identities import words
from memrepo.answer.mentions import Mentions
from memrepo.answer.question_weights import PLAIN_VERBS
from memrepo.answer.reading import WHO_CUE, Reading
from memrepo.answer.scoring import COVERAGE, KeyMatch
from memrepo.cache import Connection
from memrepo.cache.lookups import keys_with_words, values_of_subjects
from memrepo.core.stems import base_forms

_MIN_JOB_WORD = 5
"""A job word is this long at least ("předák", "traktorista"; not "dělá")."""
_AFTER_NAME = re.compile(r"\s[–—-]\s|\s*\(|,\s")
"""Where a value's name ends and what the person does begins."""


def by_job_in_value(conn: Connection, scope: str, read: Reading,
                    mentions: Mentions) -> KeyMatch | None:
    """The one key whose values name a person and then their job holding the one word
    the question asks by, answering with those values only."""
    if WHO_CUE not in read.cues or any(m.identities for m in mentions.found):
        return None
    asked = [i for i in read.salient if i not in mentions.used and i not in read.optional
             and len(read.folded[i]) >= _MIN_JOB_WORD and read.folded[i] not in PLAIN_VERBS]
    if len(asked) != 1:
        return None
    forms = set(base_forms(read.folded[asked[0]]))
    rows = keys_with_words(conn, scope, forms, "object")
    values = values_of_subjects(conn, scope, {row.subject_key for row in rows})
    holding = {}
    for row in rows:
        naming = [value for value in values.get((row.subject_key, row.relation_key), [])
                  if forms & {f for w in words(_job_of(value)) for f in base_forms(w)}]
        if naming:
            holding[(row.subject_key, row.relation_key)] = (row, naming)
    if len(holding) != 1:
        return None
    (row, naming), = holding.values()
    return KeyMatch(row, COVERAGE, "the job its value names",
                    (f"'{read.raw[asked[0]]}' in its value after the name",),
                    values_naming=frozenset(naming))


def _job_of(value: str) -> str:
    """What a value says after the name it opens with ("Petr Říha – traktorista" →
    "traktorista"); "" where it opens with no name."""
    parts = _AFTER_NAME.split(value, maxsplit=1)
    if len(parts) < 2 or NAME not in value_kinds(parts[0]):
        return ""
    return parts[1]
