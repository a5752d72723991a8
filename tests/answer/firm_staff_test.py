"""The firm's keys are ours: `firma` is the business, not a person, so "who works for us"
is its staff; a bartender works for us; "behind our bar" names no Bára, whose name's stem
it only shares; a weight asked of the dog is not its vet; the enrolment fee is `wpisowe`.
Someone only the notes name ("lekarz rodzinny TOMKA") is not the asker, and the e-mail of a
firm that is only a value (`firma.dostawca_chemii` = "Chemia-Pol Hurt") is not recorded."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("firm", "A Brno family's taproom and household", NOW, "".join((
    world_event("jan", "firma", "employee", "Lukáš Dvořák", "2024-03-01"),
    world_event("jan", "firma", "employee", "Eva Malá", "2025-09-01"),
    world_event("jan", "firma", "nip", "CZ08812345", "2020-01-01"),
    world_event("tap", "tap", "bartender", "Ondřej Kos", "2025-05-01"),
    world_event("jan", "bara", "skola", "ZŠ Horní, Brno", "2022-09-01"),
    world_event("jan", "rex", "veterinar", "MVDr. Jana Kmeťová", "2023-01-01"),
    world_event("jan", "krouzek_plavani", "wpisowe", "300 Kč", "2026-09-01"),
    world_event("jan", "krouzek_plavani", "mesicni_poplatek", "650 Kč", "2026-09-01"),
    world_event("jan", "jan", "lekarz_rodzinny", "dr Tomasz Bielski", "2020-01-01"),
    world_event("jan", "firma", "dostawca_chemii", "Chemia-Pol Hurt", "2024-01-01"),
))).replace("notes: []", """many_valued: [employee, bartender]
notes:
  - {category: entities, name: bara-novakova, aliases: [Bára],
     description: "Jan's daughter, nine, in the third year at ZŠ Horní"}
  - {category: references, name: faktury,
     description: "Where the invoices go: Tomek's in the blue folder, the firm's online"}""")

world_repo, memory = world_fixtures(WORLD, "jan", NOW)


def test_who_works_for_us_is_the_firms_staff(memory: Memory) -> None:
    assert sorted(answered_keys(memory, "jan", "Kto u nas teraz pracuje?")) == [
        "firma.employee=Eva Malá", "firma.employee=Lukáš Dvořák"]
    assert answered_keys(memory, "jan", "Jaki jest nasz NIP?") == ["firma.nip=CZ08812345"]


def test_a_bartender_works_behind_our_bar(memory: Memory) -> None:
    assert answered_keys(memory, "tap", "who works behind our bar?") == [
        "tap.bartender=Ondřej Kos"]


def test_a_weight_is_not_the_vet(memory: Memory) -> None:
    assert answered_keys(memory, "jan", "Kolik vážil Rex u veterináře?") == []


def test_the_enrolment_fee(memory: Memory) -> None:
    assert answered_keys(memory, "jan", "How much is the registration fee?") == [
        "krouzek_plavani.wpisowe=300 Kč"]


def test_someone_only_the_notes_name_is_not_the_asker(memory: Memory) -> None:
    assert answered_keys(memory, "jan", "Kto jest lekarzem rodzinnym Tomka?") == []
    assert answered_keys(memory, "jan", "Kto jest moim lekarzem rodzinnym?") == [
        "jan.lekarz_rodzinny=dr Tomasz Bielski"]


def test_the_email_of_a_firm_held_only_as_a_value(memory: Memory) -> None:
    assert answered_keys(memory, "jan", "jaki jest mail do chemia-polu") == []
