from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from memrepo.hooks.links import check

from memrepo.core.config import Config
from memrepo.core.notes.links import (
    _MARKDOWN,
    _WIKI,
    _unbracket,
    ephemeral_problems,
    find_links,
    wiki_name,
)
from memrepo.core.problems import Problem
from tests.support import change, note

JAN = "memory/entities/jan-novak.md"
ACME = "memory/entities/acme.md"
BASE = {JAN: note("entities", "jan-novak", "Accountant at Acme; invoices, VAT, prefers email")}


def refused(body: str, extra: dict[str, bytes] | None = None) -> list[Problem]:
    new = {**BASE, **(extra or {}),
           ACME: note("entities", "acme", "Ordering profile: minimum quantities", body)}
    return check(change(BASE, new))


def test_links_are_found_with_file_line_numbers() -> None:
    body = "x [Jan](/memory/entities/jan-novak.md) and [[jan-novak]]\n\n![p](pic.png)\n"
    links = find_links(body, first_line=6)
    assert [(link.target, link.line, link.kind) for link in links] == [
        ("/memory/entities/jan-novak.md", 6, "markdown"), ("jan-novak", 6, "wiki"),
        ("pic.png", 8, "markdown")]


def test_code_is_not_linked() -> None:
    body = "`[x](../x.md)`\n```\n[y](y.md) [[nope]]\n```\n"
    assert find_links(body) == []


def test_absolute_and_wiki_links_to_live_notes_pass() -> None:
    body = ("See [Jan](/memory/entities/jan-novak.md#contact), [[jan-novak]], "
            "[[jan-novak|our accountant]], [web](https://example.com/a.md), "
            "[mail](mailto:jan@example.com), [top](#top).\n")
    assert refused(body) == []


def test_links_resolve_against_the_new_snapshot() -> None:
    found = refused("[[new-note]] and [n](/memory/project/new-note.md)\n")
    assert len(found) == 2 and all("no note named 'new-note'" in p.problem for p in found)
    made = {"memory/project/new-note.md": note("project", "new-note", "Migration: status, "
                                               "blockers, next steps")}
    assert refused("[[new-note]] and [n](/memory/project/new-note.md)\n", made) == []


def test_relative_links_are_refused_with_the_absolute_form() -> None:
    for target in ("../entities/jan-novak.md", "./jan-novak.md", "jan-novak.md",
                   "notes/jan-novak.md"):
        found = refused(f"Ask [Jan]({target}).\n")
        assert len(found) == 1 and found[0].line == 6, target
        assert "relative link" in found[0].problem
        assert found[0].fix == "use /memory/entities/jan-novak.md (or [[jan-novak]])"
    found = refused("[x](other.md)\n")
    assert "/memory/<category>/<name>.md" in found[0].fix


def test_links_into_the_archive_are_refused() -> None:
    old = {"memory/archive/entities/old-bank.md": note("entities", "old-bank",
                                                       "Former bank: account closed 2025")}
    found = refused("[b](/memory/archive/entities/old-bank.md) [[old-bank]]\n", old)
    assert len(found) == 2 and all("archive" in p.problem for p in found)
    assert found[0].fix == "link the live note or drop the link"


def test_other_absolute_paths_must_exist() -> None:
    assert refused("[t](/memory/TRIGGERS.md)\n", {"memory/TRIGGERS.md": b"|a|b|\n"}) == []
    assert "points to nothing" in refused("[t](/docs/gone.md)\n")[0].problem
    assert "local file system" in refused("[f](file:///home/me/x.pdf)\n")[0].problem


def test_ephemeral_paths_anywhere_with_line_numbers() -> None:
    text = ("---\nname: x\n---\nSaved in /tmp/report.pdf\nok\nsee ~/Downloads/bill.pdf\n"
            "[x](/var/tmp/a)\nput it in inbox/today\nscratch/notes.txt\n")
    found = ephemeral_problems("p.md", text, Config().ephemeral_paths)
    assert [p.line for p in found] == [4, 6, 7, 8, 9]
    assert "'/var/tmp/'" in found[2].problem


def test_ephemeral_paths_need_a_path_boundary() -> None:
    text = ("myinbox/ is fine\nhttps://example.com/tmp/x and https://mail.example.com/inbox/1\n"
            "the inbox is empty\n/home/me/inbox/x.txt\nfile:///tmp/a\n")
    found = ephemeral_problems("p.md", text, Config().ephemeral_paths)
    assert [p.line for p in found] == [4, 5]


def test_hook_checks_header_and_body_of_changed_notes_only() -> None:
    found = refused("Body\n", {})
    assert found == []
    data = note("entities", "acme", "Scanned contract kept in /tmp/acme.pdf")
    found = check(change(BASE, {**BASE, ACME: data}))
    assert [p.line for p in found] == [3]
    config = Config(ephemeral_paths=("/mnt/usb/",))
    assert check(change(BASE, {**BASE, ACME: data}, config)) == []


def test_deleting_a_linked_note_is_not_seen_by_the_hook() -> None:
    # Dangling backlinks in unchanged notes are reported by `check --all` / triage.
    linking = {**BASE, ACME: note("entities", "acme", "Ordering profile: quantities",
                                  "[[jan-novak]]\n")}
    assert check(change(linking, {ACME: linking[ACME]})) == []
    assert check(change({}, {ACME: linking[ACME]}))


