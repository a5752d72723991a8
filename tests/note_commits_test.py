"""Every note refusal of SPEC §3/§6, through a real `git commit` running the installed hooks
(the pure rules are tested case by case in headers_test, links_test, index_file_test and
secrets_test; this proves the wiring end to end), and notes as Obsidian writes them (tags,
every wiki link form) accepted, searched and linked."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import HOOKS_OFF, commit, git, memrepo, write

GOOD = """---
name: {name}
description: "Ordering profile of Acme Boxes: minimum 200 boxes, two-week lead time"
type: entity
---
# Acme Boxes

Second supplier after [[lodz-packaging]], see /memory/entities/jan-novak.md for invoices.
"""
KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ\n"
BAD: dict[str, tuple[bytes, str]] = {
    "missing header": (b"# Acme\n\nNo header at all.\n", "header"),
    "unterminated header": (GOOD.format(name="acme").replace("---\n# Acme", "# Acme")
                            .encode(), "---"),
    "non-mapping header": (b"---\n- a\n- b\n---\nbody\n", "mapping"),
    "duplicate key": (GOOD.format(name="acme").replace("type: entity",
                      "type: entity\ntype: entity").encode(), "duplicate key"),
    "unknown key": (GOOD.format(name="acme").replace("type: entity",
                    "type: entity\nowner: me").encode(), "owner"),
    "wrong type": (GOOD.format(name="acme").replace("type: entity", "type: project")
                   .encode(), "type"),
    "name differs from file": (GOOD.format(name="acme-boxes").encode(), "acme-boxes"),
    "vague description": (GOOD.format(name="acme").replace(
        "Ordering profile of Acme Boxes: minimum 200 boxes, two-week lead time",
        "Notes about suppliers").encode(), "vague description"),
    "relative link": (GOOD.format(name="acme").replace("[[lodz-packaging]]",
                      "[Łódź](../entities/lodz-packaging.md)").encode(), "relative link"),
    "dead link": (GOOD.format(name="acme").replace("[[lodz-packaging]]", "[[no-such-note]]")
                  .encode(), "no-such-note"),
    "link into the archive": (GOOD.format(name="acme").replace(
        "[[lodz-packaging]]", "[old](/memory/archive/entities/old-supplier.md)").encode(),
        "archive"),
    "ephemeral path in plain text": (GOOD.format(name="acme").replace(
        "for invoices.", "for invoices; draft in /tmp/acme.txt.").encode(), "/tmp/"),
    "CRLF line endings": (GOOD.format(name="acme").replace("\n", "\r\n").encode(), "CRLF"),
    "not UTF-8": (GOOD.format(name="acme").replace("Łódź", "Lodz").encode()
                  .replace(b"Second", b"Second \xff\xfe"), "UTF-8"),
    "private key pasted in": ((GOOD.format(name="acme") + KEY).encode(), "private key"),
}


def refusal(repo: Path) -> str:
    done = commit(repo, "add acme")
    output = done.stdout + done.stderr
    assert done.returncode != 0, output
    assert "To fix:" in output and "Traceback" not in output
    return output


def test_a_good_note_is_accepted(demo_repo: Path) -> None:
    write(demo_repo, "memory/entities/acme.md", GOOD.format(name="acme"))
    assert memrepo(demo_repo, "index").returncode == 0
    git(demo_repo, "add", "-A")
    done = commit(demo_repo, "add acme")
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_control_character_in_the_header_is_refused_at_its_line(demo_repo: Path) -> None:
    write(demo_repo, "memory/entities/acme.md",
          GOOD.format(name="acme").replace("Ordering profile", "Ordering \x1b[31mprofile"))
    git(demo_repo, "add", "-A")
    assert "memory/entities/acme.md:3: header: invalid YAML" in refusal(demo_repo)


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_note_is_refused(demo_repo: Path, case: str) -> None:
    data, expected = BAD[case]
    write(demo_repo, "memory/entities/acme.md", data)
    memrepo(demo_repo, "index")  # may refuse the bad note; the INDEX is not the point here
    git(demo_repo, "add", "-A")
    output = refusal(demo_repo)
    assert "memory/entities/acme.md" in output
    assert expected.lower() in output.lower(), output


def test_index_drift_is_refused_and_memrepo_index_fixes_it(demo_repo: Path) -> None:
    write(demo_repo, "memory/entities/acme.md", GOOD.format(name="acme"))
    git(demo_repo, "add", "-A")
    assert "memrepo index" in refusal(demo_repo)
    assert memrepo(demo_repo, "index").returncode == 0
    git(demo_repo, "add", "-A")
    assert commit(demo_repo, "add acme").returncode == 0


# --- notes as Obsidian and other markdown editors write them (issue 22) --------------------

JAN = """---
name: jan-novak
description: "Accountant at Acme: invoices, VAT questions, prefers email"
type: entity
tags: [people, "#payroll"]
---
# Jan Novák

