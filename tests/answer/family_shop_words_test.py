"""A florist's household and shop asked in everyday Slovak and English: where someone works
when only their job is recorded, a bank named only in what was said, who helps grandma at
home, "until when", a lease that runs out, "when do we pay IT off" after the loan, a
three-letter name's possessive ("Emina"), a football club, and "the rent for the FLAT"
when only the shop's rent is recorded."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_fixtures

NOW = "2026-11-25T12:00:00Z"
WORLD = f"""\
world: florist-household
about: "A florist, her husband, children, mother-in-law and shop"
now: "{NOW}"
notes:
  - category: entities
    name: martin-kolar
    description: "Zuzana's husband Martin, electrician, helps with deliveries"
    aliases: ["Martin"]
  - category: entities
    name: anna-kolarova
    description: "Martin's mother Anna, lives alone in Sásová"
    aliases: ["babka", "svokra", "grandma"]
  - category: entities
    name: ema-kolarova
    description: "Our daughter Ema, twelve, plays volleyball"
    aliases: ["Ema"]
  - category: entities
    name: samuel-kolar
    description: "Our son Samko, eight, plays football"
    aliases: ["Samko"]
  - category: entities
    name: roman-kubis
    description: "Our landlord Ing. Roman Kubiš, owns the shop premises on Námestie SNP"
    aliases: ["Roman Kubiš"]
events:
  - {{op: assert, scope: zuzana, subject: martin, relation: job,
     object: "elektrikár, Elektro Hron s.r.o.", valid_from: "2016-03-01",
     recorded_at: "2025-10-02T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: bank_loan, relation: monthly_installment,
     object: "412 €", valid_from: "2024-05-15", recorded_at: "2025-10-12T10:00:00Z",
     quote: "Úver máme v Tatra banke, splátka je 412 eur.", source: conversation,
     session: chat-1012}}
  - {{op: assert, scope: zuzana, subject: bank_loan, relation: final_payment,
     object: "2029-05-15", valid_from: "2024-05-15", recorded_at: "2025-10-12T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: svokra, relation: opatrovatelka,
     object: "Mária Gregorová", valid_from: "2026-09-21", recorded_at: "2026-09-20T10:00:00Z",
     quote: "Od pondelka chodí k svokre opatrovateľka Mária Gregorová.", source: conversation,
     session: chat-0920}}
  - {{op: assert, scope: zuzana, subject: shop_lease, relation: ends, object: "2028-03-31",
     valid_from: "2023-04-01", recorded_at: "2025-10-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: shop_lease, relation: landlord,
     object: "Ing. Roman Kubiš", valid_from: "2019-03-01", recorded_at: "2025-10-10T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: shop_rent, relation: amount, object: "920 €",
     valid_from: "2026-09-01", recorded_at: "2026-07-20T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: ema, relation: orthodontist,
     object: "MUDr. Zora Lipková", valid_from: "2025-03-01", recorded_at: "2025-11-20T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: ema, relation: kontrola_strojcek,
     object: "2026-12-02 14:00", valid_from: "2026-10-28", recorded_at: "2026-10-28T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: ema, relation: volejbal,
     object: "VK Bystrica, tréning utorok a štvrtok 16:30", valid_from: "2024-09-01",
     recorded_at: "2025-10-07T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: ema, relation: kruzok,
     object: "plávanie – Delfín Banská Bystrica", valid_from: "2024-09-01",
     recorded_at: "2025-10-07T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: samko, relation: futbal,
     object: "FK Dukla Banská Bystrica, U9", valid_from: "2024-09-01",
     recorded_at: "2025-10-07T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: samko, relation: futbal_trening,
     object: "pondelok a streda 17:00", valid_from: "2024-09-01",
     recorded_at: "2025-10-07T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: svokra, relation: diabetolog,
     object: "MUDr. Sliacky", valid_from: "2020-01-01", recorded_at: "2025-10-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: svokra, relation: diabetolog,
     object: "MUDr. Ján Sklenár", valid_from: "2026-01-10", recorded_at: "2026-01-12T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: svadba_hruskova, relation: datum,
     object: "2026-12-19", valid_from: "2026-06-02", recorded_at: "2026-06-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: svadba_hruskova, relation: miesto,
     object: "Kaštieľ Radvaň", valid_from: "2026-06-02", recorded_at: "2026-06-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: car, relation: poistenie,
     object: "Allianz PZP, 340 EUR/year", valid_from: "2024-03-15",
     recorded_at: "2024-03-15T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: car, relation: poistenie,
     object: "Kooperativa PZP, 295 EUR/year", valid_from: "2025-03-15",
     recorded_at: "2025-03-15T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: car, relation: stk_valid_until,
     object: "2025-03-14", valid_from: "2023-03-15", recorded_at: "2024-03-15T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: car, relation: stk_valid_until,
     object: "2027-03-14", valid_from: "2025-03-15", recorded_at: "2025-03-15T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: flat, relation: rent, object: "1,350 EUR",
     valid_from: "2023-01-01", recorded_at: "2023-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: flat, relation: rent, object: "1,420 EUR",
     valid_from: "2025-01-01", recorded_at: "2025-01-01T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: client_gym, relation: contract_price,
     object: "£1,850 a month", valid_from: "2025-01-01", recorded_at: "2025-01-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: calder_law, relation: contract_price,
     object: "£920 a month", valid_from: "2025-01-01", recorded_at: "2025-01-02T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: svokra, relation: kardiolog,
     object: "MUDr. Zdeněk Havlíček", valid_from: "2025-11-01",
     recorded_at: "2025-11-10T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: svokra, relation: kardio_kontrola,
     object: "2026-12-03 09:15", valid_from: "2026-11-05", recorded_at: "2026-11-05T10:00:00Z",
     source: manual}}
  - {{op: assert, scope: zuzana, subject: samko, relation: velkost_obuvi, object: "34",
     valid_from: "2026-08-20", recorded_at: "2026-08-20T10:00:00Z", source: manual}}
  - {{op: assert, scope: zuzana, subject: samko, relation: velkost_obuvi, object: "35",
     valid_from: "2026-11-16", recorded_at: "2026-11-16T10:00:00Z", source: manual}}
