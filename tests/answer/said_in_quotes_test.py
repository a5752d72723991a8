"""A question in the words the person said when the fact was recorded: "where do we buy our
LACQUERS" is `varnish_supplier.name`, recorded from "From May we buy lacquers from the Renner
wholesaler" — only where the key's words and sentence hold the question, of the kind it asks,
and one key best. Never: a sentence that only mentions the asked word in another sense ("What
is the flat RENT?" is not `flat.address` said as "we rent the flat at …"); and no key answers
by a concept alone when the question's rarest word is one no key and no concept holds ("Ile
bierze LOGOPEDKA?" is not what the accountant takes)."""

from __future__ import annotations

import pytest

from memrepo.agent.api import Memory
from tests.support import answered_keys, world_event, world_fixtures, world_yaml

NOW = "2026-11-25T12:00:00Z"

WORLD = world_yaml("said-in-quotes", "A Zakopane carpentry workshop", NOW, "".join((
    world_event("jozef", "varnish_supplier", "name", "Renner Polska", "2025-05-01",
                "From May we buy lacquers from the Renner wholesaler in Kraków."),
    world_event("jozef", "hardware_supplier", "name", "Okucia-Pro", "2024-01-01",
                "Hinges, runners and handles, all from Okucia-Pro in Rabka."),
    world_event("jozef", "supplier_coffee", "name", "Palarnia Kopiec", "2024-01-01",
                "We buy our coffee beans from Palarnia Kopiec."),
    world_event("jozef", "flat", "address", "ul. Długa 5", "2023-01-01",
                "We rent the flat at ul. Długa 5."),
    world_event("jozef", "union", "contract_valid_until", "2026-12-31", "2025-01-01",
                "Our union contract is valid until the end of 2026."),
    world_event("jozef", "daniel", "rate", "140 zł za godzinę", "2025-09-01",
                "Daniel bierze 140 zł za godzinę."),
    world_event("jozef", "biuro_rachunkowe", "monthly_fee", "780 zł netto", "2026-01-01",
                "Biuro rachunkowe bierze 780 zł netto miesięcznie."),
)))

world_repo, memory = world_fixtures(WORLD, "jozef", NOW)


@pytest.mark.parametrize(("question", "expected"), [
    ("where do we buy our lacquers now?", ["varnish_supplier.name=Renner Polska"]),
    ("who sells us hinges and runners?", ["hardware_supplier.name=Okucia-Pro"]),
    # "BUY coffee" is what is done with it, not another coffee than `supplier_coffee`
    ("where do we buy coffee beans?", ["supplier_coffee.name=Palarnia Kopiec"]),
    ("What is the flat rent?", []),
    ("Ile bierze logopedka?", []),
    ("until when is our Dôvera contract valid?", []),  # a name its sentence lacks
    ("Na aký krúžok chodí Kuba?", []),
    ("Ile bierze Daniel?", ["daniel.rate=140 zł za godzinę"]),
])
def test_a_key_is_found_by_the_words_it_was_recorded_with(memory: Memory, question: str,
                                                         expected: list[str]) -> None:
    assert answered_keys(memory, "jozef", question) == expected


def test_the_answer_says_which_words_its_sentence_holds(memory: Memory) -> None:
    fact, = memory.recall("jozef", "where do we buy our lacquers now?").facts
    assert fact.why is not None and "'lacquers' in its quote" in str(fact.why)
