"""A word before a role word chooses whom it describes: "our LEAD roofer" is the one whose
entity note says "lead roofer", not every roofer; the role alone names them all; a role
said of anyone ("at a client's") names no one and asks nothing."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("qualified", "A roofing firm's office", NOW, world_facts("office", (
    ("tomek_wisniewski", "city", "Bradford"),
    ("dave_hartley", "city", "Wakefield"),
    ("public_liability", "insurer", "Castle Mutual Insurance"),
    ("bright_corner", "client", "Northgate Lettings"),
))).replace("notes: []", """notes:
  - {category: entities, name: tomek-wisniewski, aliases: [Tomek],
     description: "Marek's younger brother and lead roofer since 2018"}
  - {category: entities, name: dave-hartley, aliases: [Dave],
     description: "Roofer with the firm since 2016"}""")

world_repo, memory = world_fixtures(WORLD, "office", NOW)


def test_a_word_before_a_role_chooses_whom_it_describes(memory: Memory) -> None:
    assert answered_keys(memory, "office", "Where does our lead roofer live?") == [
        "tomek_wisniewski.city=Bradford"]


def test_the_role_alone_names_every_one(memory: Memory) -> None:
    assert sorted(answered_keys(memory, "office", "Where do our roofers live?")) == [
        "dave_hartley.city=Wakefield", "tomek_wisniewski.city=Bradford"]



def test_a_role_said_of_anyone_is_set_aside(memory: Memory) -> None:
    """"at A CLIENT's": no client of the memory, and nothing asked of clients."""
    assert answered_keys(memory, "office", "which insurance company covers us if we damage "
                                           "something at a client's") == [
        "public_liability.insurer=Castle Mutual Insurance"]
