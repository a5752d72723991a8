"""The one config loader (memrepo.checks.config)."""

from __future__ import annotations

from memrepo.checks.config import load_config
from memrepo.core.change import DictSnapshot
from tests.support import CONFIG

BASE = {"memory/config.yaml": CONFIG}


def test_load_config_reads_defaults_for_a_broken_file() -> None:
    config, problems = load_config(DictSnapshot(BASE))
    assert config.approvers == ("Ann Example <ann@example.com>",) and problems == []
    for data in (b"approvers: [a\n", b"- just a list\n", b"approvers: []\napprovers: []\n",
                 b"\xff\xfe"):
        config, problems = load_config(DictSnapshot({"memory/config.yaml": data}))
        assert config.approvers == () and problems[0].path == "memory/config.yaml"
    _, missing = load_config(DictSnapshot({}))
    assert "no config file" in missing[0].problem


def test_schema_validation_when_asked() -> None:
    broken = DictSnapshot({"memory/config.yaml": CONFIG + b"colour: blue\n"})
    assert load_config(broken)[1] == []
    config, problems = load_config(broken, validate=True)
    assert config.approvers == () and "colour" in problems[0].problem
