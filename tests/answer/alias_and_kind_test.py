"""A common word that is also someone's alias ("the school") is the relation asked of
a person named beside it (memrepo.answer.mentions_named.relation_words_as_names); "how much"
or "ile" is never answered by a date unless it asks an age (memrepo.answer.keys); a word that
stems like a name is no form of it unless its ending is a name's
(memrepo.answer.name_spellings: "market" is not Marek), nor is a misspelling respelled to a
name farther from it as written."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-10-15T12:00:00Z"
WORLD = f"""\
world: alias-and-kind
about: "a family with a driving school"
now: "{NOW}"
many_valued: []
notes:
  - category: entities
    name: szkola-jazdy
    description: "The family driving school in Wieliczka"
    aliases: ["Szkoła Jazdy Wróbel", "the school", "szkoła"]
  - category: entities
    name: jakub
    description: "Tomasz's son Kuba, seventeen, at secondary school"
    aliases: ["Kuba", "Jakub"]
events:
  - {{op: assert, scope: tomasz, subject: kuba, relation: szkola,
     object: "XII Liceum w Krakowie", valid_from: "2026-09-01",
     recorded_at: "2026-09-02T10:00:00Z", quote: "Kuba started at the XII Liceum.",
     source: conversation, session: s1}}
  - {{op: assert, scope: tomasz, subject: kuba, relation: birthday, object: "2011-03-14",
     valid_from: "2011-03-14", recorded_at: "2026-09-02T10:00:00Z",
     quote: "Kuba was born on 14 March 2011.", source: conversation, session: s1}}
  - {{op: assert, scope: tomasz, subject: mortgage, relation: monthly_installment,
     object: "2110 zł", valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z",
     quote: "Rata kredytu to 2110 zł.", source: conversation, session: s2}}
  - {{op: assert, scope: tomasz, subject: mortgage, relation: koniec_splaty,
     object: "2046-06-30", valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z",
     quote: "Spłacamy do czerwca 2046.", source: conversation, session: s2}}
  - {{op: assert, scope: tomasz, subject: marek, relation: hourly_wage, object: "45 zł",
     valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z",
     quote: "Marek gets 45 zł an hour.", source: conversation, session: s3}}
  - {{op: assert, scope: tomasz, subject: stall, relation: market, object: "Rynek Podgórski",
     valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z",
     quote: "Our stall stands at Rynek Podgórski.", source: conversation, session: s3}}
  - {{op: assert, scope: tomasz, subject: flat, relation: address, object: "ul. Długa 5",
     valid_from: "2023-01-01", recorded_at: "2026-01-02T10:00:00Z",
     quote: "We rent the flat at Długa 5.", source: conversation, session: s4}}
  - {{op: assert, scope: tomasz, subject: czynsz, relation: kwota, object: "3 200 zł",
     valid_from: "2024-09-01", recorded_at: "2026-01-02T10:00:00Z",
     quote: "Od września czynsz wynosi 3 200 zł.", source: sms, session: s4}}
  - {{op: assert, scope: tomasz, subject: office_rent, relation: monthly_amount,
     object: "2400 zł", valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z",
     quote: "The office is 2400 a month from January.", source: conversation, session: s5}}
  - {{op: assert, scope: tomasz, subject: training_car, relation: leasing_monthly,
     object: "1450 zł", valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z",
     quote: "The car's lease is 1450 a month.", source: conversation, session: s5}}
  - {{op: assert, scope: tomasz, subject: van, relation: insurance_expiry,
     object: "14 lutego 2027", valid_from: "2026-02-14", recorded_at: "2026-02-14T10:00:00Z",
     quote: "The van's insurance runs to 14 February 2027.", source: conversation,
     session: s6}}
  - {{op: assert, scope: tomasz, subject: samochod, relation: ubezpieczenie,
     object: "Link4, do 20 stycznia 2027", valid_from: "2026-01-20",
     recorded_at: "2026-01-20T10:00:00Z", quote: "Auto ubezpieczone w Link4.",
     source: conversation, session: s6}}
  - {{op: assert, scope: tomasz, subject: ubezpieczenie_oc, relation: wazne_do,
     object: "30 czerwca 2027", valid_from: "2026-06-30", recorded_at: "2026-06-30T10:00:00Z",
     quote: "OC firmy ważne do 30 czerwca 2027.", source: conversation, session: s6}}
questions: []
"""


world_repo, memory = world_fixtures(WORLD, "tomasz", NOW)


@pytest.mark.parametrize("question", [
    "Which school does Kuba go to now?", "Do jakiej szkoły chodzi Kuba?"])
def test_an_alias_word_beside_a_person_is_the_relation_asked(memory: Memory,
                                                            question: str) -> None:
    assert answered_keys(memory, "tomasz", question) == ["kuba.szkola=XII Liceum w Krakowie"]


def test_how_much_is_no_date(memory: Memory) -> None:
    assert answered_keys(memory, "tomasz", "Ile teraz płacimy co miesiąc za kredyt?") == [
        "mortgage.monthly_installment=2110 zł"]


def test_how_old_is_answered_by_a_birthday(memory: Memory) -> None:
    assert answered_keys(memory, "tomasz", "Ile lat ma Kuba?") == [
        "kuba.birthday=2011-03-14"]


@pytest.mark.parametrize("question", [
    "Which market is our stall at?", "Which markts is our stall at?"])
def test_a_word_stemming_like_a_name_is_not_that_person(memory: Memory, question: str) -> None:
    assert answered_keys(memory, "tomasz", question) == ["stall.market=Rynek Podgórski"]


def test_a_name_inflected_still_names_them(memory: Memory) -> None:
    assert answered_keys(memory, "tomasz", "What is Marka's hourly wage?") == [
        "marek.hourly_wage=45 zł"]


def test_a_word_of_its_subject_is_not_also_its_relation(memory: Memory) -> None:
    # `flat.address` holds 'flat' and, through its concept, a residence — but no rent
    assert "flat.address=ul. Długa 5" not in answered_keys(memory, "tomasz",
                                                            "What is the flat rent?")
    assert answered_keys(memory, "tomasz", "Where is the flat?") == ["flat.address=ul. Długa 5"]


def test_an_office_is_a_thing_not_a_person(memory: Memory) -> None:
    assert answered_keys(memory, "tomasz",
                         "How much do we pay for the office premises every month?") == [
        "office_rent.monthly_amount=2400 zł"]


def test_which_thing_is_never_answered_by_an_amount(memory: Memory) -> None:
    assert answered_keys(memory, "tomasz", "Which accounting office do we use?") == []


def test_a_common_noun_that_is_also_a_subject_names_no_thing(memory: Memory) -> None:
    # "ubezpieczenie" is `ubezpieczenie_oc` and `samochod.ubezpieczenie`: the bus is named
    assert answered_keys(memory, "tomasz", "Do kiedy jest ważne ubezpieczenie busa?") == [
        "van.insurance_expiry=14 lutego 2027"]
