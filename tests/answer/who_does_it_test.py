"""Who does something for us, said by what they do ("kto nam OGARNIA PAPIERY I PODATKI":
the accountant), a role word whose owner is a business the question names by its own
words (the kindergarten's accountant, not its van because "przedszkola" is one of the
van's words), "when" opening a clause rather than asking a date ("which doctor do we take
the kids to WHEN they're sick"), and the day a marriage began ("when did we TIE THE KNOT":
the day the husband became one)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-20T12:00:00Z"


WORLD = world_yaml("who", "A kindergarten, a roofing firm and two families", NOW, "".join((
    world_event("magda", "przedszkole_sloneczko", "ksiegowa",
                "Joanna Kwiatkowska (Biuro Rachunkowe Bilans)", "2023-09-01"),
    world_event("magda", "przedszkole_van", "model", "Fiat Doblo Maxi (2018)", "2023-01-01"),
    world_event("magda", "przedszkole_rent", "amount", "6 200 zł", "2023-01-01"),
    world_event("magda", "biuro_rachunkowe", "monthly_fee", "900 zł", "2023-09-01"),
    world_event("aga", "wisniewski_roofing", "ksiegowa", "Nadia Hussain (Hussain & Co)",
                "2022-04-01"),
    world_event("aga", "wisniewski_roofing", "vat_return_due", "7 January 2027", "2026-10-01"),
    world_event("siobhan", "kids", "pediatrician", "MUDr. Petra Šimková", "2023-09-15",
                "The kids' pediatrician is MUDr. Petra Šimková on Legionárska."),
    world_event("siobhan", "kids", "poistenie", "Union", "2023-09-15"),
    world_event("katerina", "katerina", "husband", "Tomáš Dvořák", "2012-06-16",
                "Tomáš a já jsme se brali 16. června 2012."),
    world_event("katerina", "katerina", "phone", "+420 603 111 222", "2015-01-01"),
)))

world_repo, memory = world_fixtures(WORLD, "magda", NOW)


@pytest.mark.parametrize(("scope", "question", "expected"), [
    ("aga", "Kto nam ogarnia papiery i podatki firmy?",
     ["wisniewski_roofing.ksiegowa=Nadia Hussain (Hussain & Co)"]),  # not the VAT return too
    ("magda", "Kto nam prowadzi papiery i rozliczenia przedszkola?",
     ["przedszkole_sloneczko.ksiegowa=Joanna Kwiatkowska (Biuro Rachunkowe Bilans)"]),
])
def test_what_someone_does_for_us_names_them(memory: Memory, scope: str, question: str,
                                             expected: list[str]) -> None:
    assert answered_keys(memory, scope, question) == expected


def test_when_opening_a_clause_asks_no_date(memory: Memory) -> None:
    assert answered_keys(memory, "siobhan",
                         "Which children's doctor do we take the kids to when they're sick?") == [
        "kids.pediatrician=MUDr. Petra Šimková"]


def test_a_marriage_asked_when_is_the_day_the_spouse_became_one(memory: Memory) -> None:
    [fact] = memory.recall("katerina", "When did Tomáš and I tie the knot?").facts
    assert (fact.relation, fact.object, fact.valid_from) == (
        "husband", "Tomáš Dvořák", "2012-06-16")
