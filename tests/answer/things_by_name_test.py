"""Things asked about by what they are, their name or a misspelling (memrepo.answer.
candidates, respelling, answer_kinds): a pet recorded once as `pies` (its name "Bąbel")
and once by that name (`babel`); a short English misspelling of a concept's word ("cta");
a misspelt model name ("Yaaris"); a Slovak misspelling nearer to a word nobody records
than to the one the scope holds ("plny": `plyn`, not `plony`); "which company" asks for
the one relation of the thing whose value is a name; "dávame" (we give) names nothing."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-10-15T12:00:00Z"
WORLD = f"""\
world: things-by-name
about: "A household with a dog, a cat, a car and bills"
now: "{NOW}"
many_valued: []
notes: []
events:
  - {{op: assert, scope: zuza, subject: pies, relation: imie, object: "Bąbel",
     valid_from: "2020-08-01", recorded_at: "2025-04-01T10:00:00Z",
     quote: "Naszego psa wołamy Bąbel.", source: conversation, session: s1}}
  - {{op: assert, scope: zuza, subject: babel, relation: next_rabies_vaccination,
     object: "2027-03-12", valid_from: "2026-03-12", recorded_at: "2026-03-12T10:00:00Z",
     quote: "Bąbel zaszczepiony, następne szczepienie 12 marca 2027.", source: conversation,
     session: s2}}
  - {{op: assert, scope: zuza, subject: macka, relation: meno, object: "Mici",
     valid_from: "2021-05-01", recorded_at: "2025-04-02T10:00:00Z",
     quote: "Naša mačka sa volá Mici.", source: conversation, session: s1}}
  - {{op: assert, scope: zuza, subject: family_car, relation: model, object: "Toyota Yaris",
     valid_from: "2021-01-01", recorded_at: "2025-01-06T10:00:00Z",
     quote: "Our car is a Toyota Yaris.", source: conversation, session: s1}}
  - {{op: assert, scope: zuza, subject: family_car, relation: plate, object: "KWI 4521A",
     valid_from: "2021-01-01", recorded_at: "2025-01-06T10:00:00Z",
     quote: "The Yaris is KWI 4521A.", source: conversation, session: s1}}
  - {{op: assert, scope: zuza, subject: gas_bill, relation: monthly_amount, object: "265 zł",
     valid_from: "2026-01-01", recorded_at: "2026-01-05T10:00:00Z",
     quote: "Za plyn dávame 265 zlotých mesačne.", source: conversation, session: s3}}
  - {{op: assert, scope: zuza, subject: electricity_bill, relation: supplier,
     object: "Tauron", valid_from: "2025-01-01", recorded_at: "2025-03-15T10:00:00Z",
     quote: "Elektrinu dodáva Tauron.", source: conversation, session: s3}}
  - {{op: assert, scope: zuza, subject: electricity_bill, relation: monthly_amount,
     object: "190 zł", valid_from: "2025-01-01", recorded_at: "2025-03-15T10:00:00Z",
     quote: "Za elektrinu 190 zlotých.", source: conversation, session: s3}}
  - {{op: assert, scope: zuza, subject: horse, relation: name, object: "Mother",
     valid_from: "2021-05-01", recorded_at: "2025-04-02T10:00:00Z",
     quote: "Our horse is called Mother.", source: conversation, session: s1}}
  - {{op: assert, scope: zuza, subject: mother, relation: next_checkup, object: "2027-01-10",
     valid_from: "2026-01-01", recorded_at: "2026-01-05T10:00:00Z",
     quote: "Mum's next checkup is on 10 January.", source: conversation, session: s3}}
questions: []
"""


world_repo, memory = world_fixtures(WORLD, "zuza", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("When does the dog need his next rabies jab?", ["babel.next_rabies_vaccination=2027-03-12"]),
    ("Kiedy pies ma następne szczepienie?", ["babel.next_rabies_vaccination=2027-03-12"]),
    ("when is the dgo's next rabies shot", ["babel.next_rabies_vaccination=2027-03-12"]),
    ("What's teh cta's name?", ["macka.meno=Mici"]),
    ("Whats the plate of the Yaaris?", ["family_car.plate=KWI 4521A"]),
    ("Koľko platíme za plny mesačne?", ["gas_bill.monthly_amount=265 zł"]),
    ("Koľko teraz dávame mesačne za plyn?", ["gas_bill.monthly_amount=265 zł"]),
    ("Which company sells us our power?", ["electricity_bill.supplier=Tauron"]),
])
def test_things_by_what_they_are_their_name_or_a_misspelling(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "zuza", question) == expected


@pytest.mark.parametrize("question", [
    "When does the cat need her next rabies jab?",  # the dog's date is not the cat's
    "Which company sells us our water?",  # nothing recorded of water
    "What's the plate of the Corolla?",  # no Corolla recorded
    "When is the horse's next checkup?",  # a horse named "Mother" is not the mother
])
def test_another_things_value_is_no_answer(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "zuza", question) == []


def test_the_answer_says_which_name_the_thing_is_called_by(memory: Memory) -> None:
    fact = memory.recall("zuza", "When does the dog need his next rabies jab?").facts[0]
    assert fact.why["subject"] == "'dog', called 'Bąbel'"