questions: []
"""

world_repo, memory = world_fixtures(WORLD, "zuzana", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Kde robí Martin?", ["martin.job=elektrikár, Elektro Hron s.r.o."]),  # his job says
    ("Where does Martin work?", ["martin.job=elektrikár, Elektro Hron s.r.o."]),
    ("How much goes to Tatra banka every month?", ["bank_loan.monthly_installment=412 €"]),
    ("Kto chodí babke pomáhať domov?", ["svokra.opatrovatelka=Mária Gregorová"]),
    ("When does the lease run out?", ["shop_lease.ends=2028-03-31"]),
    ("Emina ortodontistka?", ["ema.orthodontist=MUDr. Zora Lipková"]),
    ("Samko's football club?", ["samko.futbal=FK Dukla Banská Bystrica, U9"]),
    ("Kto je babkin diabetológ?", ["svokra.diabetolog=MUDr. Ján Sklenár"]),  # grandma's
    ("Koho si mal 15. novembra 2025 zapísaného ako babkinho diabetológa?",  # as known then
     ["svokra.diabetolog=MUDr. Sliacky"]),
    ("Akú splátku úveru máme?", ["bank_loan.monthly_installment=412 €"]),  # not the last day
    ("landlord's name?", ["shop_lease.landlord=Ing. Roman Kubiš"]),  # the role's value
    ("Kedy chodí Ema na tréningy?",  # the one key of hers whose value holds "tréning"
     ["ema.volejbal=VK Bystrica, tréning utorok a štvrtok 16:30"]),
    ("Kam chodí Ema na bazén?", ["ema.kruzok=plávanie – Delfín Banská Bystrica"]),
    ("O ktorej má Ema bazén?", []),  # her swimming club's value says no hour
    ("Ile nam płaci siłownia miesięcznie?",  # the gym client, not the law firm
     ["client_gym.contract_price=£1,850 a month"]),
    ("Kedy a kde je svadba Hruškovej?", ["svadba_hruskova.datum=2026-12-19",
                                         "svadba_hruskova.miesto=Kaštieľ Radvaň"]),
    ("When is babka's cardiology check?", ["svokra.kardio_kontrola=2026-12-03 09:15"]),
    ("babka's cardiology check?", ["svokra.kardio_kontrola=2026-12-03 09:15"]),  # a date
    # its words choose, though no "when" asks one: not her cardiologist's name
    ("Akú veľkosť kopačiek mal Samko podľa tvojich poznámok k 1. novembru?",
     ["samko.velkost_obuvi=34"]),  # what the memory knew then, of his football boots
])
def test_everyday_words_find_the_key(memory: Memory, question: str,
                                     expected: list[str]) -> None:
    assert answered_keys(memory, "zuzana", question) == expected


def test_it_in_the_second_question_is_the_thing_of_the_first(memory: Memory) -> None:
    answer = memory.recall("zuzana", "Koľko je splátka úveru a kedy ho doplatíme?")
    assert [f"{f.subject}.{f.relation}={f.object}" for f in answer.facts] == [
        "bank_loan.monthly_installment=412 €", "bank_loan.final_payment=2029-05-15"]
    assert [part["status"] for part in answer.parts] == ["found", "found"]


@pytest.mark.parametrize("question", [
    "Where does Samko work?",        # a child with no job: not his club
    "Kedy ho doplatíme?",            # nothing before names what "it" is
    "Kedy ide Samko na futbalový turnaj?",  # a tournament: not his club, whose value holds
    # "futbal" only as a relation of his already judged
])
def test_a_thing_not_recorded_is_not_answered_by_another(memory: Memory,
                                                         question: str) -> None:
    assert answered_keys(memory, "zuzana", question) == []


@pytest.mark.parametrize(("question", "expected"), [
    ("Did we switch car insurers at some point?",  # its insurer, not its inspection
     ["car.poistenie=Allianz PZP, 340 EUR/year", "car.poistenie=Kooperativa PZP, 295 EUR/year"]),
    ("How has our rent changed since we moved in?",  # people moved: the rent is an amount
     ["flat.rent=1,350 EUR", "flat.rent=1,420 EUR"]),
])
def test_what_changed_of_a_thing(memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "zuzana", question) == expected
