"""The MCP server answers every call with a result or a one-line error, and writes no
traceback to stderr (issue 21 items 5, 6): a lone surrogate in an argument, malformed
text on its input, a `.memrepo` it cannot write, a journal file that is a link."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.support import mcp_calls, mcp_server, read_only_memrepo


def raw_session(repo: Path, env: dict[str, str], lines: list[bytes], answers: int,
                ) -> tuple[list[dict[str, object]], bytes]:
    """The server fed raw bytes, one message a line; its first `answers` answers (read
    before its input is closed: at the end of its input it stops) and its stderr."""
    params = mcp_server(repo, env)
    process = subprocess.Popen([params.command, *params.args], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               env=params.env, cwd=params.cwd)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(b"".join(lines))
    process.stdin.flush()
    got = [json.loads(process.stdout.readline()) for _ in range(answers)]
    _, stderr = process.communicate(timeout=120)
    return got, stderr


def message(payload: dict[str, object]) -> bytes:
    return json.dumps(payload).encode() + b"\n"


INITIALIZE = message({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "0"}}})
INITIALIZED = message({"jsonrpc": "2.0", "method": "notifications/initialized"})


def test_malformed_text_on_the_servers_input_gets_no_traceback(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    call = message({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "recall", "arguments": {"query": "city"}}})
    lone = (b'{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": '
            b'{"name": "remember", "arguments": {"subject": "home", "relation": "city", '
            b'"object": "Krak\\udc00w", "quote": "Krak\\udc00w"}}}\n')
    surrogate = (b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": '
                 b'{"name": "recall", "arguments": {"query": "x\\ud800y"}}}\n')
    answers, stderr = raw_session(memory_repo, git_env, [
        INITIALIZE, INITIALIZED, b"\xff\xfe not utf-8 {\n", b"{not json\n", surrogate, lone,
        call], 4)
    assert {a.get("id") for a in answers} == {1, 2, 3, 4}, answers
    assert b"Traceback" not in stderr, stderr.decode(errors="replace")


def test_a_memrepo_folder_it_cannot_write_is_a_one_line_refusal(
        memory_repo: Path, git_env: dict[str, str]) -> None:
    with read_only_memrepo(memory_repo):
        params = mcp_server(memory_repo, git_env)
        written, read = mcp_calls(params, [
            ("remember", {"subject": "home", "relation": "city", "object": "Kraków",
                          "quote": "I live in Kraków"}),
            ("recall", {"query": "city"})])
    assert written["status"] == "refused" and "read-only" in written["error"], written
    assert "Traceback" not in written["error"]
    assert read["status"] == "not_recorded", read


def test_a_journal_file_that_is_a_link_refuses_the_call(memory_repo: Path,
                                                        git_env: dict[str, str],
                                                        tmp_path: Path) -> None:
    journal = memory_repo / ".memrepo" / "journal"
    journal.mkdir(parents=True, exist_ok=True)
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text("", encoding="utf-8")
    (journal / "s1.jsonl").symlink_to(elsewhere)
    params = mcp_server(memory_repo, git_env)
    [answer] = mcp_calls(params, [("remember", {
        "subject": "home", "relation": "city", "object": "Kraków",
        "quote": "I live in Kraków"})])
    assert answer["status"] in ("refused", "error"), answer
    assert "link" in answer["error"]
    assert elsewhere.read_text(encoding="utf-8") == ""
    assert not (memory_repo / "memory/facts/michal").exists()  # never ran unjournaled


def test_a_boolean_given_as_a_string_is_refused(memory_repo: Path,
                                                git_env: dict[str, str]) -> None:
    """`new_key: "yes"` is not taken as true (issue 21 item 6)."""
    params = mcp_server(memory_repo, git_env)
    [answer] = mcp_calls(params, [("remember", {
        "subject": "home", "relation": "city", "object": "Kraków",
        "quote": "I live in Kraków", "new_key": "yes"})])
    assert answer["status"] == "error", answer
    assert "must be true or false" in answer["error"] and "\n" not in answer["error"]
    assert not (memory_repo / "memory/facts/michal").exists()
