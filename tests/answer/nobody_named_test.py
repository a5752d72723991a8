"""A phone asked of no one is no one's: the landlord's `telefon`, spelled as asked, is no
likelier than the daughter's `phone`. A second part that names no one asks of whom the
first named, though her name lowercased is a Polish word ("Maja": "mają", they have). What
we pay TO someone is not what we pay for the internet."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("nobody", "A Poznań household", NOW, "".join((
    world_event("ewa", "maja", "phone", "+48 733 100 200", "2023-09-01"),
    world_event("ewa", "maja", "urodziny", "9 maja 2011", "2011-05-09"),
    world_event("ewa", "wynajmujacy", "telefon", "+48 501 300 400", "2022-01-01"),
    world_event("ewa", "internet", "cena", "59 zł miesięcznie", "2024-01-01"),
))).replace("notes: []", """notes:
  - {category: entities, name: maja-nowak, aliases: [Maja],
     description: "Ewa's daughter, in secondary school since 2026"}""")

world_repo, memory = world_fixtures(WORLD, "ewa", NOW)


def test_a_phone_asked_of_no_one_is_no_ones(memory: Memory) -> None:
    assert answered_keys(memory, "ewa", "jaki ma numer telefonu?") == []


def test_the_second_part_asks_of_whom_the_first_named(memory: Memory) -> None:
    assert answered_keys(memory, "ewa", "Kiedy Maja ma urodziny i jaki ma numer telefonu?") == [
        "maja.urodziny=9 maja 2011", "maja.phone=+48 733 100 200"]


def test_a_role_still_names_whose_phone(memory: Memory) -> None:
    assert answered_keys(memory, "ewa", "jaki jest numer do wynajmującego?") == [
        "wynajmujacy.telefon=+48 501 300 400"]


def test_a_payment_to_someone_the_key_does_not_hold(memory: Memory) -> None:
    assert answered_keys(memory, "ewa", "Ile teraz płacimy do spółdzielni?") == []
    assert answered_keys(memory, "ewa", "Ile płacimy za internet?") == [
        "internet.cena=59 zł miesięcznie"]
