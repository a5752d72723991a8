"""A Czech orchard family's household: "dřív" (before) with "teď" (now) asks what a value
was and what it is; a part of a text that says only when it asks ("… a čím teď?") asks
what the part before asked, at its own time — not whatever its subject's one other key
is. A value naming an amount of money answers "kolik platíme" though it also holds a date
("… do března 2030")."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("orchard", "A Czech orchard family near Litoměřice", NOW, "".join((
    world_event("tomas", "house", "heating", "kotel na dřevo Atmos", "2010-01-01"),
    world_event("tomas", "house", "heating", "tepelné čerpadlo Daikin Altherma", "2025-10-20"),
    world_event("tomas", "house", "address", "Pod Sady 118, Žitenice", "2010-01-01"),
    world_event("tomas", "accounting", "monthly_fee", "2 900 Kč", "2021-01-01"),
    world_event("tomas", "accounting", "monthly_fee", "4 200 Kč", "2025-04-01"),
    world_event("tomas", "kubota", "leasing", "ČSOB Leasing, 18 400 Kč měsíčně do března 2030",
                "2025-03-01"),
)))

world_repo, memory = world_fixtures(WORLD, "tomas", NOW)


def test_before_with_now_asks_both_values(memory: Memory) -> None:
    assert sorted(answered_keys(
        memory, "tomas", "Kolik jsme platili za účetnictví dřív a kolik teď?")) == [
        "accounting.monthly_fee=2 900 Kč", "accounting.monthly_fee=4 200 Kč"]


def test_a_part_saying_only_when_asks_what_the_part_before_asked(memory: Memory) -> None:
    assert sorted(answered_keys(memory, "tomas", "Čím jsme doma topili dřív a čím teď?")) == [
        "house.heating=kotel na dřevo Atmos", "house.heating=tepelné čerpadlo Daikin Altherma"]
    assert sorted(answered_keys(
        memory, "tomas", "Čím jsme topili v roce 2023 a čím teď?")) == [
        "house.heating=kotel na dřevo Atmos", "house.heating=tepelné čerpadlo Daikin Altherma"]


def test_a_value_naming_money_says_how_much_though_it_holds_a_date(memory: Memory) -> None:
    assert answered_keys(memory, "tomas", "Kolik platíme měsíčně za leasing Kuboty?") == [
        "kubota.leasing=ČSOB Leasing, 18 400 Kč měsíčně do března 2030"]
