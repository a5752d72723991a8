"""Words of a question that name nothing of their own, and the sentence a fact was recorded
from (memrepo.answer.scoring, memrepo.answer.candidates): a verb such as "drive" or "use"
does not make a question about the car unanswerable; a word the fact's own quote holds
helps it answer ("who covers the BUILDING": "The building is insured with …") but never
outranks a key holding the word itself; a common noun of the keys ("jar") is no name of the
`jar_supplier`; "how much" is never answered by a name. A small household and shop written
for these tests alone, asked through the Python API.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_memory, world_repository

NOW = "2026-11-25T12:00:00Z"
WORLD = f"""\
world: wording
about: "Ilona's flower shop and her household"
now: "{NOW}"
many_valued: []
notes: []
events:
  - {{op: assert, scope: ilona, subject: car, relation: model, object: "Opel Astra",
     valid_from: "2016-04-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "We have had the Astra since April 2016.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: car, relation: model, object: "Kia Ceed",
     valid_from: "2026-03-10", recorded_at: "2026-03-11T10:00:00Z",
     quote: "Sold the Astra, we picked up a Kia Ceed yesterday.", source: conversation,
     session: s2}}
  - {{op: assert, scope: ilona, subject: shop_insurance, relation: insurer, object: "Allianz",
     valid_from: "2024-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "The building is insured with Allianz.", source: document, session: s1}}
  - {{op: assert, scope: ilona, subject: van_loan, relation: lender, object: "mBank",
     valid_from: "2025-05-01", recorded_at: "2025-05-02T10:00:00Z",
     quote: "Signed the van loan with mBank.", source: conversation, session: s3}}
  - {{op: assert, scope: ilona, subject: van_loan, relation: monthly_payment,
     object: "1 250 zł", valid_from: "2025-05-01", recorded_at: "2025-05-02T10:00:00Z",
     quote: "The instalment is 1 250 zł a month.", source: conversation, session: s3}}
  - {{op: assert, scope: ilona, subject: tulips, relation: price_per_bunch, object: "35 zł",
     valid_from: "2026-02-01", recorded_at: "2026-02-01T10:00:00Z",
     quote: "A bunch of tulips is 35 zł now.", source: conversation, session: s4}}
  - {{op: assert, scope: ilona, subject: bunch_supplier, relation: company,
     object: "Kwiaty Hurt", valid_from: "2023-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "We buy the wrapping for bunches from Kwiaty Hurt.", source: conversation,
     session: s1}}
  - {{op: assert, scope: ilona, subject: bunch_supplier, relation: price_per_bunch,
     object: "2 zł", valid_from: "2023-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "Wrapping costs us 2 zł a bunch.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: marta, relation: city, object: "Gdańsk",
     valid_from: "2020-10-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "Marta moved to Gdańsk, she loves the sea.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: marta, relation: address,
     object: "ul. Długa 5, Gdańsk", valid_from: "2020-10-01",
     recorded_at: "2025-02-01T10:00:00Z", quote: "Her flat is at Długa 5.",
     source: conversation, session: s1}}
questions: []
"""


@pytest.fixture(scope="module")
def world_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return world_repository(tmp_path_factory, WORLD, "ilona")


@pytest.fixture()
def memory(world_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Memory:
    return world_memory(world_repo, monkeypatch, NOW)


def answered(memory: Memory, question: str) -> list[str]:
    return answered_keys(memory, "ilona", question)


@pytest.mark.parametrize(("question", "expected"), [
    ("Which car did we drive back in 2020?", ["car.model=Opel Astra"]),
    ("What car do we use now?", ["car.model=Kia Ceed"]),
])
def test_a_verb_that_names_nothing_does_not_refuse_the_thing_asked(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered(memory, question) == expected


def test_a_word_its_quote_holds_helps_a_key_answer_and_says_so(memory: Memory) -> None:
    facts = memory.recall("ilona", "Who covers the building if something burns down?").facts
    assert [f.object for f in facts] == ["Allianz"]
    assert "'building' in its quote" in facts[0].why["relation"]


def test_a_quote_never_outranks_a_key_holding_the_word_itself(memory: Memory) -> None:
    # "Gdańsk" is in the city's quote; the address key holds "address" as written
    assert answered(memory, "What's Marta's address in Gdańsk?") == [
        "marta.address=ul. Długa 5, Gdańsk"]


def test_a_common_noun_of_the_keys_is_no_name(memory: Memory) -> None:
    # "bunch" is a word of `price_per_bunch`: it does not name `bunch_supplier`
    assert answered(memory, "How much is a bunch of tulips now?") == [
        "tulips.price_per_bunch=35 zł"]


def test_how_much_is_never_answered_by_a_name(memory: Memory) -> None:
    assert answered(memory, "How much goes to the bank every month for the van?") == [
        "van_loan.monthly_payment=1 250 zł"]
