"""Staff, premises and a household asked the way people ask (memrepo.answer.reading,
answer_kinds, alike, mentions_named, candidates, scoring, concepts): "when does X work"
asks their hours (a span of abbreviated days, "čt–so 17:00"), "who" is no date written
"3. 12. 2026", "dads" is dad's, "who does OUR books" is the phrase "does the books", a
role word of nobody named finds a thing's relation (`hall.pronajimatel`), of keys alike
the one saying nothing more than asked (`school`, not `driving_school`), a capitalised
name of a subject no note names keeps the answer to that subject ("what hobby does Vojta
have" is not his brother's), and a date by "when" alone is no answer to a word nothing
recorded holds ("kedy ide pes na STRIHANIE")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-25T12:00:00Z"
WORLD = f"""\
world: staff-and-household
about: "A cider maker with a tasting room, her family and her dog"
now: "{NOW}"
many_valued: [child, hobby, cizi_jazyk]
notes:
  - category: entities
    name: eva-hruba
    description: "Owner of the cider house; drives the deliveries herself"
    aliases: ["Eva Hrubá", "Eva"]
  - category: entities
    name: jaroslav-hruby
    description: "Eva's father, a retired joiner"
    aliases: ["Jaroslav Hrubý", "dad", "táta"]
  - category: entities
    name: rex
    description: "The family dog, a wire-haired terrier"
    aliases: ["Rex", "the dog"]
