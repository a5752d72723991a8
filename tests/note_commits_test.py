"""Every note refusal of SPEC §3/§6, through a real `git commit` running the installed hooks
(the pure rules are tested case by case in headers_test, links_test, index_file_test and
secrets_test; this proves the wiring end to end)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import commit, git, memrepo, write

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
