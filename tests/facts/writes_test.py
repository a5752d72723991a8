"""The fact write path (memrepo.facts.writes) on real git repositories."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from memrepo.core.facts.events import millis_of
from memrepo.core.problems import InputError
from memrepo.core.trailers import trailer_values
from memrepo.facts import writes as store
from memrepo.facts.segments import read_key, read_scope
from tests.support import commit_count, git, make_repo, memrepo_at, set_identity, status


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return make_repo(tmp_path / "repo", monkeypatch)


def lines(root: Path, scope: str = "michal") -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for path in sorted((root / "memory" / "facts" / scope).glob("*.jsonl")):
        out.extend(json.loads(line) for line in path.read_text("utf-8").splitlines())
    return out


def remember(root: Path, obj: str = "210 zł", **kw: object) -> store.WriteResult:
    args: dict[str, object] = {"scope": "michal", "subject": "electricity_bill",
                               "relation": "amount", "object": obj, **kw}
    return store.remember(root, **args)  # type: ignore[arg-type]


def test_remember_appends_commits_with_trailers_and_leaves_status_clean(repo: Path) -> None:
    (repo / "mine.txt").write_text("user's work\n")
    git(repo, "add", "mine.txt")
    result = remember(repo, valid_from="2026-01-10", source="chat", quote="it is 210 zł",
                      session="s-1")
    assert result.status == "added"
    assert result.commit == git(repo, "rev-parse", "HEAD").stdout.strip()
    [event] = lines(repo)
    assert event["id"] == result.id and event["object"] == "210 zł"
    assert event["valid_from"] == "2026-01-10" and event["quote"] == "it is 210 zł"
    message = git(repo, "log", "-1", "--format=%B").stdout
    assert message.startswith("remember: michal electricity_bill.amount = 210 zł")
    assert trailer_values(message, "Session") == ["s-1"]
    assert trailer_values(message, "Source") == ["chat"]
    assert trailer_values(message, "Trust") == ["host"]
    changed = git(repo, "show", "--name-only", "--format=", "HEAD").stdout.split()
    assert changed == [event_path(repo)]
    assert status(repo) == "A  mine.txt\n"  # still staged, not committed


def event_path(repo: Path) -> str:
    [path] = (repo / "memory" / "facts" / "michal").glob("*.jsonl")
    return path.relative_to(repo).as_posix()


def test_commit_rewrites_only_the_trees_along_the_path(repo: Path) -> None:
    (repo / "memory" / "entities").mkdir()
    (repo / "memory" / "entities" / "a.md").write_text("a\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "entity")
    before = git(repo, "rev-parse", "HEAD:memory/entities").stdout.strip()
    remember(repo)
    assert git(repo, "rev-parse", "HEAD:memory/entities").stdout.strip() == before
    assert git(repo, "rev-parse", "HEAD:memory/config.yaml").stdout == \
        git(repo, "rev-parse", "HEAD~1:memory/config.yaml").stdout


def test_the_value_that_already_holds_writes_nothing(repo: Path) -> None:
    first = remember(repo, valid_from="2026-01-10")
    commits, content = commit_count(repo), lines(repo)
    again = remember(repo, valid_from="2026-01-10")
    later = remember(repo, valid_from="2026-02-01")  # still the same continuous value
    held = store.WriteResult("unchanged", first.id, None, key=("electricity_bill", "amount"),
                             object="210 zł")
    assert again == held and later == held
    assert commit_count(repo) == commits and lines(repo) == content
    assert remember(repo, "280 zł", valid_from="2026-03-01").status == "added"


def test_a_value_with_its_own_end_is_extended_by_an_open_remember(repo: Path) -> None:
    remember(repo, valid_from="2026-01-10", valid_to="2026-02-01")
    assert remember(repo, valid_from="2026-01-20").status == "added"


def test_forget_appends_an_end(repo: Path) -> None:
    remember(repo, valid_from="2026-01-10")
    result = store.forget(repo, scope="michal", subject="electricity_bill",
                          relation="amount", reason="moved out", valid_to="2026-10-01")
    assert result.status == "added"
    end = lines(repo)[-1]
    assert end["op"] == "end" and end["valid_to"] == "2026-10-01"
    assert end["reason"] == "moved out"
    assert git(repo, "log", "-1", "--format=%s").stdout.startswith("forget: michal")
    again = store.forget(repo, scope="michal", subject="electricity_bill",
                         relation="amount", reason="moved out", valid_to="2026-10-01")
    assert again == store.WriteResult("unchanged", None, None, key=("electricity_bill", "amount"))


def test_forget_of_a_key_never_recorded_is_refused(repo: Path) -> None:
    with pytest.raises(InputError, match="nothing to forget"):
        store.forget(repo, scope="michal", subject="shoe", relation="size", reason="x")
    assert not (repo / "memory" / "facts").exists()


def test_many_valued_forget_needs_the_object(repo: Path) -> None:
    for food in ("pierogi", "bigos"):
        store.remember(repo, scope="michal", subject="michal", relation="likes",
                       object=food, valid_from="2026-01-01")
    assert len(read_key(repo, "michal", "michal", "likes")) == 2
    with pytest.raises(InputError, match="--object"):
        store.forget(repo, scope="michal", subject="michal", relation="likes", reason="x")
    result = store.forget(repo, scope="michal", subject="michal", relation="likes",
                          reason="went off it", object="bigos", valid_to="2026-02-01")
    assert result.status == "added" and lines(repo)[-1]["object"] == "bigos"


def test_retract_of_an_end_and_of_an_assert(repo: Path) -> None:
    value = remember(repo, valid_from="2026-01-10")
    end = store.forget(repo, scope="michal", subject="electricity_bill", relation="amount",
                       reason="oops", valid_to="2026-03-01")
    assert end.id is not None and value.id is not None
    retracted_end = store.retract(repo, scope="michal", target=end.id, reason="never moved")
    assert retracted_end.status == "added"
    assert lines(repo)[-1] == {**lines(repo)[-1], "op": "retract", "target": end.id}
    assert store.retract(repo, scope="michal", target=value.id, reason="wrong").status == "added"
    again = store.retract(repo, scope="michal", target=value.id, reason="wrong")
    assert again.status == "unchanged" and again.commit is None


def test_retract_of_an_unknown_id_or_of_a_retract_is_refused(repo: Path) -> None:
    value = remember(repo)
    assert value.id is not None
    with pytest.raises(InputError, match="no event with id"):
        store.retract(repo, scope="michal", target="01ARZ3NDEKTSV4RRFFQ69G5FAV", reason="x")
    retraction = store.retract(repo, scope="michal", target=value.id, reason="wrong")
    assert retraction.id is not None
    with pytest.raises(InputError, match="cannot be retracted"):
        store.retract(repo, scope="michal", target=retraction.id, reason="x")


def test_untrusted_writes_go_to_quarantine_with_low_confidence(repo: Path) -> None:
    result = remember(repo, trust="untrusted", source="chat", quote="210 zł", confidence=0.9)
    assert result.status == "added"
    [event] = lines(repo, "quarantine-michal")
    assert event["confidence"] == 0.3 and event["trust"] == "untrusted"
    assert event["scope"] == "quarantine-michal"
    assert not (repo / "memory" / "facts" / "michal").exists()
    assert trailer_values(git(repo, "log", "-1", "--format=%B").stdout, "Trust") == ["untrusted"]


@pytest.mark.parametrize("kwargs, message", [
    ({"source": "chat"}, "verbatim"),
    ({"confidence": 1.5}, "between 0 and 1"),
    ({"valid_from": "2026-13-01"}, "calendar"),
    ({"valid_from": "yesterday"}, "not a date"),
    ({"valid_from": "2026-03-01", "valid_to": "2026-02-01"}, "after valid_from"),
    ({"trust": "root"}, "trust"),
    ({"object": "red\x1b[31m"}, r"object contains a control character \(U\+001B\)"),
    ({"object": "a\u202eb"}, r"\(U\+202E\)"),
    ({"subject": "two\nlines"}, r"subject contains a control character \(U\+000A\)"),
    ({"object": "A" * 60_000}, r"^electricity_bill\.amount: object is longer than 10000 "
                               r"characters \(60000\)"),
])
def test_bad_input_is_refused_and_writes_nothing(repo: Path, kwargs: dict[str, object],
                                                 message: str) -> None:
    remember(repo, "100 zł", valid_from="2025-12-01")
    before, commits = lines(repo), commit_count(repo)
    with pytest.raises(InputError, match=message):
        remember(repo, **kwargs)
    assert lines(repo) == before and commit_count(repo) == commits


def test_a_quote_keeps_its_newlines(repo: Path) -> None:
    assert remember(repo, source="chat", quote="line one\n\tline two").status == "added"
    assert lines(repo)[-1]["quote"] == "line one\n\tline two"


def test_untrusted_forget_and_retract_reach_only_the_quarantine(repo: Path) -> None:
    host = remember(repo)
    with pytest.raises(InputError, match="nothing to forget"):
        store.forget(repo, scope="michal", subject="electricity_bill", relation="amount",
                     reason="spam", trust="untrusted")
    with pytest.raises(InputError, match="no event with id"):
        store.retract(repo, scope="michal", target=host.id or "", reason="x",
                      trust="untrusted")
    planted = remember(repo, trust="untrusted", source="chat", quote="210 zł")
    ended = store.forget(repo, scope="michal", subject="electricity_bill", relation="amount",
                         reason="spam", trust="untrusted")
    assert ended.status == "added"
    assert trailer_values(git(repo, "log", "-1", "--format=%B").stdout, "Trust") == ["untrusted"]
    withdrawn = store.retract(repo, scope="michal", target=planted.id or "", reason="spam",
                              trust="untrusted")
    assert withdrawn.status == "added"
    assert [e["op"] for e in lines(repo, "quarantine-michal")] == ["assert", "end", "retract"]
    assert [e["op"] for e in lines(repo)] == ["assert"]


def test_a_secret_is_refused_before_anything_is_appended(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def appended(*_: object) -> str:
        raise AssertionError("the write path reached the append")

    monkeypatch.setattr(store, "append_and_commit", appended)
    with pytest.raises(InputError, match=r"\(a password\)") as refused:
        remember(repo, "password: Hunter2Secret")
    assert "Hunter2Secret" not in str(refused.value)
    assert not (repo / "memory" / "facts").exists()


def test_memrepo_now_pins_recorded_at_segment_id_and_commit_time(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_NOW", "2026-03-05T10:00:00Z")
    result = remember(repo)
    [event] = lines(repo)
    assert event["recorded_at"] == "2026-03-05T10:00:00Z"
    assert event["valid_from"] == "2026-03-05T10:00:00Z"  # valid_from defaults to now
    assert (repo / "memory/facts/michal/2026-03.jsonl").is_file()
    assert result.id is not None and millis_of(result.id) == 1772704800000
    assert git(repo, "log", "-1", "--format=%ct").stdout.strip() == "1772704800"


def test_writes_in_one_pinned_millisecond_keep_their_order(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_NOW", "2026-03-05T10:00:00Z")
    ids = [remember(repo, f"{n} zł", valid_from="2026-03-01").id for n in range(5)]
    assert ids == sorted(ids) and len(set(ids)) == 5
    from memrepo.core.facts.bitemporal import recall
    from memrepo.core.facts.times import parse_instant
    events = read_scope(repo, "michal")
    now = parse_instant("2026-03-05T10:00:00Z")
    assert [h.object for h in recall(events, now, now, False)] == ["4 zł"]


def test_a_partial_last_line_is_refused(repo: Path) -> None:
    remember(repo)
    path = repo / event_path(repo)
    path.write_bytes(path.read_bytes() + b'{"id": "cut')
    before = path.read_bytes()
    with pytest.raises(InputError, match="doctor --repair"):
        remember(repo, "280 zł")
    assert path.read_bytes() == before


def test_complete_lines_left_by_a_crash_are_committed_too(repo: Path) -> None:
    remember(repo, valid_from="2026-01-10")
    path = repo / event_path(repo)
    committed = path.read_bytes()
    remember(repo, "280 zł", valid_from="2026-03-01")
    leftover = path.read_bytes()[len(committed):]
    git(repo, "reset", "-q", "--soft", "HEAD~1")  # as if the commit had never happened
    git(repo, "reset", "-q", "--", event_path(repo))
    result = remember(repo, "300 zł", valid_from="2026-05-01")
    shown = git(repo, "show", f"HEAD:{event_path(repo)}").stdout.encode()
    assert shown.startswith(committed + leftover) and result.id in shown.decode()
    assert status(repo) == ""


def test_a_log_whose_committed_lines_were_edited_is_refused(repo: Path) -> None:
    remember(repo)
    path = repo / event_path(repo)
    edited = path.read_bytes().replace(b"210", b"999")
    path.write_bytes(edited)
    with pytest.raises(InputError, match="git checkout"):
        remember(repo, "280 zł")
    assert path.read_bytes() == edited


def test_a_log_behind_head_gets_its_committed_tail_back(repo: Path) -> None:
    """A kill after the commit, before the working file was appended, leaves the file a
    prefix of HEAD's log: the next write appends what is missing, then its own line."""
    remember(repo)
    path = repo / event_path(repo)
    committed = path.read_bytes()
    path.write_bytes(b"")
    result = remember(repo, "280 zł")
    assert path.read_bytes().startswith(committed) and result.id in path.read_text()
    assert status(repo) == ""


