"""Every value a key has held, asked without "change": "what cars HAS the salon HAD", "aké
autá SME MALI", "KTO VŠETKO u nás učil", "from what TO WHAT", "ako sa VYVÍJALA cena" —
while the past of "to have" with a date asks the value then."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

WORLD = world_yaml("had", "A language school and a salon", NOW, "".join(
    world_event(scope, subject, relation, value, since)
    for scope, subject, relation, value, since in (
        ("lucie", "salon_car", "model", "Škoda Fabia Combi", "2018-01-01"),
        ("lucie", "salon_car", "model", "Škoda Octavia Combi", "2023-05-01"),
        ("lucie", "bara", "vaha", "14,5 kg", "2025-11-03"),
        ("lucie", "bara", "vaha", "16,2 kg", "2026-10-01"),
        ("tomas", "auto", "model", "Škoda Octavia Combi 2014", "2016-03-01"),
        ("tomas", "auto", "model", "Kia Ceed SW 2023", "2023-06-01"),
        ("tomas", "lingvo_nitra", "ucitel_anglictiny", "Sarah Whitfield", "2021-09-01"),
        ("tomas", "lingvo_nitra", "ucitel_anglictiny", "Oliver Bennett", "2024-09-01"),
        ("tomas", "hranoly", "cena", "270 €/m³", "2024-01-01"),
        ("tomas", "hranoly", "cena", "305 €/m³", "2026-01-01"),
    )))

world_repo, memory = world_fixtures(WORLD, "tomas", NOW)


@pytest.mark.parametrize(("scope", "question", "expected"), [
    ("lucie", "What cars has the salon had?",
     ["salon_car.model=Škoda Fabia Combi", "salon_car.model=Škoda Octavia Combi"]),
    ("lucie", "How much weight has Bára put on — from what to what?",
     ["bara.vaha=14,5 kg", "bara.vaha=16,2 kg"]),
    ("tomas", "Aké autá sme mali?",
     ["auto.model=Škoda Octavia Combi 2014", "auto.model=Kia Ceed SW 2023"]),
    ("tomas", "Kto všetko u nás učil angličtinu?",
     ["lingvo_nitra.ucitel_anglictiny=Sarah Whitfield",
      "lingvo_nitra.ucitel_anglictiny=Oliver Bennett"]),
    ("tomas", "Ako sa vyvíjala cena hranolov?", ["hranoly.cena=270 €/m³", "hranoly.cena=305 €/m³"]),
])
def test_what_was_had_over_time_is_every_value(memory: Memory, scope: str, question: str,
                                               expected: list[str]) -> None:
    assert answered_keys(memory, scope, question) == expected


def test_had_with_a_date_is_the_value_then(memory: Memory) -> None:
    assert answered_keys(memory, "tomas", "Aké auto sme mali v roku 2020?") == [
        "auto.model=Škoda Octavia Combi 2014"]
