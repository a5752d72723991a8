"""The config read without PyYAML gives what the strict YAML reader gives, or leaves it to
YAML (None): a property over generated configs of every plain form and their near misses,
and the configs memrepo itself writes, which must take the plain path."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memrepo.core.config import config_from_bytes
from memrepo.core.plain_config import plain_config
from memrepo.core.strict_yaml import YamlError, load_strict
from memrepo.maintenance.init import config_text, with_many_valued
from tests.support import ROOT

REFUSED = object()


def strict(text: str) -> object:
    try:
        return load_strict(text)
    except YamlError:
        return REFUSED


GOOD = ["rules", "entities", "member_of", "scratch/", "/tmp/", "Name <e@x.y>", "Łódź", "it's",
        "a-b", "e5", "x", "a  b", "a, b", "a#b", "a:b", "a | b", '"d"', '"a, b"', '"Jan <j@x>"',
        '"# not a comment"', "'q'", "''", '""', "0", "7", "300", "1048576", "[a]", "[]",
        "[a, b]", "[ a , b ]", '["a", b]', '["x: y", "#z"]']
NEAR = ["on", "Off", "YES", "null", "Null", "~", "true", "012", "00", "1_000", "-1", "+2",
        "0x1f", "1.5", ".inf", "2026-01-01", "a: b", "a #b", "x:", "'it''s'", '"x\\ty"',
        "[a,]", "[yes]", "[1, 2]", "{a: 1}", "- a", "&anchor", "*alias", "!tag", "|", ">",
        "[a] b", '"a" b', "", " ", "a\tb", "a\x85b", "\xa0a", "=", "<<", "?", "%x", "@x"]
TRICKY = "aZł9 :#-'\"\\,[]{}&*!|>%@`?~.\t\x85\xa0_=<"


@st.composite
def scalars(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 19))
    if kind < 17:
        return draw(st.sampled_from(GOOD))
    if kind < 19:
        return draw(st.sampled_from(NEAR))
    return draw(st.text(TRICKY, max_size=8))


@st.composite
def configs(draw: st.DrawFn) -> str:
    """A config of the plain forms (keys, scalars, flow lists, blocks, comments), then now
    and then one near miss: a word YAML resolves, a bad indentation, a duplicate key, no
    space after a colon, a tab, a continuation line, a document marker…"""
    names = st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True)
    lines: list[str] = []
    for key in draw(st.lists(names, min_size=1, max_size=5, unique=True)):
        shape = draw(st.sampled_from(["inline", "inline", "sequence", "mapping"]))
        space = draw(st.sampled_from([" ", " ", "  "]))
        indent = " " * draw(st.integers(1, 4))
        if shape == "inline":
            lines.append(f"{key}:{space}{draw(scalars())}")
        elif shape == "sequence":
            lines.append(f"{key}:")
            lines.extend(f"{indent}-{space}{draw(scalars())}"
                         for _ in range(draw(st.integers(1, 3))))
        else:
            lines.append(f"{key}:")
            lines.extend(f"{indent}{inner}:{space}{draw(scalars())}" for inner in draw(
                st.lists(st.from_regex(r"[a-z_][a-z0-9_-]{0,5}", fullmatch=True),
                         min_size=1, max_size=3, unique=True)))
        if draw(st.integers(0, 3)) == 0:
            lines.append(draw(st.sampled_from(["", "  ", "# a comment", "   # indented"])))
    if draw(st.booleans()):
        at = draw(st.integers(0, len(lines) - 1))
        line = lines[at]
        lines[at] = draw(st.sampled_from([
            line.replace(": ", ":", 1), line.replace(": ", ":\t", 1), " " + line,
            line[1:] if line.startswith(" ") else line, line + " # trailing", line + ":",
            line.replace(":", ": yes", 1) if line.endswith(":") else line + "\n  more",
            line + "\n" + line, "---\n" + line, line + "\n...", "\ufeff" + line,
            line + "\r", line.replace("-", "", 1), line + "\n#\x1b",
            line.split(":")[0].replace(line.split(":")[0].strip(), "on") + ": x"]))
    return "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n"]))


@settings(max_examples=1000, deadline=None)
@given(configs())
def test_the_plain_reader_agrees_with_yaml_or_leaves_it_to_yaml(text: str) -> None:
    plain = plain_config(text)
    if plain is not None:
        assert plain == strict(text)


@pytest.mark.parametrize("text", [
    "a: 012\n", "a: 00\n", "a: 0\n", "a: 1_000\n", "a: 0x1f\n", "a: -1\n", "a: +1\n",
    "a: 1.0\n", "a: .inf\n", "a: 2026-01-01\n", "a: 1\na: 2\n", "b:\n  x: 1\n  x: 2\n",
    "a: yes\n", "a: Off\n", "a: [on]\n", "a: ~\n", "a:\n", "a:\n  - NULL\n", "on: 1\n",
    "a:\n  - x\n   - y\n", "a:\n  - x\n - y\n", "a:\n  x: 1\n   y: 2\n",
    "a:\n  x: 1\n y: 2\n", "a: x\n  y\n", "a:\n  - x\n    y\n", "a:\n- x\n",
    "a: x # c\n", "a: x:\n", "a: x: y\n", "a:x\n", "a:\tx\n", "a: 'it''s'\n",
    'a: "x\\"y"\n', "a: [x,]\n", "a: [x] y\n", "a: {x: 1}\n", "a:\n  b:\n    c: 1\n",
    "# only a comment\n", "---\na: 1\n", "a: 1\n...\n", "\ufeffa: 1\n", "a: 1\r\n",
    "a: 1\n#\x1b\n", "a: 1\n  # indented comment\nb: 2\n", "a:\n  x: 1\n# c\n  y: 2\n",
    "b:\n  on: 1\n", "b:\n  Yes: x\n", "a: x#y\nb: 1\n"])
def test_near_misses_are_left_to_yaml_or_read_alike(text: str) -> None:
    plain = plain_config(text)
    assert plain is None or plain == strict(text)


@pytest.mark.parametrize("approver", [
    "Jan Nowak <jan@example.com>", "Michał Żółć <m@example.com>", "a-b.c <x@y.z>",
    "O'Brien <o@example.com>", "Name <email>"])
def test_the_config_memrepo_init_writes_is_read_plain(approver: str) -> None:
    for text in (config_text(approver), with_many_valued(config_text(approver), [])):
        assert plain_config(text) is not None
        assert plain_config(text) == load_strict(text)


def test_the_demo_memory_and_the_worlds_configs_are_read_plain() -> None:
    found = [ROOT / "memory" / "config.yaml",
             *sorted((ROOT / "memrepo" / "bench" / "worlds").rglob("config.yaml"))]
    for path in found:
        text = path.read_text(encoding="utf-8")
        assert plain_config(text) == load_strict(text), path


def test_what_the_plain_reader_leaves_to_yaml_is_judged_as_before() -> None:
    """A config YAML refuses is still refused with its line; a quoted escape or a boolean
    is still read by YAML."""
    config, problems = config_from_bytes(b"approvers:\n  - a <a@b.c>\napprovers: []\n")
    assert [p.line for p in problems] == [3]
    text = 'approvers:\n  - "Jan \\u017b <j@x.y>"\nstale_after_days: 30\n'
    assert plain_config(text) is None
    config, problems = config_from_bytes(text.encode())
    assert problems == [] and config.approvers == ("Jan Ż <j@x.y>",)
    assert config.stale_after_days == 30


def test_shapes_read_plain() -> None:
    text = Path(ROOT / "memory" / "config.yaml").read_text(encoding="utf-8") + (
        "self:\n  my-scope: michal\n  home: Anna Nowak\n"
        "concepts:\n  residence: [home, \"place of living\"]\n")
    assert plain_config(text) == load_strict(text)
    assert plain_config(text)["self"] == {"my-scope": "michal", "home": "Anna Nowak"}