def test_identity_from_git_config(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(key)
    git(repo, "config", "user.name", "Configured")
    git(repo, "config", "user.email", "c@example.com")
    remember(repo)
    assert (git(repo, "log", "-1", "--format=%an <%ae>").stdout.strip()
            == "Configured <c@example.com>")


def test_an_unborn_branch_gets_its_first_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_repo(tmp_path / "fresh", monkeypatch, commit=False)
    result = remember(root)
    assert result.status == "added" and commit_count(root) == 1
    assert git(root, "symbolic-ref", "HEAD").stdout.strip() == "refs/heads/main"


def test_a_held_lock_times_out_with_a_clear_message(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_LOCK_TIMEOUT", "0.1")
    with store.write_lock(repo), pytest.raises(InputError, match="lock"):
        remember(repo)
    assert remember(repo).status == "added"


def test_the_commit_checks_refuse_a_secret_and_leave_no_line_behind(repo: Path) -> None:
    remember(repo)
    path = repo / event_path(repo)
    before, commits = path.read_bytes(), commit_count(repo)
    with pytest.raises(InputError, match="API key"):
        remember(repo, "sk-ant-abcdefghijklmnopqrstuvwxyz0123")
    assert path.read_bytes() == before and commit_count(repo) == commits
    assert status(repo) == ""


def test_a_back_dated_event_is_refused_after_the_append_and_cut_back(
        repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MEMREPO_NOW", "2025-11-01")  # before the skeleton commit
    with pytest.raises(InputError, match="before the parent commit"):
        remember(repo)
    assert not (repo / "memory" / "facts").exists() and commit_count(repo) == 1


def test_a_repository_made_by_memrepo_init_verifies_after_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from memrepo.cli import main

    set_identity(monkeypatch)
    root = tmp_path / "fresh"
    assert main(["init", str(root)]) == 0
    first = remember(root, valid_from="2026-01-10")
    assert first.id is not None
    store.forget(root, scope="michal", subject="electricity_bill", relation="amount",
                 reason="moved out")
    store.retract(root, scope="michal", target=first.id, reason="wrong")
    assert status(root) == ""
    assert main(["--repo", str(root), "verify"]) == 0


def test_reading_one_key_equals_filtering_the_whole_scope(repo: Path) -> None:
    from memrepo.facts.segments import key_events, read_event, read_keys
    tricky = ['say "hi"', "back\\slash", "Łódź", "jan", "jan-novak"]
    for subject in tricky:
        first = remember(repo, subject=subject, valid_from="2026-01-10")
        assert first.id is not None
        store.retract(repo, scope="michal", target=first.id, reason="wrong")
        remember(repo, "280 zł", subject=subject, valid_from="2026-03-01")
    path = repo / event_path(repo)  # a hand-written line with \u escapes
    path.write_bytes(path.read_bytes() + json.dumps({**lines(repo)[-1], "id": "handmade-1",
                                                     "subject": "Łódź"}).encode() + b"\n")
    everything = read_scope(repo, "michal")
    for subject in tricky:
        expected = key_events(everything, subject, "amount")
        assert read_key(repo, "michal", subject, "amount") == expected
        assert read_keys(repo, "michal", [(subject, "amount")])[(subject, "amount")] == expected
    absent = [(f"nobody-{n}", "amount") for n in range(8)]  # > 8 keys: every line decoded
    many = read_keys(repo, "michal", [(s, "amount") for s in tricky] + absent)
    assert all(many[key] == [] for key in absent)
    assert all(many[(s, "amount")] == key_events(everything, s, "amount") for s in tricky)
    assert len(many[("Łódź", "amount")]) == 4
    target = everything[0].id
    assert read_event(repo, "michal", target) == [e for e in everything
                                                  if target in (e.id, e.target)]


def test_text_that_is_not_utf8_is_a_refusal_not_a_crash(memory_repo: Path) -> None:
    with pytest.raises(InputError, match="not valid UTF-8"):
        store.remember(memory_repo, scope="michal", subject="s", relation="r",
                       object="\udcff", source="manual")


# --- the write path's safety: interrupted writes, links, outside a memory ----------------


def test_a_retry_after_a_kill_commits_the_line_left_uncommitted(repo: Path) -> None:
    """A line in the working log that HEAD lacks (a version that appended before committing
    was killed in between) must not make a retry answer `unchanged` with nothing
    committed: the retry commits it."""
    remember(repo, "1000 zł")
    added = remember(repo, "1234 zł")
    git(repo, "reset", "-q", "--soft", "HEAD~1")  # the line appended, the commit never made
    git(repo, "reset", "-q")
    retry = remember(repo, "1234 zł")
    assert retry.status == "unchanged" and retry.id == added.id and retry.commit is not None
    assert added.id in git(repo, "show", f"HEAD:{event_path(repo)}").stdout
    assert status(repo) == ""


def test_nothing_is_written_through_a_symlinked_scope(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (repo / "memory" / "facts").mkdir(parents=True, exist_ok=True)
    (repo / "memory" / "facts" / "ext").symlink_to(outside, target_is_directory=True)
    commits = commit_count(repo)
    with pytest.raises(InputError, match="symbolic link"):
        store.remember(repo, scope="ext", subject="a", relation="b", object="c")
    assert list(outside.iterdir()) == [] and commit_count(repo) == commits


def test_a_repository_without_a_memory_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = make_repo(tmp_path / "plain", monkeypatch)
    git(root, "rm", "-q", "-r", "memory")
    git(root, "commit", "-q", "-m", "code only")
    with pytest.raises(InputError, match="memrepo init"):
        remember(root)
    assert not (root / "memory").exists() and commit_count(root) == 2


def test_the_index_follows_every_write_and_a_persons_staged_work_stays(repo: Path) -> None:
    (repo / "mine.txt").write_text("staged\n")
    git(repo, "add", "mine.txt")
    for number in range(3):
        remember(repo, f"{number} zł", valid_from=f"2026-0{number + 1}-01")
    assert git(repo, "diff", "--cached", "--name-only").stdout.split() == ["mine.txt"]
    assert git(repo, "diff", "--name-only").stdout == ""
    assert not (repo / ".memrepo" / "index-behind").exists()


def test_the_branch_moves_as_git_moves_it_loose_or_packed(repo: Path) -> None:
    first = remember(repo)
    git(repo, "pack-refs", "--all")  # the branch now only in packed-refs
    second = remember(repo, "230 zł")
    assert git(repo, "rev-parse", "HEAD").stdout.strip() == second.commit
    assert git(repo, "rev-parse", "HEAD~1").stdout.strip() == first.commit
    for log in ("HEAD", git(repo, "symbolic-ref", "HEAD").stdout.strip()):
        moves = git(repo, "reflog", "-2", "--format=%H %gs", log).stdout.splitlines()
        assert [m.split(" ", 1)[0] for m in moves] == [second.commit, first.commit]
        assert moves[0].split(" ", 1)[1].startswith("commit: remember: michal")
    assert git(repo, "fsck", "--no-dangling", check=False).returncode == 0
    assert not list((repo / ".git" / "refs" / "heads").glob("*.lock"))


def test_remember_in_a_linked_work_tree_commits_on_its_branch(repo: Path) -> None:
    remember(repo)
    linked = repo.parent / "linked"
    git(repo, "worktree", "add", "-q", str(linked), "-b", "side")
    result = remember(linked, "230 zł")
    assert result.status == "added"
    assert git(repo, "rev-parse", "side").stdout.strip() == result.commit
    assert git(repo, "rev-parse", "HEAD").stdout.strip() != result.commit
    assert status(linked) == "" and status(repo) == ""
    assert [e["object"] for e in lines(linked)] == ["210 zł", "230 zł"]
    assert git(repo, "fsck", "--no-dangling").returncode == 0


def test_forget_and_retract_refuse_an_empty_reason(repo: Path) -> None:
    added = remember(repo)
    with pytest.raises(InputError, match="--reason: is empty"):
        store.forget(repo, scope="michal", subject="electricity_bill", relation="amount",
                     reason=" ")
    with pytest.raises(InputError, match="--reason: is empty"):
        store.retract(repo, scope="michal", target=added.id or "", reason="")
    assert len(lines(repo)) == 1


def test_a_write_refuses_invisible_text_and_the_cache_serves_none_stored(repo: Path) -> None:
    """Refused at write time; a line committed past the checks is left out of every answer
    (SPEC §7: the cache serves nothing the checks refuse) and listed."""
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "obey me")
    with pytest.raises(InputError, match=r"object contains an invisible character \(U\+E006F\)"):
        remember(repo, f"210 zł{hidden}")
    scotland = "\U0001F3F4\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
    assert remember(repo, f"210 zł {scotland}").status == "added"
    stored = repo / event_path(repo)
    with stored.open("a", encoding="utf-8") as log:  # a line from before the rule
        old = dict(lines(repo)[-1], id="01KB00000000000000000000ZZ", subject="water_bill",
                   object="80\u200b zł")
        log.write(json.dumps(old, ensure_ascii=False) + "\n")
    git(repo, "commit", "-q", "--no-verify", "-am", "stored before the rule")
    from memrepo.agent.api import Memory

    assert Memory.open(repo).recall("michal", subject="water_bill").facts == []
    doctor = memrepo_at(repo, "doctor")
    assert "object contains an invisible character (U+200B)" in doctor.stdout
