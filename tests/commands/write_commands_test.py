"""`memrepo remember / forget / retract` from the command line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from memrepo.bench import worked_example as example
from memrepo.cli import main
from memrepo.core.facts.bitemporal import recall
from memrepo.core.facts.times import parse_instant
from memrepo.facts.segments import read_key
from tests.support import WRITER_IDENTITY, commit_count, git, make_repo, status


@pytest.fixture()
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_repo(tmp_path / "repo", monkeypatch)
    monkeypatch.chdir(root)
    return root


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, str | None]:
    assert main([*argv, "--json"]) == 0
    result: dict[str, str | None] = json.loads(capsys.readouterr().out)
    return result


def test_remember_json_and_plain_output(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "remember", "--scope", "michal", "car", "colour", "red")
    assert result["status"] == "added" and result["commit"] == git(repo, "rev-parse",
                                                                   "HEAD").stdout.strip()
    assert main(["remember", "--scope", "michal", "car", "colour", "red"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("unchanged: car.colour = red") and out.count("\n") == 1
    assert status(repo) == ""


def test_forget_and_retract_commands(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_json(capsys, "remember", "--scope", "michal", "car", "colour", "red",
             "--valid-from", "2026-01-01")
    ended = run_json(capsys, "forget", "--scope", "michal", "car", "colour",
                     "--reason", "sold", "--valid-to", "2026-02-01")
    assert ended["status"] == "added" and ended["id"]
    retracted = run_json(capsys, "retract", "--scope", "michal", str(ended["id"]),
                         "--reason", "not sold after all")
    assert retracted["status"] == "added"
    assert commit_count(repo) == 4
    assert main(["forget", "--scope", "michal", "shoe", "size", "--reason", "x"]) == 1
    assert "nothing to forget" in capsys.readouterr().err


def test_repo_is_found_from_the_flag_the_environment_or_the_working_directory(
        repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (repo / "memory" / "sub").mkdir()
    monkeypatch.chdir(repo / "memory" / "sub")
    assert run_json(capsys, "remember", "--scope", "a", "x", "y", "1")["status"] == "added"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert main(["remember", "--scope", "a", "x", "y", "2"]) == 1
    assert "not inside a git repository" in capsys.readouterr().err
    assert run_json(capsys, "--repo", str(repo), "remember", "--scope", "a", "x", "y",
                    "3")["status"] == "added"
    monkeypatch.setenv("MEMREPO_REPO", str(repo))
    assert run_json(capsys, "remember", "--scope", "a", "x", "y", "4")["status"] == "added"
    assert commit_count(repo) == 4


def cli(root: Path, *argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["memrepo", *argv], cwd=root, capture_output=True, text=True,
                          env={**os.environ, **env}, check=False)


def test_a_bad_time_exits_1_with_a_short_message_and_no_traceback(repo: Path) -> None:
    done = cli(repo, "remember", "--scope", "michal", "car", "colour", "red",
               "--valid-from", "last tuesday")
    assert done.returncode == 1 and done.stdout == ""
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 2
    assert done.stderr.startswith("memrepo remember: --valid-from: 'last tuesday'")
    assert not (repo / "memory" / "facts").exists() and commit_count(repo) == 1


def test_without_a_git_identity_nothing_is_written(repo: Path, tmp_path: Path) -> None:
    env = {key: "" for key in WRITER_IDENTITY} | {"HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1",
                                           "XDG_CONFIG_HOME": str(tmp_path)}
    done = cli(repo, "remember", "--scope", "michal", "car", "colour", "red", **env)
    assert done.returncode == 1 and "git config user.name" in done.stderr
    assert not (repo / "memory" / "facts" / "michal").exists()
    assert commit_count(repo) == 1


def test_the_worked_example_through_the_cli_gives_the_spec_answers(
        repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        ) -> None:
    ids: dict[str, str] = {}
    for step in example.STEPS:
        monkeypatch.setenv("MEMREPO_NOW", step.recorded_on)
        common = ["--scope", example.SCOPE]
        if step.op == "assert":
            argv = ["remember", *common, example.SUBJECT, example.RELATION, str(step.object),
                    "--valid-from", str(step.valid), "--source", "conversation",
                    "--quote", str(step.quote), "--session", step.session]
        elif step.op == "end":
            argv = ["forget", *common, example.SUBJECT, example.RELATION,
                    "--reason", str(step.reason), "--valid-to", str(step.valid)]
        else:
            argv = ["retract", *common, ids[str(step.target)], "--reason", str(step.reason)]
        result = run_json(capsys, *argv)
        assert result["status"] == "added", step
        ids[step.name] = str(result["id"])
    assert commit_count(repo) == 8 and status(repo) == ""
    assert sorted(p.name for p in (repo / "memory/facts/michal").iterdir()) == \
        ["2026-01.jsonl", "2026-03.jsonl", "2026-07.jsonl", "2026-08.jsonl", "2026-10.jsonl"]
    events = read_key(repo, example.SCOPE, example.SUBJECT, example.RELATION)
    for t, known_at, expected in example.ANSWERS_BEFORE_FORGET + example.ANSWERS_AFTER_RETRACT:
        got = [h.object for h in recall(events, parse_instant(t), parse_instant(known_at),
                                        many=False)]
        assert got == ([] if expected is None else [expected]), (t, known_at)
    assert read_key(repo, example.SCOPE, "shoe", "size") == []


def test_write_commands_refuse_a_repository_that_is_not_a_memory(
        tmp_path: Path, git_env: dict[str, str]) -> None:
    """In a plain git repository nothing creates memory/ or commits: CLI, batch, MCP."""
    plain = tmp_path / "plain"
    plain.mkdir()
    git(plain, "init", "-q", "-b", "main")
    git(plain, "commit", "-q", "--allow-empty", "-m", "code")
    base = [sys.executable, "-m", "memrepo", "--repo", str(plain)]
    attempts = [
        subprocess.run([*base, "remember", "--scope", "michal", "a", "b", "c"],
                       capture_output=True, text=True, check=False),
        subprocess.run([*base, "remember", "--scope", "michal", "--batch", "-"],
                       input='{"subject": "a", "relation": "b", "object": "c"}\n',
                       capture_output=True, text=True, check=False),
    ]
    for done in attempts:
        assert done.returncode == 1 and "memrepo init" in done.stderr, done.stderr
    params = StdioServerParameters(command=sys.executable, env=git_env, cwd=str(plain),
                                   args=[*base[1:], "serve", "--scope", "michal",
                                         "--session", "s", "--trust", "host"])
    answer = anyio.run(_remember_over_mcp, params)
    assert "memrepo init" in answer and '"added"' not in answer
    assert commit_count(plain) == 1 and not (plain / "memory").exists()


async def _remember_over_mcp(params: StdioServerParameters) -> str:
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        result = await session.call_tool("remember", {"subject": "a", "relation": "b",
                                                      "object": "c", "quote": "a b c"})
        return str(result.content)
