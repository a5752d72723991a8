"""Everyday things of a household and a small business said in another language than the
key's: a café (`kavarna`), swimming (`plavani`), the heating, bottles and
stickers, the cold store, a girlfriend "chodí s", medicine as "prášek", what we sell "za
kolik prodáváme" (concepts.yaml)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures, world_yaml

NOW = "2026-11-10T12:00:00Z"

WORLD = world_yaml("things", "A Czech family's orchard, café and household", NOW,
                   world_facts("jana", (
                       ("kavarna", "coffee_supplier", "Kávový ateliér Lužánky"),
                       ("zuzka", "plavani", "úterý 16:00, Lužánky"),
                       ("house", "heating", "tepelné čerpadlo"),
                       ("sad", "bottle_supplier", "Obaly Teplice"),
                       ("sad", "label_supplier", "Etiketa Ústí"),
                       ("ondra", "girlfriend", "Tereza Hájková"),
                       ("jana", "medication", "Prestarium Neo 5 mg ráno"),
                   )))

world_repo, memory = world_fixtures(WORLD, "jana", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Who supplies the beans for our café?",
     ["kavarna.coffee_supplier=Kávový ateliér Lužánky"]),
    ("When does Zuzka have swimming?", ["zuzka.plavani=úterý 16:00, Lužánky"]),
    ("What keeps our house warm?", ["house.heating=tepelné čerpadlo"]),
    ("Who do we get our bottles from?", ["sad.bottle_supplier=Obaly Teplice"]),
    ("Who supplies our stickers?", ["sad.label_supplier=Etiketa Ústí"]),
    ("S kým teď chodí Ondra?", ["ondra.girlfriend=Tereza Hájková"]),
    ("Jaké mám prášky?", ["jana.medication=Prestarium Neo 5 mg ráno"]),
])
def test_everyday_things_in_another_language(memory: Memory, question: str,
                                             expected: list[str]) -> None:
    assert answered_keys(memory, "jana", question) == expected
