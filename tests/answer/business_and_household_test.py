"""A household that runs a business (memrepo.answer.keys, candidates, subjects,
role_values, scoring): the town, not also the address, for "where does grandma live"; the
business's landlord ("the landlord of the salon") and "who is" a role person answered by
their name key; a job asked of someone whose key is `role`; braces and the orthodontist;
"when" never answered by a name; "who do we pay for electricity" and "our electricity
supplier"; "the work car" is the salon's car, never the family's; "what do Denisa and
Petra do at the salon" asks each one's job, the salon being no third person."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-25T12:00:00Z"
_AT = 'valid_from: "2025-01-01", recorded_at: "2025-01-14T20:00:00Z", source: conversation'
WORLD = f"""\
world: business-and-household
about: "Lucie runs a hair salon; her mother lives in Brno"
now: "{NOW}"
many_valued: []
notes:
  - category: entities
    name: salon-lucie
    description: "Salon Lucie: Lucie's hair salon on Údolní in Brno, rented premises"
    aliases: ["Salon Lucie", "salon", "the shop"]
  - category: entities
    name: jiri-prochazka
    description: "Jiří Procházka: landlord of the salon premises at Údolní 33"
    aliases: ["Jiří Procházka", "landlord"]
  - category: entities
    name: maria-horvathova
    description: "Lucie's mother, a retired teacher"
    aliases: ["Mária Horváthová", "grandma", "mum"]
  - category: entities
    name: petra-svobodova
    description: "Petra Svobodová: stylist at the salon until June 2026"
    aliases: ["Petra Svobodová", "Petra"]
  - category: entities
    name: denisa-kralova
    description: "Denisa Králová: stylist and nail technician at the salon"
    aliases: ["Denisa Králová", "Denisa"]
  - category: entities
    name: klara-dvorakova
    description: "Klára: Lucie's daughter, born 2011"
    aliases: ["Klára", "Klárka", "daughter"]
events:
  - {{op: assert, scope: lucie, subject: grandma, relation: city, object: "Brno", {_AT},
     quote: "Mum lives in Brno now.", session: s1}}
  - {{op: assert, scope: lucie, subject: grandma, relation: address,
     object: "Kachlíkova 8, Brno-Bystrc", {_AT}, quote: "Her flat is Kachlíkova 8.", session: s1}}
  - {{op: assert, scope: lucie, subject: landlord, relation: name, object: "Jiří Procházka",
     {_AT}, quote: "The landlord is Jiří Procházka.", session: s1}}
  - {{op: assert, scope: lucie, subject: landlord, relation: phone, object: "+420 602 775 140",
     {_AT}, quote: "His number is 602 775 140.", session: s1}}
  - {{op: assert, scope: lucie, subject: salon, relation: employee, object: "Denisa Králová",
     {_AT}, quote: "Denisa works with me.", session: s1}}
  - {{op: assert, scope: lucie, subject: denisa, relation: role,
     object: "stylist and nail technician", {_AT}, quote: "Denisa does hair and nails.",
     session: s1}}
  - {{op: assert, scope: lucie, subject: denisa, relation: phone, object: "+420 739 118 660",
     {_AT}, quote: "Denisa's number is 739 118 660.", session: s1}}
  - {{op: assert, scope: lucie, subject: petra_svobodova, relation: role,
     object: "senior stylist", {_AT}, quote: "Petra is my senior stylist.", session: s1}}
  - {{op: assert, scope: lucie, subject: klara, relation: orthodontist,
     object: "MUDr. Ondřej Říha", {_AT}, quote: "Klára's braces are done by Dr Říha.",
     session: s1}}
  - {{op: assert, scope: lucie, subject: electricity, relation: supplier, object: "ČEZ",
     valid_from: "2019-01-01", recorded_at: "2025-01-14T20:00:00Z", source: conversation,
     quote: "The salon's electricity is from ČEZ.", session: s1}}
  - {{op: end, scope: lucie, subject: electricity, relation: supplier, valid_to: "2025-12-31",
     recorded_at: "2025-11-28T19:00:00Z", source: conversation, reason: "switched to PRE",
     session: s2}}
  - {{op: assert, scope: lucie, subject: electricity, relation: supplier, object: "PRE",
     valid_from: "2026-01-01", recorded_at: "2025-11-28T19:00:00Z", source: conversation,
     quote: "From January the electricity is from PRE.", session: s2}}
  - {{op: assert, scope: lucie, subject: electricity, relation: advance,
     object: "2 650 Kč per month", valid_from: "2026-01-01", recorded_at: "2026-01-05T18:00:00Z",
     source: conversation, quote: "PRE set the advance to 2 650.", session: s3}}
  - {{op: assert, scope: lucie, subject: salon_car, relation: plate, object: "8BD 2093", {_AT},
     quote: "The salon car is 8BD 2093.", session: s1}}
  - {{op: assert, scope: lucie, subject: family_car, relation: plate, object: "2B1 1111", {_AT},
     quote: "Our own car is 2B1 1111.", session: s1}}
questions: []
"""


world_repo, memory = world_fixtures(WORLD, "lucie", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Where does grandma live now?", ["grandma.city=Brno"]),
    ("kde bydli babicka", ["grandma.city=Brno"]),
    ("Where is mum's flat exactly?", ["grandma.address=Kachlíkova 8, Brno-Bystrc"]),
    ("Who's the landlord of the salon?", ["landlord.name=Jiří Procházka"]),
    ("What was Petra Svobodová's job at the salon?", ["petra_svobodova.role=senior stylist"]),
    ("Who does Klárka's braces?", ["klara.orthodontist=MUDr. Ondřej Říha"]),
    ("Who do we pay for electricity?", ["electricity.supplier=PRE"]),
    ("Who was our electricity supplier last year?", ["electricity.supplier=ČEZ"]),
    ("What registration number is on the work car?", ["salon_car.plate=8BD 2093"]),
    ("What does Denisa do at the salon?", ["denisa.role=stylist and nail technician"]),
    ("What do Denisa and Petra do at the salon?", [
        "denisa.role=stylist and nail technician", "petra_svobodova.role=senior stylist"]),
])
def test_the_household_and_its_business(memory: Memory, question: str,
                                        expected: list[str]) -> None:
    assert answered_keys(memory, "lucie", question) == expected


@pytest.mark.parametrize("question", [
    "Kedy má Klára termín u zubára?",  # her orthodontist's name is no date
    "Who pays out if the salon burns down?",  # no insurance recorded: not the staff
    "What's the plate of Petra's car?",  # neither the salon's car nor the family's
])
def test_no_other_keys_value(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "lucie", question) == []
