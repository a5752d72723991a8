"""Everyday words of the concept table and what a value plainly is: "the nerve specialist"
is the neurologist, "what kind of bird" the species, "how long does it take" the
turnaround, "where do I sleep" the accommodation, "put down as security" the deposit; an
eye test is a visit, not a person; "monthly fee" is a payment and a monthly fee; a value of
days and money ("Fridays 4pm with Steve, £38 a lesson") answers "when", and a day alone
answers no "who" (a number may: "who do I call when it breaks")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from memrepo.answer.answer_kinds import AMOUNT, DAYS, TIME, value_kinds
from tests.support import answered_keys, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("everyday", "A family with a shop", NOW, world_facts("marek", (
    ("father", "next_neurology_visit", "2026-12-03 9:40"),
    ("father", "city", "Žilina"),
    ("kapitan", "species", "papuga żako"),
    ("kapitan", "vet", "Przychodnia Arka"),
    ("fotokolor", "turnaround", "5 dni roboczych"),
    ("fotokolor", "email", "zamowienia@fotokolor.pl"),
    ("marek", "ubytovanie", "Arbeiterwohnheim Simmering, Wien 11"),
    ("marek", "employer", "Bau Wien GmbH"),
    ("flat", "rent", "1,420 EUR"),
    ("flat", "deposit", "2,700 EUR"),
    ("dodavatel_ramov", "firma", "Eyewear Partner s.r.o."),
    ("eye_test", "price", "20 €"),
    ("skoda", "model", "Octavia Combi"),
    ("skoda", "stk_do", "30. 4. 2027"),
    ("ucetni", "mesicni_odmena", "5 200 Kč"),
    ("ucetni", "jmeno", "Jitka Procházková"),
    ("marek", "driving_lessons", "Fridays 4pm with Steve, £38 a lesson"),
    ("odpady_medyczne", "odbior", "co drugi czwartek"),
    ("home", "address", "22 Featherbank Lane, Horsforth"),
    ("stary_van", "sprzedany_za", "£7,200"),
    ("van", "model", "Ford Transit 350"),
    ("byt", "zaloha", "300 €"),
    ("ultrasonograf", "serwis", "+48 22 490 11 50"),
    ("marek", "email", "marek@example.com"),
    ("gym", "membership", "CityFit, 129 zł a month"),
    ("cold_store", "planned_completion", "listopad 2026"),
    ("cold_store", "capacity", "600 t"),
)))

world_repo, memory = world_fixtures(WORLD, "marek", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("when does dad see the nerve specialist next?",
     ["father.next_neurology_visit=2026-12-03 9:40"]),
    ("What kind of bird is Kapitan?", ["kapitan.species=papuga żako"]),
    ("How long does FotoKolor take to do an order?", ["fotokolor.turnaround=5 dni roboczych"]),
    ("where do I sleep during the week?",
     ["marek.ubytovanie=Arbeiterwohnheim Simmering, Wien 11"]),
    ("How much did we put down as security when we moved in?", ["flat.deposit=2,700 EUR"]),
    ("Who do we get our frames from?", ["dodavatel_ramov.firma=Eyewear Partner s.r.o."]),
    ("Jaki jest teraz nasz adres domowy?", ["home.address=22 Featherbank Lane, Horsforth"]),
    ("Ile dostałem za stary samochód dostawczy?", ["stary_van.sprzedany_za=£7,200"]),
    # "have you GOT FOR me" asks no sale price
    ("What e-mail addresses have you got for me?", ["marek.email=marek@example.com"]),
    # "chladírna" is the cold store, its planned completion when it is to be finished
    ("Kdy má být hotová chladírna?", ["cold_store.planned_completion=listopad 2026"]),
])
def test_everyday_words(memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "marek", question) == expected


def test_an_eye_test_is_no_person(memory: Memory) -> None:
    """"roadworthiness TEST" is the car's STK, not a person called "test"."""
    assert answered_keys(memory, "marek",
                         "When does the Octavia need its next roadworthiness test?") == [
        "skoda.stk_do=30. 4. 2027"]


def test_a_phrase_keeps_its_words_meanings(memory: Memory) -> None:
    """"MONTHLY FEE" is a payment, and it is also monthly and a fee: `mesicni_odmena`."""
    assert answered_keys(memory, "marek", "what is the accountant's monthly fee?") == [
        "ucetni.mesicni_odmena=5 200 Kč"]


def test_days_and_money_answer_when(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "When are my driving lessons?") == [
        "marek.driving_lessons=Fridays 4pm with Steve, £38 a lesson"]


@pytest.mark.parametrize(("question", "expected"), [
    ("Jakim vanem teraz jeździmy?", ["van.model=Ford Transit 350"]),
    ("Aká je záloha za byt?", ["byt.zaloha=300 €"]),
    ("Which gym am I a member of?", ["gym.membership=CityFit, 129 zł a month"]),
])
def test_which_thing_is_no_amount_of_another_relation(memory: Memory, question: str,
                                                      expected: list[str]) -> None:
    """"which VAN": the van, not what the old one sold for; "aká je ZÁLOHA": its amount."""
    assert answered_keys(memory, "marek", question) == expected


def test_who_to_call_may_be_a_number(memory: Memory) -> None:
    assert answered_keys(memory, "marek",
                         "Who do I call when the ultrasound machine breaks down?") == [
        "ultrasonograf.serwis=+48 22 490 11 50"]


def test_a_day_answers_no_who(memory: Memory) -> None:
    """"who takes our used needles" is not "every other Thursday"."""
    assert answered_keys(memory, "marek", "Kto zabiera od nas zużyte igły i strzykawki?") == []


@pytest.mark.parametrize(("value", "kinds"), [
    ("Fridays 4pm with Steve, £38 a lesson", {DAYS, TIME, AMOUNT}),
    ("Fridays 4pm", {DAYS, TIME}),
    ("10.30 am", {TIME}),
    ("19 zł dziennie", {AMOUNT}),
    ("12 € každý mesiac", {AMOUNT}),
])
def test_what_a_value_plainly_is(value: str, kinds: set[str]) -> None:
    assert value_kinds(value) == kinds

