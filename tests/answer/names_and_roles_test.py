"""Whom a question names, however the keys were written (memrepo.answer.when, candidates,
identities): a client called like a Czech month ("Kvetná", folded as "května") is a name
when written with a capital letter inside the sentence; a role subject whose name key holds
a note's name is that note's person (`cleaner.name` = "Zuzana Mrázová": "Zuzka"); a role
alias that is a phrase ("mother-in-law") is no role of its single words ("mother"); the
words people use for a car's MOT (not its service), its motor cover, health insurance and
whom we rent from; "our" in scope `danubebyte` is the subject `danube_byte`, and a note
described as "Danube Byte's accountant" is the accountant, not the firm."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-12-01T12:00:00Z"
WORLD = f"""\
world: names-and-roles
about: "An Irish-English family in Bratislava and the wife's small IT company"
now: "{NOW}"
many_valued: [client]
notes:
  - category: entities
    name: kvetna-logistics
    description: "Kvetná Logistics s.r.o., a Trnava warehouse firm, a small client"
    aliases: ["Kvetná", "Kvetna Logistics"]
  - category: entities
    name: lumora
    description: "Lumora a.s., a Bratislava fintech, the biggest client"
    aliases: ["Lumora"]
  - category: entities
    name: zuzana-mrazova
    description: "Cleaner, comes once a week, paid cash"
    aliases: ["Zuzka", "the cleaner"]
  - category: entities
    name: danube-byte
    description: "Danube Byte s.r.o., Siobhan's IT consultancy in Bratislava"
    aliases: ["Danube Byte", "the company"]
  - category: entities
    name: eva-balakova
    description: "Danube Byte's external accountant (Ing.), does the books and VAT"
    aliases: ["Ing. Baláková", "the accountant"]
  - category: entities
    name: linda-harris
    description: "Tom's mother in Leeds, Siobhan's mother-in-law"
    aliases: ["Linda", "mother-in-law"]
events:
  - {{op: assert, scope: siobhan, subject: lumora, relation: day_rate, object: "590 EUR",
     valid_from: "2026-07-01", recorded_at: "2026-06-20T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: lumora, relation: contract_end,
     object: "2027-06-30", valid_from: "2025-07-01", recorded_at: "2025-07-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: siobhan, subject: kvetna_logistics, relation: day_rate,
     object: "480 EUR", valid_from: "2025-04-01", recorded_at: "2025-04-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: siobhan, subject: cleaner, relation: name, object: "Zuzana Mrázová",
     valid_from: "2024-01-10", recorded_at: "2024-01-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: cleaner, relation: hourly_rate, object: "14 EUR",
     valid_from: "2026-03-01", recorded_at: "2026-02-20T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: mother_in_law, relation: city, object: "Leeds",
     valid_from: "1985-01-01", recorded_at: "2024-01-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: mother, relation: city, object: "Galway",
     valid_from: "1990-01-01", recorded_at: "2024-01-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: car, relation: stk_valid_until,
     object: "2027-03-14", valid_from: "2025-03-11", recorded_at: "2025-03-11T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: siobhan, subject: car, relation: service_due, object: "2027-06-10",
     valid_from: "2026-06-10", recorded_at: "2026-06-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: car, relation: poistenie,
     object: "Kooperativa PZP, 295 EUR/year", valid_from: "2025-05-10",
     recorded_at: "2025-05-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: siobhan, relation: poistenie, object: "Dôvera",
     valid_from: "2021-03-01", recorded_at: "2024-01-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: landlord, relation: name, object: "Ján Kováč",
     valid_from: "2023-09-01", recorded_at: "2024-01-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: danubebyte, subject: danube_byte, relation: client,
     object: "Lumora a.s.", valid_from: "2022-03-01", recorded_at: "2022-03-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: danubebyte, subject: danube_byte, relation: client,
     object: "Kvetná Logistics s.r.o.", valid_from: "2025-04-01",
     recorded_at: "2025-04-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: danubebyte, subject: accountant, relation: name,
     object: "Ing. Eva Baláková", valid_from: "2021-03-01",
     recorded_at: "2021-03-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: danubebyte, subject: danube_byte, relation: employee,
     object: "Martin Horváth", valid_from: "2022-02-01", recorded_at: "2022-02-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: siobhan, subject: kids, relation: pediatrician,
     object: "MUDr. Petra Šimková", valid_from: "2023-09-15",
     recorded_at: "2023-09-15T10:00:00Z", source: manual}}
  - {{op: assert, scope: siobhan, subject: dog, relation: vet, object: "MVDr. Ondrej Kríž",
     valid_from: "2023-10-01", recorded_at: "2023-10-01T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "siobhan", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("What's Kvetná's day rate?", ["kvetna_logistics.day_rate=480 EUR"]),
    ("What does Zuzka get paid per hour these days?", ["cleaner.hourly_rate=14 EUR"]),
    ("Where does Linda live?", ["mother_in_law.city=Leeds"]),
    # a month in lower case is still a month: "od května" is since May
    ("Jaká je denní sazba Lumory od května?", ["lumora.day_rate=590 EUR"]),
    ("When's the car's MOT due?", ["car.stk_valid_until=2027-03-14"]),
    ("When is the car's next service?", ["car.service_due=2027-06-10"]),
    ("Who's the motor cover with at the moment?", ["car.poistenie=Kooperativa PZP, 295 EUR/year"]),
    ("Which health insurance am I with?", ["siobhan.poistenie=Dôvera"]),
    ("Who do we rent from?", ["landlord.name=Ján Kováč"]),
    ("Who's the animal doctor we use for the dog?", ["dog.vet=MVDr. Ondrej Kríž"]),
])
def test_whom_the_question_names(memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "siobhan", question) == expected


@pytest.mark.parametrize("question", [
    "When does the Kvetná contract end?",    # Kvetná's contract is not recorded: not Lumora's
])
def test_a_name_is_never_another_subjects_value(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "siobhan", question) == []


def test_our_is_the_subject_spelled_like_the_scope(memory: Memory) -> None:
    assert answered_keys(memory, "danubebyte", "Who are our current clients?") == [
        "danube_byte.client=Lumora a.s.", "danube_byte.client=Kvetná Logistics s.r.o."]
    assert answered_keys(memory, "danubebyte", "Who's our accountant?") == [
        "accountant.name=Ing. Eva Baláková"]
    # "on the payroll" is staff, not the accountant who does the payroll
    assert answered_keys(memory, "danubebyte", "Who is on the payroll?") == [
        "danube_byte.employee=Martin Horváth"]
