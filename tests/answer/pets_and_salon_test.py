"""A note about two pets ("Filus i Mruczek", aliases both names) is each one's note: one's
food or chip is never the other's. A salon is a business: "when are we open" is its hours.
Words that ask nothing ("wreszcie", "przeciw", "usually") are not held against a key; and
everyday words: a shot is a vaccination, "blachy" are the plates, "na etacie" asks the kind
of contract, "dogadam się" asks the languages, a men's or women's cut is its own price
(never a beard trim's), a dance class is an activity, the diagnostics station is the
vehicle inspection."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("pets", "A barber's household in Wrocław", NOW, "".join((
    world_event("marek", "filus", "karma", "Brit Care Lamb", "2025-03-01"),
    world_event("marek", "filus", "szczepienie_wscieklizna", "2026-04-11", "2026-04-11"),
    world_event("marek", "mruczek", "czip", "616093900998877", "2024-01-10"),
    world_event("marek", "samochod", "rejestracja", "DW 4K221", "2023-06-01"),
    world_event("marek", "samochod", "przeglad", "ważny do 2027-02-14", "2026-02-14"),
    world_event("marek", "ola", "umowa", "umowa o pracę, pół etatu", "2026-01-01"),
    world_event("marek", "ola", "zajecia", "balet, środy 16:30", "2026-09-01"),
    world_event("marek", "marek", "speaks", "polski", "1985-01-01"),
    world_event("marek", "marek", "speaks", "niemiecki", "2004-01-01"),
    world_event("marek", "salon_brzytwa", "godziny_otwarcia", "wt–sob 10:00–19:00",
                "2025-01-01"),
    world_event("marek", "mens_haircut", "price", "70 zł", "2026-01-01"),
    world_event("marek", "womens_haircut", "price", "120 zł", "2026-01-01"),
))).replace("notes: []", """many_valued: [speaks]
notes:
  - {category: entities, name: filus-i-mruczek, aliases: [Filus, Mruczek],
     description: "Our pets: Filus the beagle and Mruczek the grey cat"}
  - {category: entities, name: salon-brzytwa, aliases: [Brzytwa, salon],
     description: "Marek's barber salon on Kuźnicza, two chairs"}""")

world_repo, memory = world_fixtures(WORLD, "marek", NOW)


def test_a_note_about_two_pets_keeps_each_ones_keys(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "co je Mruczek?") == [  # all of his, none of Filus's
        "mruczek.czip=616093900998877"]
    assert answered_keys(memory, "marek", "jaki numer czipa ma Filus?") == []
    assert answered_keys(memory, "marek", "czym karmimy Filusa?") == [
        "filus.karma=Brit Care Lamb"]
    assert answered_keys(memory, "marek", "jaki czip ma Mruczek?") == [
        "mruczek.czip=616093900998877"]


def test_a_salon_is_the_business_asked_as_we(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "Od której do której jesteśmy otwarci?") == [
        "salon_brzytwa.godziny_otwarcia=wt–sob 10:00–19:00"]


def test_everyday_words_for_the_relation(memory: Memory) -> None:
    asked = {
        "Kiedy Filus ostatnio dostał zastrzyk przeciw wściekliźnie?":
            "filus.szczepienie_wscieklizna=2026-04-11",
        "jakie blachy ma nasze auto?": "samochod.rejestracja=DW 4K221",
        "Kiedy auto musi znowu jechać na stację diagnostyczną?":
            "samochod.przeglad=ważny do 2027-02-14",
        "Ola jest u nas na etacie czy na zleceniu?": "ola.umowa=umowa o pracę, pół etatu",
        "W który dzień Ola ma taniec?": "ola.zajecia=balet, środy 16:30",
    }
    for question, key in asked.items():
        assert answered_keys(memory, "marek", question) == [key], question


def test_getting_by_in_a_language_asks_the_languages(memory: Memory) -> None:
    assert sorted(answered_keys(memory, "marek", "W jakich językach się dogadam?")) == [
        "marek.speaks=niemiecki", "marek.speaks=polski"]


def test_a_cut_for_men_or_women_and_never_a_beard_trim(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "Ile kosztuje strzyżenie męskie?") == [
        "mens_haircut.price=70 zł"]
    assert answered_keys(memory, "marek", "kolik stojí dámský střih?") == [
        "womens_haircut.price=120 zł"]
    assert answered_keys(memory, "marek", "How much is a beard trim?") == []
