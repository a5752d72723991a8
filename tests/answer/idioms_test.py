"""Relations asked by the idioms people use for them (memrepo.answer.concepts): whom we
rent the premises FROM (a verb and its particle apart), who pays out if the salon burns
down, what goes to the bank each month, how to get hold of someone, who is in charge,
what cut a booking site takes, how much warning a lease needs, where we get the dye from;
British and Polish everyday words ("the van reg", "the leccy", "what model'S the kiln",
"jak się wabi", "how hot", "what was up with"); one key where one relation holds the
word and another only its concept ("van INSURER?"); "did you know on …" as the memory
knew it; a compound that is another thing ("the HOME insurance", "our WINDOW cleaner");
"&" joining two questions; of a change question's keys, the one that changed — and, as
ever, nothing for the same idiom of what nobody recorded."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-28T12:00:00Z"
WORLD = f"""\
world: idioms
about: "A hair salon's premises, loan, insurance and people"
now: "{NOW}"
notes:
  - category: entities
    name: agata-kowalska
    description: "Agata Kowalska, our Polish cleaner, Tuesdays and Fridays"
    aliases: ["Agata"]
events:
  - {{op: assert, scope: lucie, subject: salon_premises, relation: landlord,
     object: "Jan Procházka", valid_from: "2022-01-01", recorded_at: "2022-01-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: lucie, subject: salon_premises, relation: notice_period,
     object: "3 months", valid_from: "2022-01-01", recorded_at: "2022-01-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: lucie, subject: salon_insurance, relation: insurer,
     object: "Kooperativa", valid_from: "2022-01-01", recorded_at: "2022-01-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: lucie, subject: uver, relation: splatka, object: "10 980 Kč",
     valid_from: "2026-06-01", recorded_at: "2026-05-28T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: sandra_okafor, relation: phone,
     object: "07911 402557", valid_from: "2025-09-01", recorded_at: "2025-09-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: lucie, subject: salon, relation: manager, object: "Sandra Okafor",
     valid_from: "2025-09-01", recorded_at: "2025-09-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: booking_com, relation: commission, object: "17 %",
     valid_from: "2024-01-01", recorded_at: "2024-01-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: dye, relation: supplier, object: "Hairtech Polska",
     valid_from: "2025-03-01", recorded_at: "2025-03-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: van, relation: registration, object: "YK19 HDR",
     valid_from: "2021-03-01", recorded_at: "2025-01-25T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: van, relation: mot_expiry, object: "14 February 2027",
     valid_from: "2026-02-10", recorded_at: "2026-02-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: kiln, relation: model, object: "Hobbytech HT90",
     valid_from: "2018-06-15", recorded_at: "2025-04-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: dog, relation: name, object: "Biscuit",
     valid_from: "2020-01-01", recorded_at: "2025-01-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: agata, relation: syn, object: "Kuba",
     valid_from: "2016-01-01", recorded_at: "2025-01-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: agata, relation: miasto_rodzinne, object: "Tarnów",
     valid_from: "1985-01-01", recorded_at: "2025-01-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: electricity, relation: direct_debit,
     object: "£186 a month", valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: lucie, subject: van_insurance, relation: insurer, object: "Aviva",
     valid_from: "2025-11-10", recorded_at: "2025-11-12T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: van_insurance, relation: premium,
     object: "£548 a year", valid_from: "2025-11-10", recorded_at: "2025-11-12T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: lucie, subject: cleaner, relation: name, object: "Agata Kowalska",
     valid_from: "2024-01-01", recorded_at: "2024-01-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: kiln, relation: status,
     object: "broken — failed relay", valid_from: "2026-10-02",
     recorded_at: "2026-10-02T10:00:00Z", source: manual}}
  - {{op: end, scope: lucie, subject: kiln, relation: status, valid_to: "2026-10-08",
     recorded_at: "2026-10-09T10:00:00Z", source: manual, reason: "relay replaced"}}
  - {{op: assert, scope: lucie, subject: kiln, relation: status, object: "working",
     valid_from: "2026-10-09", recorded_at: "2026-10-09T10:01:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: kiln, relation: max_temperature, object: "1280°C",
     valid_from: "2018-06-15", recorded_at: "2025-04-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: agata, relation: dni_pracy, object: "środa",
     valid_from: "2023-05-02", recorded_at: "2025-01-20T09:05:00Z", source: manual}}
  - {{op: end, scope: lucie, subject: agata, relation: dni_pracy, valid_to: "2025-08-31",
     recorded_at: "2025-09-05T14:00:00Z", source: manual, reason: "new days"}}
  - {{op: assert, scope: lucie, subject: agata, relation: dni_pracy, object: "wtorek i piątek",
     valid_from: "2025-09-01", recorded_at: "2025-09-05T14:01:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: studio_hana, relation: clay_supplier,
     object: "Potclays", valid_from: "2025-07-01", recorded_at: "2025-07-04T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: lucie, subject: gear_insurance, relation: policy_number,
     object: "WAR-FOT-2025-118834", valid_from: "2025-03-01",
     recorded_at: "2025-09-15T10:00:00Z", source: manual}}
  - {{op: assert, scope: lucie, subject: phone, relation: plan, object: "Orange Go 40 GB",
     valid_from: "2026-01-01", recorded_at: "2026-01-02T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "lucie", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("who do we rent the salon premises from?", ["salon_premises.landlord=Jan Procházka"]),
    ("Which company pays out if the salon burns down?",
     ["salon_insurance.insurer=Kooperativa"]),
    ("How much goes to the bank every month now?", ["uver.splatka=10 980 Kč"]),
    ("how do I get hold of Sandra?", ["sandra_okafor.phone=07911 402557"]),
    ("who's in charge at the salon?", ["salon.manager=Sandra Okafor"]),
    ("What cut does Booking take?", ["booking_com.commission=17 %"]),
    ("If we wanted to leave the premises, how much warning would we have to give?",
     ["salon_premises.notice_period=3 months"]),
    ("where do we get the dye from these days", ["dye.supplier=Hairtech Polska"]),
])
def test_a_relation_is_found_by_the_idiom_people_ask_it_with(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "lucie", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("what model's the kiln", ["kiln.model=Hobbytech HT90"]),      # "'s the": is
    ("when's the van's MOT due", ["van.mot_expiry=14 February 2027"]),  # "due" asks no more
    ("whats the van reg", ["van.registration=YK19 HDR"]),
    ("how much does the leccy cost us each month", ["electricity.direct_debit=£186 a month"]),
    ("Jak się wabi pies?", ["dog.name=Biscuit"]),                  # a pet's name in Polish
    ("what's Agata's little boy called", ["agata.syn=Kuba"]),
    ("where's Agata from originally", ["agata.miasto_rodzinne=Tarnów"]),
])
def test_british_and_polish_everyday_words(memory: Memory, question: str,
                                          expected: list[str]) -> None:
    assert answered_keys(memory, "lucie", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("van insurer?", ["van_insurance.insurer=Aviva"]),  # not the premium, an insurance word
    ("What phone plans do I have?", ["phone.plan=Orange Go 40 GB"]),  # a plural is its word
    ("on 1 May 2025 did you know what model the kiln was", ["kiln.model=Hobbytech HT90"]),
    ("on 1 March 2025 did you know what model the kiln was", []),  # recorded in April
    ("do you know what model the kiln was in 2020", ["kiln.model=Hobbytech HT90"]),
    ("who's our window cleaner", []),                  # not the cleaner
    ("how much is the home insurance", []),            # not the van's
    ("What's the salon insurance policy number?", []),  # not its insurer's name
    ("numer polisy na sprzęt?", ["gear_insurance.policy_number=WAR-FOT-2025-118834"]),
    ("who's our clay supplier", ["studio_hana.clay_supplier=Potclays"]),  # the firm's
    ("who's our glaze supplier", []),                  # not the clay's
    ("who's the van insured with and how much is it",  # "it": the van named before
     ["van_insurance.insurer=Aviva", "van_insurance.premium=£548 a year"]),
])
def test_the_one_thing_asked_and_no_other(memory: Memory, question: str,
                                         expected: list[str]) -> None:
    assert answered_keys(memory, "lucie", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("what was up with the kiln on 5 October", ["kiln.status=broken — failed relay"]),
    ("how hot can the kiln go", ["kiln.max_temperature=1280°C"]),
    ("which days does Agata come in", ["agata.dni_pracy=wtorek i piątek"]),
    ("whats the van reg & when is the MOT due",  # "&" joins two questions as "and" does
     ["van.registration=YK19 HDR", "van.mot_expiry=14 February 2027"]),
    ("where does Agata lvie", ["agata.miasto_rodzinne=Tarnów"]),  # a short English typo
    ("agata's son and where's she from",  # the second part of her, never all of hers
     ["agata.syn=Kuba", "agata.miasto_rodzinne=Tarnów"]),
])
def test_a_things_state_its_limits_and_someones_days(memory: Memory, question: str,
                                                    expected: list[str]) -> None:
    assert answered_keys(memory, "lucie", question) == expected


def test_a_change_question_answers_with_the_key_that_changed(memory: Memory) -> None:
    """"What happened with the kiln in October": its status before and after, not its
    model or its temperature, which did not change."""
    assert answered_keys(memory, "lucie", "what happened with the kiln in October") == [
        "kiln.status=broken — failed relay", "kiln.status=working"]


@pytest.mark.parametrize("question", [
    "who do we rent the van from?",            # no lessor of the van recorded
    "how do I get hold of the plumber?",       # nobody's plumber recorded
    "where do we get the shampoo from?",       # only the dye's supplier
])
def test_the_same_idiom_of_what_nobody_recorded_is_not_recorded(
        memory: Memory, question: str) -> None:
    assert answered_keys(memory, "lucie", question) == []
