"""An estate agent's family and office. One entity note about a couple,
"halina-i-zbyszek-nowiccy", with aliases for both: Halina is "Halina Nowicka", so Zbyszek
is the other recorded name, "Zbigniew Nowicki" — his birthday is not recorded, and hers is
no answer for him. A question asking a percentage is not answered by a value holding none
(an agent's contract). A person's one key answers a question naming only them ("co teraz
robi Oskar"), not one asking what nothing recorded holds ("w czym się specjalizował"). A
flat named as where a named person lives is not whose fact is asked: "since when is Zuzia
living in the Olsztyn flat" is her address's day, not the flat's address."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("gdansk", "A Gdańsk estate agent's family", NOW, "".join((
    world_event("agnieszka", "halina_nowicka", "birthday", "7 listopada 1953", "1953-11-07"),
    world_event("agnieszka", "halina_nowicka", "phone", "58 551 22 37", "1990-01-01"),
    world_event("agnieszka", "zbigniew_nowicki", "operacja_data", "25 listopada 2026",
                "2026-09-01"),
    world_event("agnieszka", "zbigniew_nowicki", "address", "ul. Kolberga 3/2, Sopot",
                "1990-01-01"),
    world_event("agnieszka", "dominik_sowa", "umowa",
                "umowa zlecenie (okres próbny do 30.09.2026)", "2026-07-01"),
    world_event("agnieszka", "jelitkowska_21_7", "management_fee", "8% czynszu", "2026-03-01"),
    world_event("agnieszka", "jelitkowska_21_7", "rent", "4 500 zł + media", "2026-03-01"),
    world_event("agnieszka", "oskar_wojcik", "obecnie", "własny salon w Lesznie", "2025-06-01"),
    world_event("agnieszka", "mieszkanie_olsztyn", "address", "ul. Kołobrzeska 12/7, Olsztyn",
                "2024-05-01"),
    world_event("agnieszka", "zuzanna_jablonska", "address", "ul. Kołobrzeska 12/7, Olsztyn",
                "2025-10-01"),
))).replace("notes: []", """notes:
  - {category: entities, name: halina-i-zbyszek-nowiccy,
     aliases: ["Halina Nowicka", "Zbigniew Nowicki", "babcia Halinka", "dziadek Zbyszek"],
     description: "Rodzice Agnieszki w Sopocie: Halina (serce) i Zbyszek (wędkarz)"}
  - {category: entities, name: zuzanna-jablonska, aliases: ["Zuzanna Jabłońska", "Zuzia"],
     description: "Our daughter, a student in Olsztyn"}""")

world_repo, memory = world_fixtures(WORLD, "agnieszka", NOW)


def test_the_other_name_of_a_couples_note_is_the_other_recorded_person(
        memory: Memory) -> None:
    assert answered_keys(memory, "agnieszka", "Kiedy są urodziny dziadka Zbyszka?") == []
    assert answered_keys(memory, "agnieszka", "Gdzie mieszka dziadek Zbyszek?") == [
        "zbigniew_nowicki.address=ul. Kolberga 3/2, Sopot"]
    assert answered_keys(memory, "agnieszka", "Kiedy są urodziny babci Halinki?") == [
        "halina_nowicka.birthday=7 listopada 1953"]


def test_a_percentage_asked_is_no_value_without_one(memory: Memory) -> None:
    assert answered_keys(memory, "agnieszka", "Jaki procent od transakcji ma Dominik?") == []
    assert answered_keys(
        memory, "agnieszka", "What percentage do we take for managing Jelitkowska?") == [
        "jelitkowska_21_7.management_fee=8% czynszu"]


def test_a_persons_one_key_answers_no_word_nothing_holds(memory: Memory) -> None:
    assert answered_keys(memory, "agnieszka", "W czym się specjalizował Oskar?") == []
    assert answered_keys(memory, "agnieszka", "Co teraz robi Oskar?") == [
        "oskar_wojcik.obecnie=własny salon w Lesznie"]


def test_a_flat_named_as_where_she_lives_is_not_whose_fact(memory: Memory) -> None:
    assert answered_keys(
        memory, "agnieszka", "Since when is Zuzia living in the Olsztyn flat?") == [
        "zuzanna_jablonska.address=ul. Kołobrzeska 12/7, Olsztyn"]
    assert answered_keys(memory, "agnieszka", "What is the address of the Olsztyn flat?") == [
        "mieszkanie_olsztyn.address=ul. Kołobrzeska 12/7, Olsztyn"]
