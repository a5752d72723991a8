"""Questions whose words stand apart from how the table writes them: two names side by side
asked one relation each ("Which schools are Kasia AND Tomek at?"), "mamy" as mum's after a
noun it owns ("dom opieki MAMY") but "we have" after a question word ("jaki samochód
MAMY"), a phrase of the table around "co miesiąc" ("ODDAJEMY co miesiąc DO BANKU"), words in
another order ("kto U NAS PRACUJE"), a role where someone goes ("wizyta U KARDIOLOGA"), and a
thing's key of a kind the question never asks standing aside for the key whose sentence
names the thing ("who do we rent the SHOP from": not the shop's rent, an amount, but the
landlord)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("said-apart", "A Gdańsk family with a shop", NOW, world_facts("ania", (
    ("kasia", "school", "SP nr 12"),
    ("tomek", "school", "LO nr 3"),
    ("mama", "oplata_dom_opieki", "6 800 zł miesięcznie"),
    ("mama", "samochod", "Fiat Panda"),
    ("mieszkanie", "oplata_spoldzielnia", "648 zł"),
    ("car", "model", "Škoda Octavia"),
    ("kredyt_hipoteczny", "bank", "mBank"),
    ("shop_rent", "amount", "4 500 zł"),
    ("sklep", "employee", "Ewa Lis"),
    ("oksana", "jezyki", "ukraiński"),
    ("mum", "city", "Žilina"),
)) + world_event("ania", "landlord", "name", "Jan Nowak", "2024-01-01",
                 "The shop belongs to Jan Nowak, we rent it from him.")
    + world_event("ania", "kredyt_hipoteczny", "rata", "3 210 zł", "2026-04-01",
                  "Rata kredytu za mieszkanie od kwietnia spada do 3 210 zł.")
    + world_event("ania", "tata", "cardiology_appointment", "3 grudnia 2026, 10:30",
                  "2026-11-10", "Przychodnia przełożyła tacie kardiologa na 3 grudnia."))

world_repo, memory = world_fixtures(WORLD, "ania", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Which schools are Kasia and Tomek at?",
     ["kasia.school=SP nr 12", "tomek.school=LO nr 3"]),
    ("What are Kasia's and Tomek's schools?",
     ["kasia.school=SP nr 12", "tomek.school=LO nr 3"]),
    ("Ile wynosi opłata za dom opieki mamy?",
     ["mama.oplata_dom_opieki=6 800 zł miesięcznie"]),
    ("Jaki samochód mamy?", ["car.model=Škoda Octavia"]),
    ("Ile oddajemy co miesiąc do banku za mieszkanie?", ["kredyt_hipoteczny.rata=3 210 zł"]),
    ("Kto u nas pracuje?", ["sklep.employee=Ewa Lis"]),
    ("Who do we rent the shop from?", ["landlord.name=Jan Nowak"]),
    ("How much is the shop rent?", ["shop_rent.amount=4 500 zł"]),
    # a role where someone goes is no one asked about ("wizytę U KARDIOLOGA")
    ("Kiedy tata ma wizytę u kardiologa?", ["tata.cardiology_appointment=3 grudnia 2026, 10:30"]),
    ("jakie języki zna Oksana", ["oksana.jezyki=ukraiński"]),  # "zna": how, not what
    # `mum` and `mama`: one person, as each is the word of a role one has one of
    ("kde býva mama?", ["mum.city=Žilina"]),
    ("Jaki samochód ma mama?", ["mama.samochod=Fiat Panda"]),
])
def test_words_said_apart_find_their_keys(memory: Memory, question: str,
                                          expected: list[str]) -> None:
    assert answered_keys(memory, "ania", question) == expected


def test_two_names_side_by_side_say_which_one_is_not_recorded(memory: Memory) -> None:
    """A name side by side with one the memory records is asked too: "not recorded" for
    it, never the other's value as its answer."""
    answer = memory.recall("ania", "Which schools are Kasia and Zosia at?")
    assert [f"{f.subject}.{f.relation}" for f in answer.facts] == ["kasia.school"]
