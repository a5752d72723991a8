"""A music teacher's pupils, with no notes about them: "where" asks the venue of a pupil's
exam (never the exam itself), "when and where" asks both of one thing, a role nobody
recorded is not answered by the pupil's one name relation ("who's Lena's dad" is not her
mother), a person named only in what was said is nobody's answer ("how many days off
did KATKA have": not Martin's), a terse "lesson time?" asks a time (not the fee), and a
thing of a pupil's no key holds is not answered by their one price ("Mateusz's new AMP")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-29T18:00:00Z"
WORLD = f"""\
world: pupils
about: "A piano teacher's pupils and her household"
now: "{NOW}"
notes:
  - category: entities
    name: marta-kowalczyk
    description: "Me: piano and guitar teacher in Gdańsk-Wrzeszcz"
    aliases: ["Marta"]
  - category: entities
    name: ola-wisniewska
    description: "Ola Wiśniewska, piano pupil, twelve, lessons on Thursdays"
    aliases: ["Ola"]
events:
  - {{op: assert, scope: marta, subject: lena_kaczmarek, relation: exam,
     object: "ABRSM Grade 5 Piano", valid_from: "2026-09-01",
     recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: lena_kaczmarek, relation: exam_date,
     object: "2026-12-05 11:40", valid_from: "2026-09-01",
     recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: lena_kaczmarek, relation: exam_venue,
     object: "Akademia Muzyczna w Gdańsku", valid_from: "2026-09-01",
     recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: lena_kaczmarek, relation: mother,
     object: "Agnieszka Kaczmarek", valid_from: "2026-09-01",
     recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: martin_horvath, relation: dovolenka_days,
     object: "25", valid_from: "2026-01-01", recorded_at: "2026-01-10T10:00:00Z",
     quote: "Martin má 25 dní dovolenky, Katka o päť menej.", source: conversation,
     session: chat-0110}}
  - {{op: assert, scope: marta, subject: petra_svobodova, relation: role,
     object: "senior stylist", valid_from: "2024-01-01", recorded_at: "2024-01-10T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: marta, subject: ola_wisniewska, relation: termin_lekcji,
     object: "wtorek 16:00", valid_from: "2025-09-01", recorded_at: "2025-09-01T10:00:00Z",
     source: manual}}
  - {{op: end, scope: marta, subject: ola_wisniewska, relation: termin_lekcji,
     valid_to: "2026-08-31", recorded_at: "2026-08-30T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: ola_wisniewska, relation: termin_lekcji,
     object: "czwartek 17:00", valid_from: "2026-09-01", recorded_at: "2026-09-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: marta, subject: koncert_gwiazdkowy, relation: data,
     object: "12 grudnia 2026, 17:00", valid_from: "2026-09-10",
     recorded_at: "2026-09-10T10:00:00Z", source: manual}}
  - {{op: end, scope: marta, subject: koncert_gwiazdkowy, relation: data,
     valid_to: "2026-11-02", recorded_at: "2026-11-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: koncert_gwiazdkowy, relation: data,
     object: "13 grudnia 2026, 16:00", valid_from: "2026-11-02",
     recorded_at: "2026-11-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: koncert_gwiazdkowy, relation: miejsce,
     object: "Dom Sąsiedzki Wrzeszcz", valid_from: "2026-09-10",
     recorded_at: "2026-09-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: ola_wisniewska, relation: lesson_fee,
     object: "120 zł za 45 minut", valid_from: "2026-09-01",
     recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: marta, subject: mateusz_nowicki, relation: lesson_fee,
     object: "110 zł za 45 minut", valid_from: "2026-09-01",
     recorded_at: "2026-09-01T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "marta", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Where is Lena's exam being held?",
     ["lena_kaczmarek.exam_venue=Akademia Muzyczna w Gdańsku"]),
    ("When and where is Lena's exam?", ["lena_kaczmarek.exam_date=2026-12-05 11:40",
                                         "lena_kaczmarek.exam_venue=Akademia Muzyczna w Gdańsku"]),
    ("What's the date of Lena's exam?", ["lena_kaczmarek.exam_date=2026-12-05 11:40"]),
    ("Ola's lesosn time?", ["ola_wisniewska.termin_lekcji=czwartek 17:00"]),  # not her fee
    ("How much is Ola's lesson?", ["ola_wisniewska.lesson_fee=120 zł za 45 minut"]),
    ("Lena's mum's name?", ["lena_kaczmarek.mother=Agnieszka Kaczmarek"]),  # a name asked
])
def test_where_and_when_of_a_pupils_exam(memory: Memory, question: str,
                                         expected: list[str]) -> None:
    assert answered_keys(memory, "marta", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("Ola's lesson got moved at some point — from what to what?",  # its day, not its fee
     ["ola_wisniewska.termin_lekcji=wtorek 16:00", "ola_wisniewska.termin_lekcji=czwartek 17:00"]),
    ("Czy koncert gwiazdkowy był przesuwany?",  # the relation of the concert that changed
     ["koncert_gwiazdkowy.data=12 grudnia 2026, 17:00",
      "koncert_gwiazdkowy.data=13 grudnia 2026, 16:00"]),
])
def test_what_was_moved(memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "marta", question) == expected


@pytest.mark.parametrize("question", [
    "Who's Lena's dad?",                          # her mother is recorded, no father
    "Koľko dní dovolenky mala Katka?",            # Katka only in what was said of Martin
    "Who is Petra's new employer in Prague?",     # a firm: never her job title
    "How much did Mateusz's new amp cost?",       # his amp: not his lesson fee
])
def test_what_is_not_recorded_is_not_answered_by_a_neighbour(memory: Memory,
                                                             question: str) -> None:
    assert answered_keys(memory, "marta", question) == []
