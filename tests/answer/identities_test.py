"""The scope's identities: subjects and entity notes joined when a note's name or alias is
spelled like a subject. A chain of notes each linking the next subject joins them all into
one identity, each note's description held once, whatever the order names are read in
(the hash seed of the process)."""

from __future__ import annotations

import subprocess
import sys

from memrepo.answer.concepts import shipped
from memrepo.answer.identities import identities
from memrepo.cache.lookups import NoteRow

CHAIN = 60


def _chain(size: int) -> list[NoteRow]:
    """Notes each linking two subjects of a chain, and one more further on."""
    return [NoteRow(f"n-{i}", f"Note {i} about two spellings of a subject",
                    (f"s {i}", f"s {i + 1}", f"s {(i * 7) % size}")) for i in range(size)]


def test_a_chain_of_notes_joins_every_subject_once() -> None:
    subjects = [(f"s_{i}", f"s_{i}") for i in range(CHAIN + 1)]
    found = identities(subjects, _chain(CHAIN), "me", shipped())
    assert len(found) == 1
    assert found[0].subjects == {f"s_{i}" for i in range(CHAIN + 1)}
    assert len(found[0].descriptions) == CHAIN
    assert found[0].notes == {f"n-{i}" for i in range(CHAIN)}


_PRINT_IDENTITIES = """
from memrepo.answer.concepts import shipped
from memrepo.answer.identities import identities
from memrepo.cache.lookups import NoteRow
notes = [NoteRow("acme-nis", "Acme's branch in Niš, orders by phone", ("Acme", "acme nis")),
         NoteRow("acme-torun", "Acme's branch in Toruń, invoices", ("Acme", "acme torun")),
         NoteRow("eva-kaczmarek", "Accountant at Acme Niš since 2021", ("Eva", "accountant")),
         NoteRow("soren-nystrom", "Accountant at Acme Toruń, prefers e-mail", ("accountant",))]
subjects = [(s, s) for s in ("acme", "acme_nis", "acme_torun", "eva_kaczmarek",
                             "soren_nystrom", "accountant")]
for i in identities(subjects, notes, "me", shipped()):
    print(sorted(i.subjects), sorted(i.notes))
"""


def test_the_same_identities_whatever_the_hash_seed() -> None:
    printed = {subprocess.run([sys.executable, "-c", _PRINT_IDENTITIES], check=True,
                              capture_output=True, text=True,
                              env={"PYTHONHASHSEED": str(seed), "PATH": ""}).stdout
               for seed in range(6)}
    assert len(printed) == 1
