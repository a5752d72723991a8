"""A shop's suppliers, terms and staff asked in everyday words (memrepo.answer.candidates,
identities, answer_kinds, reading, concepts): a supplier verb names the thing supplied, not
whoever a note calls a supplier ("kto nam dostarcza ziarno", while a wholesaler's note and
an owner's "buying trips" say supply too); a fact's subject written as what a note's
description says the note is (`book_wholesaler` of "Book wholesaler on Półłanki"); an
insurer's name leading its terms answers "who"; "what's the rent" asks the amount; words
people use for staff, shifts, medication, allergies and a vehicle's inspection; "her NEW
number" asks a phone; a date whose quote holds the rest of the question ("when is Kuba
seeing the ALLERGIST": "wizytę u alergologa"); the note of a person asked about whose
facts do not answer ("what did my mother do for a living")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-28T12:00:00Z"
WORLD = f"""\
world: shop-suppliers
about: "A second-hand bookshop with a coffee corner, and the family that runs it"
now: "{NOW}"
many_valued: [employee]
notes:
  - category: entities
    name: sowa
    description: "Antykwariat Sowa, our second-hand bookshop with a coffee corner"
    aliases: ["Sowa", "the shop"]
  - category: entities
    name: tomek
    description: "Co-owner of the shop; drives the van on buying trips"
    aliases: ["Tomek"]
  - category: entities
    name: hurtownia-kwadrat
    description: "Book wholesaler on Półłanki: new titles and remainders"
    aliases: ["Kwadrat", "hurtownia", "the wholesaler"]
  - category: entities
    name: kuba
    description: "Marta and Tomek's younger son, 4"
    aliases: ["Kuba", "Jakub"]
  - category: entities
    name: halina-nowak
    description: "Marta's mother, a retired pharmacist in Nowy Sącz"
    aliases: ["Halina Nowak", "mama"]
  - category: entities
    name: jan-kowalczyk
    description: "Tomek's father, a retired mountain guide"
    aliases: ["Jan Kowalczyk"]
events:
  - {{op: assert, scope: sowa, subject: coffee_beans, relation: supplier,
     object: "Palarnia Pod Kopcem", valid_from: "2026-04-01",
     recorded_at: "2026-03-20T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: coffee_beans, relation: price, object: "104 zł/kg",
     valid_from: "2026-04-01", recorded_at: "2026-03-20T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: book_wholesaler, relation: contact_phone,
     object: "12 655 40 10", valid_from: "2023-09-01", recorded_at: "2023-09-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: sowa, subject: van, relation: ubezpieczenie,
     object: "PZU, OC+AC, do 2027-03-31", valid_from: "2026-04-01",
     recorded_at: "2026-04-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: van, relation: przeglad, object: "ważny do 2027-08-12",
     valid_from: "2026-08-12", recorded_at: "2026-08-12T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: czynsz, relation: kwota, object: "4 500 zł netto",
     valid_from: "2026-01-01", recorded_at: "2025-12-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: czynsz, relation: termin_platnosci,
     object: "do 10. dnia miesiąca", valid_from: "2023-07-15",
     recorded_at: "2023-07-15T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: sowa, relation: employee, object: "Zuzana Horváthová",
     valid_from: "2026-09-15", recorded_at: "2026-09-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: zuzana, relation: grafik, object: "wt–pt 9:30–16:00",
     valid_from: "2026-09-15", recorded_at: "2026-09-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: jan_kowalczyk, relation: medication,
     object: "Metformina 500 mg", valid_from: "2024-11-01", recorded_at: "2024-11-05T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: sowa, subject: kuba, relation: alergia, object: "orzechy laskowe",
     valid_from: "2023-06-01", recorded_at: "2023-06-05T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: kuba, relation: next_appointment,
     object: "dr Sobczak, 2026-12-09 10:30", valid_from: "2026-11-12",
     recorded_at: "2026-11-12T10:00:00Z", source: conversation, session: s7,
     quote: "Przełożyli Kubie wizytę u alergologa na 9 grudnia, 10:30."}}
  - {{op: assert, scope: sowa, subject: kuba, relation: birthday, object: "2022-03-14",
     valid_from: "2022-03-14", recorded_at: "2023-06-05T10:00:00Z", source: manual}}
  - {{op: assert, scope: sowa, subject: halina_nowak, relation: telefon, object: "+48 18 443 20 71",
     valid_from: "2026-05-20", recorded_at: "2026-05-20T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "sowa", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    # a supplier verb or noun with the thing supplied: that thing's supplier
    ("Kto nam dostarcza ziarno?", ["coffee_beans.supplier=Palarnia Pod Kopcem"]),
    ("Kto je náš dodávateľ kávových zŕn?", ["coffee_beans.supplier=Palarnia Pod Kopcem"]),
    ("Who supplied our coffee beans?", ["coffee_beans.supplier=Palarnia Pod Kopcem"]),
    ("Ile płacimy za kilogram kawy?", ["coffee_beans.price=104 zł/kg"]),
    # the wholesaler's note names the `book_wholesaler` its description says it is
    ("Jaki jest numer telefonu do hurtowni?", ["book_wholesaler.contact_phone=12 655 40 10"]),
    # an insurer's name leads its terms: "who" is answered
    ("Who is the van insured with?", ["van.ubezpieczenie=PZU, OC+AC, do 2027-03-31"]),
    ("Until when is the van's roadworthiness check good for?",
     ["van.przeglad=ważny do 2027-08-12"]),
    # "what's the rent": the rent is an amount
    ("What's the rent?", ["czynsz.kwota=4 500 zł netto"]),
    ("Who works in the shop?", ["sowa.employee=Zuzana Horváthová"]),
    ("What are Zuzana's shifts?", ["zuzana.grafik=wt–pt 9:30–16:00"]),
    ("What does Jan Kowalczyk take for his diabetes?",
     ["jan_kowalczyk.medication=Metformina 500 mg"]),
    ("What does Kuba have to stay away from?", ["kuba.alergia=orzechy laskowe"]),
    ("What's Halina's new number?", ["halina_nowak.telefon=+48 18 443 20 71"]),
    ("When is Kuba seeing the allergist?", ["kuba.next_appointment=dr Sobczak, 2026-12-09 10:30"]),
])
def test_a_shop_asked_in_everyday_words(memory: Memory, question: str,
                                        expected: list[str]) -> None:
    assert answered_keys(memory, "sowa", question) == expected


@pytest.mark.parametrize("question", [
    "Kto nam dostarcza mleko?",     # no milk recorded: not the wholesaler, not Tomek
    "Who insures the Skoda?",       # no Skoda: not the van's insurer
    "What's the water bill?",       # no water bill: not the rent
])
def test_nothing_recorded_is_no_other_things_value(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "sowa", question) == []


def test_the_note_of_whom_is_asked_when_no_fact_of_theirs_answers(memory: Memory) -> None:
    answer = memory.recall("sowa", "What did Halina Nowak do for a living?")
    assert answer.facts == []
    assert "halina-nowak" in [note.name for note in answer.notes]


def test_the_answer_says_which_word_named_the_thing_supplied(memory: Memory) -> None:
    answer = memory.recall("sowa", "Kto nam dostarcza ziarno?")
    assert [fact.why["subject"] for fact in answer.facts] == ["words 'ziarno'"]
