from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from memrepo.cli import main
from tests.support import note

JAN = "Accountant at Acme; invoices, VAT questions, prefers email"


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("MEMREPO_REPO", raising=False)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "memory" / "entities").mkdir(parents=True)
    (tmp_path / "memory/entities/jan-novak.md").write_bytes(note("entities", "jan-novak", JAN))
    return tmp_path


def index_of(repo: Path, category: str = "entities") -> str:
    return (repo / "memory" / category / "INDEX.md").read_text(encoding="utf-8")


def test_index_writes_all_four_and_then_nothing(repo: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--repo", str(repo), "index"]) == 0
    assert f"- [jan-novak](/memory/entities/jan-novak.md) — {JAN}\n" in index_of(repo)
    assert index_of(repo, "rules").startswith("---\ncategory: rules\nentries: 0\n")
    assert "wrote memory/entities/INDEX.md (1 entries)" in capsys.readouterr().out
    assert main(["--repo", str(repo), "index"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["--repo", str(repo), "index", "--check"]) == 0
    assert not list(repo.glob("memory/*/.INDEX.md.*"))  # no temporary files left


def test_check_lists_drift_without_writing(repo: Path, capsys: pytest.CaptureFixture[str],
                                           ) -> None:
    main(["--repo", str(repo), "index"])
    before = index_of(repo)
    (repo / "memory/entities/acme.md").write_bytes(
        note("entities", "acme", "Ordering profile: minimum quantities, lead times"))
    capsys.readouterr()
    assert main(["--repo", str(repo), "index", "--check"]) == 1
    err = capsys.readouterr().err
    assert "memory/entities/INDEX.md: no index line for the note acme" in err
    assert "To fix: run `memrepo index` and stage memory/entities/INDEX.md" in err
    assert index_of(repo) == before


def test_a_broken_note_blocks_only_its_category(repo: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "memory/entities/broken.md").write_bytes(b"no header\n")
    (repo / "memory/project").mkdir()
    (repo / "memory/project/move.md").write_bytes(
        note("project", "move", "Office move: dates, movers, open tasks"))
    assert main(["--repo", str(repo), "index"]) == 1
    assert "memory/entities/broken.md:1: missing header" in capsys.readouterr().err
    assert not (repo / "memory/entities/INDEX.md").exists()
    assert "[move]" in index_of(repo, "project")


def test_repository_is_found_from_cwd_and_env(repo: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(repo / "memory" / "entities")
    assert main(["index"]) == 0 and "jan-novak" in index_of(repo)
    monkeypatch.chdir("/")
    monkeypatch.setenv("MEMREPO_REPO", str(repo))
    assert main(["index", "--check"]) == 0


def test_outside_a_memory_repository_is_refused(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    assert main(["--repo", str(tmp_path), "index"]) == 1
    assert "no memory/ folder" in capsys.readouterr().err


def test_the_incremental_index_equals_the_full_one(demo_repo: Path) -> None:
    """Only notes changed since HEAD are read; the result is what reading all gives."""
    entities = demo_repo / "memory" / "entities"
    (entities / "tauron.md").unlink()
    (entities / "jan-novak.md").write_bytes(note(
        "entities", "jan-novak", "Revised. Accountant at Acme: invoices, VAT, prefers email"))
    (entities / "acme.md").write_bytes(note("entities", "acme", "Acme Boxes: minimum 200 "
                                            "boxes, two-week lead time"))
    assert main(["--repo", str(demo_repo), "index"]) == 0
    incremental = (entities / "INDEX.md").read_text(encoding="utf-8")
    assert "- [acme](" in incremental and "- [tauron](" not in incremental
    assert "Revised." in incremental
    assert main(["--repo", str(demo_repo), "index", "--full", "--check"]) == 0


def test_a_folder_named_like_a_note_is_not_a_crash(repo: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "memory" / "entities" / "odd.md").mkdir()
    assert main(["--repo", str(repo), "index"]) == 0


def test_rewritten_indexes_keep_their_permissions(repo: Path) -> None:
    import os

    assert main(["--repo", str(repo), "index"]) == 0
    index = repo / "memory" / "entities" / "INDEX.md"
    os.chmod(index, 0o644)
    (repo / "memory" / "entities" / "new-co.md").write_bytes(
        note("entities", "new-co", "New Co: parcel lockers, weekly invoice"))
    assert main(["--repo", str(repo), "index", "--full"]) == 0
    assert index.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("full", [False, True])
@pytest.mark.parametrize("linked", ["note", "folder", "index"])
def test_nothing_is_read_or_written_through_a_symbolic_link(
        demo_repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        full: bool, linked: str) -> None:
    """A link could lead outside the repository: `memrepo index` refuses, naming it."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secretnote.md").write_bytes(
        note("references", "secretnote", "Outside secret zebrafish: never to be indexed"))
    (outside / "INDEX.md").write_bytes(b"outside index\n")
    references = demo_repo / "memory" / "references"
    (demo_repo / "memory/entities/acme.md").write_bytes(
        note("entities", "acme", "Acme Boxes: minimum 200 boxes, two-week lead time"))
    entities_index = index_of(demo_repo)
    shown = {"note": "memory/references/secretnote.md", "folder": "memory/references",
             "index": "memory/references/INDEX.md"}[linked]
    if linked == "folder":
        subprocess.run(["git", "-C", str(demo_repo), "rm", "-rq", "memory/references"],
                       check=True)
        references.symlink_to(outside)
    else:
        (demo_repo / shown).unlink(missing_ok=True)
        (demo_repo / shown).symlink_to(outside / Path(shown).name)
    capsys.readouterr()
    assert main(["--repo", str(demo_repo), "index", *(["--full"] if full else [])]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.splitlines()[0].endswith(f"{shown}: is a symbolic link")
    assert "To fix: replace the link with a real file" in err and "zebrafish" not in err
    assert index_of(demo_repo) == entities_index  # acme's line not written either
    assert (outside / "INDEX.md").read_bytes() == b"outside index\n"


def test_a_folder_in_an_index_s_place_is_refused_by_index_and_reported_by_doctor(
        repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    index = repo / "memory" / "entities" / "INDEX.md"
    index.unlink(missing_ok=True)
    index.mkdir()
    capsys.readouterr()
    assert main(["--repo", str(repo), "index"]) == 1
    assert "memory/entities/INDEX.md: a folder is in the index's place" in capsys.readouterr().err
    assert main(["--repo", str(repo), "doctor"]) == 1
    assert "memory/entities/INDEX.md: INDEX.md does not match" in capsys.readouterr().out
    assert index.is_dir()
