"""An insurance agency's office: "office" in `biuro.office_internet` is the subject again,
no address ("Adres biura?" is the agency's address, whose quote names the office); a
question asking a detail such as a password is not answered by a key holding none (the
office's internet provider is no wifi password). An insurer named in a case ("w WARCIE")
is the thing asked about: Link4's agent number is no answer for Warta. "Ile płaciliśmy"
asks how much, as "how much" does: the office's internet is no amount. One word of a
long question found in an agent's role ("polis" in "ubezpieczenia") does not make the role
the answer; "co-op" is the housing co-operative of `czynsz_spoldzielnia`. The summer
holidays ("wakacje") are not the winter break ("ferie"); "dokąd" (where to) asks a trip's
destination. "Ile … idzie za trafica" asks an amount: the van's model is no answer. The
provider of the home internet is what "jaki mamy internet w domu" asks. The plans for the
holidays of 2026 are not those of 2027, where both years' holidays are recorded."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-24T10:00:00Z"

WORLD = world_yaml("agency", "A Lublin family's insurance agency", NOW, "".join((
    world_event("marek", "biuro", "office_internet", "Orange Firma, światłowód 600 Mb/s",
                "2024-01-01"),
    world_event("marek", "biuro", "email", "biuro@agencja.pl", "2020-01-01"),
    world_event("marek", "agencja", "adres", "ul. Narutowicza 14/2, Lublin", "2019-05-01",
                "Biuro mamy na Narutowicza 14/2 od maja 2019."),
    world_event("marek", "warta", "opiekun", "Sylwia Maj", "2021-03-01"),
    world_event("marek", "link4", "numer_agenta", "L4/LU/0873", "2022-06-01"),
    world_event("marek", "damian_wojcik", "rola", "agent – ubezpieczenia komunikacyjne",
                "2026-07-01"),
    world_event("marek", "damian_wojcik", "udzial_w_prowizji", "40%", "2026-07-01"),
    world_event("marek", "mieszkanie", "czynsz_spoldzielnia", "690 zł", "2025-01-01"),
    world_event("marek", "internet_dom", "price", "89 zł/mies.", "2025-01-01"),
    world_event("marek", "internet_dom", "provider", "Orange Światłowód 1 Gb/s", "2025-11-15"),
    world_event("marek", "ferie_2026", "miejsce", "Zakopane, 26.01–01.02.2026", "2025-11-01"),
    world_event("marek", "wakacje_2026", "destination", "Makarska, Chorwacja", "2026-03-02"),
    world_event("marek", "van", "model", "Renault Trafic 2.0 dCi", "2024-05-01"),
    world_event("marek", "van", "rejestracja", "LU 4512K", "2024-05-01"),
    world_event("marek", "wakacje_2027", "plan", "Portugalia (Algarve)", "2026-10-01"),
    world_event("marek", "office_lease", "rent", "3 450 zł netto miesięcznie", "2025-01-01"),
)))

world_repo, memory = world_fixtures(WORLD, "marek", NOW)


def test_an_office_is_no_address(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "Adres biura?") == [
        "agencja.adres=ul. Narutowicza 14/2, Lublin"]


def test_a_detail_asked_is_no_key_without_it(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "What's the office wifi password?") == []
    assert answered_keys(memory, "marek", "Jaki jest mail do biura?") == [
        "biuro.email=biuro@agencja.pl"]


def test_an_insurer_named_in_a_case_is_the_thing_asked(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "Jaki mamy numer agenta w Warcie?") == []
    assert answered_keys(memory, "marek", "Kto jest naszą opiekunką w Warcie?") == [
        "warta.opiekun=Sylwia Maj"]


def test_ile_with_a_verb_of_paying_asks_an_amount(memory: Memory) -> None:
    assert "biuro.office_internet=Orange Firma, światłowód 600 Mb/s" not in answered_keys(
        memory, "marek", "Ile płaciliśmy za biuro w 2024?")


def test_one_word_of_a_long_question_in_a_value_is_no_answer(memory: Memory) -> None:
    assert "damian_wojcik.rola=agent – ubezpieczenia komunikacyjne" not in answered_keys(
        memory, "marek", "Jaką część pieniędzy od swoich polis zatrzymuje Damian?")


def test_a_co_op_fee_is_the_housing_co_operatives(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "How much is the housing co-op fee for our flat?") == [
        "mieszkanie.czynsz_spoldzielnia=690 zł"]


def test_the_summer_holidays_are_not_the_winter_break(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "Dokąd jedziemy na wakacje 2026?") == [
        "wakacje_2026.destination=Makarska, Chorwacja"]
    assert answered_keys(
        memory, "marek", "Where are we going for the 2026 summer holiday?") == [
        "wakacje_2026.destination=Makarska, Chorwacja"]
    assert answered_keys(memory, "marek", "Gdzie jedziemy na ferie 2026?") == [
        "ferie_2026.miejsce=Zakopane, 26.01–01.02.2026"]


def test_how_much_is_no_model(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "ile miesięcznie idzie za trafica") == []


def test_which_internet_is_its_provider(memory: Memory) -> None:
    assert answered_keys(
        memory, "marek", "Jaki mamy internet w domu i ile za niego płacimy?") == [
        "internet_dom.provider=Orange Światłowód 1 Gb/s", "internet_dom.price=89 zł/mies."]


def test_a_thing_named_with_its_year_is_not_another_years(memory: Memory) -> None:
    assert answered_keys(memory, "marek", "Jakie mieliśmy plany na wakacje 2026?") == []
    assert answered_keys(memory, "marek", "Jakie mamy plany na wakacje 2027?") == [
        "wakacje_2027.plan=Portugalia (Algarve)"]
