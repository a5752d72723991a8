"""`memrepo sync` between clones of one bare remote (SPEC §10): concurrent appends converge
to identical facts and caches, note conflicts are refused with nothing lost, bad commits
coming in are rolled back, a push race is retried, the server's pre-receive hook refuses."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from memrepo.scripts.pre_receive import install

from memrepo.cache import cache_path
from memrepo.facts.writes import remember
from memrepo.git.hook_scripts import install as install_hooks
from memrepo.maintenance.sync import sync as sync_in_process
from tests.support import (
    HOOKS_OFF,
    append_events,
    commit,
    copy_repo,
    dump,
    event,
    git,
    isolated_env,
    note,
    now_stamp,
    segment,
    set_environment,
    write,
)

NOTE = "memory/entities/acme-supplies.md"
SCOPE = "team"


def memrepo(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(root), *args],
                          capture_output=True, text=True, check=False)


def sync(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = memrepo(root, "sync", *args)
    assert "Traceback" not in done.stdout + done.stderr
    return done


def landed(*clones: Path) -> None:
    """Each clone synced in turn in this process (what `memrepo sync` runs, without a
    process start), each sync landing: for the syncs a test needs done, not looked at
    (`sync` is the command line, for those whose answers a test reads)."""
    for clone in clones:
        sync_in_process(clone)


def head(root: Path) -> str:
    return git(root, "rev-parse", "HEAD").stdout.strip()


def make_network(first: Path, tmp_path: Path, clones: int = 3,
                 pre_receive: bool = True) -> tuple[Path, list[Path]]:
    """A bare remote, `first` (made by memrepo init) pushed to it, and fresh clones."""
    bare = tmp_path / "remote.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    if pre_receive:
        install(bare)
    git(first, "remote", "add", "origin", str(bare))
    done = sync(first)
    assert done.returncode == 0, done.stderr
    network = [first]
    for number in range(1, clones):
        clone = tmp_path / f"clone{number}"
        git(tmp_path, "clone", "-q", str(bare), str(clone))
        network.append(clone)
    return bare, network


Network = Callable[..., tuple[Path, list[Path]]]
"""`network(first, tmp_path, clones=3, pre_receive=True)`: what `make_network` returns,
with `first` (a fresh `memory_repo`) replaced by the network's first clone."""

FIRST = "memory-repo"


@pytest.fixture(scope="module")
def network_templates(memory_template: Path, git_home: Path,
                      tmp_path_factory: pytest.TempPathFactory) -> dict[bool, Path]:
    """Folders holding a network made by `make_network` (three clones), one with the
    server's pre-receive hook and one without, each built on first use: copying one is
    far cheaper than the first push (the server verifies the whole history) and clones."""
    return {}


@pytest.fixture()
def network(network_templates: dict[bool, Path], memory_template: Path, git_home: Path,
            tmp_path_factory: pytest.TempPathFactory, git_env: dict[str, str]) -> Network:
    def copy(first: Path, tmp_path: Path, clones: int = 3,
             pre_receive: bool = True) -> tuple[Path, list[Path]]:
        if pre_receive not in network_templates:
            folder = tmp_path_factory.mktemp("network")
            with pytest.MonkeyPatch.context() as patch:
                set_environment(patch, isolated_env(git_home))
                make_network(copy_repo(memory_template, folder / FIRST), folder,
                             pre_receive=pre_receive)
            network_templates[pre_receive] = folder
        return copy_network(network_templates[pre_receive], first, tmp_path, clones)

    return copy


def copy_network(template: Path, first: Path, tmp_path: Path,
                 clones: int) -> tuple[Path, list[Path]]:
    """The bare remote, `first` and `clones - 1` clones of the network in `template`, copied
    into `tmp_path` (each clone's origin pointed at the copied remote)."""
    bare = copy_repo(template / "remote.git", tmp_path / "remote.git")
    shutil.rmtree(first)
    network = [copy_repo(template / FIRST, first)]
    network += [copy_repo(template / f"clone{number}", tmp_path / f"clone{number}")
                for number in range(1, clones)]
    for clone in network:
        git(clone, "remote", "set-url", "origin", str(bare))
    return bare, network


