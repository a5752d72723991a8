"""Parts of a text that lean on the part before, and words that only say a value changed:
"… and which DAYS do we go?" asks the days of the client the part before named ("days" asks
nothing only in "these days"); "… and what sport does HE do now?" is the person named before;
"… and who's the contact person THERE?" is at the supplier the part before answered; "how
has Lumora's day rate MOVED" asks no new address, "my number changed, OLD and new?" no age."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

_NOTES = """notes:
  - category: entities
    name: jozef-balaz
    description: "Jozef Baláž: Maggie's father, retired in Žilina"
    aliases: ["Jozef Baláž", "otec", "dad"]
    body: |
      # Jozef Baláž
      Maggie's father.
"""

WORLD = world_yaml("leaning-parts", "A Leeds cleaning company and its owners", NOW, world_facts(
    "maggie", (
        ("client_gym", "contract_price", "£1,850 a month"),
        ("client_gym", "visit_days", "Monday, Wednesday, Friday"),
        ("client_gym", "visit_time", "5:00–6:30am"),
        ("agata", "hourly_rate", "£13.50 an hour"),
        ("agata", "dni_pracy", "wtorek i piątek"),
        ("matej", "skola", "ZŠ Polná"),
        ("matej", "hobby", "florbal"),
        ("hair_colour", "supplier", "Hairtech Polska sp. z o.o."),
        ("hairtech_polska", "contact_person", "Agnieszka Wiśniewska"),
        ("ela", "kruzok", "plávanie"),
        ("hypoteka", "poradce", "Ing. Jan Vlček"),
        ("jan_vlcek", "phone", "+420 734 560 218"),
        ("otec", "neurolog", "MUDr. Ivan Greguš"),
        ("jozef_balaz", "next_neurology_visit", "2026-12-03 9:40"),
    )) + world_event("maggie", "lumora", "day_rate", "520 EUR", "2024-07-01")
    + world_event("maggie", "lumora", "day_rate", "590 EUR", "2026-07-01",
                  "New Lumora rate 590/day from 1 July.")
    + world_event("maggie", "maggie", "phone", "+421 944 803 517", "2016-09-01")
    + world_event("maggie", "maggie", "phone", "+421 915 262 088", "2026-02-15",
                  "New number from the 15th: +421 915 262 088.")).replace("notes: []\n", _NOTES)

world_repo, memory = world_fixtures(WORLD, "maggie", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("how much does the gym pay and which days do we go?",
     ["client_gym.contract_price=£1,850 a month",
      "client_gym.visit_days=Monday, Wednesday, Friday"]),
    ("which days do we go to the gym?", ["client_gym.visit_days=Monday, Wednesday, Friday"]),
    ("agata's hourly rate & which days does she come in?",
     ["agata.hourly_rate=£13.50 an hour", "agata.dni_pracy=wtorek i piątek"]),
    ("Matej's school and what sport he does now?",
     ["matej.skola=ZŠ Polná", "matej.hobby=florbal"]),
    ("Who supplies our colours and who's the contact person there?",
     ["hair_colour.supplier=Hairtech Polska sp. z o.o.",
      "hairtech_polska.contact_person=Agnieszka Wiśniewska"]),
    ("What does Ela do after school these days?", ["ela.kruzok=plávanie"]),
    ("Kto je otcov neurológ a kedy má ďalšiu kontrolu?",  # his next check of that kind
     ["otec.neurolog=MUDr. Ivan Greguš", "jozef_balaz.next_neurology_visit=2026-12-03 9:40"]),
    ("Who is our mortgage advisor and what's his phone?",  # his: the advisor the part
     ["hypoteka.poradce=Ing. Jan Vlček", "jan_vlcek.phone=+420 734 560 218"]),  # answered
])
def test_a_part_leaning_on_the_one_before_is_asked_of_what_it_named(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "maggie", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("How has Lumora's day rate moved over the years?",
     ["lumora.day_rate=520 EUR", "lumora.day_rate=590 EUR"]),
    ("my phone number changed this year, old and new?",
     ["maggie.phone=+421 944 803 517", "maggie.phone=+421 915 262 088"]),
])
def test_words_saying_a_value_changed_ask_nothing_else(memory: Memory, question: str,
                                                      expected: list[str]) -> None:
    assert answered_keys(memory, "maggie", question) == expected


def test_a_part_pointing_there_gives_no_value_when_nothing_is_recorded_there(
        memory: Memory) -> None:
    """"… and who's the contact person there?" of a supplier with no contact recorded: the
    part says "not recorded", never another firm's contact."""
    answer = memory.recall("maggie", "Where does Agata work and who's the contact person there?")
    assert "hairtech_polska.contact_person" not in [f"{f.subject}.{f.relation}"
                                                    for f in answer.facts]
