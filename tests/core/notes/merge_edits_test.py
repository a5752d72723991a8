"""Carrying the merged-away note's lines into the kept note (core.merge_edits.carry_over)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from memrepo.core.notes.headers import split_front_matter
from memrepo.core.notes.merge_edits import carry_over
from memrepo.core.problems import Problem


def note(name: str, body: str, description: str = "Accountant at Acme; invoices, VAT") -> str:
    return (f"---\nname: {name}\ndescription: {description}\ntype: entity\n---\n{body}")


KEPT = note("jan-kowalski", "# Jan Kowalski\n\nAccountant at Acme.\n\n## Contact\n\n"
            "- email: jan@acme.example\n")
OLD = note("jan-kowalsky", "# Jan Kowalsky\n\nAccountant at Acme.\n\n## Contact\n\n"
           "- email: jan@acme.example\n- phone: +48 600 100 200\n\n## Notes\n\n"
           "Prefers calls before 10:00.\n\n```\nIBAN check: call first\n```\n",
           description="Jan Kowalsky, accountant; phone and email")


def test_only_the_merged_away_lines_are_carried_under_a_heading_naming_it() -> None:
    merged = carry_over(KEPT, OLD, "jan-kowalsky", "2026-08-01")
    assert merged == KEPT.rstrip("\n") + (
        "\n\n## From jan-kowalsky (merged 2026-08-01)\n\n"
        "Description: Jan Kowalsky, accountant; phone and email\n\n"
        "### Contact\n\n- phone: +48 600 100 200\n\n"
        "### Notes\n\nPrefers calls before 10:00.\n\n```\nIBAN check: call first\n```\n")


def test_merging_again_or_merging_a_copy_adds_nothing() -> None:
    merged = carry_over(KEPT, OLD, "jan-kowalsky", "2026-08-01")
    assert merged is not None
    assert carry_over(merged, OLD, "jan-kowalsky", "2026-09-01") == merged
    assert carry_over(KEPT, KEPT.replace("jan-kowalski", "jan-kowalski2"), "x", "d") == KEPT


def test_a_broken_header_is_not_guessed_at() -> None:
    assert carry_over(KEPT, "no header\n", "x", "2026-08-01") is None


LINES = st.sampled_from(["", "# Title", "## Contact", "### Deep", "- phone: 1", "- phone: 2",
                         "Some text.", "Other text.", "```", "code", "| a | b |", "  - nested"])


@given(st.lists(LINES, max_size=12), st.lists(LINES, max_size=12))
def test_every_line_survives_once_and_the_kept_note_is_untouched(kept_lines: list[str],
                                                                old_lines: list[str]) -> None:
    kept, old = note("kept", "\n".join(kept_lines) + "\n"), note("old", "\n".join(old_lines)
                                                                  + "\n", "Old description here")
    merged = carry_over(kept, old, "old", "2026-08-01")
    if kept_lines.count("```") % 2 or old_lines.count("```") % 2:
        assert merged is None  # appended lines would land inside an unclosed code block
        return
    assert merged is not None
    assert merged.startswith(kept.rstrip("\n"))
    front = split_front_matter("note", merged)
    assert not isinstance(front, Problem)
    merged_keys = {" ".join(line.lstrip("#").split()) for line in front.body.split("\n")}
    body_started = False
    for line in old_lines:
        if line == "# Title" and not body_started:
            body_started = True
            continue
        body_started = body_started or bool(line.strip())
        assert " ".join(line.lstrip("#").split()) in merged_keys
    assert carry_over(merged, old, "old", "2026-09-09") == merged
