"""A person the question names, with an entity note but no key in the asked scope: only
her things answer (`holt_roof`, named after her), never a key the question reaches through
another word ("Mrs Holt's ROOF" is no reason to answer the firm's tile supplier,
"SIG ROOFING Leeds")."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("keyless", "A roofer's household", NOW, world_facts("marek", (
    ("firma", "dostawca_dachowek", "SIG Roofing Leeds"),
    ("holt_roof", "tiles", "Marley Modern, smooth grey"),
    ("marek", "gp", "MUDr. Ivan Hudec"),
))).replace("notes: []", """notes:
  - {category: entities, name: patricia-holt, aliases: [Mrs Holt, pani Holt],
     description: "Client in Headingley: full re-roof started November 2026"}
  - {category: entities, name: jan-kowal, aliases: [Mr Kowal],
     description: "Client in Roundhay: gutters cleaned every autumn"}""")

world_repo, memory = world_fixtures(WORLD, "marek", NOW)


def test_her_thing_answers(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "What tiles are going on Mrs Holt's roof?") == [
        "holt_roof.tiles=Marley Modern, smooth grey"]


def test_no_key_reached_through_another_word(memory: Memory) -> None:
    """Nothing of Mr Kowal's roof is recorded: not the tiles of Mrs Holt's, nor the firm's
    supplier whose name holds "roof"."""
    assert answered_keys(memory, "marek", "What tiles are going on Mr Kowal's roof?") == []


def test_a_role_is_no_keyless_person(memory: Memory) -> None:
    """"my family DOCTOR" names nobody with a note: the asker's `gp` answers."""
    assert answered_keys(memory, "marek", "Who's my family doctor here?") == [
        "marek.gp=MUDr. Ivan Hudec"]
