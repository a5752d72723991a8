"""Notes found by the question's meaning (the opt-in semantic layer, SPEC §7): a note whose
description is close to the question fills the places the words left among the notes an
answer lists — "How many Christmas wreaths are we hoping to sell?" finds the note "Advent
2026 season: advent wreaths for the shop …", whose words the question's do not find.
Never before a note the words found, never for a question far from every description.
Across languages the encoder is weak here (a Slovak question and an English description
score ≈ 0.1): it finds mostly paraphrases."""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.answer.semantic import Semantic
from memrepo.cache import Connection
from memrepo.cache.query import note_descriptions_by_rowid, notes_by_rowid, notes_held
from memrepo.core.records import NoteMatch

NOTE_MIN = 0.35
"""The least cosine similarity of question and description a note is listed by beside the
facts that answer; where no fact answers, NOTE_MIN_ALONE (the note may be the answer: a
rule, a plan, a price list). Measured on the dev worlds' note questions: of the 46 whose
note the words missed, the nearest three descriptions held it for 35; at 0.25 a fifth of
the questions that ask no note list one."""
NOTE_MIN_ALONE = 0.25
MAX_NOTES = 2_000
"""The most notes a question is compared with by meaning: every description's vector is
read for each question (≈ 2 KB each), so a larger memory's notes are found by their words
alone."""


def notes_by_meaning(conn: Connection, semantic: Semantic, question: str,
                     found: Sequence[NoteMatch], places: int, answered: bool,
                     ) -> list[NoteMatch]:
    """`found`, then the notes nearest the question in meaning up to `places` in all."""
    if len(found) >= places or notes_held(conn) > MAX_NOTES:
        return list(found)
    least = NOTE_MIN if answered else NOTE_MIN_ALONE
    listed = {match.name for match in found}
    descriptions = note_descriptions_by_rowid(conn)
    rowids = list(descriptions)
    scores = semantic.stored_scores(question, [descriptions[r] for r in rowids])
    near = sorted(((score, rowid) for score, rowid in zip(scores, rowids, strict=True)
                   if score is not None and score >= least), reverse=True)
    rows = notes_by_rowid(conn, [rowid for _, rowid in near])
    more = [NoteMatch(name, category, description, description, path)
            for path, name, category, description, _ in (rows[rowid] for _, rowid in near)
            if name not in listed]
    return [*found, *more][:places]
