"""The shared server's pre-receive hook (memrepo.scripts.pre_receive): real pushes into a
bare repository; good pushes land, history rewritten with --no-verify is refused whole."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from memrepo.scripts.pre_receive import ZERO, Update, install, main, parse_updates
from memrepo.scripts.push_lock import push_lock

from memrepo.git.push_race import LOST_RACE_LINE, lost_race
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
    assert main([], io.StringIO(f"{ZERO} {head} refs/heads/new\n")) == 0
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


# --- one push verified at a time; a push that lost the race is sent back at once ----------


def test_a_push_expecting_a_commit_the_branch_moved_past_is_a_lost_race(
        memory_repo: Path, server: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert push(memory_repo) == ""
    first = git(server, "rev-parse", "main").stdout.strip()
    git(memory_repo, "commit", "-q", "--allow-empty", "-m", "a second commit")
    assert push(memory_repo) == ""
    second = git(server, "rev-parse", "main").stdout.strip()
    monkeypatch.chdir(server)
    assert main([], io.StringIO(f"{first} {second} refs/heads/main\n")) == 1
    said = capsys.readouterr().err
    assert said.splitlines()[0] == LOST_RACE_LINE and lost_race(said)
    assert f"refs/heads/main is at {second[:12]}, the push expected {first[:12]}" in said
    assert "verify" not in said  # refused before any check ran


def test_a_push_sent_while_another_landed_is_told_to_fetch_and_retry(
        memory_repo: Path, server: Path, tmp_path: Path) -> None:
    """The other push lands between the pusher reading the branch and its hook: the hook
    says so in the one line `memrepo sync` retries on; nothing changes on the server."""
    assert push(memory_repo) == ""
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(server), str(other))
    git(other, "commit", "-q", "--allow-empty", "-m", "the other clone's commit")
    hook = memory_repo / ".git" / "hooks" / "pre-push"
    hook.write_text(f"#!/bin/sh\nenv -u GIT_DIR git -C {other} push -q origin main\n")
    hook.chmod(0o755)
    git(memory_repo, "commit", "-q", "--allow-empty", "-m", "this clone's commit")
    refused = push(memory_repo)
    assert f"remote: {LOST_RACE_LINE}" in refused and lost_race(refused)
    assert "memrepo verify" not in refused
    assert git(server, "rev-parse", "main").stdout == git(other, "rev-parse", "HEAD").stdout


def test_an_accepted_push_keeps_the_lock_until_git_has_moved_the_branch(
        server: Path) -> None:
    """The hook exits before git moves the branch: the lock stays with a child of the hook
    until the git process that ran it (here a stand-in) has exited."""
    receive_pack = subprocess.Popen(["sleep", "600"])
    try:
        held = subprocess.run(
            [sys.executable, "-c", "import sys; from pathlib import Path; "
             "from memrepo.scripts.push_lock import push_lock\n"
             "with push_lock(Path(sys.argv[1])) as lock:\n"
             "    lock.hold_until_exit(int(sys.argv[2]))", str(server),
             str(receive_pack.pid)], capture_output=True, text=True, check=False)
        assert held.returncode == 0, held.stderr
        with push_lock(server, wait=0) as lock:
            assert lock is None
    finally:
        receive_pack.kill()
        receive_pack.wait()
    with push_lock(server, wait=60) as lock:
        assert lock is not None
