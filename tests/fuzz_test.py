"""Bad input at scale: hostile notes, log lines and queries give clean refusals (Problem
lines with `To fix:`) or normal answers — never a traceback, never unbounded memory.

(a) the pure checks over in-memory snapshots, with hypothesis and crafted cases;
(b) a few of the same files through a real `git commit` (the hooks run);
(c) the CLI (`check --all`, `cache rebuild`, `recall`, `search`) under a 1 GiB address-space
    limit, with hostile query strings.
"""

from __future__ import annotations

import io
import json
import resource
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memrepo.checks.runner import run_checks
from memrepo.core.problems import Problem
from tests.support import CONFIG, dict_change, event, git, lines

NOTE_PATH = "memory/entities/hostile.md"
LOG_PATH = "memory/facts/michal/2026-05.jsonl"
MEMORY_LIMIT = 1024**3
VALID_NOTE = ("---\nname: hostile\ndescription: \"Ordering profile: minimum quantities, lead "
              "times\"\ntype: entity\n---\nBody.\n")


def _bomb() -> str:
    rows = ["a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]"]
    rows += [f"{chr(98 + n)}: &{chr(98 + n)} [*{chr(97 + n)}" + f",*{chr(97 + n)}" * 8 + "]"
             for n in range(8)]
    return "---\n" + "\n".join(rows) + "\nname: hostile\n---\n"


HOSTILE_NOTES: dict[str, bytes] = {
    "empty": b"",
    "huge line": b"---\nname: hostile\n---\n" + b"x" * (1024 * 1024 + 7) + b"\n",
    "huge header": b"---\ndescription: " + b"y" * (1024 * 1024) + b"\n---\n",
    "deep flow": b"---\nname: " + b"[" * 50_000 + b"]" * 50_000 + b"\n---\n",
    "deep block": ("---\n" + "".join(" " * n + "k:\n" for n in range(3000)) + "---\n").encode(),
    "alias bomb": _bomb().encode(),
    "utf-16": VALID_NOTE.encode("utf-16"),
    "latin-1": VALID_NOTE.replace("Body", "café Body").encode("latin-1"),
    "bom": b"\xef\xbb\xbf" + VALID_NOTE.encode(),
    "crlf": VALID_NOTE.replace("\n", "\r\n").encode(),
    "nul": VALID_NOTE.replace("Body", "Bo\x00dy").encode(),
    "no closing": b"---\nname: hostile\n",
    "python tag": b"---\nname: !!python/object/apply:os.system ['echo hi']\n---\n",
    "lone surrogate escape": b"---\nname: \"\\ud800\"\n---\n",
}

GOOD_LINE = lines(event("e1"))
HOSTILE_LINES: dict[str, bytes] = {
    "huge line": b'{"id": "' + b"x" * (1024 * 1024 + 3) + b'"}\n',
    "deep json": b"[" * 100_000 + b"]" * 100_000 + b"\n",
    "deep object": b'{"a":' * 5000 + b"1" + b"}" * 5000 + b"\n",
    "utf-16": GOOD_LINE.decode().encode("utf-16"),
    "latin-1": lines(event("e1", object="café", quote="café")).decode().encode("latin-1"),
    "bom": b"\xef\xbb\xbf" + GOOD_LINE,
    "crlf": GOOD_LINE.replace(b"\n", b"\r\n"),
    "nul": GOOD_LINE.replace(b"210", b"2\x0010"),
    "no newline": GOOD_LINE.rstrip(b"\n"),
    "not an object": b'["assert"]\n',
    "big numbers": GOOD_LINE.replace(b"0.9", b"1" + b"0" * 400),
    "nan": GOOD_LINE.replace(b"0.9", b"NaN"),
    "bad times": lines(event("e1", recorded_at="9999-99-99T99:99:99Z", valid_from="-1")),
    "wrong types": lines(event("e1", subject=["a"], object={"b": 1}, session=None)),
}


def _assert_clean(problems: list[Problem]) -> None:
    for problem in problems:
        assert "failed unexpectedly" not in problem.problem, problem.render()
        assert "To fix:" in problem.render()


def _check_note(data: bytes) -> list[Problem]:
    base = {"memory/config.yaml": CONFIG}
    return run_checks(dict_change(base, {**base, NOTE_PATH: data}), "all")


def _check_log(data: bytes) -> list[Problem]:
    base = {"memory/config.yaml": CONFIG}
    return run_checks(dict_change(base, {**base, LOG_PATH: data}, parent_time=None), "all")


@pytest.mark.parametrize("name", sorted(HOSTILE_NOTES))
def test_hostile_notes_are_refused_cleanly(name: str) -> None:
    problems = _check_note(HOSTILE_NOTES[name])
    _assert_clean(problems)
    if name not in ("bom",):
        assert problems, name


@pytest.mark.parametrize("name", sorted(HOSTILE_LINES))
def test_hostile_log_lines_are_refused_cleanly(name: str) -> None:
    problems = _check_log(HOSTILE_LINES[name])
    _assert_clean(problems)
    assert problems, name


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2048) | st.text(max_size=1024).map(str.encode))
def test_random_bytes_as_a_note_or_a_log(data: bytes) -> None:
    _assert_clean(_check_note(data))
    _assert_clean(_check_note(b"---\n" + data + b"\n---\nbody\n"))
    _assert_clean(_check_log(data))
    _assert_clean(_check_log(GOOD_LINE + data + b"\n"))


_scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=40))
_json_values = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                            | st.dictionaries(st.text(max_size=10), inner, max_size=4),
                            max_leaves=20)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(sorted(event())), _json_values, max_size=6))