def remember_many(clone: Path, label: str, count: int) -> None:
    for number in range(count):
        remember(clone, scope=SCOPE, subject=f"{label}-item{number}", relation="count",
                 object=str(number), session=label)
    remember(clone, scope=SCOPE, subject="office", relation="status", object=f"by {label}",
             session=label)


def append_concurrently(clones: list[Path], count: int) -> None:
    with ThreadPoolExecutor(max_workers=len(clones)) as pool:
        futures = [pool.submit(remember_many, clone, f"c{n}-{count}", count)
                   for n, clone in enumerate(clones)]
        for future in futures:
            future.result()


def fact_ids(clone: Path) -> set[str]:
    ids = set()
    for log in (clone / "memory" / "facts").rglob("*.jsonl"):
        ids.update(json.loads(line)["id"] for line in log.read_text().splitlines())
    return ids


def assert_converged(clones: list[Path], expected_facts: int) -> None:
    heads = {head(clone) for clone in clones}
    assert len(heads) == 1
    ids = [fact_ids(clone) for clone in clones]
    assert all(found == ids[0] for found in ids) and len(ids[0]) == expected_facts
    dumps = [dump(cache_path(clone)) for clone in clones]
    assert all(found == dumps[0] for found in dumps)
    assert len(dumps[0]["events"]) == expected_facts
    for clone in clones:
        verified = memrepo(clone, "verify")
        assert verified.returncode == 0, verified.stdout + verified.stderr
        assert git(clone, "status", "--porcelain", "--untracked-files=no").stdout == ""


def sync_rounds(clones: list[Path], rounds: int = 2) -> None:
    for _ in range(rounds):
        landed(*clones)


