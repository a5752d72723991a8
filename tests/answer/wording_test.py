"""Words of a question that name nothing of their own, and the sentence a fact was recorded
from (memrepo.answer.scoring, memrepo.answer.candidates): a verb such as "drive" or "use"
does not make a question about the car unanswerable; a word the fact's own quote holds
helps it answer ("who covers the BUILDING": "The building is insured with …") but never
outranks a key holding the word itself; a common noun of the keys ("jar") is no name of the
`jar_supplier`; "how much" is never answered by a name. A small household and shop written
for these tests alone, asked through the Python API.
"""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-25T12:00:00Z"
WORLD = f"""\
world: wording
about: "Ilona's flower shop and her household"
now: "{NOW}"
many_valued: []
notes:
  - category: entities
    name: tomasz-wrobel
    description: "Tomasz Wróbel, the vet who checks the shop cat every spring"
    aliases: ["Tomasz Wróbel", "the vet"]
  - category: entities
    name: marta
    description: "Ilona's sister, a nurse in Gdańsk"
  - category: entities
    name: zielony-dwor
    description: "Garden centre in Sopot that buys our wreaths"
    aliases: ["Zielony Dwór"]
events:
  - {{op: assert, scope: ilona, subject: flower_shop, relation: vet,
     object: "lek. wet. Tomasz Wróbel", valid_from: "2024-03-01",
     recorded_at: "2025-02-01T10:00:00Z",
     quote: "Our vet is Tomasz Wróbel.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: tomasz_wrobel, relation: phone, object: "+48 501 777 888",
     valid_from: "2024-03-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "His number is 501 777 888.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: zielony_dwor, relation: city, object: "Sopot",
     valid_from: "2019-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "Zielony Dwór is in Sopot.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: zielony_dwor, relation: contact_person,
     object: "Ewa Lis", valid_from: "2019-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "We deal with Ewa Lis there.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: tomasz_wrobel, relation: birthday,
     object: "1979-05-02", valid_from: "1979-05-02", recorded_at: "2025-02-01T10:00:00Z",
     quote: "Tomasz was born on 2 May 1979.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: marta, relation: birthday, object: "1990-08-14",
     valid_from: "1990-08-14", recorded_at: "2025-02-01T10:00:00Z",
     quote: "Marta's birthday is 14 August 1990.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: flower_shop, relation: day_rate, object: "400 zł",
     valid_from: "2024-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "We charge 400 zł a day for wedding decorations.", source: conversation,
     session: s1}}
  - {{op: assert, scope: sklep, subject: van, relation: insurance_expiry,
     object: "14 lutego 2027", valid_from: "2026-02-14", recorded_at: "2026-02-14T10:00:00Z",
     quote: "The van's insurance runs to 14 February 2027.", source: conversation,
     session: s5}}
  - {{op: assert, scope: sklep, subject: car, relation: insurance,
     object: "PZU, do 20 stycznia 2027", valid_from: "2026-01-20",
     recorded_at: "2026-01-20T10:00:00Z", quote: "The car is insured with PZU.",
     source: conversation, session: s5}}
  - {{op: assert, scope: ilona, subject: mother, relation: phone, object: "+48 602 111 222",
     valid_from: "2020-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "Mum's number is 602 111 222.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: mother, relation: adres, object: "ul. Polna 3, Sopot",
     valid_from: "2020-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "Mama mieszka na Polnej 3.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: marta, relation: job, object: "nurse",
     valid_from: "2015-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "Marta works as a nurse.", source: conversation, session: s1}}
  - {{op: assert, scope: ilona, subject: marta, relation: employer, object: "UCK Gdańsk",
     valid_from: "2015-01-01", recorded_at: "2025-02-01T10:00:00Z",
     quote: "She is at UCK.", source: conversation, session: s1}}
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


world_repo, memory = world_fixtures(WORLD, "ilona", NOW)


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


def test_what_someone_does_asks_their_job(memory: Memory) -> None:
    assert answered(memory, "What does Marta do?") == ["marta.job=nurse"]
    assert answered(memory, "What does Marta do these days?") == ["marta.job=nurse"]


def test_where_someone_is_asks_only_where(memory: Memory) -> None:
    assert answered(memory, "Gdzie jest Zielony Dwór?") == ["zielony_dwor.city=Sopot"]
    # a Polish locative ("w Zielonym Dworze") still names it
    assert answered(memory, "Kto jest osobą kontaktową w Zielonym Dworze?") == [
        "zielony_dwor.contact_person=Ewa Lis"]


def test_a_role_whose_name_is_recorded_only_as_a_value(memory: Memory) -> None:
    assert answered(memory, "Who is our vet?") == ["flower_shop.vet=lek. wet. Tomasz Wróbel"]
    both = memory.recall("ilona", "Who's our shop vet and what's his number?")
    assert [f.object for f in both.facts] == ["lek. wet. Tomasz Wróbel", "+48 501 777 888"]
    # a word some other key holds is not asked of the vet
    assert answered(memory, "Who is our vet for the van?") == []


def test_and_his_starts_a_second_question_about_the_same_person(memory: Memory) -> None:
    answer = memory.recall("ilona", "What's Marta's city and her phone number?")
    assert [f.object for f in answer.facts] == ["Gdańsk"]
    assert any("her phone number" in remark for remark in answer.remarks)


@pytest.mark.parametrize("question", [
    "Which cars have we had?", "What cars have we had so far?", "Jaké auta jsme dosud měli?",
])
def test_had_so_far_asks_every_value_the_key_held(memory: Memory, question: str) -> None:
    assert answered(memory, question) == ["car.model=Opel Astra", "car.model=Kia Ceed"]


def test_a_plural_typo_and_a_swapped_question_word_are_read(memory: Memory) -> None:
    assert answered(memory, "Whcih car do we have now?") == ["car.model=Kia Ceed"]
    assert answered(memory, "How much are the tulpis now?") == ["tulips.price_per_bunch=35 zł"]


def test_a_first_name_beside_another_surname_is_someone_else(memory: Memory) -> None:
    answer = memory.recall("ilona", "When was Tomasz Nowicki born?")
    assert answer.facts == []
    assert "nothing is recorded about 'tomasz nowicki'" in answer.remarks
    assert answered(memory, "When was Tomasz Wróbel born?") == [
        "tomasz_wrobel.birthday=1979-05-02"]


def test_another_kind_of_the_thing_is_not_recorded(memory: Memory) -> None:
    # `tulips.price_per_bunch` is no price of roses; `van_loan` no loan for the car
    assert answered(memory, "How much is a bunch of roses?") == []
    assert answered(memory, "Who gave us the car loan?") == []


def test_people_named_side_by_side_are_each_answered(memory: Memory) -> None:
    assert answered(memory, "When were Tomasz and Marta born?") == [
        "tomasz_wrobel.birthday=1979-05-02", "marta.birthday=1990-08-14"]


def test_a_day_word_that_is_no_question_word_keeps_amounts(memory: Memory) -> None:
    assert answered(memory, "What is our day rate?") == ["flower_shop.day_rate=400 zł"]
    assert answered(memory, "Which days do we charge the day rate?") == []


def test_a_capitalised_name_held_as_a_value_names_its_thing(memory: Memory) -> None:
    # "Kwiaty Hurt" is the name of `bunch_supplier`: its keys, never another thing's
    assert answered(memory, "How much does Kwiaty charge per bunch?") == [
        "bunch_supplier.price_per_bunch=2 zł"]


def test_a_thing_named_as_written_is_never_answered_by_another_through_a_concept(
        memory: Memory) -> None:
    # the van's only insurance key is a date, no number; the car's insurance is the car's
    assert answered_keys(memory, "sklep", "What's the policy number of the van insurance?"
                         ) == []
    assert answered_keys(memory, "sklep", "When does the van insurance expire?") == [
        "van.insurance_expiry=14 lutego 2027"]


def test_a_possessor_is_whose_not_the_relation(memory: Memory) -> None:
    # "the vet's phone" asks the vet's phone, not `flower_shop.vet`
    assert answered(memory, "What's the vet's email?") == []


def test_a_person_asked_side_by_side_without_an_answer_is_said(memory: Memory) -> None:
    answer = memory.recall("ilona", "What are Tomasz's and Marta's phone numbers?")
    assert [f.object for f in answer.facts] == ["+48 501 777 888"]
    assert "not recorded for marta (one of those asked about)" in answer.remarks


def test_a_title_case_question_names_no_one_by_its_capitals(memory: Memory) -> None:
    assert answered(memory, "When Was Tomasz Wróbel Born?") == [
        "tomasz_wrobel.birthday=1979-05-02"]


@pytest.mark.parametrize("question", [
    "Aké je mamino číslo?", "Aké je číslo mamy?", "Aký je telefón mamy?",
    "Jaki jest telefon mamy?"])
def test_mums_number_in_slovak_and_polish(memory: Memory, question: str) -> None:
    assert answered(memory, question) == ["mother.phone=+48 602 111 222"]
    assert answered(memory, "Co mamy na obiad?") == []  # "mamy": we have


@pytest.mark.parametrize("question", [
    "Jaki jest adres mamy?", "Aká je mamina adresa?", "Adresa mamy?"])
def test_an_address_beside_a_role_word_is_that_persons(memory: Memory, question: str) -> None:
    assert answered(memory, question) == ["mother.adres=ul. Polna 3, Sopot"]
    assert answered(memory, "What is Marta's email address?") == []  # a kind of address

