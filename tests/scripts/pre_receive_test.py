"""The shared server's pre-receive hook (memrepo.scripts.pre_receive): real pushes into a
bare repository; good pushes land, history rewritten with --no-verify is refused whole."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from memrepo.scripts.pre_receive import ZERO, Update, install, main, parse_updates

from tests.support import (
    HOOKS_OFF,
    add_note,
    commit,
    event,
    git,
    lines,
    memrepo,
    note,
    now_stamp,
    segment,
    write,
)


def test_updates_are_read_from_git_stdin_lines() -> None:
    updates = parse_updates(io.StringIO(f"{'a' * 40} {'b' * 40} refs/heads/main\n"
                                        f"{ZERO} {'c' * 40} refs/heads/new\n\ngarbage\n"))
    assert [u.verify_range() for u in updates] == [f"{'a' * 40}..{'b' * 40}", "c" * 40]
    assert Update("a" * 40, ZERO, "refs/heads/x").is_deletion


def test_install_refuses_a_folder_that_is_not_a_bare_repository(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        install(tmp_path)


@pytest.fixture()
def server(memory_repo: Path, tmp_path: Path) -> Path:
    bare = tmp_path / "server.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    assert main(["--install", str(bare)]) == 0
    git(memory_repo, "remote", "add", "origin", str(bare))
    return bare


def test_good_pushes_land_and_rewritten_logs_are_refused(memory_repo: Path,
                                                         server: Path) -> None:
    pushed = git(memory_repo, "push", "-q", "origin", "main", check=False)  # a new branch
    assert pushed.returncode == 0, pushed.stderr
    stamp = now_stamp()
    write(memory_repo, segment(stamp), lines(event("e1", stamp)))
    git(memory_repo, "add", "-A")
    git(memory_repo, "commit", "-q", "-m", "fact")
    assert git(memory_repo, "push", "-q", "origin", "main", check=False).returncode == 0
    good = git(server, "rev-parse", "main").stdout
    write(memory_repo, segment(stamp), lines(event("e1", stamp, object="999 zł")))
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-am", "rewrite")
    write(memory_repo, "memory/TRIGGERS.md", "fine\n")
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-am", "a later, harmless commit")
    refused = git(memory_repo, "push", "origin", "main", check=False)
    assert refused.returncode != 0
    assert "committed lines were edited" in refused.stderr and "To fix:" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert git(server, "rev-parse", "main").stdout == good
    git(memory_repo, "tag", "v1", "HEAD~2")
    assert git(memory_repo, "push", "-q", "origin", "v1", check=False).returncode == 0


def test_a_new_branch_is_verified_over_its_whole_history(memory_repo: Path,
                                                         server: Path) -> None:
    write(memory_repo, "memory/facts/michal/not-a-log.txt", "stray\n")
    git(memory_repo, "add", "-A")
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-m", "stray file")
    refused = git(memory_repo, "push", "origin", "main", check=False)
    assert refused.returncode != 0 and "not-a-log.txt" in refused.stderr
    assert git(server, "rev-parse", "-q", "--verify", "main", check=False).returncode != 0


def test_main_reads_stdin_and_skips_tags(memory_repo: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(memory_repo)
    head = git(memory_repo, "rev-parse", "HEAD").stdout.strip()
    assert main([], io.StringIO(f"{ZERO} {head} refs/heads/main\n")) == 0
    assert main([], io.StringIO(f"{head} {ZERO} refs/tags/v0\n")) == 0
    assert main([], io.StringIO(f"{head} {ZERO} refs/heads/main\n")) == 1
    assert "deleting a memory branch" in capsys.readouterr().err


# --- history is the audit trail (issue 10 #3); what may be pushed at all (B1, B7) ----------

APPROVED = "\n\nApproved-by: Ann Example <ann@example.com>\n"


def push(repo: Path, *args: str) -> str:
    done = git(repo, "push", *args, "origin", "main", check=False)
    return "" if done.returncode == 0 else done.stderr


def test_install_sets_the_second_guard_in_the_servers_config(server: Path) -> None:
    for key in ("receive.denyNonFastForwards", "receive.denyDeletes"):
        assert git(server, "config", "--get", key).stdout.strip() == "true"


def test_a_forced_push_that_drops_commits_is_refused(memory_repo: Path, server: Path) -> None:
    for name in ("aaa-boxes", "bbb-boxes"):
        add_note(memory_repo, "entities", name, f"Supplier {name}: boxes, pallets, net 30")
        git(memory_repo, "commit", "-q", "-m", name)
    assert push(memory_repo) == ""
    full = git(server, "rev-parse", "main").stdout
    git(server, "config", "receive.denyNonFastForwards", "false")  # the hook alone decides
    git(memory_repo, "reset", "-q", "--hard", "HEAD~2")
    refused = push(memory_repo, "--force")
    assert "non-fast-forward update refused" in refused and "To fix:" in refused
    assert git(server, "rev-parse", "main").stdout == full


def test_local_state_pushed_as_a_symlink_is_refused(memory_repo: Path, server: Path,
                                                    tmp_path: Path) -> None:
    """A tracked .memrepo/journal/<session>.jsonl symlink would make a fresh clone's
    journal append to a file outside it (e.g. ~/.bashrc)."""
    assert push(memory_repo) == ""
    journal = memory_repo / ".memrepo" / "journal"
    journal.mkdir(parents=True)
    (journal / "mail-agent.jsonl").symlink_to("../../../bashrc")
    git(memory_repo, "add", "-f", ".memrepo/journal/mail-agent.jsonl")
    git(memory_repo, *HOOKS_OFF, "commit", "-q", "-m", "harmless looking")
    refused = push(memory_repo)
    assert ".memrepo/journal/mail-agent.jsonl: files under .memrepo/" in refused
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", str(server), str(fresh))
    assert not (fresh / ".memrepo").exists()


def test_the_server_checks_with_the_repositorys_own_approved_schemas(
        memory_repo: Path, server: Path) -> None:
    """A bare repository has no work tree: the rules come from each commit's parent."""
    schema = memory_repo / "schema" / "notes" / "entity.schema.json"
    document = json.loads(schema.read_text(encoding="utf-8"))
    document["properties"]["phone"] = {"type": "string", "maxLength": 40}
    schema.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    git(memory_repo, "commit", "-q", "-am", "entity notes may carry a phone" + APPROVED)
    write(memory_repo, "memory/entities/jan-novak.md", note(
        "entities", "jan-novak", "Accountant at Acme; invoices, VAT questions, prefers email",
        phone='"+48 600 100 200"'))
    assert memrepo(memory_repo, "index").returncode == 0
    git(memory_repo, "add", "-A")
    assert commit(memory_repo, "jan").returncode == 0
    assert push(memory_repo) == ""
