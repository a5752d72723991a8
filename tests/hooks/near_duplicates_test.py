"""The near-duplicate commit check (memrepo.hooks.near_duplicates, issue 11) through real
`git commit`s and the installed hooks: a new note that looks like an existing one is
refused with that note's name and the trailer to insist; legitimate neighbours pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from memrepo.hooks import near_duplicates

from memrepo.core.change import DictSnapshot
from tests.support import (
    add_note,
    commit,
    copy_repo,
    dict_change,
    git,
    isolated_env,
    memrepo,
    note,
    set_environment,
    with_indexes,
    write,
)

KOWALSKI = "Accountant at Acme in Kraków: invoices and VAT, prefers email"
JAN = "Jan K.: payroll and VAT returns for Acme, answers on Mondays"
BOXES = "Cartons from Łódź: pallets of 500, ten-day lead time, invoices monthly"


def committed(repo: Path, message: str = "notes", *extra: str) -> tuple[bool, str]:
    done = commit(repo, message, *extra)
    return done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def notes_template(memory_template: Path, git_home: Path,
                   tmp_path_factory: pytest.TempPathFactory) -> Path:
    """memory_repo with four notes committed through the hooks, built once per module."""
    root = copy_repo(memory_template, tmp_path_factory.mktemp("near") / "memory-repo")
    with pytest.MonkeyPatch.context() as patch:
        set_environment(patch, isolated_env(git_home))
        for name, description in (("jan-kowalski", KOWALSKI),
                                  ("lodz-packaging", "Box supplier: minimum order 500, 10 days"),
                                  ("vat-return-q2-2026", "VAT return for Q2 2026: due 25 July"),
                                  ("car-service-2025", "Car service 2025: invoice and garage")):
            add_note(root, "entities" if "vat" not in name else "project", name, description)
        ok, output = committed(root)
    assert ok, output
    return root


@pytest.fixture()
def repo(notes_template: Path, tmp_path: Path, git_env: dict[str, str]) -> Path:
    """A copy of notes_template of this test's own."""
    return copy_repo(notes_template, tmp_path / "memory-repo")


def test_a_misspelt_name_is_refused_with_the_existing_note_and_the_trailer(repo: Path) -> None:
    add_note(repo, "entities", "jan-kowalsky", "Jan from the tax office, calls about VAT")
    ok, output = committed(repo)
    assert not ok
    assert ("memory/entities/jan-kowalsky.md: looks like the existing note jan-kowalski "
            "('kowalsky' and 'kowalski' are one typo apart)") in output
    assert "add the trailer 'Not-a-duplicate-of: jan-kowalski'" in output
    assert "Traceback" not in output
    ok, output = committed(repo, "a second Jan", "-m", "Not-a-duplicate-of: jan-kowalski")
    assert ok, output


@pytest.mark.parametrize(("category", "name", "description"), [
    ("entities", "anna-kowalska", "Jan's sister, runs the bakery on Długa street"),
    ("entities", "jana-kowalski", "Jana, the other accountant at the tax office"),
    ("project", "vat-return-q3-2026", "VAT return for Q3 2026: due 25 October"),
    ("project", "car-service-2026", "Car service 2026: tyres and oil"),
    ("entities", "lodz-printing", "Printing house in Łódź: leaflets and labels"),
])
def test_legitimate_neighbours_pass(repo: Path, category: str, name: str,
                                    description: str) -> None:
    add_note(repo, category, name, description)
    ok, output = committed(repo)
    assert ok, output


@pytest.mark.parametrize(("name", "description", "aliases", "existing"), [
    ("kowalski-jan", JAN, (), "jan-kowalski"),                         # word order
    ("lodzpackaging", BOXES, (), "lodz-packaging"),                    # word breaks
    ("box-supplier", BOXES, ("Łódź Packaging",), "lodz-packaging"),    # an alias
    ("jan-k", KOWALSKI, (), "jan-kowalski"),                               # same description
])
def test_other_likenesses_are_refused(repo: Path, name: str, description: str,
                                      aliases: tuple[str, ...], existing: str) -> None:
    write(repo, f"memory/entities/{name}.md", note("entities", name, description,
                                                   aliases=aliases))
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")
    ok, output = committed(repo)
    assert not ok and f"looks like the existing note {existing} (" in output


def test_a_renamed_or_moved_note_is_not_its_own_duplicate(repo: Path) -> None:
    git(repo, "mv", "memory/entities/jan-kowalski.md", "memory/project/jan-kowalski.md")
    text = (repo / "memory/project/jan-kowalski.md").read_text()
    write(repo, "memory/project/jan-kowalski.md", text.replace("type: entity", "type: project"))
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")
    ok, output = committed(repo)
    assert ok, output
    git(repo, "mv", "memory/project/jan-kowalski.md", "memory/project/jan-kowalski-acme.md")
    path = repo / "memory/project/jan-kowalski-acme.md"
    path.write_text(path.read_text().replace("name: jan-kowalski", "name: jan-kowalski-acme"))
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")
    ok, output = committed(repo, "rename", "-m", "Removed: jan-kowalski: renamed")
    assert ok, output


def test_two_new_notes_of_one_commit_are_compared_with_each_other(memory_repo: Path) -> None:
    add_note(memory_repo, "entities", "marek-zielinski", "Plumber from Brno, boilers")
    add_note(memory_repo, "entities", "marek-zielinsky", "Marek, fixes the boiler in Brno")
    ok, output = committed(memory_repo)
    assert not ok and "marek-zielinsky.md: looks like the existing note marek-zielinski" in output


def test_the_check_reads_only_the_old_index_blocks_it_needs() -> None:
    names = {f"person-{n:05d}": f"Person number {n}" for n in range(2000)}
    old = with_indexes({}, {"entities": {**names, "jan-kowalski": KOWALSKI}})
    new = {**old, "memory/entities/jan-kowalsky.md": note("entities", "jan-kowalsky",
                                                          "Another Jan")}
    reads: list[str] = []

    class Counting(DictSnapshot):
        def read(self, path: str) -> bytes | None:
            reads.append(path)
            return super().read(path)

    change = dict_change(old, new, "a note")
    change = type(change)(Counting(old), change.new, change.files, change.config,
                          change.commit_time, message="a note")
    [problem] = near_duplicates.check(change)
    assert "jan-kowalski" in problem.problem
    assert sorted(reads) == sorted(f"memory/{c}/INDEX.md" for c in
                                   ("rules", "entities", "references", "project"))
