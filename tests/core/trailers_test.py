from __future__ import annotations

from memrepo.core.trailers import parse_trailers, trailer_values, with_trailers


def test_repeated_trailers_are_all_kept() -> None:
    message = "Edit rules\n\nWhy.\n\nApproved-by: A <a@x>\nApproved-by: B <b@x>\n"
    assert trailer_values(message, "approved-by") == ["A <a@x>", "B <b@x>"]


def test_a_subject_alone_has_no_trailers() -> None:
    assert parse_trailers("Approved-by: me\n") == []


def test_a_last_paragraph_with_prose_is_not_a_trailer_block() -> None:
    assert parse_trailers("subject\n\nsome prose\nApproved-by: x\n") == []


def test_comment_lines_are_ignored() -> None:
    message = "s\n\nRemoved: old: merged\n# Please enter the commit message\n"
    assert parse_trailers(message) == [("Removed", "old: merged")]


def test_with_trailers_round_trips() -> None:
    message = with_trailers("remember: x", [("Session", "s1"), ("Source", "cli")])
    assert parse_trailers(message) == [("Session", "s1"), ("Source", "cli")]