def test_three_clones_appending_concurrently_converge(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    bare, clones = network(memory_repo, tmp_path)
    first = sync(clones[1], "--json")
    assert first.returncode == 0, first.stderr
    assert "installed the git hooks" in first.stderr
    assert json.loads(first.stdout)["hooks"] == "installed"
    assert (clones[1] / ".git" / "hooks" / "post-merge").is_file()
    append_concurrently(clones, 5)
    sync_rounds(clones)
    assert_converged(clones, 3 * 6)
    assert git(bare, "rev-parse", "main").stdout.strip() == head(clones[0])


def test_merging_a_merge_that_put_remote_lines_after_its_own(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    """b merges a's first push under its own line (b1, a1); a, holding a1 + a2, then
    merges that: its log is no byte prefix of the union (b1 comes before a1) but each
    parent's log is a subsequence of it — a legitimate merge, not an edited log."""
    _, (a, b) = network(memory_repo, tmp_path, clones=2)
    landed(b)
    remember_many(a, "a1", 1)
    landed(a)
    remember_many(b, "b1", 1)
    landed(b)
    remember_many(a, "a2", 1)
    done = sync(a)
    assert done.returncode == 0, done.stderr
    landed(b)
    assert_converged([a, b], 3 * 2)


def test_the_server_refuses_a_bad_push_made_with_no_verify(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    bare, clones = network(memory_repo, tmp_path, clones=2)
    remember_many(clones[1], "b", 1)
    landed(clones[1])
    log = next((clones[1] / "memory" / "facts").rglob("*.jsonl"))
    log.write_text(log.read_text().replace('"0"', '"zero"'))
    git(clones[1], *HOOKS_OFF, "commit", "-q", "-am", "rewrite history")
    before = git(bare, "rev-parse", "main").stdout.strip()
    pushed = git(clones[1], "push", "--no-verify", "origin", "main", check=False)
    assert pushed.returncode != 0
    assert "memrepo verify refused the push" in pushed.stderr and "To fix:" in pushed.stderr
    assert git(bare, "rev-parse", "main").stdout.strip() == before
    refused = sync(clones[1])
    assert refused.returncode == 1 and "refused the push" in refused.stderr
    assert "gave up pushing" not in refused.stderr  # a refusal, never retried as a race
    # the server's refusal as the lines it wrote, never one line of \u000a (issue 21)
    said = [line for line in refused.stderr.splitlines() if line.startswith("  remote: ")]
    assert "\\u000a" not in refused.stderr and len(said) > 1, refused.stderr
    assert any("memrepo verify refused the push" in line for line in said), said
    deleted = git(clones[1], "push", "origin", ":main", check=False)
    assert deleted.returncode != 0 and "deleting a memory branch" in deleted.stderr


def commit_note(clone: Path, body: str, message: str) -> None:
    path = clone / NOTE
    path.write_bytes(note("entities", "acme-supplies", "Ordering profile: minimum "
                          "quantities, lead times, packaging constraints", body))
    assert memrepo(clone, "index").returncode == 0
    git(clone, "add", "-A")
    committed = git(clone, "commit", "-q", "-m", message, check=False)
    assert committed.returncode == 0, committed.stdout + committed.stderr


def test_a_note_edited_differently_on_two_clones_is_refused_nothing_lost(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    _, (a, b) = network(memory_repo, tmp_path, clones=2)
    commit_note(a, "Lead time: 2 weeks.\n", "acme note")
    landed(a, b)
    commit_note(a, "Lead time: 3 weeks.\n", "acme: 3 weeks")
    landed(a)
    commit_note(b, "Lead time: 10 days.\n", "acme: 10 days")
    mine = head(b)
    done = sync(b)
    assert done.returncode == 1
    assert f"{NOTE}: changed differently here and on the remote" in done.stderr
    assert "To fix:" in done.stderr and "nothing was lost" in done.stderr
    assert head(b) == mine and git(b, "status", "--porcelain").stdout == ""
    assert not (b / ".git" / "MERGE_HEAD").exists()
    theirs = git(b, "rev-parse", "origin/main").stdout.strip()
    assert "3 weeks" in git(b, "show", f"{theirs}:{NOTE}").stdout
    assert "10 days" in (b / NOTE).read_text()
    # resolving by hand as the message says, then syncing again
    assert git(b, "merge", theirs, check=False).returncode != 0
    commit_note(b, "Lead time: 10 days (3 weeks in peak season).\n", "merge acme")
    landed(b, a)
    assert head(a) == head(b) and memrepo(a, "verify").returncode == 0


def test_notes_added_on_both_sides_merge_their_indexes(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    _, (a, b) = network(memory_repo, tmp_path, clones=2)
    landed(b)
    commit_note(a, "From clone a.\n", "acme note")
    (b / "memory/entities/jan-novak.md").write_bytes(note(
        "entities", "jan-novak", "Accountant at Acme; invoices, VAT questions"))
    assert memrepo(b, "index").returncode == 0
    git(b, "add", "-A")
    git(b, "commit", "-q", "-m", "jan note")
    landed(a)
    done = sync(b)
    assert done.returncode == 0, done.stderr
    index = (b / "memory/entities/INDEX.md").read_text()
    assert "entries: 2" in index and "acme-supplies" in index and "jan-novak" in index
    assert memrepo(b, "verify").returncode == 0


def test_bad_commits_coming_in_are_never_merged(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    _, (a, b) = network(memory_repo, tmp_path, clones=2, pre_receive=False)
    remember_many(a, "a", 1)
    landed(a, b)
    log = next((a / "memory" / "facts").rglob("*.jsonl"))
    log.write_text(log.read_text().replace('"0"', '"zero"'))
    git(a, *HOOKS_OFF, "commit", "-q", "-am", "rewrite history")
    git(a, "push", "-q", "--no-verify", "origin", "main")
    remember_many(b, "b", 1)
    mine = head(b)
    done = sync(b)
    assert done.returncode == 1
    assert "fails the checks; nothing was merged" in done.stderr
    assert "committed lines were edited" in done.stderr and "To fix:" in done.stderr
    assert head(b) == mine and git(b, "status", "--porcelain").stdout == ""


def test_a_merge_the_checks_refuse_is_undone_past_the_reference_transaction_hook(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    """Each side's commit passes, their union merge does not (one id twice): sync undoes its
    merge with `git reset --hard`, which drops lines the merge brought — sync checks its
    merge itself, so the reference-transaction hook lets its commands through."""
    _, (a, b) = network(memory_repo, tmp_path, clones=2, pre_receive=False)
    landed(b)  # installs b's hooks
    stamp = now_stamp()
    for clone, value in ((a, "1"), (b, "2")):
        append_events(clone, segment(stamp), [event("twice", stamp, object=value)])
        git(clone, "add", "-A")
        assert commit(clone, f"value {value}").returncode == 0
    landed(a)
    mine = head(b)
    done = sync(b)
    assert done.returncode == 1, done.stderr
    assert "fails the checks; the merge was undone" in done.stderr
    assert "id twice already exists" in done.stderr
    assert head(b) == mine and git(b, "status", "--porcelain").stdout == ""


def test_a_commit_dated_in_the_future_is_never_merged_nor_pushed(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    """Once HEAD, a commit dated 2099 would make every later write 'back-dated' on every
    clone it reaches: its own clone's hook and sync refuse it while it can be dated again;
    a clone that gets it anyway (pushed past both) refuses to merge it; the server's hook
    refuses its push."""
    bare, (a, b) = network(memory_repo, tmp_path, clones=2, pre_receive=False)
    future = {**os.environ, "GIT_COMMITTER_DATE": "2099-01-01T00:00:00Z"}
    write(a, "memory/entities/acme.md", note("entities", "acme", "A supplier of boxes"))
    assert memrepo(a, "index").returncode == 0
    git(a, "add", "-A")
    hooked = git(a, "commit", "-q", "-m", "from a clone whose clock is wrong", env=future,
                 check=False)
    assert hooked.returncode == 1 and "this commit: is dated 2099-01-01T00:00:00Z" in \
        hooked.stderr and "unset GIT_COMMITTER_DATE" in hooked.stderr
    for written in ("Thu, 01 Jan 2099 00:00:00 +0000", "2099-01-01 00:00:00 +0200",
                    "@4070908800 +0000"):
        again = git(a, "commit", "-q", "-m", "x", check=False,
                    env={**os.environ, "GIT_COMMITTER_DATE": written})
        assert again.returncode == 1 and "this commit: is dated 209" in again.stderr, written
    git(a, *HOOKS_OFF, "commit", "-q", "-m", "past the hook", env=future)
    own = sync(a)
    assert own.returncode == 1 and "nothing was pushed" in own.stderr
    assert "is dated 2099-01-01T00:00:00Z, after this machine's clock" in own.stderr
    git(a, "push", "-q", "--no-verify", "origin", "main")
    mine = head(b)
    done = sync(b)
    assert done.returncode == 1 and "is dated 2099-01-01T00:00:00Z" in done.stderr
    assert head(b) == mine
    install(bare)
    git(a, *HOOKS_OFF, "commit", "-q", "--allow-empty", "-m", "again",
        env={**os.environ, "GIT_COMMITTER_DATE": "2099-01-02T00:00:00Z"})
    assert git(a, "push", "-q", "origin", "main", check=False).returncode != 0
    assert memrepo(b, "remember", "--scope", "michal", "car", "colour", "red").returncode == 0


def test_a_push_race_is_retried(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    _, (a, b) = network(memory_repo, tmp_path, clones=2)
    landed(b)
    remember_many(a, "a", 2)
    remember_many(b, "b", 2)
    marker = tmp_path / "raced"
    hook = a / ".git" / "hooks" / "pre-push"
    hook.write_text(f"#!/bin/sh\n[ -e {marker} ] && exit 0\ntouch {marker}\n"
                    f"env -u GIT_DIR -u GIT_INDEX_FILE git -C {b} push -q origin main\n")
    hook.chmod(0o755)
    done = sync(a, "--json")
    assert done.returncode == 0, done.stderr
    assert marker.exists() and json.loads(done.stdout)["attempts"] == 2
    landed(b)
    assert_converged([a, b], 2 * 3)


def test_a_lost_race_leaves_one_merge_not_one_per_attempt(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    """a merges c's push, then loses the race to b (whose sync lands while a pushes): a
    takes its unpushed merge back and merges again, so its sync adds one merge commit."""
    _, (a, b, c) = network(memory_repo, tmp_path, clones=3)
    for clone in (b, c):
        landed(clone)
    for clone, label in ((a, "a"), (b, "b"), (c, "c")):
        remember_many(clone, label, 1)
    landed(c)
    marker = tmp_path / "raced"
    hook = a / ".git" / "hooks" / "pre-push"
    hook.write_text(f"#!/bin/sh\n[ -e {marker} ] && exit 0\ntouch {marker}\n"
                    f"env -u GIT_DIR -u GIT_INDEX_FILE {sys.executable} -m memrepo --repo {b} "
                    "sync >/dev/null 2>&1\n")
    hook.chmod(0o755)
    before = head(a)
    done = sync(a, "--json")
    assert done.returncode == 0, done.stderr
    assert marker.exists() and json.loads(done.stdout)["attempts"] == 2
    merges = git(a, "rev-list", "--merges", f"{before}..HEAD").stdout.split()
    assert len(merges) == 2  # b's merge of c's push, and a's one merge
    sync_rounds([b, c], rounds=1)
    assert_converged([a, b, c], 3 * 2)


def test_a_syncs_merges_start_no_cache_refresh_of_their_own(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    """Sync refreshes the cache once, when it is done: the post-merge hook of each merge
    (one per lost race) starts no Python, and the cache still follows HEAD."""
    _, (a, b) = network(memory_repo, tmp_path, clones=2)
    landed(b)
    log, wrapper = tmp_path / "hooks-run.log", tmp_path / "python"
    wrapper.write_text(f'#!/bin/sh\necho "$5" >> {log}\nexec {sys.executable} "$@"\n')
    wrapper.chmod(0o755)
    install_hooks(a, python=str(wrapper))
    remember_many(a, "a", 1)
    remember_many(b, "b", 1)
    landed(b)
    done = sync(a, "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["incoming"] > 0, done.stderr
    assert "post-merge" not in (log.read_text() if log.exists() else "")
    landed(b)
    assert_converged([a, b], 2 * 2)


def test_refusals_before_anything_happens(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    done = sync(memory_repo, "nowhere")
    assert done.returncode == 1 and "nowhere: no such git remote" in done.stderr
    _, (a, _b) = network(memory_repo, tmp_path, clones=2)
    (a / "memory/TRIGGERS.md").write_text("edited\n")
    done = sync(a)
    assert done.returncode == 1 and "uncommitted changes" in done.stderr


@pytest.mark.long
def test_three_clones_syncing_while_appending_converge(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    _, clones = network(memory_repo, tmp_path)
    sync_rounds(clones[1:], rounds=1)

    def work(clone: Path, label: str) -> None:
        for round_number in range(5):
            remember_many(clone, f"{label}r{round_number}", 10)
            done = sync(clone)  # lost races are retried while the others land
            assert done.returncode == 0, done.stderr

    with ThreadPoolExecutor(max_workers=3) as pool:
        for future in [pool.submit(work, clone, f"c{n}") for n, clone in enumerate(clones)]:
            future.result()
    sync_rounds(clones)
    assert_converged(clones, 3 * 5 * 11)


def merge_change(old: bytes, new: bytes, merge: bool) -> object:
    from memrepo.core.record_base import replace
    from tests.support import CONFIG, dict_change

    log = "memory/facts/michal/2026-05.jsonl"
    change = dict_change({"memory/config.yaml": CONFIG, log: old},
                         {"memory/config.yaml": CONFIG, log: new}, parent_time=None)
    return replace(change, merge=merge)


@pytest.mark.parametrize("first_parent", ["mine", "theirs"])
def test_fact_logs_accept_an_interleaving_merge_and_nothing_else(first_parent: str) -> None:
    from memrepo.checks.runner import run_checks
    from tests.support import event, lines

    base, mine, theirs = (event(f"e{n}", object=str(n)) for n in (1, 2, 3))
    merged = lines(base, theirs, mine) if first_parent == "mine" else lines(base, mine, theirs)
    parent = lines(base, mine) if first_parent == "mine" else lines(base, theirs)
    assert run_checks(merge_change(parent, merged, True), "all") == []  # type: ignore[arg-type]
    refused = run_checks(merge_change(parent, merged, False), "all")  # type: ignore[arg-type]
    assert any("committed lines were edited" in p.problem for p in refused)
    dropped = lines(theirs, mine) if first_parent == "mine" else lines(mine, theirs)
    refused = run_checks(merge_change(parent, dropped, True), "all")  # type: ignore[arg-type]
    assert any("committed lines were edited" in p.problem for p in refused)
    bad = merged.replace(b'"e3"', b'"e1"') if first_parent == "mine" else merged + b"{}\n"
    refused = run_checks(merge_change(parent, bad, True), "all")  # type: ignore[arg-type]
    assert refused and all("To fix" in p.render() for p in refused)


# --- nothing from the remote is trusted before it is checked (issue 10 #3, B2) ---------------

def test_sync_refuses_to_follow_a_remote_that_dropped_fetched_commits(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    bare, (first, other) = network(memory_repo, tmp_path, clones=2)
    rewound = head(first)
    remember_many(first, "a", 3)
    landed(first, other)
    full = head(other)
    git(bare, "update-ref", "refs/heads/main", rewound)  # what no hook can stop
    followed = sync(other)
    assert followed.returncode == 1
    assert "no longer contains" in followed.stderr and "fetched from it before" in followed.stderr
    assert "To fix:" in followed.stderr
    assert head(other) == full == git(other, "rev-parse", "origin/main").stdout.strip()
    assert sync(other).returncode == 1  # it keeps refusing: nothing was forgotten
    git(bare, "update-ref", "refs/heads/main", full)  # restored by the admin
    landed(other)


def test_incoming_commits_are_checked_before_anything_is_merged(
        memory_repo: Path, tmp_path: Path, network: Network) -> None:
    """A peer's unapproved hook configuration must never reach the work tree: a merge
    checks files out and runs hooks (it would run the peer's command)."""
    _bare, (first, other) = network(memory_repo, tmp_path, clones=2, pre_receive=False)
    marker = tmp_path / "pwned"
    config = other / ".pre-commit-config.yaml"
    config.write_text(config.read_text(encoding="utf-8") + (
        "      - id: cache-warmup\n        name: memrepo cache warmup\n"
        f"        entry: sh -c 'touch {marker}; true'\n        language: system\n"
        "        stages: [commit-msg, pre-merge-commit, post-merge]\n"
        "        pass_filenames: false\n        always_run: true\n"), encoding="utf-8")
    git(other, *HOOKS_OFF, "commit", "-q", "-am", "cache warmup")
    git(other, "push", "-q", "--no-verify", "origin", "main")
    remember_many(first, "local", 1)
    before = head(first)
    synced = sync(first)
    assert synced.returncode == 1 and "nothing was merged" in synced.stderr
    assert ".pre-commit-config.yaml" in synced.stderr and "Approved-by" in synced.stderr
    assert not marker.exists() and head(first) == before
    assert "cache-warmup" not in (first / ".pre-commit-config.yaml").read_text()
