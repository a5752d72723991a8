"""A child's school year, the bank and the lease asked the way people ask
(memrepo.answer.reading, concepts): "what YEAR is Tomek in" asks the year he is in at
school, not a date, and of a child with no year recorded, not the school's name; "which
class" is the same question; a "bank manager" is nobody's boss; "pls" asks nothing;
"security money" is the deposit; "what did we borrow the money FOR" asks its purpose;
"our person at the bank" is the advisor; "where is dad" asks where he lives (a care home);
a capitalised name spelling a client's subject keeps its answer though another subject
shares the name's first word ("w Bursztynowej Pracowni"); someone else's wedding is not
the asker's wife."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-20T12:00:00Z"
WORLD = f"""\
world: school-and-bank
about: "A cleaning company's owner, her husband and two children"
now: "{NOW}"
many_valued: [child]
notes:
  - category: entities
    name: marek-hudak
    description: "Agnieszka's husband, runs the van rounds"
    aliases: ["Marek", "husband", "my husband"]
  - category: entities
    name: tomas-hudak
    description: "Our son, in Year 5 at Holly Bank"
    aliases: ["Tomek", "Tomáš"]
  - category: entities
    name: zofia-hudak
    description: "Our daughter, started school last September"
    aliases: ["Zosia", "Zofia"]
  - category: entities
    name: jerzy-hudak
    description: "Agnieszka's father, lives in a care home in Sopot"
    aliases: ["Jerzy", "dad", "tata"]
events:
  - {{op: assert, scope: agnieszka, subject: jerzy_hudak, relation: care_home,
     object: "Dom Opieki Bursztynowa Przystań", valid_from: "2024-01-01",
     recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: jerzy_hudak, relation: pokoj, object: "41",
     valid_from: "2024-01-01", recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: bursztynowa_przystan, relation: telefon,
     object: "+48 58 551 40 20", valid_from: "2024-01-01", recorded_at: "2024-01-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: agnieszka, subject: bursztynowa_pracownia, relation: kontakt,
     object: "Ewa Kamińska", valid_from: "2025-01-01", recorded_at: "2025-01-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: agnieszka, subject: tomas, relation: school,
     object: "Holly Bank Primary School", valid_from: "2022-09-01",
     recorded_at: "2022-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: tomas, relation: year_group, object: "Year 5",
     valid_from: "2026-09-01", recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: zofia, relation: school,
     object: "Holly Bank Primary School", valid_from: "2025-09-01",
     recorded_at: "2025-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: supervisor, relation: name, object: "Sandra Okafor",
     valid_from: "2025-09-01", recorded_at: "2025-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: marek, relation: phone, object: "07700 900123",
     valid_from: "2020-01-01", recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: office_lease, relation: landlord,
     object: "Kirkgate Estates", valid_from: "2024-04-01", recorded_at: "2024-04-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: agnieszka, subject: office_lease, relation: deposit, object: "£1,700",
     valid_from: "2024-04-01", recorded_at: "2024-04-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: office_lease, relation: monthly_rent,
     object: "£850", valid_from: "2024-04-01", recorded_at: "2024-04-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: agnieszka, subject: bank_loan, relation: purpose,
     object: "a second van and the office fit-out", valid_from: "2024-05-15",
     recorded_at: "2024-05-15T10:00:00Z", source: manual}}
  - {{op: assert, scope: agnieszka, subject: bank_loan, relation: monthly_installment,
     object: "£412", valid_from: "2024-05-15", recorded_at: "2024-05-15T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: agnieszka, subject: bank_loan, relation: advisor,
     object: "Michaela Reed", valid_from: "2024-05-15", recorded_at: "2024-05-15T10:00:00Z",
     source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "agnieszka", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    # "what year is X in": the year at school, not the school's name
    ("what year is Tomek in now?", ["tomas.year_group=Year 5"]),
    ("which school does Tomek go to and what year is he in?",
     ["tomas.school=Holly Bank Primary School", "tomas.year_group=Year 5"]),
    ("Which school is Zosia at?", ["zofia.school=Holly Bank Primary School"]),
    # the boss is still "our manager"
    ("who's our manager?", ["supervisor.name=Sandra Okafor"]),
    # "pls" asks nothing
    ("my husband's number pls", ["marek.phone=07700 900123"]),
    # the words people use for the lease's deposit and the loan
    ("How much security money did we leave with the landlord?", ["office_lease.deposit=£1,700"]),
    ("What did we borrow the money for?",
     ["bank_loan.purpose=a second van and the office fit-out"]),
    ("who's our person at the bank?", ["bank_loan.advisor=Michaela Reed"]),
    # "where is dad": where he lives, here a care home
    ("Gdzie jest tata?", ["jerzy_hudak.care_home=Dom Opieki Bursztynowa Przystań"]),
    ("Where's dad?", ["jerzy_hudak.care_home=Dom Opieki Bursztynowa Przystań"]),
    # a capitalised name: the subject it spells, though "pracownia" is a concept word
    ("Z kim się kontaktuję w Bursztynowej Pracowni?",
     ["bursztynowa_pracownia.kontakt=Ewa Kamińska"]),
])
def test_school_year_lease_and_loan_in_everyday_words(memory: Memory, question: str,
                                                      expected: list[str]) -> None:
    assert answered_keys(memory, "agnieszka", question) == expected


@pytest.mark.parametrize("question", [
    "what year is Zosia in at school?",  # only her school is recorded
    "which class is Zosia in?",
    "who's our bank manager?",           # not the supervisor
    "what year did we buy the van?",     # a date nothing records: not a school year
    "Where's Emma and Liam's wedding?",  # nobody's wedding recorded: not "my wife"
])
def test_not_recorded_rather_than_a_neighbour(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "agnieszka", question) == []

