"""Whose fact it is, where neither a note nor a quote says it: the asker's own family key
names the person (`tomas.brother` = "Pavel Kratochvíl": "čím se živí BRÁCHA" is Pavel's
`job`; `lenka.sister` = "Jitka Marešová": the subject `jitka`), and a first name the
concept table knows only by a base form is still a name when written with a capital
("Where does KATEŘINA live": not `katering`, and never another person's city)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-10T12:00:00Z"

_NOTES = """notes:
  - category: entities
    name: katerina-horakova
    description: "Taproom bartender, Thursday to Saturday evenings"
    aliases: ["Kateřina Horáková", "Katka"]
    body: |
      # Kateřina
      Longest-serving bartender.
  - category: entities
    name: ondrej-maly
    description: "Head brewer of the taproom since the start"
    aliases: ["Ondřej Malý", "Ondra"]
    body: |
      # Ondřej
      The brewer.
"""

WORLD = world_yaml("kin", "A Czech orchard family and a brewery", NOW, "".join((
    world_event("tomas", "tomas", "brother", "Pavel Kratochvíl", "1981-01-01"),
    world_event("tomas", "pavel_kratochvil", "job", "truhlář – vlastní dílna v Hlinsku",
                "2008-03-01"),
    world_event("tomas", "pavel_kratochvil", "phone", "+420 608 114 275", "2010-01-01"),
    world_event("tomas", "ondrej", "phone", "+420 777 000 111", "2020-01-01"),
    world_event("lenka", "lenka", "sister", "Jitka Marešová", "1983-07-11"),
    world_event("lenka", "jitka", "city", "Ústí nad Labem", "2012-01-01",
                "Jitka bydlí v Ústí nad Labem, v Děčíně jen kdysi pracovala."),
    world_event("lenka", "jitka", "job", "zdravotní sestra, Masarykova nemocnice",
                "2012-01-01"),
    world_event("lenka", "jitka", "phone", "+420 602 333 444", "2012-01-01"),
    world_event("lenka", "lenka", "deti", "Ema Kolárová", "2014-03-01"),
    world_event("lenka", "ema", "skola", "ZŠ Tulipánová", "2020-09-01"),
    world_event("pivovar", "ondrej_maly", "city", "Polná", "2026-05-01"),
    world_event("pivovar", "katerina_horakova", "shift", "čt–so 17:00–23:00", "2024-01-01"),
    world_event("pivovar", "pivovar", "catering", "Bistro U Sládka", "2024-01-01"),
))).replace("notes: []\n", _NOTES)

world_repo, memory = world_fixtures(WORLD, "tomas", NOW)


@pytest.mark.parametrize(("scope", "question", "expected"), [
    ("tomas", "Čím se živí brácha?", ["pavel_kratochvil.job=truhlář – vlastní dílna v Hlinsku"]),
    ("tomas", "What's my brother's phone number?", ["pavel_kratochvil.phone=+420 608 114 275"]),
    ("lenka", "Kde bydlí ségra?", ["jitka.city=Ústí nad Labem"]),
    ("lenka", "Kde pracuje ségra?",  # her job says where: not her city, whose quote says
     ["jitka.job=zdravotní sestra, Masarykova nemocnice"]),  # where she once worked
    ("lenka", "my sister's phone?", ["jitka.phone=+420 602 333 444"]),
    ("lenka", "Kde bydlí ségra a na jaké číslo jí volat?",  # "jí", her: no word of its own
     ["jitka.city=Ústí nad Labem", "jitka.phone=+420 602 333 444"]),
])
def test_the_askers_family_key_names_the_person(
        memory: Memory, scope: str, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, scope, question) == expected


def test_a_family_key_names_nobody_else(memory: Memory) -> None:
    """Tomáš records no sister: his brother's phone is no answer, nor Ondřej's; Lenka's
    `deti` says whose child Ema is, not that she is a son."""
    assert answered_keys(memory, "tomas", "What's my sister's phone number?") == []
    assert answered_keys(memory, "lenka", "Where do my children go to school?") == [
        "ema.skola=ZŠ Tulipánová"]
    assert answered_keys(memory, "lenka", "Where does my son go to school?") == []


@pytest.mark.parametrize(("question", "expected"), [
    ("Where does Kateřina live?", []),
    ("What's Kateřina's shift?", ["katerina_horakova.shift=čt–so 17:00–23:00"]),
    ("Who does our catering?", ["pivovar.catering=Bistro U Sládka"]),
])
def test_a_first_name_the_table_knows_by_a_base_form(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "pivovar", question) == expected
