"""A photographer's and a music teacher's everyday words (memrepo.answer.concepts): a
camera's serial number asked in English of a key written in Polish, what someone shoots
on, who prints the photos, a Christmas recital stored as `koncert_gwiazdkowy`, a date
stored as `data`, a tuner named by the alias of his note ("the tuner"), the address a
terse "FotoKolor address?" asks (never the lab's price), and my lenses before the serial
number of a lens recorded as a thing of its own."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-28T12:00:00Z"
WORLD = f"""\
world: gear-and-events
about: "A wedding photographer's gear and a piano recital"
now: "{NOW}"
notes:
  - category: entities
    name: wojciech-grabowski
    description: "Piano tuner from Sopot who tunes the studio Yamaha twice a year"
    aliases: ["pan Wojtek", "Wojciech Grabowski", "the tuner"]
events:
  - {{op: assert, scope: tomek, subject: sigma_35_art, relation: numer_seryjny,
     object: "54218876", valid_from: "2021-02-01", recorded_at: "2025-09-15T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: tomek, subject: kasia_dabrowska, relation: camera,
     object: "Canon EOS R6 Mark II", valid_from: "2026-05-20",
     recorded_at: "2026-05-20T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: tw_fotografia, relation: photo_lab,
     object: "FotoKolor Sp. z o.o., Gdynia", valid_from: "2019-06-01",
     recorded_at: "2025-09-12T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: koncert_gwiazdkowy, relation: data,
     object: "13 grudnia 2026, 16:00", valid_from: "2026-11-02",
     recorded_at: "2026-11-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: tuner, relation: tuning_fee, object: "280 zł",
     valid_from: "2026-09-01", recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: fotokolor, relation: print_price_30x40,
     object: "28 zł", valid_from: "2019-06-01", recorded_at: "2025-09-12T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: tomek, subject: fotokolor, relation: address,
     object: "ul. Morska 120, Gdynia", valid_from: "2019-06-01",
     recorded_at: "2025-09-12T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: tomek, relation: lens,
     object: "Sony FE 85mm f/1.4 GM", valid_from: "2020-06-01",
     recorded_at: "2025-09-15T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: obiektyw_24_70, relation: numer_seryjny,
     object: "1847203", valid_from: "2023-03-10", recorded_at: "2025-09-15T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: tomek, subject: van, relation: plate, object: "4J7 2381",
     valid_from: "2024-01-01", recorded_at: "2024-01-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: flat, relation: rent, object: "1,420 EUR",
     valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: tomek, subject: denisa, relation: phone, object: "+420 739 118 660",
     valid_from: "2024-01-01", recorded_at: "2024-01-02T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "tomek", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("What's the serial number of the Sigma?", ["sigma_35_art.numer_seryjny=54218876"]),
    ("Na czym strzela Kasia?", ["kasia_dabrowska.camera=Canon EOS R6 Mark II"]),
    ("Who prints the photos?", ["tw_fotografia.photo_lab=FotoKolor Sp. z o.o., Gdynia"]),
    ("When is the pupils' Christmas recital?",
     ["koncert_gwiazdkowy.data=13 grudnia 2026, 16:00"]),
    ("how much do I pay pan Wojtek for a tuning now?", ["tuner.tuning_fee=280 zł"]),
    ("FotoKolor address?", ["fotokolor.address=ul. Morska 120, Gdynia"]),  # not its price
    ("Jakie mam obiektywy?", ["tomek.lens=Sony FE 85mm f/1.4 GM"]),  # not one lens's serial
])
def test_words_for_gear_events_and_people(memory: Memory, question: str,
                                          expected: list[str]) -> None:
    assert answered_keys(memory, "tomek", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("wats the vna plate", ["van.plate=4J7 2381"]),                 # two short typos
    ("rnet this yr", ["flat.rent=1,420 EUR"]),                       # swapped letters, "yr"
    ("denisas nubmer?", ["denisa.phone=+420 739 118 660"]),          # a head noun misspelt
])
def test_short_typos_as_people_type_them(memory: Memory, question: str,
                                         expected: list[str]) -> None:
    assert answered_keys(memory, "tomek", question) == expected
