"""A key answers only what it holds of the question's words where another subject's
relation holds the rest: "do kiedy PRZEGLĄD octavii" when only the van's inspection is
recorded is not the Octavia's insurance end; "ile płacimy za PRĄD w mieszkaniu" is not the
flat's rent; "ubezpieczenie VANA" (the van in its case) is not the family car's; "nájem
za BYT" is not the salon's rent where the flat is recorded apart; a narrower word ("the
MORTGAGE", "BUSA") is not a key holding only its broader concept (`equipment_loan`,
`family_car`) where another subject's key holds the narrower. Words two
keys share out ("my sister's PHONE and EMAIL"), a word of where ("AT THE SALON") or of the
thing a part points back to are no such words; a key of a bare amount answers no question
naming a thing it does not hold ("koľko platíme za VODU": not the hockey fee). A second
part repeating a preposition asks the first part's question of another ("the plates on the
van and ON THE OCTAVIA?"); a part naming nobody asks the asker's own ("VAT number and
when's the next return due?")."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_facts, world_fixtures

NOW = "2026-11-25T12:00:00Z"


WORLD = f"""\
world: asked-of-another
about: "A Poznań car wash, the family's flat and cars"
now: "{NOW}"
notes:
  - category: entities
    name: hotel-gorce
    description: "Hotel Gorce: a client, orders window cleaning"
    aliases: ["Hotel Gorce"]
  - category: entities
    name: tomas-kovac
    description: "Tomáš, our son, plays hockey"
    aliases: ["Tomáš", "Tommy"]
  - category: entities
    name: kasia-dabrowska
    description: "Kasia Dąbrowska, our second shooter at weddings"
    aliases: ["Kasia"]
events:
""" + world_facts("marek", (
    ("van", "przeglad", "do 14 maja 2027"),
    ("van", "rejestracja", "PO 7K312"),
    ("family_car", "model", "Skoda Octavia kombi"),
    ("family_car", "insurance_expires", "2027-02-03"),
    ("family_car", "rejestracja", "PO 1A234"),
    ("myjnia", "prad", "ok. 2 900 zł miesięcznie"),
    ("mieszkanie", "czynsz", "845 zł"),
    ("hotel_gorce", "contact", "Agnieszka Rusnak"),
    ("hotel_gorce", "order", "mycie okien co tydzień"),
    ("sister", "phone", "601 234 567"),
    ("sister", "email", "kasia@example.pl"),
    ("marek", "vat_number", "PL 779 210 33 44"),
    ("vat_return", "next_due", "25 grudnia 2026"),
    ("sister", "birthday", "16 June"),
    ("hockey_fee", "amount", "€70 a month"),
    ("flour_supplier", "company", "Mlyn Rajec"),
    ("flour_supplier", "price_per_kg", "0,63 €"),
    ("delivery", "fee", "15 €"),
    ("tomas", "club", "HC Košice youth hockey"),
    ("tomas", "school", "ZŠ Bernolákova"),
    ("second_shooter", "name", "Kasia Dąbrowska"),
    ("kasia_dabrowska", "telefon", "+48 512 660 903"),
    ("kasia_dabrowska", "stawka", "950 zł za ślub"),
    ("babysitter", "rate", "8 € na hodinu"),
    ("marek", "prawo_jazdy", "kat. B"),
    ("salon_rent", "amount", "19 500 Kč"),
    ("marek", "home_address", "ul. Polna 3, Poznań"),
    ("hypoteka", "splatka", "815 €"),
    ("equipment_loan", "monthly_payment", "345 €"),
)) + "questions: []\n"

world_repo, memory = world_fixtures(WORLD, "marek", NOW)


@pytest.mark.parametrize("question", [
    "do kiedy przeglad octavii",          # only the van's inspection is recorded
    "do kiedy mamy ubezpieczenie vana?",  # only the family car's insurance
    "ile płacimy za prąd w mieszkaniu?",  # only the car wash's electricity
    "Koľko platíme za vodu?",             # a bare amount names no water: not hockey's
    "What's the name of Tomáš's hockey coach?",  # his club's value holds "hockey" only
    "How much is Tommy's hockey these days?",    # … and is no amount
    "do kiedy mamy ubezpieczenie busa?",  # the family car's, and the van is recorded
])
def test_a_relation_recorded_of_another_is_not_recorded(memory: Memory,
                                                         question: str) -> None:
    assert answered_keys(memory, "marek", question) == []


@pytest.mark.parametrize(("question", "expected"), [
    ("do kiedy przeglad vana", ["van.przeglad=do 14 maja 2027"]),
    ("do kiedy mamy ubezpieczenie octavii?", ["family_car.insurance_expires=2027-02-03"]),
    ("ile płacimy za mieszkanie?", ["mieszkanie.czynsz=845 zł"]),
    ("What's my sister's phone and email?",
     ["sister.phone=601 234 567", "sister.email=kasia@example.pl"]),
    ("sister's phone and birthday?", ["sister.phone=601 234 567", "sister.birthday=16 June"]),
    ("Who's our flour supplier and what do they charge per kilo?",
     ["flour_supplier.company=Mlyn Rajec", "flour_supplier.price_per_kg=0,63 €"]),
    ("Who's our contact at Hotel Gorce and what did they order?",
     ["hotel_gorce.contact=Agnieszka Rusnak", "hotel_gorce.order=mycie okien co tydzień"]),
    ("What are the plates on the van and on the Octavia?",
     ["van.rejestracja=PO 7K312", "family_car.rejestracja=PO 1A234"]),
    ("Which hockey club is Tomáš in?", ["tomas.club=HC Košice youth hockey"]),
    ("How much does the babysitter charge per hour?", ["babysitter.rate=8 € na hodinu"]),
    ("How much is the rent for the salon?", ["salon_rent.amount=19 500 Kč"]),
    ("Kolik platíme nájem za byt?", ["mieszkanie.czynsz=845 zł"]),
    ("What's our monthly mortgage payment?", ["hypoteka.splatka=815 €"]),
    ("How much is the equipment loan each month?", ["equipment_loan.monthly_payment=345 €"]),
    ("VAT number and when's the next return due?",
     ["marek.vat_number=PL 779 210 33 44", "vat_return.next_due=25 grudnia 2026"]),
])
def test_what_a_key_holds_answers(memory: Memory, question: str,
                                  expected: list[str]) -> None:
    assert sorted(answered_keys(memory, "marek", question)) == sorted(expected)


@pytest.mark.parametrize("question", [
    "od kiedy Marek ma prawo jazdy?", "since when has Marek had a driving licence?"])
def test_since_when_is_the_fact_with_the_day_it_became_true(memory: Memory,
                                                            question: str) -> None:
    """"OD KIEDY …" asks no relation of its own: the fact answers, with its day."""
    assert answered_keys(memory, "marek", question) == ["marek.prawo_jazdy=kat. B"]


def test_since_when_someone_holds_a_role_is_not_all_of_them(memory: Memory) -> None:
    """"Since when has Kasia been our second shooter?" asks the fact that makes it so:
    never every fact recorded about her."""
    answered = answered_keys(memory, "marek", "Since when has Kasia been our second shooter?")
    assert not [key for key in answered if key.startswith("kasia_dabrowska.")]
