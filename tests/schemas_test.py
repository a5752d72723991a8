from __future__ import annotations

from typing import Any

import pytest

from memrepo.core.change import DictSnapshot
from memrepo.schemas import EVENT_SCHEMA, schema_errors

ASSERT = {"id": "e1", "op": "assert", "recorded_at": "2026-01-01T00:00:00Z", "session": "s",
          "source": "manual", "scope": "x", "subject": "a", "relation": "b", "object": "c",
          "valid_from": "2026-01-01", "confidence": 1, "trust": "host"}


def test_a_valid_event_has_no_errors() -> None:
    assert schema_errors(ASSERT, EVENT_SCHEMA) == []


def test_errors_of_an_event_come_from_the_branch_its_op_names() -> None:
    assert schema_errors({**ASSERT, "zzz": 1}, EVENT_SCHEMA) == [
        "unknown key(s): 'zzz' was unexpected"]
    retract = {k: ASSERT[k] for k in ("id", "recorded_at", "session", "source")}
    assert schema_errors({**retract, "op": "retract"}, EVENT_SCHEMA) == [
        '"target" is a required property', '"reason" is a required property']


def test_an_unknown_op_is_one_clear_error() -> None:
    (error,) = schema_errors({**ASSERT, "op": "bogus"}, EVENT_SCHEMA)
    assert error.startswith("op: ")


@pytest.mark.parametrize(("header", "expected"), [
    ({None: 1, "name": "x"}, "header: key None is not a string"),
    ({"name": "x", "aliases": [b"x"]}, "aliases.0: a bytes is not allowed (use a string)"),
    ({"name": "x", "aliases": {1, 2}}, "aliases: a set is not allowed (use a string)"),
])
def test_yaml_values_that_are_not_json_are_reasons_not_crashes(header: dict[Any, Any],
                                                                expected: str) -> None:
    assert schema_errors(header, "notes/entity.schema.json") == [expected]


def test_a_snapshot_schema_is_used_per_file_and_a_broken_one_is_a_refusal() -> None:
    from memrepo.core.problems import InputError

    name = "notes/entity.schema.json"
    assert schema_errors({"name": "x"}, name, DictSnapshot({}))  # the packaged copy
    loose = DictSnapshot({f"schema/{name}": b'{"type": "object"}'})
    assert schema_errors({"name": "x"}, name, loose) == []  # the snapshot's own copy
    broken = DictSnapshot({f"schema/{name}": b"{not json"})
    with pytest.raises(InputError) as caught:
        schema_errors({"name": "x"}, name, broken)
    assert f"schema/{name}: is not a usable JSON Schema" in str(caught.value)
