from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.core.context_block import (
    FOOTER,
    HEADER,
    TINY_FOOTER,
    TINY_HEADER,
    NoteItem,
    build_block,
    estimate_tokens,
    fact_line,
    minimum_budget,
)
from memrepo.core.records import Fact

PRECEDENCE = ("rules", "references", "entities", "project")


def fact(obj: str = "250 zł", confidence: float = 1.0) -> Fact:
    return Fact(id="01J", scope="michal", subject="electricity_bill", relation="amount",
                object=obj, valid_from="2026-07-01", valid_to=None,
                recorded_at="2026-08-05T00:00:00Z", confidence=confidence,
                source="conversation", quote="q", session="s", trust="host")


def note(name: str, category: str, mandatory: bool = False, body: str = "Body.") -> NoteItem:
    return NoteItem(category, name, f"Description of {name}", body, "2026-05-01", mandatory)


def test_header_footer_and_dates() -> None:
    block = build_block([note("jan-novak", "entities", True)], [fact()], PRECEDENCE, 500)
    lines = block.text.splitlines()
    assert lines[0] == HEADER
    assert lines[-1] == FOOTER
    assert "valid since 2026-07-01" in block.text
    assert "(updated 2026-05-01)" in block.text


def test_low_confidence_is_flagged() -> None:
    assert "⚠" in fact_line(fact(confidence=0.3))
    assert "⚠" not in fact_line(fact(confidence=0.8))


def test_the_tightest_budget_still_holds_the_answering_fact() -> None:
    """At 50 tokens the short frame, the cut line's room and a phone number's line do not
    fit together: the tightest frame says the same in fewer words, and the fact comes."""
    phone = Fact(id="01J", scope="marek", subject="juraj_kovac", relation="telefon",
                 object="+48 731 552 094", valid_from="2025-03-03", valid_to=None,
                 recorded_at="2025-03-04T00:00:00Z", confidence=1.0, source="conversation",
                 quote="q", session="s", trust="host")
    block = build_block([note("juraj-kovac", "entities", True)], [phone], PRECEDENCE, 50,
                        ["searched 'numer' for 'number'"])
    lines = block.text.splitlines()
    assert (lines[0], lines[-1]) == (TINY_HEADER, TINY_FOOTER)
    assert '"+48 731 552 094"' in block.text and block.tokens <= 50
    assert "(2 more cut)" in block.text  # the note and the remark, said


def test_notes_are_shown_by_precedence() -> None:
    block = build_block([note("p", "project"), note("r", "rules"), note("e", "entities", True)],
                        [], PRECEDENCE, 1000)
    order = [line.split("]")[0] for line in block.text.splitlines() if line.startswith("- [")]
    assert order == ["- [rules", "- [entities", "- [project"]


def test_a_note_that_does_not_fit_is_shortened_then_left_out() -> None:
    long_body = "word " * 400
    block = build_block([note("e", "entities", True, long_body)], [], PRECEDENCE,
                        minimum_budget() + 30)
    assert "Description of e" in block.text and "word word" not in block.text
    tiny = build_block([note("e", "entities", True, long_body)], [], PRECEDENCE,
                       minimum_budget() + 2)
    assert tiny.left_out == 1


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=minimum_budget(), max_value=800), st.integers(0, 8), st.integers(0, 8))
def test_the_budget_is_never_exceeded(budget: int, note_count: int, fact_count: int) -> None:
    notes = [note(f"n{i}", PRECEDENCE[i % 4], i % 2 == 0, "text " * (i * 30))
             for i in range(note_count)]
    facts = [fact(f"v{i}", 0.5 + i / 20) for i in range(fact_count)]
    block = build_block(notes, facts, PRECEDENCE, budget)
    assert estimate_tokens(block.text) <= budget
    assert block.included + block.left_out == note_count + fact_count
