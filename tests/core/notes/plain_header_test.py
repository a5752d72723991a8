from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memrepo.core.notes.plain_header import plain_header
from memrepo.core.strict_yaml import YamlError, load_strict

TYPICAL = ('name: lodz-packaging\ndescription: "Packaging supplier in Łódź: minimum orders"\n'
           'type: entity\naliases: ["Lodz Packaging", "Łódź Packaging Sp. z o.o."]\n'
           "updated: 2026-03-04\norigin: manual")


def test_a_typical_header_reads_as_yaml_reads_it() -> None:
    assert plain_header(TYPICAL) == load_strict(TYPICAL)
    assert plain_header(TYPICAL) == {
        "name": "lodz-packaging", "description": "Packaging supplier in Łódź: minimum orders",
        "type": "entity", "aliases": ["Lodz Packaging", "Łódź Packaging Sp. z o.o."],
        "updated": "2026-03-04", "origin": "manual"}


@pytest.mark.parametrize("text", [
    "name: x\nname: y",  # duplicate: YAML names the line
    "published: yes", "on: x", "a: null", "a: ~", "a:", "a: 12", "a: 1.5", "a: .inf",
    "a: x: y", "a: x #c", "a: 'it''s'", 'a: "tab\\there"', "a: |\n  block", "a: &x y",
    "a: *x", "a: !tag y", "a: [x, y]", "  a: b", "# comment\na: b", "a: b\n  continued",
    "a: b\tc", "a: @x", "%YAML 1.1", "...", "a:\n  - x", "a: {b: c}", "a key: b", "",
    "a: x\u2028y", "a: Ok:",
])
def test_anything_yaml_might_read_otherwise_is_left_to_yaml(text: str) -> None:
    assert plain_header(text) is None


PIECES = [*"aZłé09 -_.,:#'\"[]{}&*!|>%@`~?\\\t\u2028\x85\ufeff",
          "yes", "No", "on", "null", "2026-01-02", ": ", " #", '"x"', '["a", "b"]']
SPACES = [chr(c) for c in range(0x110000) if chr(c).isspace() and chr(c) not in " \n"]


@pytest.mark.parametrize("space", SPACES, ids=[f"U+{ord(c):04X}" for c in SPACES])
def test_a_line_of_other_white_space_is_left_to_yaml(space: str) -> None:
    assert plain_header(f"name: car\n{space}\ntype: entity") is None


def test_a_key_longer_than_yaml_reads_is_left_to_yaml() -> None:
    assert plain_header("k" * 1100 + ": v") is None


VALUE_TEXT = st.builds(str.__add__, st.sampled_from(["a", "Z", "ł", "yes", "2026-01-02", '"',
                                                    "'", '["a"', "[", "-", "1"]),
                       st.lists(st.sampled_from(PIECES), max_size=6).map("".join))
KEY_TEXT = st.sampled_from(["name", "type", "updated", "aliases", "On", "a b", "_x", "x1", "1x"])
LINE = st.builds(lambda key, gap, value: f"{key}:{gap}{value}", KEY_TEXT,
                 st.sampled_from([" ", " ", "  ", "", "\t"]), VALUE_TEXT)


@settings(max_examples=600, deadline=None)
@given(st.lists(LINE | st.sampled_from(["", "  ", "# c", " x: y"]), max_size=3))
@example(['aliases: ["a, b", "c"]', "updated: 2026-01-02"])
def test_what_it_reads_is_what_yaml_reads(lines: list[str]) -> None:
    """Whatever the plain reader accepts, the strict YAML reader accepts as the same
    mapping: the hooks and the cache may use either and judge a note alike."""
    text = "\n".join(lines)
    plain = plain_header(text)
    if plain is None:
        return
    try:
        assert load_strict(text) == plain
    except YamlError as err:  # pragma: no cover - the failure message is the point
        pytest.fail(f"YAML refuses what the plain reader read: {err}")
