from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memrepo.hooks.indexes import check

from memrepo.core.notes.index_file import (
    IndexFile,
    NoteChange,
    _common_prefix,
    _common_suffix,
    incremental_problems,
    index_problems,
    parse_index,
    render_index,
)
from memrepo.core.problems import Problem
from tests.support import change, note, with_indexes

SPEC_EXAMPLE = """---
category: entities
entries: 2
---
# Entities

- [acme-supplies](/memory/entities/acme-supplies.md) — Ordering profile: minimum quantities, lead times, packaging constraints
- [jan-novak](/memory/entities/jan-novak.md) — Accountant at Acme; invoices, VAT questions, prefers email
"""  # noqa: E501
DESCRIPTIONS = {
    "jan-novak": "Accountant at Acme; invoices, VAT questions, prefers email",
    "acme-supplies": "Ordering profile: minimum quantities, lead times, packaging constraints",
}
NOTES = {f"memory/entities/{n}.md": note("entities", n, d) for n, d in DESCRIPTIONS.items()}
TREE = with_indexes(NOTES, {"entities": DESCRIPTIONS})
INDEX = "memory/entities/INDEX.md"
NEW = "memory/entities/new-co.md"


def test_render_matches_the_spec_example_byte_for_byte() -> None:
    assert render_index("entities", DESCRIPTIONS) == SPEC_EXAMPLE
    assert render_index("rules", {}) == "---\ncategory: rules\nentries: 0\n---\n# Rules\n"


def test_parse_round_trips() -> None:
    parsed = parse_index("entities", SPEC_EXAMPLE.encode())
    assert isinstance(parsed, IndexFile) and parsed.entries == 2
    assert [(line.name, line.line) for line in parsed.lines] == [("acme-supplies", 7),
                                                                ("jan-novak", 8)]
    assert index_problems("entities", SPEC_EXAMPLE.encode(), DESCRIPTIONS) == []


def lines_of(problems: list[Problem]) -> list[tuple[int | None, str]]:
    return [(p.line, p.problem) for p in problems]


def test_drift_is_described() -> None:
    notes = {**DESCRIPTIONS, "zeta": "Zeta Ltd: courier, picks up Tuesdays"}
    notes["jan-novak"] = "Accountant; VAT"
    del notes["acme-supplies"]
    found = index_problems("entities", SPEC_EXAMPLE.encode(), notes)
    text = " | ".join(p.problem for p in found)
    assert "no index line for the note zeta" in text
    assert "index line for acme-supplies, but there is no note" in text
    assert "description of jan-novak differs" in text
    assert all(p.fix == "run `memrepo index` and stage memory/entities/INDEX.md" for p in found)


def test_form_counts_order_and_garbage() -> None:
    swapped = SPEC_EXAMPLE.replace("entries: 2", "entries: 3")
    assert "entries: 3" in index_problems("entities", swapped.encode(), DESCRIPTIONS)[0].problem
    lines = SPEC_EXAMPLE.split("\n")
    lines[6], lines[7] = lines[7], lines[6]
    found = index_problems("entities", "\n".join(lines).encode(), DESCRIPTIONS)
    assert lines_of(found) == [(7, "lines are not sorted by name")]
    found = index_problems("entities", (SPEC_EXAMPLE + "- stray\n").encode(), DESCRIPTIONS)
    assert found[0].line == 9 and "not an index entry" in found[0].problem
    retitled = SPEC_EXAMPLE.replace("# Entities", "# People")
    assert "generated form" in index_problems("entities", retitled.encode(),
                                              DESCRIPTIONS)[0].problem
    assert "missing" in index_problems("entities", None, DESCRIPTIONS)[0].problem
    assert index_problems("entities", None, {}) == []


def test_hook_accepts_a_note_with_its_regenerated_index() -> None:
    added = {**DESCRIPTIONS, "new-co": "New Co: parcel lockers, weekly invoice"}
    new = with_indexes({**TREE, NEW: note("entities", "new-co", added["new-co"])},
                       {"entities": added})
    assert check(change(TREE, new)) == []


def test_hook_refuses_a_note_without_its_index_line() -> None:
    new = {**TREE, NEW: note("entities", "new-co", "New Co: parcel lockers, weekly invoice")}
    found = check(change(TREE, new))
    assert [p.problem for p in found][:1] == ["no index line for the note new-co"]
    assert found[0].render().endswith("stage memory/entities/INDEX.md")


