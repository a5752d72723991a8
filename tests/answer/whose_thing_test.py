"""Whose thing a Polish question asks about, and nothing of another's: the flat named in
its case ("prąd w MIESZKANIU" is not the car wash's electricity), the family car named in
lower case by its model ("przegląd OCTAVII": not the van's), a person asked only by a head
noun ("OKSANY adres?": not everything recorded about her), the loan's instalment apart
from the leasing's ("rata KREDYTU"), where someone lives apart from their home town; the
words of such questions ("JAKIMI językami mówi", "kiedy się KOŃCZY", "auto PRYWATNE", "ile
DOSTAJE"); a family role said bare is the asker's ("where does GRANDMA live": not the
household flat); "… and what's HE on now?" asks again what the part before asked."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-25T12:00:00Z"
WORLD = f"""\
world: whose-thing
about: "A Poznań car wash and the family's flat"
now: "{NOW}"
many_valued: [speaks]
notes:
  - category: entities
    name: oksana-melnyk
    description: "Oksana Melnyk, our washer since 2023"
    aliases: ["Oksana"]
events:
  - {{op: assert, scope: marek, subject: myjnia, relation: prad,
     object: "ok. 2 900 zł miesięcznie", valid_from: "2025-09-01",
     recorded_at: "2025-10-05T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: mieszkanie, relation: czynsz, object: "845 zł",
     valid_from: "2026-01-01", recorded_at: "2026-01-05T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: mieszkanie, relation: adres,
     object: "os. Bolesława Chrobrego 14/22, Poznań", valid_from: "2010-01-01",
     recorded_at: "2025-01-05T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: family_car, relation: model,
     object: "Skoda Octavia kombi", valid_from: "2019-04-01",
     recorded_at: "2025-02-03T19:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: van, relation: rejestracja, object: "PO 7K312",
     valid_from: "2024-09-01", recorded_at: "2025-01-09T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: van, relation: przeglad, object: "do 14 maja 2027",
     valid_from: "2026-05-14", recorded_at: "2026-05-15T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: oksana_melnyk, relation: wynagrodzenie,
     object: "5 300 zł brutto", valid_from: "2026-01-01", recorded_at: "2026-01-05T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: marek, subject: oksana_melnyk, relation: syn, object: "Artem",
     valid_from: "2015-01-01", recorded_at: "2025-01-08T08:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: leasing, relation: rata, object: "2 140 zł netto",
     valid_from: "2024-09-01", recorded_at: "2025-01-09T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: bank_loan, relation: monthly_installment,
     object: "3 210 zł", valid_from: "2026-08-01", recorded_at: "2026-07-20T12:00:00Z",
     source: manual}}
  - {{op: assert, scope: marek, subject: juraj_kovac, relation: adres,
     object: "ul. Grunwaldzka 19/2, Poznań", valid_from: "2025-06-01",
     recorded_at: "2025-06-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: juraj_kovac, relation: hometown, object: "Martin",
     valid_from: "1990-01-01", recorded_at: "2025-03-03T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: juraj_kovac, relation: speaks, object: "Slovak",
     valid_from: "1990-01-01", recorded_at: "2025-03-03T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: juraj_kovac, relation: speaks, object: "Polish",
     valid_from: "2020-01-01", recorded_at: "2025-03-03T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: leasing, relation: koniec, object: "31 sierpnia 2027",
     valid_from: "2024-09-01", recorded_at: "2025-01-09T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: bank_loan, relation: interest_rate, object: "5,9 %",
     valid_from: "2024-07-01", recorded_at: "2025-01-15T12:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: bruno, relation: krmivo,
     object: "Brit Care Adult Lamb", valid_from: "2024-01-01",
     recorded_at: "2024-01-02T10:00:00Z", source: manual}}
  - {{op: end, scope: marek, subject: bruno, relation: krmivo, valid_to: "2026-05-31",
     recorded_at: "2026-06-01T10:00:00Z", source: manual, reason: "senior food now"}}
  - {{op: assert, scope: marek, subject: bruno, relation: krmivo,
     object: "Brit Care Senior & Light", valid_from: "2026-06-01",
     recorded_at: "2026-06-01T10:01:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: bruno, relation: plemeno, object: "bígl",
     valid_from: "2018-01-01", recorded_at: "2024-01-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: marek, subject: school, relation: parent_teacher_meeting,
     object: "26. 11. 2026 v 16:00", valid_from: "2026-11-01",
     recorded_at: "2026-11-02T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "marek", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("ile płacimy za prąd na myjni?", ["myjnia.prad=ok. 2 900 zł miesięcznie"]),
    ("numer rejestracyjny octavii", []),                 # only the van's plate
    ("do kiedy przeglad vana", ["van.przeglad=do 14 maja 2027"]),
    ("Oksany adres?", []),                               # not everything about her
    ("Oksana?", ["oksana_melnyk.syn=Artem", "oksana_melnyk.wynagrodzenie=5 300 zł brutto"]),
    ("rata kredytu", ["bank_loan.monthly_installment=3 210 zł"]),  # not the leasing's
    ("rata leasingu", ["leasing.rata=2 140 zł netto"]),
    ("ile wynosi rata kredytu?", ["bank_loan.monthly_installment=3 210 zł"]),  # "rata" is
    ("the loan's interest rate?", ["bank_loan.interest_rate=5,9 %"]),  # no `interest_rate`
    ("gdzie mieszka Juraj", ["juraj_kovac.adres=ul. Grunwaldzka 19/2, Poznań"]),
    ("skąd pochodzi Juraj, jakie jest jego rodzinne miasto?", ["juraj_kovac.hometown=Martin"]),
    ("jakimi językami mówi Juraj", ["juraj_kovac.speaks=Slovak", "juraj_kovac.speaks=Polish"]),
    ("kiedy się kończy umowa leasingowa?", ["leasing.koniec=31 sierpnia 2027"]),
    ("jakie mamy auto prywatne", ["family_car.model=Skoda Octavia kombi"]),  # not the van
    ("ile Oksana dostaje co miesiąc", ["oksana_melnyk.wynagrodzenie=5 300 zł brutto"]),
])
def test_the_thing_of_whom_the_question_asks_and_no_other(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "marek", question) == expected


def test_the_flats_electricity_is_never_another_amount(memory: Memory) -> None:
    """Nobody recorded the flat's electricity: never the car wash's, nor the flat's one
    amount (its rent), which holds nothing of "prąd" but "how much"."""
    assert answered_keys(memory, "marek", "ile płacimy za prąd w mieszkaniu?") == []
    assert answered_keys(memory, "marek", "ile płacimy za mieszkanie?") == [
        "mieszkanie.czynsz=845 zł"]


@pytest.mark.parametrize("question", [
    "where does grandma live",       # a family role said bare: the asker's, none recorded
    "what's grandma's address",      # … never the household flat's address
])
def test_a_family_role_nobody_recorded_is_nobodys_value(memory: Memory,
                                                         question: str) -> None:
    assert answered_keys(memory, "marek", question) == []


def test_a_family_word_describing_another_is_no_one_asked(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "When is the parent-teacher meeting at school?") == [
        "school.parent_teacher_meeting=26. 11. 2026 v 16:00"]


def test_a_second_part_pointing_back_asks_what_the_first_asked(memory: Memory) -> None:
    """"… and what's HE on now?" asks Bruno's food again, never everything about him."""
    answered = answered_keys(memory, "marek",
                             "What food was Bruno on before and what's he on now?")
    assert "bruno.krmivo=Brit Care Senior & Light" in answered
    assert not [key for key in answered if not key.startswith("bruno.krmivo=")]