def test_events_with_random_field_values(overrides: dict[str, object]) -> None:
    try:
        line = json.dumps({**event("e1"), **overrides}).encode() + b"\n"
    except ValueError:
        return
    _assert_clean(_check_log(line))


# --- through git and the CLI ------------------------------------------------------------


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def _memrepo(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(root), *args],
                          capture_output=True, text=True, check=False, preexec_fn=_limited,
                          errors="replace", timeout=120)
    output = done.stdout + done.stderr
    assert "Traceback" not in output and done.returncode in (0, 1, 2), (args, output[-2000:])
    return done


COMMITTED = ("alias bomb", "deep flow", "utf-16", "nul", "huge line")


def test_hostile_files_through_git_commit_and_the_cli(memory_repo: Path) -> None:
    for name in COMMITTED:
        (memory_repo / NOTE_PATH).write_bytes(HOSTILE_NOTES[name])
        git(memory_repo, "add", "-A")
        done = git(memory_repo, "commit", "-m", f"hostile {name}", check=False)
        output = done.stdout + done.stderr
        assert done.returncode == 1 and "Traceback" not in output, (name, output[-2000:])
        assert "To fix:" in output
    log = memory_repo / "memory/facts/michal/2026-05.jsonl"
    log.parent.mkdir(parents=True)
    log.write_bytes(HOSTILE_LINES["huge line"] + HOSTILE_LINES["deep json"]
                    + HOSTILE_LINES["utf-16"] + HOSTILE_LINES["nul"])
    git(memory_repo, "add", "-A")
    done = git(memory_repo, "commit", "-m", "hostile log", check=False)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    checked = _memrepo(memory_repo, "check", "--all")
    assert checked.returncode == 1 and "To fix:" in checked.stderr
    _memrepo(memory_repo, "cache", "rebuild")  # the work tree holds the hostile files


QUERIES = ['"', "*", "NEAR(", "foo-bar", "x" * 10_000, "AND OR NOT", "a:b", "^", "'",
           "(((", "\\", "🙂" * 500, "ł" * 3000, "-", "title:*", "\u202e", " ", ""]


ONE_PROCESS = """
import io, json, sys, traceback
from contextlib import redirect_stderr, redirect_stdout
from memrepo.cli import main
answers = []
for argv in json.loads(sys.stdin.read()):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exit:
            code = exit.code if isinstance(exit.code, int) else 1
        except BaseException:
            code, err = -1, io.StringIO(traceback.format_exc())
    answers.append([code, out.getvalue(), err.getvalue()])
print(json.dumps(answers))
"""


def _memrepo_each(root: Path, commands: list[list[str]]) -> list[tuple[int, str]]:
    """Each of `commands` run by memrepo's command line in one process (under the same
    memory limit as `_memrepo`): (exit code, standard output) of each. The process
    boundary is `_memrepo`'s test; here it would only repeat start-up 36 times."""
    done = subprocess.run([sys.executable, "-c", ONE_PROCESS],
                          input=json.dumps([["--repo", str(root), *c] for c in commands]),
                          capture_output=True, text=True, check=False, preexec_fn=_limited,
                          errors="replace", timeout=240)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    answers = []
    for command, (code, out, err) in zip(commands, json.loads(done.stdout), strict=True):
        output = out + err
        assert "Traceback" not in output and code in (0, 1, 2), (command, output[-2000:])
        answers.append((code, out))
    return answers


def test_hostile_queries_get_answers(demo_repo: Path) -> None:
    commands = [c for query in QUERIES for c in (
        ["recall", "--scope", "michal", query, "--json"], ["search", query, "--json"])]
    answers = _memrepo_each(demo_repo, commands)
    for (code, out), command in zip(answers, commands, strict=True):
        if code == 0 and command[0] == "recall":
            assert json.loads(out)["status"] in ("found", "not_recorded")
        elif code == 0:
            assert "results" in json.loads(out)
    assert sum(code == 0 for code, _ in answers) >= len(QUERIES)  # most are answered


@pytest.mark.parametrize("args", [["recall", "--scope", "michal", "bill\x00amount"],
                                  ["search", "\x00"], ["recall", "--scope", "mi\x00chal", "x"],
                                  ["remember", "--scope", "michal", "a\x00", "b", "c"]])
def test_nul_bytes_in_arguments_are_answered_in_process(demo_repo: Path,
                                                        args: list[str]) -> None:
    from memrepo.cli import main

    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["--repo", str(demo_repo), *args])
    assert code in (0, 1, 2), err.getvalue()
    assert "Traceback" not in out.getvalue() + err.getvalue()


def test_a_lone_surrogate_escape_in_a_header_is_refused_not_a_crash(memory_repo: Path) -> None:
    """Regression: YAML "\\ud800" made a str no UTF-8 writer accepts (index, cache, schema)."""
    from memrepo.core.strict_yaml import YamlError, load_fast, load_strict

    for load in (load_strict, load_fast):
        with pytest.raises(YamlError, match="lone surrogate"):
            load('name: x\naliases: ["\\udc00"]\n')
    (memory_repo / NOTE_PATH).write_text(
        '---\nname: hostile\ndescription: "Ordering profile \\ud800 lead times"\n'
        "type: entity\n---\nBody\n", encoding="utf-8")
    assert _memrepo(memory_repo, "index").returncode == 1
    _memrepo(memory_repo, "cache", "rebuild")
    assert _memrepo(memory_repo, "search", "hostile").returncode == 0
