"""The one config loader (memrepo.config) and the parent's config (memrepo.core.config)."""

from __future__ import annotations

from memrepo.config import snapshot_config
from memrepo.core.change import DictSnapshot
from memrepo.core.config import Config, parent_config
from tests.support import CONFIG

BASE = {"memory/config.yaml": CONFIG}


def test_load_config_reads_defaults_for_a_broken_file() -> None:
    config, problems = snapshot_config(DictSnapshot(BASE))
    assert config.approvers == ("Ann Example <ann@example.com>",) and problems == []
    for data in (b"approvers: [a\n", b"- just a list\n", b"approvers: []\napprovers: []\n",
                 b"\xff\xfe", b"stale_after_days: .inf\n", b"precedence: [[1]]\n",
                 b"many_valued_relations: likes\n", b"clock_skew_seconds: true\n"):
        config, problems = snapshot_config(DictSnapshot({"memory/config.yaml": data}))
        assert config.approvers == () and problems[0].path == "memory/config.yaml"
    _, missing = snapshot_config(DictSnapshot({}))
    assert "no config file" in missing[0].problem


def test_schema_validation_when_asked() -> None:
    broken = DictSnapshot({"memory/config.yaml": CONFIG + b"colour: blue\n"})
    assert snapshot_config(broken)[1] == []
    config, problems = snapshot_config(broken, validate=True)
    assert config.approvers == () and "colour" in problems[0].problem


def test_the_rules_config_is_the_parents_and_a_first_config_brings_its_own() -> None:
    parent = DictSnapshot(BASE)
    loosened = DictSnapshot({"memory/config.yaml": b'approvers: ["Eve <eve@example.com>"]\n'})
    assert parent_config(parent, loosened).approvers == ("Ann Example <ann@example.com>",)
    assert parent_config(DictSnapshot(), loosened).approvers == ("Eve <eve@example.com>",)
    broken = DictSnapshot({"memory/config.yaml": b"approvers: [unclosed\n"})
    assert parent_config(broken, loosened).approvers == ("Eve <eve@example.com>",)
    assert parent_config(None, DictSnapshot()) == Config()


def test_a_config_is_validated_by_the_schema_of_the_snapshot_given() -> None:
    governed = DictSnapshot({"memory/config.yaml": CONFIG + b'control_files: ["schema/"]\n'})
    assert snapshot_config(governed, validate=True)[1] == []  # memrepo's own schema knows it
    old_schema = DictSnapshot({"schema/config.schema.json": b'{"type": "object", '
                               b'"properties": {"approvers": {}}, '
                               b'"additionalProperties": false}'})
    problems = snapshot_config(governed, old_schema, validate=True)[1]
    assert "control_files" in problems[0].problem