## Contact

Email only.
"""
VAT = """---
name: vat-return
description: "VAT return for Q1 2026: documents gathered, filing due 25 April"
type: project
tags:
  - bookkeeping
  - "#quarterly"
  - tax/vat
---
# VAT return

Ask [[jan-novak|our accountant]]; he answers by mail ([[jan-novak#Contact]],
[[jan-novak#Contact|how to reach him]]).

![[jan-novak]]

| who | note |
|---|---|
| accountant | [[jan-novak\\|Jan]] |

What is left: [[#Open points]].

## Open points
"""


def obsidian_notes(repo: Path) -> None:
    write(repo, "memory/entities/jan-novak.md", JAN)
    write(repo, "memory/project/vat-return.md", VAT)
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")


def test_a_note_as_obsidian_writes_it_commits_and_is_found_by_its_tags(
        memory_repo: Path) -> None:
    obsidian_notes(memory_repo)
    done = commit(memory_repo, "VAT return, as written in Obsidian")
    assert done.returncode == 0, done.stdout + done.stderr
    for tag in ("bookkeeping", "quarterly", "payroll"):
        found = memrepo(memory_repo, "search", tag)
        assert found.returncode == 0 and found.stdout.count("\n") == 1, found.stdout
        assert ("vat-return" if tag != "payroll" else "jan-novak") in found.stdout
    recalled = memrepo(memory_repo, "recall", "--scope", "michal", "quarterly bookkeeping")
    assert "[project] vat-return" in recalled.stdout, recalled.stdout + recalled.stderr
    assert memrepo(memory_repo, "check", "--all").returncode == 0
    assert json.loads(memrepo(memory_repo, "triage", "--json").stdout)["counts"][
        "dead-link"] == 0
    doctor = memrepo(memory_repo, "doctor", "--deep")
    assert (doctor.returncode, doctor.stdout) == (0, "healthy\n"), doctor.stderr


def test_a_dead_labelled_link_is_refused_naming_its_line(memory_repo: Path) -> None:
    obsidian_notes(memory_repo)
    write(memory_repo, "memory/project/vat-return.md",
          VAT.replace("[[jan-novak|our accountant]]", "[[anna-nowak|our accountant]]"))
    git(memory_repo, "add", "-A")
    output = refusal(memory_repo)
    assert ("memory/project/vat-return.md:12: link [[anna-nowak|our accountant]] points to "
            "no note: there is no note named 'anna-nowak'") in output
    assert "To fix: correct the name, or create the note in the same commit" in output
    assert output.count("points to no note") == 1


def test_a_dead_labelled_link_committed_unchecked_is_a_dead_link_for_triage(
        memory_repo: Path) -> None:
    obsidian_notes(memory_repo)
    write(memory_repo, "memory/project/vat-return.md",
          VAT.replace("[[jan-novak#Contact|how to reach him]]", "[[anna-nowak#Phone|Anna]]"))
    git(memory_repo, "add", "-A")
    assert git(memory_repo, *HOOKS_OFF, "commit", "-q", "-m", "unchecked").returncode == 0
    triage = memrepo(memory_repo, "triage")
    assert "`memory/project/vat-return.md:13` — links to anna-nowak, but no note" in \
        triage.stdout, triage.stdout
    assert "| Dead links | 1 |" in triage.stdout
    checked = memrepo(memory_repo, "check", "--all")
    assert checked.returncode == 1
    assert "vat-return.md:13: link [[anna-nowak#Phone|Anna]] points to no note" in \
        checked.stdout + checked.stderr