def links_read_literally(body: str, first_line: int = 1) -> list[tuple[str, int, str]]:
    """find_links without its shortcuts: every line, fences tracked on each."""
    found, in_fence = [], False
    for offset, line in enumerate(body.split("\n")):
        if re.match(r"^\s*(```|~~~)", line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        prose = re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group()), line)
        found += [(_unbracket(m["target"]), first_line + offset, "markdown")
                  for m in _MARKDOWN.finditer(prose)]
        found += [(m["target"], first_line + offset, "wiki") for m in _WIKI.finditer(prose)]
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["[a](/memory/entities/a.md)", "[[b]]", "[", "]", "(", ")",
                                 "`", "```", "~~~", " ", "\n", "x", '"t"', "!", "<c>", "|"]),
                max_size=40).map("".join))
def test_links_are_what_every_prose_line_read_literally_gives(body: str) -> None:
    assert [(link.target, link.line, link.kind) for link in find_links(body, 3)] == \
        links_read_literally(body, 3)


# --- wiki links as Obsidian and other markdown editors write them (issue 22) ----------------

EDITOR_FORMS = ("[[jan-novak|our accountant]]", "[[jan-novak#Contact]]",
                "[[jan-novak#Contact|how to reach him]]", "![[jan-novak]]",
                "![[jan-novak#Contact]]", "[[jan-novak#^a1b2c3]]", "[[ jan-novak | Jan ]]")


@pytest.mark.parametrize("form", EDITOR_FORMS)
def test_editor_link_forms_resolve_by_name(form: str) -> None:
    assert refused(f"Ask {form}.\n") == []
    assert wiki_name(form.lstrip("!")[2:-2]) == "jan-novak"


def test_a_label_escaped_in_a_table_cell_and_a_heading_of_the_note_itself_pass() -> None:
    body = "| who | link |\n|---|---|\n| Jan | [[jan-novak\\|Jan]] |\n\nSee [[#Contact]].\n"
    assert refused(body) == []
    assert wiki_name("#Contact") is None and wiki_name("#Contact|here") is None


@pytest.mark.parametrize("form", ["[[nobody|label]]", "[[nobody#Contact]]", "![[nobody]]",
                                  "[[nobody#Contact|label]]", "[[nobody\\|label]]"])
def test_a_dead_editor_link_is_refused_at_its_line_as_written(form: str) -> None:
    [found] = refused(f"Intro.\n\nAsk {form} today.\n")
    shown = form.removeprefix("!")
    assert found.line == 8 and found.path == ACME
    assert found.problem == (f"link {shown} points to no note: there is no note named "
                             "'nobody'")
    assert found.fix == "correct the name, or create the note in the same commit"


def test_an_editor_link_into_the_archive_is_refused() -> None:
    old = {"memory/archive/entities/old-bank.md": note("entities", "old-bank",
                                                       "Former bank: account closed 2025")}
    [found] = refused("[[old-bank#Accounts|the old bank]]\n", old)
    assert "archived note" in found.problem


@pytest.mark.parametrize(("form", "fix"), [
    ("[[entities/jan-novak]]", "write [[jan-novak]]"),
    ("[[jan-novak.md|Jan]]", "write [[jan-novak]]"),
    ("![[diagram.png]]", "link another file by its absolute path"),
    ("[[Jan Novak]]", "write [[<name>]]"),
    ("[[|label]]", "write [[<name>]]"),
])
def test_a_link_that_names_no_note_says_what_to_write(form: str, fix: str) -> None:
    [found] = refused(f"{form}\n")
    assert "does not name a note" in found.problem and fix in found.fix


def test_relative_file_links_stay_refused_whatever_the_editor() -> None:
    for target in ("jan-novak.md", "../entities/jan-novak.md", "jan-novak.md#Contact",
                   "<jan-novak.md>"):
        [found] = refused(f"![Jan]({target})\n")
        assert "relative link" in found.problem, target


LINK_PIECES = ["[a](/memory/entities/a.md)", "[[b]]", "[[c|x]]", "![[d#h]]", "[[Not A Slug]]",
               "[r](rel.md)", "[t](/memory/TRIGGERS.md)", "[o](/memory/archive/rules/o.md)",
               "[w](https://x.y/z)", "[f](file:///etc)", "[[#head]]", "[g](/memory/rules/g.md#s)",
               "[[entities/e]]", "[i](/memory/project/INDEX.md)", " ", "\n", "x", "`"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINK_PIECES), max_size=12).map("".join),
       st.sets(st.sampled_from(["memory/entities/a.md", "memory/project/b.md",
                                "memory/rules/c.md", "memory/archive/entities/d.md",
                                "memory/TRIGGERS.md", "memory/references/rel.md"])))
def test_link_lookups_are_the_paths_the_link_check_asks_first(body: str,
                                                                present: set[str]) -> None:
    """What the links check announces to the snapshot (one exchange with git) covers every
    path `link_problems` asks about, but for the archive it looks in once a link is dead."""
    from memrepo.core.notes.headers import parse_note
    from memrepo.core.notes.links import link_lookups, link_problems

    parsed = parse_note(ACME, note("entities", "acme", "Ordering profile", body), fast=True)
    assert not isinstance(parsed, Problem)
    asked: list[str] = []

    def exists(path: str) -> bool:
        asked.append(path)
        return path in present

    link_problems(parsed, exists)
    expected = set(link_lookups(parsed))
    assert {p for p in asked if not p.startswith("memory/archive/")} <= expected
