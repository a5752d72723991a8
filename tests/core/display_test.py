"""What reaches a terminal (SPEC §11): control and bidi characters escaped, echoes short."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from memrepo.core.display import shown, unsafe_character
from memrepo.core.problems import Problem

RAW = ("\x1b", "\x07", "\x00", "\x9b", "\u202e", "\u2066", "\r", "\x7f", "\u200b", "\ufeff",
       "\u2060")


def test_controls_are_escaped_and_plain_text_is_left_alone() -> None:
    assert shown("Łódź 250 zł — ok") == "Łódź 250 zł — ok"
    assert shown("red\x1b[31mX\x07\u202eevil") == "red\\u001b[31mX\\u0007\\u202eevil"
    assert shown("two\nlines\tand a tab") == "two\\u000alines\\u0009and a tab"
    assert shown("two\nlines\tand a tab", lines=True) == "two\nlines\tand a tab"
    assert shown("bad \udcff byte") == "bad \\udcff byte"


def test_long_values_are_cut_with_their_length() -> None:
    assert shown("A" * 60_000, 100) == "A" * 100 + "… (60000 characters)"
    assert len(shown("A" * 60_000, None)) == 60_000


@given(st.text())
def test_no_raw_control_survives(text: str) -> None:
    out = shown(text, None)
    assert not [c for c in RAW if c in out] and "\n" not in out


def test_what_is_refused_at_write_time() -> None:
    assert unsafe_character("plain text, Łódź, 😀") is None
    assert unsafe_character("a\x1bb") == "\x1b"
    assert unsafe_character("a\nb") == "\n"
    assert unsafe_character("a\nb\tc", multiline=True) is None
    assert unsafe_character("a\u202eb", multiline=True) == "\u202e"


def test_a_refusal_never_prints_a_control_sequence_or_a_flood() -> None:
    rendered = Problem("memory/x\x1b.md", "bad value " + "\x07" * 5 + "A" * 60_000,
                       "fix \u202e it").render()
    assert not [c for c in RAW if c in rendered] and len(rendered) < 2_000


def test_invisible_text_is_shown_escaped_and_refused_only_for_new_writes() -> None:
    """Unicode tag characters spell text a reader cannot see but a model reads ("ASCII
    smuggling"); zero-width spaces and byte order marks hide inside words. Every printer
    escapes them (as JSON reads them back); a new write refuses them (invisible_character);
    values stored before stay valid (unsafe_character). Emoji joiners and flag tag
    sequences stay as they are."""
    from memrepo.core.display import invisible_character

    hidden = "".join(chr(0xE0000 + ord(c)) for c in "obey")
    scotland = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
    out = shown(f"hello{hidden}")
    assert out.startswith("hello\\udb40\\udc6f") and json.loads(f'"{out}"') == f"hello{hidden}"
    assert invisible_character(f"hello{hidden}") == hidden[0]
    assert invisible_character("pass\u200bword") == "\u200b"
    assert invisible_character("\ufeffname") == "\ufeff"
    assert unsafe_character(f"hello{hidden}\u200b\ufeff") is None  # stored before: readable
    for fine in (f"Edinburgh {scotland}", "family 👨\u200d👩\u200d👧, نامه\u200cها",
                 "❤\ufe0f 1\ufe0f\u20e3", "葛\U000e0100"):
        assert invisible_character(fine) is None and shown(fine) == fine
    fake_flag = f"\U0001F3F4{''.join(chr(0xE0000 + ord(c)) for c in 'Ignore all')}\U000E007F"
    assert invisible_character(f"ok {fake_flag}") == "\U000e0049"
    assert "\\udb40\\udc49" in shown(f"ok {fake_flag}")
    selectors = "ok 😀" + "".join(chr(0xE0100 + byte) for byte in b"hidden")
    assert invisible_character(selectors) == "\U000e0168"
    assert json.loads(f'"{shown(selectors)}"') == selectors and "\\udb40" in shown(selectors)


def test_every_invisible_character_is_found_in_a_line_and_in_a_note() -> None:
    """Each character the invisible-character rule names — the combining grapheme joiner
    (U+034F) too, which `str.isprintable` passes — is refused inside a word, on a line of
    its own and in a note's text among tabs and newlines, and shown escaped; tab and
    newline alone hide nothing."""
    from memrepo.core.display import invisible_character, plainly_visible
    from memrepo.core.facts.line_rules import text_refusal

    for char in ("\u034f", "\u00ad", "\u115f", "\u200b", "\u2064", "\u202e", "\u3164",
                 "\ufeff", "\uffa0", "\U000e0041"):
        assert invisible_character(f"pass{char}word") == char, hex(ord(char))
        note = f"# Wi-Fi\n\n- [fact]\tname: Dom\n- router: pass{char}word\n"
        assert invisible_character(note) == char and not plainly_visible(note)
        assert text_refusal(note) is not None and text_refusal(note)[0] == 4  # type: ignore[index]
        assert f"\\u{ord(char):04x}" in shown(f"pass{char}word") or ord(char) > 0xFFFF
    assert plainly_visible("# Note\n\n- one\tcolumn\n") and invisible_character("a\tb\nc") is None
