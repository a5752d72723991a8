"""Trust levels (SPEC §8): where writes go and what a reader may read
(memrepo.core.policy.trust)."""

from __future__ import annotations

import pytest

from memrepo.core.policy.trust import Reader, write_scope
from memrepo.core.problems import InputError


def test_untrusted_writes_go_to_the_quarantine_whatever_the_op() -> None:
    assert write_scope("michal", "host") == "michal"
    assert write_scope("michal", "untrusted") == "quarantine-michal"
    assert write_scope("quarantine-michal", "untrusted") == "quarantine-michal"
    with pytest.raises(InputError, match="trust"):
        write_scope("michal", "root")
    with pytest.raises(InputError, match="not a slug"):
        write_scope("../etc", "host")


def test_a_person_reads_what_it_names_and_every_note() -> None:
    person = Reader()
    assert person.fact_scopes("quarantine-michal") == ("quarantine-michal",)
    assert person.reads_notes


def test_an_untrusted_session_reads_its_quarantine_only_unless_granted() -> None:
    untrusted = Reader("michal", "untrusted")
    assert untrusted.fact_scopes("michal") == ("quarantine-michal",)
    assert not untrusted.reads_notes
    granted = Reader("michal", "untrusted", host_reads=True)
    assert granted.fact_scopes("michal") == ("quarantine-michal", "michal")
    assert granted.reads_notes
    with pytest.raises(InputError, match="reads scope 'michal' only"):
        untrusted.fact_scopes("ola")


def test_a_host_session_reads_its_own_scope() -> None:
    host = Reader("michal")
    assert host.fact_scopes("michal") == ("michal",) and host.reads_notes
    with pytest.raises(InputError):
        host.fact_scopes("ola")


def test_a_scope_too_long_says_so_rather_than_not_a_slug() -> None:
    from memrepo.core.policy.trust import MAX_SCOPE_LENGTH, check_scope

    with pytest.raises(InputError, match=f"longer than {MAX_SCOPE_LENGTH} characters"):
        check_scope("a" * (MAX_SCOPE_LENGTH + 1))
    with pytest.raises(InputError, match="is not a slug"):
        check_scope("Not A Slug")
    assert check_scope("a" * MAX_SCOPE_LENGTH) == "a" * MAX_SCOPE_LENGTH
