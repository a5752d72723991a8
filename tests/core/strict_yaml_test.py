from __future__ import annotations

import pytest

from memrepo.core.strict_yaml import YamlError, load_strict


def test_dates_stay_strings() -> None:
    assert load_strict("updated: 2026-01-01\n") == {"updated": "2026-01-01"}


@pytest.mark.parametrize(("text", "line"), [
    ("a: 1\nb: 2\na: 3\n", 3),
    ("a: &x [1, 2]\nb: *x\n", 2),
    ("name: x\ntype: y\ndescription: a\x1bb\n", 3),  # a refused character: its own line
])
def test_refusals_name_their_line(text: str, line: int) -> None:
    with pytest.raises(YamlError) as caught:
        load_strict(text)
    assert caught.value.line == line


def test_an_alias_bomb_is_refused_before_expansion() -> None:
    pairs = zip("abcdefgh", "bcdefghi", strict=True)
    bomb = "a: &a [x, x]\n" + "".join(f"{c}: &{c} [*{p}, *{p}]\n" for p, c in pairs)
    with pytest.raises(YamlError):
        load_strict(bomb)


def test_deep_nesting_and_size_are_bounded() -> None:
    with pytest.raises(YamlError):
        load_strict("[" * 100_000)
    with pytest.raises(YamlError):
        load_strict("a: " + "x" * 70_000)


def test_the_fast_reader_bounds_nesting_like_the_strict_one() -> None:
    """libyaml reads 5,000 nested lists that Python's recursion limit could not walk; both
    readers refuse nesting past MAX_DEPTH with the same error."""
    from memrepo.core.strict_yaml import MAX_DEPTH, load_fast

    deep = "extra: " + "[" * 5000 + "]" * 5000 + "\n"
    for load in (load_fast, load_strict):
        with pytest.raises(YamlError, match="nested"):
            load(deep)
    fine = "extra: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert load_fast(fine) == load_strict(fine)


def test_a_scalar_pyyaml_cannot_convert_is_a_yaml_error() -> None:
    with pytest.raises(YamlError):
        load_strict("priority: 0x_\n")


def test_the_characters_yaml_refuses_are_named_exactly() -> None:
    """NON_PRINTABLE (a class compiled in well under a millisecond) is PyYAML's own
    `Reader.NON_PRINTABLE` (a negated class `re` takes ≈5 ms to compile), code point for
    code point; and a text holding one takes the strict reader's path and its refusal."""
    import re

    from yaml.reader import Reader

    from memrepo.core.strict_yaml import NON_PRINTABLE, load_fast

    ours = re.compile(NON_PRINTABLE)
    everything = "".join(map(chr, range(0x110000)))
    assert ours.findall(everything) == Reader.NON_PRINTABLE.findall(everything)
    for character in ("\x00", "\x1b", "\x7f", "\x9f", "\ud800", "\ufffe"):
        with pytest.raises(YamlError) as caught:
            load_fast(f"a: 1\nb: x{character}y\n")
        assert caught.value.line == 2
    assert load_fast("a: x\xa0y\n") == load_strict("a: x\xa0y\n") == {"a": "x\xa0y"}
