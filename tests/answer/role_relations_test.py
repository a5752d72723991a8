"""Whose role a relation is: the dentist's name answers "who is our dentist" in any of its
inflections ("naszym dentystą"), while the asker's visit to the dentist (`wizyta_dentysta`)
is no dentist at all, though it answers "when do I have the dentist"; a surname answers
"what is … called"; the wholesaler's `opiekun` is "our sales rep there"; forms of "to have"
in the past ask nothing of their own; "where" is never answered with hours."""

from __future__ import annotations

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

_DISCOUNT = """\
  - {op: assert, scope: ania, subject: hurtownia_iskra, relation: rabat, object: "12%",
     valid_from: "2024-01-01", recorded_at: "2025-06-04T12:06:00Z", source: manual}
  - {op: end, scope: ania, subject: hurtownia_iskra, relation: rabat, valid_to: "2026-03-31",
     recorded_at: "2026-04-02T07:30:00Z", source: manual}
  - {op: assert, scope: ania, subject: hurtownia_iskra, relation: rabat, object: "15%",
     valid_from: "2026-04-01", recorded_at: "2026-04-02T07:31:00Z", source: manual}
"""

WORLD = world_yaml("roles", "An electrician's household and firm", NOW, "".join((
    world_event("ania", "dentysta", "nazwisko", "dr Paweł Szulc", "2015-01-01"),
    world_event("ania", "dentysta", "adres", "ul. Grunwaldzka 413, Gdańsk", "2015-01-01"),
    world_event("ania", "ania", "wizyta_dentysta", "28.12.2026 o 17:00", "2026-10-14"),
    world_event("ania", "ania", "godziny_pracy", "pn–czw 8:00–16:30", "2026-02-01"),
    world_event("ania", "lekarz_rodzinny", "nazwisko", "dr Małgorzata Wrona", "2012-09-01"),
    world_event("ania", "hurtownia_iskra", "opiekun", "Magda Żuk", "2026-07-01"),
    _DISCOUNT,
    world_event("ania", "parking_lease", "landlord", "Josef Hanuš", "2022-05-01"),
    world_event("ania", "parking_lease", "rent", "4 500 Kč/měsíc", "2022-05-01"),
    world_event("tomas", "family_doctor", "name", "MUDr. Martin Vlček", "2026-07-01"),
    world_event("tomas", "paediatrician", "name", "MUDr. Jitka Šustrová", "2009-08-01"),
))).replace("notes: []", """notes:
  - {category: entities, name: hurtownia-iskra, aliases: [Iskra],
     description: "Main electrical wholesaler in Gdańsk-Kokoszki, 30-day terms"}""")

world_repo, memory = world_fixtures(WORLD, "ania", NOW)


def test_the_role_answers_who_in_any_form(memory: Memory) -> None:
    for asked in ("kto jest naszym dentystą?", "Jak się nazywa nasz dentysta?",
                  "Kto nam leczy zęby?"):
        assert answered_keys(memory, "ania", asked) == ["dentysta.nazwisko=dr Paweł Szulc"]


def test_a_visit_to_the_role_is_no_role_but_answers_when(memory: Memory) -> None:
    assert answered_keys(memory, "ania", "kiedy mam dentystę?") == [
        "ania.wizyta_dentysta=28.12.2026 o 17:00"]


def test_where_is_never_answered_with_hours(memory: Memory) -> None:
    """"… i gdzie przyjmuje?" names no one: not the asker's office hours."""
    assert answered_keys(memory, "ania", "Jak się nazywa nasz dentysta i gdzie przyjmuje?") == [
        "dentysta.nazwisko=dr Paweł Szulc"]


def test_a_sales_rep_at_the_wholesaler(memory: Memory) -> None:
    assert answered_keys(memory, "ania", "Kto jest teraz naszym handlowcem w Iskrze?") == [
        "hurtownia_iskra.opiekun=Magda Żuk"]


def test_a_past_form_of_having_asks_nothing_of_its_own(memory: Memory) -> None:
    assert answered_keys(memory, "ania", "Jaki rabat mieliśmy w Iskrze w lutym 2026?") == [
        "hurtownia_iskra.rabat=12%"]


def test_from_whom_we_rent_in_either_word_order(memory: Memory) -> None:
    assert answered_keys(memory, "ania", "od koho pronajímáme parkoviště?") == [
        "parking_lease.landlord=Josef Hanuš"]


def test_a_role_is_not_a_narrower_role_of_its_kind(memory: Memory) -> None:
    """"our GP" is the family doctor, not the paediatrician, though both are doctors; the
    paediatrician is still the kids' doctor."""
    assert answered_keys(memory, "tomas", "Who's our GP these days?") == [
        "family_doctor.name=MUDr. Martin Vlček"]
    assert answered_keys(memory, "tomas", "Who is the kids' doctor?") == [
        "paediatrician.name=MUDr. Jitka Šustrová"]
