from __future__ import annotations

from memrepo.hooks import counts

from tests.support import CONFIG, dict_change

NOTE = "memory/entities/acme.md"
OLD = {"memory/config.yaml": CONFIG, NOTE: b"acme", "memory/entities/INDEX.md": b"i"}


def problems(new: dict[str, bytes], message: str = "drop acme") -> list[str]:
    return [p.render() for p in counts.check(dict_change(OLD, new, message))]


def without_note() -> dict[str, bytes]:
    return {k: v for k, v in OLD.items() if k != NOTE}


def test_an_unexplained_removal_is_refused_with_both_fixes() -> None:
    [refusal] = problems(without_note())
    assert refusal.startswith(f"{NOTE}: note 'acme' is removed from entities")
    assert "memory/archive/entities/acme.md" in refusal and "Removed: acme: <why>" in refusal


def test_archiving_accounts_for_the_note() -> None:
    assert problems({**without_note(), "memory/archive/entities/acme.md": b"acme"}) == []


def test_a_removed_trailer_with_a_reason_accounts_for_the_note() -> None:
    assert problems(without_note(), "drop\n\nRemoved: acme: duplicate of acme-supplies") == []


def test_a_removed_trailer_without_a_reason_does_not() -> None:
    assert problems(without_note(), "drop\n\nRemoved: acme:")
    assert problems(without_note(), "drop\n\nRemoved: other: not this one")


def test_moving_a_note_to_another_category_keeps_it() -> None:
    assert problems({**without_note(), "memory/references/acme.md": b"acme"}) == []


def test_index_files_and_other_paths_are_not_notes() -> None:
    new = {k: v for k, v in OLD.items() if k != "memory/entities/INDEX.md"}
    assert problems(new) == []
    assert counts.removed_note("memory/archive/entities/acme.md") is None
    assert counts.removed_note("memory/entities/sub/acme.md") is None