events:
  - {{op: assert, scope: eva, subject: tasting_room, relation: staff, object: "Lukáš Pokorný",
     valid_from: "2025-03-01", recorded_at: "2025-03-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: lukas_pokorny, relation: smena, object: "pá–ne 15:00–22:00",
     valid_from: "2025-03-01", recorded_at: "2025-03-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: eva, relation: dentist, object: "MUDr. Petra Malá",
     valid_from: "2020-01-01", recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: eva, relation: dentist_appointment,
     object: "8. 12. 2026 v 10:00", valid_from: "2026-11-01",
     recorded_at: "2026-11-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: father, relation: phone, object: "+420 605 111 222",
     valid_from: "2019-01-01", recorded_at: "2019-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: ucetni, relation: jmeno, object: "Ing. Marta Veselá",
     valid_from: "2022-01-01", recorded_at: "2022-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: hall, relation: pronajimatel, object: "Obec Kostelec",
     valid_from: "2021-01-01", recorded_at: "2021-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: ondra, relation: school, object: "Gymnázium Jihlava",
     valid_from: "2024-09-01", recorded_at: "2024-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: ondra, relation: driving_school, object: "Autoškola Rychlá",
     valid_from: "2026-10-01", recorded_at: "2026-10-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: ondra, relation: hobby, object: "florbal",
     valid_from: "2023-09-01", recorded_at: "2023-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: matylda, relation: skolka, object: "MŠ Kostelec",
     valid_from: "2025-09-01", recorded_at: "2025-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: rex, relation: rabies_vaccination_due,
     object: "2027-03-01", valid_from: "2026-03-01", recorded_at: "2026-03-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: eva, subject: laundry, relation: supplier, object: "Prádelna Bílá",
     valid_from: "2025-01-01", recorded_at: "2025-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: laundry, relation: pickup_day, object: "every Monday",
     valid_from: "2025-01-01", recorded_at: "2025-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: hall, relation: najem, object: "18 000 Kč měsíčně",
     valid_from: "2021-01-01", recorded_at: "2021-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: apples, relation: cena_kila, object: "9 Kč",
     valid_from: "2026-09-01", recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: eva, relation: cizi_jazyk, object: "němčina",
     valid_from: "2010-01-01", recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: eva, relation: cizi_jazyk, object: "angličtina",
     valid_from: "2010-01-01", recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{id: e1, op: assert, scope: eva, subject: rex, relation: groomer, object: "Psí salon Alík",
     valid_from: "2026-01-01", recorded_at: "2026-02-01T10:00:00Z", source: manual}}
  - {{op: retract, id: e2, target: e1, recorded_at: "2026-06-01T10:00:00Z", reason: "misheard",
     source: manual}}
  - {{op: assert, scope: eva, subject: rex, relation: groomer, object: "Salon Ťapka",
     valid_from: "2026-01-01", recorded_at: "2026-06-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: gp, relation: doctor, object: "MUDr. Jan Horák",
     valid_from: "2015-01-01", recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: gp, relation: practice, object: "Poliklinika Jih",
     valid_from: "2015-01-01", recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: eva, subject: hypoteka, relation: fixacia_do, object: "2031-02-28",
     valid_from: "2026-03-01", recorded_at: "2026-03-01T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "eva", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    # "when does X work": their hours, a span of abbreviated days
    ("When does Lukáš Pokorný work?", ["lukas_pokorny.smena=pá–ne 15:00–22:00"]),
    ("Kdy pracuje Lukáš?", ["lukas_pokorny.smena=pá–ne 15:00–22:00"]),
    # "who" is no date, though written "8. 12. 2026"
    ("Who's my dentist?", ["eva.dentist=MUDr. Petra Malá"]),
    ("whos my dentist", ["eva.dentist=MUDr. Petra Malá"]),
    ("When am I booked in at the dentist?", ["eva.dentist_appointment=8. 12. 2026 v 10:00"]),
    # "dads" written without the apostrophe is still dad's
    ("dads phone", ["father.phone=+420 605 111 222"]),
    # "who does OUR books": the phrase "does the books"
    ("Who does our books?", ["ucetni.jmeno=Ing. Marta Veselá"]),
    # a role word of nobody named: a thing's relation of that role
    ("Who is the landlord?", ["hall.pronajimatel=Obec Kostelec"]),
    ("Who owns the building?", ["hall.pronajimatel=Obec Kostelec"]),
    # of keys alike, the one that says no more than asked
    ("Which grammar school does Ondra go to?", ["ondra.school=Gymnázium Jihlava"]),
    ("What does Ondra do after school?", ["ondra.hobby=florbal"]),
])
def test_staff_and_household_in_everyday_words(memory: Memory, question: str,
                                               expected: list[str]) -> None:
    assert answered_keys(memory, "eva", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    # two questions in one that name no one: each part its own answer
    ("How much is the hall rent and who's the landlord?",
     ["hall.najem=18 000 Kč měsíčně", "hall.pronajimatel=Obec Kostelec"]),
    # "they" of the part before: the laundry
    ("Who does our laundry and which day do they pick it up?",
     ["laundry.supplier=Prádelna Bílá", "laundry.pickup_day=every Monday"]),
    # a thing's "value" asks an amount, as "how much" does
    ("What is the apples' kilo value?", ["apples.cena_kila=9 Kč"]),
    # a language written with a capital is no one's name
    ("What languages do I speak besides Czech?",
     ["eva.cizi_jazyk=němčina", "eva.cizi_jazyk=angličtina"]),
    # "what did we have down … on <date>": the system time
    ("What did we have down as Rex's groomer on 1 March 2026?",
     ["rex.groomer=Psí salon Alík"]),
    ("Who is Rex's groomer?", ["rex.groomer=Salon Ťapka"]),
    # a relation that is the role the question names its subject by: that person's name
    ("Who's our GP?", ["gp.doctor=MUDr. Jan Horák"]),
    # words people use: a driving school in Slovak, a mortgage's fixation
    ("Do ktorej autoškoly chodí Ondra?", ["ondra.driving_school=Autoškola Rychlá"]),
    ("mortgage fixed until when?", ["hypoteka.fixacia_do=2031-02-28"]),
])
def test_parts_pronouns_amounts_and_what_was_noted(memory: Memory, question: str,
                                                   expected: list[str]) -> None:
    assert answered_keys(memory, "eva", question) == expected


@pytest.mark.parametrize("question", [
    "What hobby does Matylda have?",   # her brother's hobby is not hers
    "Kedy ide Rex na strihanie?",      # no grooming recorded: not the rabies jab
])
def test_no_other_subjects_value_and_no_date_for_an_unrecorded_thing(
        memory: Memory, question: str) -> None:
    assert answered_keys(memory, "eva", question) == []


def test_a_name_of_a_subject_without_a_note_says_what_is_recorded_of_it(
        memory: Memory) -> None:
    answer = memory.recall("eva", "What hobby does Matylda have?")
    assert any("matylda" in remark and "skolka" in remark for remark in answer.remarks)
