from __future__ import annotations

import pytest
from memrepo.hooks import approval

from memrepo.core.policy.approval import ALLOWED_SIGNERS_PATH
from tests.support import CONFIG, dict_change, event, lines

RULE = "memory/rules/be-kind.md"
BASE = {"memory/config.yaml": CONFIG, "memory/entities/x.md": b"x"}


def problems(message: str | None, new: dict[str, bytes], old: dict[str, bytes] | None = None,
             ) -> list[str]:
    return [p.render() for p in approval.check(dict_change(old or BASE, new, message))]


def test_changes_outside_rules_need_no_approval() -> None:
    assert problems("entity", {**BASE, "memory/entities/x.md": b"y"}) == []


def test_a_rule_change_without_a_trailer_is_refused_with_the_approvers_named() -> None:
    [refusal] = problems("new rule", {**BASE, RULE: b"rule"})
    assert refusal.startswith(f"{RULE}: ")
    assert "no 'Approved-by:' trailer" in refusal
    assert "To fix:" in refusal and "Ann Example <ann@example.com>" in refusal


def test_an_unknown_approver_is_refused() -> None:
    [refusal] = problems("r\n\nApproved-by: Bob <bob@example.com>\n", {**BASE, RULE: b"r"})
    assert "'Approved-by: Bob <bob@example.com>' names no approver" in refusal


@pytest.mark.parametrize("trailer", [
    "Ann Example <ann@example.com>", "ann example <ANN@example.com>", "ann@example.com",
    "<Ann@Example.com>", "A. Example <ann@example.com>",
])
def test_the_whole_identity_or_just_the_email_approves(trailer: str) -> None:
    assert problems(f"r\n\nApproved-by: {trailer}\n", {**BASE, RULE: b"r"}) == []


def test_every_repeated_trailer_is_read() -> None:
    message = "r\n\nApproved-by: Bob <bob@example.com>\nApproved-by: ann@example.com\n"
    assert problems(message, {**BASE, RULE: b"r"}) == []


def test_deleting_a_rule_needs_approval_too() -> None:
    old = {**BASE, RULE: b"r"}
    assert problems("drop", BASE, old)
    assert problems("drop\n\nApproved-by: ann@example.com", BASE, old) == []


def test_a_config_change_is_approved_by_the_old_approvers_only() -> None:
    bob_config = CONFIG + b'  - "Bob <bob@example.com>"\n'
    new = {**BASE, "memory/config.yaml": bob_config}
    assert problems("add me\n\nApproved-by: Bob <bob@example.com>", new)
    assert problems("add bob\n\nApproved-by: ann@example.com", new) == []


def test_the_first_config_is_approved_by_its_own_approvers() -> None:
    assert problems("init\n\nApproved-by: ann@example.com", BASE, {}) == []


def test_the_allowed_signers_file_needs_approval() -> None:
    new = {**BASE, ALLOWED_SIGNERS_PATH: b"ann@example.com ssh-ed25519 AAAA\n"}
    assert problems("keys", new)


def test_no_configured_approvers_is_explained() -> None:
    old = {"memory/config.yaml": b"approvers: []\n"}
    [refusal] = problems("r\n\nApproved-by: ann@example.com", {**old, RULE: b"r"}, old)
    assert "no approvers are configured" in refusal


# --- control files and imports (issue 10 #4, B3) --------------------------------------------

GOVERNED = {"memory/config.yaml": CONFIG + b'control_files: ["schema/", ".gitattributes"]\n'}
APPROVED = "x\n\nApproved-by: ann@example.com\n"


def test_control_files_named_by_the_parents_config_need_approval() -> None:
    for path in ("schema/notes/entity.schema.json", ".gitattributes"):
        [refusal] = problems("loosen", {**GOVERNED, path: b"{}"}, GOVERNED)
        assert refusal.startswith(f"{path}: ") and "Approved-by" in refusal
        assert problems(APPROVED, {**GOVERNED, path: b"{}"}, GOVERNED) == []
    assert problems("x", {**GOVERNED, ".pre-commit-config.yaml": b"repos: []\n"},
                    GOVERNED) == []


def test_a_memory_without_control_files_keeps_the_old_approval_set() -> None:
    assert problems("schema", {**BASE, "schema/x.json": b"{}"}) == []
    assert problems("rule", {**BASE, RULE: b"r"})


def test_naming_control_files_is_approved_by_the_old_config() -> None:
    assert problems("govern", GOVERNED, BASE)
    assert problems(APPROVED, GOVERNED, BASE) == []


def test_an_import_of_back_dated_events_needs_approval() -> None:
    log = {"memory/facts/michal/2020-01.jsonl": lines(event("e0", "2020-01-01T00:00:00Z"))}
    [refusal] = problems("old\n\nImported-from: notebook\n", {**BASE, **log})
    assert refusal.startswith("memory/facts/michal/2020-01.jsonl: ")
    assert "Imported-from" in refusal
    assert problems("old\n\nImported-from: notebook\nApproved-by: ann@example.com\n",
                    {**BASE, **log}) == []
    [alone] = problems("nothing\n\nImported-from: notebook\n", BASE)
    assert alone.startswith("Imported-from: trailer")


def test_a_repository_that_is_not_a_memory_has_nothing_to_approve() -> None:
    assert problems("rule", {RULE: b"r"}, {"README": b"x"}) == []
