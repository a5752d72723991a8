"""Pets, an elderly relative, staff and suppliers asked in everyday words
(memrepo.answer.concepts): who treats the dog is its vet, how heavy it is its weight, what
grandma broke an injury (not her illness), the day someone does not come to work their day
off, whom a client marries her fiancé, whom to talk to at a supplier its sales rep — and
the one time recorded of a child is no answer about another activity of theirs ("what time
is Samko's VOLLEYBALL" when only his football training is recorded)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-25T12:00:00Z"
WORLD = f"""\
world: pets-and-care
about: "A florist, her dog, her mother-in-law and her shop's suppliers"
now: "{NOW}"
notes:
  - category: entities
    name: bruno
    description: "Our beagle, nine years old, on a diet"
    aliases: ["Bruno", "the dog"]
  - category: entities
    name: anna-kolarova
    description: "My mother-in-law, lives alone in Sásová"
    aliases: ["Anna Kolárová", "babka", "svokra", "grandma"]
  - category: entities
    name: samuel-kolar
    description: "Our son, eight, plays football for Dukla"
    aliases: ["Samko", "Samuel"]
  - category: entities
    name: ema-kolarova
    description: "Our daughter, twelve, plays volleyball"
    aliases: ["Ema"]
events:
  - {{op: assert, scope: zuzana, subject: bruno, relation: veterinar,
     object: "MVDr. Tomáš Kováčik", valid_from: "2020-01-01",
     recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: bruno, relation: vaha, object: "16,4 kg",
     valid_from: "2026-10-01", recorded_at: "2026-10-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: svokra, relation: uraz,
     object: "zlomené ľavé zápästie", valid_from: "2026-09-10",
     recorded_at: "2026-09-12T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: svokra, relation: diagnosis,
     object: "cukrovka 2. typu", valid_from: "2019-01-01",
     recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: lenka_hudecova, relation: volno, object: "streda",
     valid_from: "2026-08-01", recorded_at: "2026-08-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: simona_dudasova, relation: snubenec,
     object: "Peter Mráz", valid_from: "2026-05-01", recorded_at: "2026-05-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: svadba_hruskova, relation: farby,
     object: "bordová a zlatá", valid_from: "2026-06-01", recorded_at: "2026-06-01T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: van_dijk, relation: sales_rep, object: "Joost de Wit",
     valid_from: "2023-01-01", recorded_at: "2024-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: samko, relation: futbal_trening,
     object: "pondelok a streda 17:00", valid_from: "2026-09-01",
     recorded_at: "2026-09-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: ema, relation: volejbal,
     object: "VK Bystrica, tréning utorok a štvrtok 16:30", valid_from: "2026-09-01",
     recorded_at: "2026-09-01T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "zuzana", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Kto lieči Bruna?", ["bruno.veterinar=MVDr. Tomáš Kováčik"]),       # who treats: the vet
    ("Aký ťažký je Bruno?", ["bruno.vaha=16,4 kg"]),                    # how heavy: the weight
    ("Čo si babka v septembri zlomila?", ["svokra.uraz=zlomené ľavé zápästie"]),  # an injury
    ("Ktorý deň Lenka nechodí do roboty?", ["lenka_hudecova.volno=streda"]),  # a day off
    ("Za koho sa vydáva Simona?", ["simona_dudasova.snubenec=Peter Mráz"]),  # her fiancé
    ("Who do I talk to at Van Dijk?", ["van_dijk.sales_rep=Joost de Wit"]),  # the contact
])
def test_words_for_pets_care_staff_and_suppliers(memory: Memory, question: str,
                                                 expected: list[str]) -> None:
    assert answered_keys(memory, "zuzana", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("What time is Samko's training?", ["samko.futbal_trening=pondelok a streda 17:00"]),
    ("What time is Samko's volleyball?", []),  # Ema's activity, not his training
    ("Kedy ide Ema na lyžiarsky?", []),        # a ski course nobody recorded
])
def test_the_one_time_of_a_child_answers_only_what_it_is(memory: Memory, question: str,
                                                         expected: list[str]) -> None:
    assert answered_keys(memory, "zuzana", question) == expected
