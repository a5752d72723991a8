"""Questions as people phrase them in Polish, Slovak and Czech: a verb that says nothing of
the thing asked ("ile WYCHODZI polisa"), a verb in the first person without a pronoun
("jakie języki ZNAM"), the day something falls on ("którego DNIA"; not the day of a date
asked about, "na dzień 1 sierpnia"), the hour it happens at ("O KTÓREJ przywożą chleb"),
a name inflected with its e dropped ("mail do PAVLA"), and a business known only by its
legal form ("… sp. z o.o.") as what "we" have; an arrival ("kiedy PRZYJEŻDŻA mama") and
"where" asked after the date it is asked for ("Na 1 maja 2026: GDZIE jest egzamin?")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

_NOTES = """notes:
  - category: entities
    name: bursztyn-nieruchomosci
    description: "Bursztyn Nieruchomości sp. z o.o.: biuro Agnieszki na Grunwaldzkiej"
    aliases: ["Bursztyn", "biuro"]
    body: |
      # Bursztyn Nieruchomości
      The agency.
  - category: entities
    name: pavel-dvorak
    description: "Pavel Dvořák z Brna: właściciel kawalerki, którą zarządzamy"
    aliases: ["Pavel Dvořák", "Pavel"]
    body: |
      # Pavel Dvořák
      A landlord.
"""

WORLD = world_yaml("phrasing", "A Gdańsk family and its estate agency", NOW, "".join((
    world_event("agnieszka", "bursztyn_nieruchomosci", "nip", "584-287-13-66", "2025-01-02",
                "Nowy NIP 584-287-13-66."),
    world_event("agnieszka", "agnieszka", "speaks", "angielski (C1)", "2005-01-01"),
    world_event("agnieszka", "peter_hudak", "speaks", "slovenčina", "2020-01-01"),
    world_event("agnieszka", "mortgage", "payment_day", "10. dnia miesiąca", "2024-06-01",
                "Rata schodzi 10. dnia miesiąca."),
    world_event("agnieszka", "mortgage", "installment", "3 760 zł", "2024-06-01"),
    world_event("agnieszka", "samochod", "ubezpieczenie", "Warta, OC+AC, 2 870 zł/rok",
                "2025-03-01", "Polisa za toyotę: Warta, 2 870 zł rocznie."),
    world_event("agnieszka", "samochod", "model", "Toyota Corolla", "2023-01-01"),
    world_event("agnieszka", "pavel_dvorak", "email", "pavel.dvorak@seznam.cz", "2022-10-01"),
    world_event("agnieszka", "piekarnia_klos", "delivery_time", "6:30", "2024-05-01",
                "Chleb z Piekarni Kłos przywożą o 6:30."),
    world_event("agnieszka", "piekarnia_klos", "phone", "+48 87 423 14 02", "2024-05-01"),
    world_event("agnieszka", "mama", "przyjazd", "18 grudnia 2026", "2026-10-01",
                "Mama przyjedzie 18 grudnia."),
    world_event("agnieszka", "mama", "telefon", "+48 600 100 200", "2020-01-01"),
    world_event("agnieszka", "fce_exam", "miesto", "Nitra", "2026-03-01"),
    world_event("agnieszka", "fce_exam", "datum", "2026-06-13", "2026-03-01"),
))).replace("notes: []\n", _NOTES)

world_repo, memory = world_fixtures(WORLD, "agnieszka", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("ile rocznie wychodzi polisa za toyotę?",
     ["samochod.ubezpieczenie=Warta, OC+AC, 2 870 zł/rok"]),
    ("jakie języki znam?", ["agnieszka.speaks=angielski (C1)"]),
    ("Którego dnia schodzi rata kredytu?", ["mortgage.payment_day=10. dnia miesiąca"]),
    ("mail do Pavla Dvořáka", ["pavel_dvorak.email=pavel.dvorak@seznam.cz"]),
    ("Jaki mamy NIP?", ["bursztyn_nieruchomosci.nip=584-287-13-66"]),
    ("Jaka była rata kredytu na dzień 1 sierpnia 2025?", ["mortgage.installment=3 760 zł"]),
    ("o której przywożą chleb?", ["piekarnia_klos.delivery_time=6:30"]),
    ("Jak wiedziałeś 10 listopada 2026, kiedy przyjeżdża mama?",
     ["mama.przyjazd=18 grudnia 2026"]),  # "przyjeżdża": her `przyjazd`, an arrival
    ("Jak wiedziałeś na 10 listopada 2026: gdzie jest egzamin FCE?",
     ["fce_exam.miesto=Nitra"]),  # where, asked after the date it is asked for
])
def test_everyday_phrasing_finds_the_fact(memory: Memory, question: str,
                                          expected: list[str]) -> None:
    assert answered_keys(memory, "agnieszka", question) == expected
