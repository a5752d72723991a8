from __future__ import annotations

from memrepo.core.notes.triggers import matching_notes, parse_triggers

TABLE = """# Triggers

| trigger | notes |
|---|---|
| supplier, packaging order | lodz-packaging, supplier-standard |
| /\\bVAT\\b\\|invoice/ | [[jan-novak]] |
| Łódź | lodz-packaging |
"""


def test_words_match_whole_folded_words() -> None:
    triggers, problems = parse_triggers(TABLE)
    assert problems == []
    assert matching_notes(triggers, "Which supplier handles the packaging order?") == [
        "lodz-packaging", "supplier-standard"]
    assert matching_notes(triggers, "suppliers?") == []
    assert matching_notes(triggers, "anything from Lodz?") == ["lodz-packaging"]


def test_regex_triggers_match_the_raw_question() -> None:
    triggers, _ = parse_triggers(TABLE)
    assert matching_notes(triggers, "Who handles our vat?") == ["jan-novak"]


def test_bad_rows_are_reported_with_their_line() -> None:
    _, problems = parse_triggers("| t | n |\n|--|--|\n| x | Not A Name |\n| /(/ | a |\n")
    assert [p.line for p in problems] == [3, 4]
    assert "not a note name" in problems[0].problem


def test_a_regex_trigger_runs_in_linear_time() -> None:
    """RE2: a pattern that backtracks for ever in Python's `re` answers at once."""
    triggers, problems = parse_triggers("| t | n |\n|--|--|\n| /(a+)+$/ | acme |\n"
                                        "| /(x+x+)+y/ | other |\n")
    assert problems == []
    assert matching_notes(triggers, "a" * 100_000 + "!") == []
    assert matching_notes(triggers, "x" * 100_000) == []
    assert matching_notes(triggers, "aaa") == ["acme"]


def test_a_pattern_re2_does_not_take_is_refused() -> None:
    _, problems = parse_triggers("| t | n |\n|--|--|\n| /(a)\\1/ | acme |\n"
                                 "| /(?=a)b/ | acme |\n")
    assert [p.line for p in problems] == [3, 4]
    assert "RE2" in problems[0].problem
