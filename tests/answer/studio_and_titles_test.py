"""A studio is a business: "the studio's rent" is a thing's fact, not a person's. A role
word before a name as the person is called ("grandma Jarmila") is her title, not whose. The
asker's own note (her first name is the scope's `self`) makes her the owner of the roles
other notes give "Katka". A name the memory holds only as another thing's value ("Bsport",
the new booking platform) is never answered with a price of something else, nor "how
much" with a value that holds no number ("volejbal"). People "charge" a price, and
instructors "teach"."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"
SCOPE = "dvorakovi"

WORLD = world_yaml("studio", "A Brno family running a yoga studio", NOW, "".join((
    world_event(SCOPE, "studio_rent", "amount", "41 500 Kč měsíčně", "2026-01-01"),
    world_event(SCOPE, "studio_prana", "phone", "+420 541 000 111", "2024-01-01"),
    world_event(SCOPE, "studio_prana", "instructor", "Lucie Benešová", "2023-09-01"),
    world_event(SCOPE, "studio_prana", "instructor", "Marek Šimek", "2024-02-01"),
    world_event(SCOPE, "cappuccino", "cena", "72 Kč", "2026-03-01"),
    world_event(SCOPE, "jarmila_horakova", "narozeniny", "1958-07-12", "1958-07-12"),
    world_event(SCOPE, "tomas", "phone", "+420 731 554 902", "2020-01-01"),
    world_event(SCOPE, "katerina", "email", "katka@prana.example", "2019-01-01"),
    world_event(SCOPE, "booking_system", "platform", "Reservio", "2022-05-01"),
    world_event(SCOPE, "booking_system", "monthly_fee", "990 Kč", "2025-01-01"),
    world_event(SCOPE, "membership_monthly", "price", "1 890 Kč", "2026-01-01"),
    world_event(SCOPE, "booking_migration", "new_platform", "Bsport", "2026-09-01"),
    world_event(SCOPE, "eliska", "krouzek", "volejbal", "2025-09-01"),
    world_event(SCOPE, "parking", "price", "free for clients", "2024-01-01"),
    world_event(SCOPE, "katerina", "lens", "Sony FE 90mm f/2.8 Macro G OSS", "2024-05-01"),
))).replace("notes: []", """self:
  dvorakovi: katerina
many_valued: [instructor]
notes:
  - {category: entities, name: studio-prana, aliases: ["Studio Prána", "studio"],
     description: "Our yoga and pilates studio on Kounicova street in Brno"}
  - {category: entities, name: katerina-dvorakova, aliases: ["Kateřina Dvořáková", "Katka"],
     description: "Owner and head teacher of Studio Prána, the one who asks"}
  - {category: entities, name: tomas-dvorak, aliases: ["Tomáš", "husband"],
     description: "Katka's husband, a software developer who runs the studio's IT"}
  - {category: entities, name: jarmila-horakova, aliases: ["Jarmila Horáková", "mamka"],
     description: "Katka's mother, a retired nurse living in Třebíč"}""")

world_repo, memory = world_fixtures(WORLD, SCOPE, NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Current studio rent?", ["studio_rent.amount=41 500 Kč měsíčně"]),
    ("When is grandma Jarmila's birthday?", ["jarmila_horakova.narozeniny=1958-07-12"]),
    ("What's my husband's phone number?", ["tomas.phone=+420 731 554 902"]),
    ("What are we charging for a cappuccino?", ["cappuccino.cena=72 Kč"]),
    ("Who teaches at the studio now?", ["studio_prana.instructor=Lucie Benešová",
                                        "studio_prana.instructor=Marek Šimek"]),
    ("How much is the monthly membership?", ["membership_monthly.price=1 890 Kč"]),
])
def test_answered_from_the_right_subject(memory: Memory, question: str,
                                         expected: list[str]) -> None:
    assert sorted(answered_keys(memory, SCOPE, question)) == sorted(expected)


def test_a_name_held_as_another_things_value_is_not_anothers_price(memory: Memory) -> None:
    assert answered_keys(memory, SCOPE, "How much will Bsport cost us per month?") == []


def test_how_much_is_never_answered_with_a_value_of_no_number(memory: Memory) -> None:
    assert answered_keys(memory, SCOPE, "How much do we pay for Eliška's piano lessons?") == []
    assert answered_keys(memory, SCOPE, "How much did I pay for the macro lens?") == []
    assert answered_keys(memory, SCOPE, "How much is parking?") == [
        "parking.price=free for clients"]
    assert answered_keys(memory, SCOPE, "Which lens do I have?") == [
        "katerina.lens=Sony FE 90mm f/2.8 Macro G OSS"]