def test_hook_sees_a_changed_description_and_a_deleted_note() -> None:
    path = "memory/entities/jan-novak.md"
    new = {**TREE, path: note("entities", "jan-novak", "Accountant; payroll and VAT returns")}
    assert "description of jan-novak differs" in check(change(TREE, new))[0].problem
    new = dict(TREE)
    del new[path]
    assert any("no note" in p.problem for p in check(change(TREE, new)))


def test_hook_reads_unchanged_notes_whose_line_was_edited() -> None:
    edited = SPEC_EXAMPLE.replace("prefers email", "prefers phone")
    found = check(change(TREE, {**TREE, INDEX: edited.encode()}))
    assert "description of jan-novak differs" in found[0].problem


def test_only_touched_categories_are_checked() -> None:
    stale = {**TREE, INDEX: b"garbage"}
    other = "memory/project/p.md"
    desc = {"p": "Migration: status, blockers and next steps"}
    new = with_indexes({**stale, other: note("project", "p", desc["p"])}, {"project": desc})
    assert check(change(stale, new)) == []
    assert check(change(TREE, stale))


# --- the incremental check agrees with the full one ---------------------------------------



NAMES = [f"n{i}" for i in range(8)]
WORDS = ["Supplier of boxes: net 30", "Accountant: VAT and payroll", "Courier: Tuesdays only"]


@st.composite
def index_changes(draw: st.DrawFn) -> tuple[dict[str, str], dict[str, str], bytes]:
    old = {n: draw(st.sampled_from(WORDS)) for n in draw(st.sets(st.sampled_from(NAMES)))}
    new = dict(old)
    for name in draw(st.sets(st.sampled_from(NAMES), max_size=4)):
        if name in new and draw(st.booleans()):
            del new[name]
        else:
            new[name] = draw(st.sampled_from(WORDS))
    lines = render_index("entities", new).split("\n")
    damage = draw(st.sampled_from(["none", "drop", "duplicate", "swap", "edit", "count"]))
    entry_rows = [i for i, line in enumerate(lines) if line.startswith("- ")]
    if entry_rows and damage == "drop":
        del lines[draw(st.sampled_from(entry_rows))]
    elif entry_rows and damage == "duplicate":
        row = draw(st.sampled_from(entry_rows))
        lines.insert(row, lines[row])
    elif len(entry_rows) > 1 and damage == "swap":
        lines[entry_rows[0]], lines[entry_rows[1]] = lines[entry_rows[1]], lines[entry_rows[0]]
    elif entry_rows and damage == "edit":
        lines[draw(st.sampled_from(entry_rows))] += " (edited)"
    elif damage == "count":
        lines[2] = "entries: 99"
    return old, new, "\n".join(lines).encode()


@settings(max_examples=300, deadline=None)
@given(index_changes())
def test_incremental_and_full_checks_agree(case: tuple[dict[str, str], dict[str, str], bytes],
                                           ) -> None:
    old, new, data = case
    changes = [NoteChange(n, "deleted", None) for n in old if n not in new]
    changes += [NoteChange(n, "added" if n not in old else "modified", d)
                for n, d in new.items() if old.get(n) != d]
    incremental = incremental_problems("entities", render_index("entities", old).encode(),
                                       data, changes, new.get)
    assert (incremental == []) == (index_problems("entities", data, new) == [])


@pytest.mark.parametrize("size", [0, 1, 65_535, 65_536, 65_537, 300_000])
def test_common_prefix_is_exact_at_chunk_boundaries(size: int) -> None:
    base = bytes(range(256)) * (size // 256 + 1)
    base = base[:size]
    assert _common_prefix(base, base) == size
    assert _common_prefix(base, base + b"x") == size
    for position in {0, size // 3, size - 1, 65_535, 65_536} - {-1}:
        if 0 <= position < size:
            changed = base[:position] + bytes([base[position] ^ 1]) + base[position + 1:]
            assert _common_prefix(base, changed) == position


@pytest.mark.parametrize("size", [0, 1, 65_535, 65_536, 65_537, 300_000])
def test_common_suffix_is_exact_at_chunk_boundaries(size: int) -> None:
    base = (bytes(range(256)) * (size // 256 + 1))[:size]
    assert _common_suffix(base, base) == size
    assert _common_suffix(b"x" + base, base) == size
    for position in {0, size // 3, size - 1, size - 65_536, size - 65_537}:
        if 0 <= position < size:
            changed = base[:position] + bytes([base[position] ^ 1]) + base[position + 1:]
            assert _common_suffix(base, changed) == size - position - 1
