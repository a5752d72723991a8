"""Things people name by what they are rather than by how the memory records them: the
mortgage as what "we pay the bank for the house" (two words that mean it together:
concepts.yaml `together`), the rent as what "we pay each month for the premises", a pet
by its kind ("kto leczy naszego PSA": `kapsel.vet`, the dachshund `family.pet` names) and
its chip; and of one subject's keys alike, the one whose relation holds the word the
question names the subject by ("czynsz za BIURO": the office rent, not the rental
commission)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"

_NOTES = """notes:
  - category: entities
    name: bursztyn-nieruchomosci
    description: "Bursztyn Nieruchomości sp. z o.o.: biuro Agnieszki"
    aliases: ["Bursztyn", "biuro"]
    body: |
      # Bursztyn Nieruchomości
      The agency.
  - category: entities
    name: warsztat
    description: "Lokal na Władysława IV, w którym mamy serwis"
    aliases: ["lokal", "warsztat"]
    body: |
      # Warsztat
      The workshop.
  - category: entities
    name: komfix
    description: "Komfix: nasz serwis komputerowy"
    aliases: ["serwis", "Komfix"]
    body: |
      # Komfix
      The business.
"""

WORLD = world_yaml("homes", "A Gdańsk family, its agency and its repair shop", NOW, "".join((
    world_event("agnieszka", "bursztyn_nieruchomosci", "office_rent", "4 600 zł netto/mies.",
                "2024-01-01"),
    world_event("agnieszka", "bursztyn_nieruchomosci", "rental_commission",
                "jeden miesięczny czynsz + VAT", "2024-01-01"),
    world_event("agnieszka", "bursztyn_nieruchomosci", "sales_commission", "2,5% + VAT",
                "2024-01-01"),
    world_event("agnieszka", "mortgage", "installment", "3 760 zł", "2024-06-01",
                "Rata kredytu od czerwca 3 760 zł."),
    world_event("agnieszka", "mortgage", "payment_day", "10. dnia miesiąca", "2024-06-01"),
    world_event("agnieszka", "mortgage", "bank", "PKO BP", "2019-05-01"),
    world_event("agnieszka", "dom_jasminowa", "purchase_price", "1 200 000 zł", "2026-02-01"),
    world_event("agnieszka", "family", "pet", "Kapsel (jamnik)", "2020-07-01"),
    world_event("agnieszka", "kapsel", "vet", "dr Natalia Kruszewska", "2024-10-15"),
    world_event("agnieszka", "kapsel", "chip", "616093900123456", "2020-07-15"),
    world_event("agnieszka", "mruczek", "gatunek", "kot europejski", "2024-03-01"),
    world_event("agnieszka", "mruczek", "vet", "dr Paweł Grabowski", "2024-03-01"),
    world_event("agnieszka", "warsztat", "czynsz", "3 450 zł netto/mies.", "2023-01-01"),
    world_event("agnieszka", "komfix", "hourly_rate_business", "150 zł/h", "2023-01-01"),
    world_event("agnieszka", "salon_rent", "amount", "19 500 Kč per month", "2025-01-01"),
    world_event("tomasz", "family", "pet", "Rex, Tomek's dog", "2021-01-01"),
    world_event("tomasz", "rex", "vet", "dr Ewa Sowa", "2021-02-01"),
    world_event("tomasz", "tomek", "phone", "+48 600 999 888", "2020-01-01"),
))).replace("notes: []\n", _NOTES)

world_repo, memory = world_fixtures(WORLD, "agnieszka", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("Ile teraz co miesiąc oddajemy bankowi za dom?", ["mortgage.installment=3 760 zł"]),
    ("how much do we pay the bank for the house every month?",
     ["mortgage.installment=3 760 zł"]),
    ("Which bank lent us the money for the flat?", ["mortgage.bank=PKO BP"]),
    ("How much do we pay each month for the premises?",
     ["salon_rent.amount=19 500 Kč per month"]),
])
def test_two_words_name_the_mortgage_or_the_rent_together(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "agnieszka", question) == expected


def test_a_house_alone_is_no_mortgage(memory: Memory) -> None:
    """Without the bank or a loan the house is the house: its price, not the instalment."""
    assert answered_keys(memory, "agnieszka", "Ile kosztuje dom na Jaśminowej?") == [
        "dom_jasminowa.purchase_price=1 200 000 zł"]


@pytest.mark.parametrize(("question", "expected"), [
    ("Kto teraz leczy naszego psa?", ["kapsel.vet=dr Natalia Kruszewska"]),
    ("Kto leczy naszego kota?", ["mruczek.vet=dr Paweł Grabowski"]),
    ("Jaki numer czipa ma nasz pies?", ["kapsel.chip=616093900123456"]),
])
def test_a_pet_named_by_its_kind_is_the_animal_recorded_by_its_name(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "agnieszka", question) == expected


@pytest.mark.parametrize(("question", "expected"), [
    ("Jaki mamy czynsz za biuro?", ["bursztyn_nieruchomosci.office_rent=4 600 zł netto/mies."]),
    ("Ile płaciliśmy za biuro w 2024?",
     ["bursztyn_nieruchomosci.office_rent=4 600 zł netto/mies."]),
])
def test_of_keys_alike_the_one_holding_the_word_that_names_the_subject(
        memory: Memory, question: str, expected: list[str]) -> None:
    assert answered_keys(memory, "agnieszka", question) == expected


def test_a_thing_after_pod_says_what_the_premises_are_for(memory: Memory) -> None:
    """"wynajem lokalu POD SERWIS": the workshop's rent; the repair business named after
    "pod" is what the premises are for, not a second thing asked about."""
    assert answered_keys(memory, "agnieszka", "Ile kosztuje nas wynajem lokalu pod serwis?") == [
        "warsztat.czynsz=3 450 zł netto/mies."]


def test_the_kind_asked_which_of_names_no_one_animal(memory: Memory) -> None:
    """"WHICH DOGS do we have" asks the animals of the kind, not the dachshund's vet."""
    assert not [key for key in answered_keys(memory, "agnieszka", "Which dogs do we have?")
                if key.startswith("kapsel.")]



def test_whose_pet_it_is_is_no_pet(memory: Memory) -> None:
    """"Rex, Tomek's dog": the dog is Rex; Tomek, whose dog it is, is never "our dog"."""
    assert answered_keys(memory, "tomasz", "Who is our dog's vet?") == ["rex.vet=dr Ewa Sowa"]
    assert not [key for key in answered_keys(memory, "tomasz", "What's our dog's phone?")
                if key.startswith("tomek.")]
