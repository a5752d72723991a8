"""The one helper module of the tests: identities and environments, real git repositories
and the memrepo command line, files, notes, fact events, in-memory Changes and cache dumps.
(The fixtures that build repositories are in conftest.py.)"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import (
    AbstractContextManager,
    contextmanager,
    redirect_stderr,
    redirect_stdout,
    suppress,
)
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import orjson
import pytest
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from memrepo.agent.api import Memory
from memrepo.bench.world import build, load
from memrepo.core.change import Change, DictSnapshot, diff_snapshots
from memrepo.core.config import Config, parent_config
from memrepo.core.facts.times import parse_instant
from memrepo.core.notes.index_file import render_index

ROOT = Path(__file__).resolve().parent.parent
"""The project's own repository."""

# --- identities and environments -------------------------------------------------------

APPROVER = "Ann Example <ann@example.com>"
IDENTITY = {
    "GIT_AUTHOR_NAME": "Ann Example", "GIT_AUTHOR_EMAIL": "ann@example.com",
    "GIT_COMMITTER_NAME": "Ann Example", "GIT_COMMITTER_EMAIL": "ann@example.com",
}
CONFIG = b'approvers:\n  - "Ann Example <ann@example.com>"\n'
"""memory/config.yaml naming APPROVER, for in-memory Changes."""

WRITER_IDENTITY = {
    "GIT_AUTHOR_NAME": "Test Person", "GIT_AUTHOR_EMAIL": "test@example.com",
    "GIT_COMMITTER_NAME": "Test Person", "GIT_COMMITTER_EMAIL": "test@example.com",
}
WRITER_CONFIG = ("approvers:\n  - Test Person <test@example.com>\nmany_valued_relations:\n"
                 "  - likes\n")
FIRST_COMMIT_DATE = "2025-12-01T00:00:00Z"  # before every date of the worked example
PLAIN_ENV = {**WRITER_IDENTITY, "GIT_CONFIG_NOSYSTEM": "1",
             "HOME": "/nonexistent-home-for-tests", "MEMREPO_VECTORS": "0"}
"""No user or system git config, a test identity: for repositories made by `init_repo`."""

CLEARED = ("GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_COMMITTER_DATE",
            "GIT_AUTHOR_DATE", "MEMREPO_REPO", "MEMREPO_NOW")


def isolated_env(home: Path) -> dict[str, str]:
    """os.environ with the test identity, HOME=`home` and no git/memrepo overrides."""
    env = {k: v for k, v in os.environ.items() if k not in CLEARED}
    env.update(IDENTITY, HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               GIT_CONFIG_NOSYSTEM="1", PRE_COMMIT_HOME=str(home / ".cache" / "pre-commit"),
               MEMREPO_VECTORS="0")  # answers never depend on whether [vectors] is installed
    return env


def plain_http_env(env: Mapping[str, str], folder: Path) -> dict[str, str]:
    """`env` for a command that talks to nothing but a local model over plain http: the
    trusted CAs are those of `folder` (made empty; SSL_CERT_FILE unset). httpx builds a TLS
    context for every request, even an http one, and loading a whole CA bundle into it costs
    ~90 ms of CPU each time: half the CPU of `memrepo bench memory --endpoint`."""
    folder.mkdir(parents=True, exist_ok=True)
    quiet = {key: value for key, value in env.items() if key != "SSL_CERT_FILE"}
    return {**quiet, "SSL_CERT_DIR": str(folder)}


def set_environment(patch: pytest.MonkeyPatch, env: Mapping[str, str]) -> None:
    """os.environ is `env` (CLEARED unset) until `patch` is undone: the `git_env` fixture
    for one test, or `with pytest.MonkeyPatch.context() as patch:` for a fixture built once
    per module."""
    for key in CLEARED:
        patch.delenv(key, raising=False)
    for key, value in env.items():
        patch.setenv(key, value)


def copy_repo(template: Path, target: Path) -> Path:
    """A copy of a repository built once (`template`) for one test that may change it:
    much cheaper than building it again through git commits and hooks."""
    shutil.copytree(template, target, symlinks=True)
    return target


def plain_env(**extra: str) -> dict[str, str]:
    """os.environ without MEMREPO_REPO, with PLAIN_ENV and `extra`."""
    merged = {k: v for k, v in os.environ.items() if k != "MEMREPO_REPO"}
    return {**merged, **PLAIN_ENV, **extra}


def set_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """WRITER_IDENTITY in the environment and no pinned clock or repository."""
    for key, value in WRITER_IDENTITY.items():
        monkeypatch.setenv(key, value)
    monkeypatch.delenv("MEMREPO_NOW", raising=False)
    monkeypatch.delenv("MEMREPO_REPO", raising=False)


# --- git and the memrepo command line ---------------------------------------------------

def git(root: Path, *args: str, check: bool = True, env: Mapping[str, str] | None = None,
        ) -> subprocess.CompletedProcess[str]:
    """`git ARGS` in `root`, in this process's environment (or `env`); a failure raises
    unless `check` is False."""
    return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                          check=check, env=None if env is None else dict(env))


def commit(repo: Path, message: str, *extra: str) -> subprocess.CompletedProcess[str]:
    """A real `git commit` (hooks run); never raises — look at returncode and output."""
    return git(repo, "commit", "-m", message, *extra, check=False)


HOOKS_OFF = ("-c", "core.hooksPath=/dev/null")
"""Options before a git subcommand that run no hook at all: how a test plants a commit the
checks refuse (`--no-verify` skips commit-msg, but the reference-transaction hook then
checks the branch's move; `memrepo verify` still finds it)."""


def commit_everything(root: Path, message: str = "change") -> str:
    """`git add -A` and a commit without hooks (in PLAIN_ENV); the new HEAD."""
    git(root, "add", "-A", env=plain_env())
    git(root, *HOOKS_OFF, "commit", "-q", "--allow-empty", "-m", message, env=plain_env())
    return git(root, "rev-parse", "HEAD", env=plain_env()).stdout.strip()


def commit_count(root: Path) -> int:
    return int(git(root, "rev-list", "--count", "HEAD").stdout.strip())


def status(root: Path) -> str:
    return git(root, "status", "--porcelain").stdout


def memrepo(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The `memrepo` command, run in `repo` as a person runs it."""
    return subprocess.run(["memrepo", *args], cwd=repo, capture_output=True, text=True,
                          check=False)


def memrepo_at(root: Path, *args: str, now: str = "2026-11-30",
               ) -> subprocess.CompletedProcess[str]:
    """`memrepo --repo ROOT ARGS` with the clock pinned to `now` (in PLAIN_ENV)."""
    return subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(root), *args],
                          env=plain_env(MEMREPO_NOW=now), capture_output=True, text=True,
                          check=False)


def memrepo_here(root: Path, *args: str, now: str = "2026-11-30",
                 ) -> subprocess.CompletedProcess[str]:
    """`memrepo_at` in this process (memrepo.cli.main, same environment, same clock): for
    a test of what a command answers, not of the process that answers it — a process
    start costs more than most commands. Each command family keeps tests through
    `memrepo_at`."""
    from memrepo.cli import main

    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("MEMREPO_REPO", raising=False)
        for key, value in {**PLAIN_ENV, "MEMREPO_NOW": now}.items():
            patch.setenv(key, value)
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = main(["--repo", str(root), *args])
            except SystemExit as exit:  # argparse: --help, a usage error
                code = exit.code if isinstance(exit.code, int) else 1
    return subprocess.CompletedProcess(["memrepo", *args], code, out.getvalue(),
                                       err.getvalue())


def memrepo_json(root: Path, *args: str, now: str = "2026-11-30", here: bool = False) -> Any:
    """The JSON a command prints (`memrepo_at`; `memrepo_here` if `here`)."""
    done = (memrepo_here if here else memrepo_at)(root, *args, "--json", now=now)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def cli(repo: Path, *args: str | bytes, env: Mapping[str, str] | None = None,
        stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m memrepo --repo REPO ARGS` in this process's environment (or `env`), as an
    agent or a script calls it: arguments may be bytes (undecodable on purpose), output is
    decoded with replacement. Never raises — look at returncode and `output()`."""
    return subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(repo), *args],
                          cwd=repo, capture_output=True, text=True, input=stdin,
                          env=None if env is None else dict(env), check=False,
                          errors="replace")


def output(done: subprocess.CompletedProcess[str]) -> str:
    return done.stdout + done.stderr


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in output(done) and "unexpected error" not in output(done), \
        output(done)


# --- faults of the environment ----------------------------------------------------------

@contextmanager
def mounted_memrepo(repo: Path, size: str = "1m", read_only: bool = False,
                    full: bool = False) -> Iterator[None]:
    """`.memrepo` on a small tmpfs of its own (its files copied in), read-only or filled:
    a real read-only or full file system. Skips the test where mounting is not permitted
    (not root, or no CAP_SYS_ADMIN): chmod does not stop root, so nothing else would do."""
    folder = repo / ".memrepo"
    folder.mkdir(exist_ok=True)
    saved = repo.parent / "memrepo-saved"
    shutil.copytree(folder, saved, symlinks=True)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)],
                      capture_output=True, check=False).returncode != 0:
        shutil.rmtree(saved)
        pytest.skip("cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN)")
    try:
        shutil.copytree(saved, folder, symlinks=True, dirs_exist_ok=True)
        if full:
            with suppress(OSError), (folder / "filler").open("wb") as filler:
                while True:
                    filler.write(bytes(1 << 16))
                    filler.flush()
        if read_only:
            subprocess.run(["mount", "-o", "remount,ro", str(folder)], check=True)
        yield
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)
        shutil.rmtree(saved, ignore_errors=True)


def read_only_memrepo(repo: Path) -> AbstractContextManager[None]:
    return mounted_memrepo(repo, read_only=True)


def full_memrepo(repo: Path) -> AbstractContextManager[None]:
    return mounted_memrepo(repo, size="256k", full=True)


# --- the MCP server, through the real client ----------------------------------------------

def mcp_server(repo: Path, env: Mapping[str, str], trust: str = "host", session: str = "s1",
               *extra: str, scope: str = "michal") -> StdioServerParameters:
    """`memrepo serve` for one scope, session and trust (plus `extra` options)."""
    return StdioServerParameters(
        command=sys.executable, env=dict(env), cwd=str(repo),
        args=["-m", "memrepo", "--repo", str(repo), "serve", "--scope", scope,
              "--session", session, "--trust", trust, *extra])


def mcp_calls(params: StdioServerParameters,
              calls: Sequence[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """The answers of tool calls made in one session; a tool error is
    `{"status": "error", "error": text}`."""
    async def session_calls() -> list[dict[str, Any]]:
        async with stdio_client(params) as (read, send), ClientSession(read, send) as session:
            await session.initialize()
            return [_payload(await session.call_tool(name, args)) for name, args in calls]

    return anyio.run(session_calls)


@dataclass(frozen=True)
class McpSession:
    """What one session was offered (`mcp_tools`, `mcp_resources`) and the answers of its
    tool calls (`mcp_calls`)."""

    tools: dict[str, dict[str, Any]]
    resources: list[str]
    results: list[dict[str, Any]]


def mcp_session(params: StdioServerParameters,
                calls: Sequence[tuple[str, dict[str, Any]]] = ()) -> McpSession:
    """One session (one server process) that lists the tools and the resources, then makes
    `calls`: what three sessions of `mcp_tools`, `mcp_resources` and `mcp_calls` would
    see, for the price of one."""
    async def run() -> McpSession:
        async with stdio_client(params) as (read, send), ClientSession(read, send) as session:
            await session.initialize()
            tools = {tool.name: tool.model_dump(by_alias=True, exclude_none=True)
                     for tool in (await session.list_tools()).tools}
            templates = (await session.list_resource_templates()).resource_templates
            resources = sorted([*(str(r.uri) for r in (await session.list_resources()).resources),
                                *(t.uri_template for t in templates)])
            return McpSession(tools, resources,
                              [_payload(await session.call_tool(name, args))
                               for name, args in calls])

    return anyio.run(run)


def mcp_tools(params: StdioServerParameters) -> dict[str, dict[str, Any]]:
    """Each tool a session lists, by name, as the client received it (the protocol's own
    camelCase field names: `title`, `annotations.readOnlyHint`…)."""
    return mcp_session(params).tools


def mcp_resources(params: StdioServerParameters) -> list[str]:
    """The URIs of the resources and the URI templates a session is offered."""
    return mcp_session(params).resources


def _payload(result: Any) -> dict[str, Any]:
    if getattr(result, "structured_content", None):
        data = result.structured_content
        return dict(data.get("result", data))
    text = result.content[0].text
    try:
        return dict(json.loads(text))
    except json.JSONDecodeError:
        return {"status": "error", "error": text}


# --- repositories -------------------------------------------------------------------------

def init_repo(root: Path) -> Path:
    """`git init` and a .gitignore: a bare-bones memory for the cache tests (no hooks)."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main", env=plain_env())
    (root / ".gitignore").write_text(".memrepo/\n", encoding="utf-8")
    return root


def two_note_repo(root: Path) -> Path:
    """`git init` + memory/config.yaml (CONFIG) + two one-letter notes, nothing staged: for
    the tests that read changes through git (git_env in the environment)."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    write(root, "memory/config.yaml", CONFIG)
    write(root, "memory/entities/a.md", "a")
    write(root, "memory/entities/b.md", "b")
    return root


def make_repo(root: Path, monkeypatch: pytest.MonkeyPatch, commit: bool = True) -> Path:
    """git init + memory/config.yaml + .gitignore, committed on 2025-12-01 (unless not):
    a small real memory for the write-path tests (WRITER_IDENTITY in the environment)."""
    set_identity(monkeypatch)
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    (root / "memory").mkdir()
    (root / "memory" / "config.yaml").write_text(WRITER_CONFIG, encoding="utf-8")
    (root / ".gitignore").write_text(".memrepo/\n", encoding="utf-8")
    if commit:
        git(root, "add", "-A")
        monkeypatch.setenv("GIT_COMMITTER_DATE", FIRST_COMMIT_DATE)
        monkeypatch.setenv("GIT_AUTHOR_DATE", FIRST_COMMIT_DATE)
        git(root, "commit", "-q", "-m", "skeleton")
        monkeypatch.delenv("GIT_COMMITTER_DATE")
        monkeypatch.delenv("GIT_AUTHOR_DATE")
    return root


def set_segment_cap(repo: Path, cap: int) -> None:
    """Commit `segment_max_bytes: CAP` into the memory's config (approved by APPROVER)."""
    config = repo / "memory" / "config.yaml"
    config.write_text(config.read_text(encoding="utf-8") + f"segment_max_bytes: {cap}\n",
                      encoding="utf-8")
    git(repo, "add", "memory/config.yaml")
    done = git(repo, "commit", "-q", "-m", f"small segments\n\nApproved-by: {APPROVER}",
               check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# --- files and notes ------------------------------------------------------------------------

def write(root: Path, relative: str, data: bytes | str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


TYPES = {"rules": "rule", "entities": "entity", "references": "reference",
         "project": "project"}


def note(category: str, name: str, description: str, body: str = "Body text.\n", *,
         aliases: Sequence[str] = (), **extra: str) -> bytes:
    """A note's bytes: header (name, description, type, aliases, `extra` raw YAML values;
    a rule gets an `origin`) and body."""
    lines = [f"name: {name}", f"description: {json.dumps(description, ensure_ascii=False)}",
             f"type: {TYPES[category]}"]
    if aliases:
        lines.append(f"aliases: {json.dumps(list(aliases), ensure_ascii=False)}")
    if category == "rules" and "origin" not in extra:
        extra["origin"] = '"2026-03-02: Michał corrected a wrong supplier address"'
    lines += [f"{key}: {value}" for key, value in extra.items()]
    return ("---\n" + "\n".join(lines) + "\n---\n" + body).encode()


def add_note(repo: Path, category: str, name: str, description: str) -> None:
    """Write a valid note, regenerate the indexes (`memrepo index`) and stage everything."""
    extra = {"origin": '"2026-03-02 Ann asked for it"'} if category == "rules" else {}
    write(repo, f"memory/{category}/{name}.md", note(category, name, description, **extra))
    assert memrepo(repo, "index").returncode == 0
    git(repo, "add", "-A")


def with_indexes(files: Mapping[str, bytes], descriptions: Mapping[str, Mapping[str, str]],
                 ) -> dict[str, bytes]:
    out = dict(files)
    for category, notes in descriptions.items():
        out[f"memory/{category}/INDEX.md"] = render_index(category, notes).encode()
    return out


# --- fact events ------------------------------------------------------------------------------

def now_stamp() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def event(event_id: str = "e1", recorded_at: str = "2026-05-03T10:00:00Z",
          **fields: Any) -> dict[str, Any]:
    """An `assert` in scope michal, valid per schema/fact-event.schema.json."""
    base: dict[str, Any] = {
        "id": event_id, "op": "assert", "recorded_at": recorded_at, "session": "s1",
        "source": "chat", "scope": "michal", "subject": "electricity_bill",
        "relation": "amount", "object": "210 zł", "valid_from": "2026-01-10",
        "confidence": 0.9, "trust": "host", "quote": "the bill is 210 zł",
    }
    base.update(fields)
    return base


def assert_event(id_: str, recorded: str, subject: str, relation: str, obj: str,
                 valid_from: str, scope: str = "michal", **extra: Any) -> dict[str, Any]:
    """A manual `assert` with the given key, value and times."""
    return {"id": id_, "op": "assert", "recorded_at": recorded, "scope": scope,
            "subject": subject, "relation": relation, "object": obj,
            "valid_from": valid_from, "confidence": 1.0, "trust": "host",
            "source": "manual", "session": "test", **extra}


def retract(event_id: str, target: str, recorded_at: str = "2026-05-03T11:00:00Z",
            ) -> dict[str, Any]:
    return {"id": event_id, "op": "retract", "recorded_at": recorded_at, "session": "s1",
            "source": "chat", "target": target, "reason": "misread"}


def lines(*events: Mapping[str, Any]) -> bytes:
    return b"".join(orjson.dumps(dict(e)) + b"\n" for e in events)


def segment(recorded_at: str, scope: str = "michal") -> str:
    return f"memory/facts/{scope}/{recorded_at[:7]}.jsonl"


def append_events(root: Path, path: str, events: list[dict[str, Any]]) -> None:
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    with file.open("a", encoding="utf-8") as handle:
        for one in events:
            handle.write(json.dumps(one, ensure_ascii=False) + "\n")


def memory_with_facts(tmp_path: Path) -> tuple[Path, str, str]:
    """A memory with three committed facts (one of a many-valued relation, `tag`) and a
    cache built from them: (root, its log, the moment they were recorded)."""
    from memrepo.cache import rebuild

    root = init_repo(tmp_path / "repo")
    (root / "memory").mkdir()
    (root / "memory" / "config.yaml").write_text("many_valued_relations: [tag]\n",
                                                 encoding="utf-8")
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    log = segment(stamp)
    append_events(root, log, [
        assert_event("c001", stamp, "Bill", "amount", "100", "2025-01-01"),
        assert_event("c002", stamp, "home", "city", "Łódź", "2025-01-01"),
        assert_event("c003", stamp, "home", "tag", "flat", "2025-01-01")])
    commit_everything(root, "committed facts")
    rebuild(root)
    return root, log, stamp


# --- in-memory Changes --------------------------------------------------------------------

def change(old: Mapping[str, bytes], new: Mapping[str, bytes],
           config: Config | None = None) -> Change:
    """A Change between two in-memory trees for the note rules (`config` or defaults)."""
    return Change(DictSnapshot(dict(old)), DictSnapshot(dict(new)),
                  diff_snapshots(old, new), config or Config(), commit_time=0)


def dict_change(old: Mapping[str, bytes], new: Mapping[str, bytes], message: str | None = None,
                commit_time: str = "2026-05-03T12:00:00Z",
                parent_time: str | None = "2026-05-03T09:00:00Z") -> Change:
    """A Change between two in-memory trees, checked by the old one's rules (config and
    schema/; a first commit — `old` empty — by its own)."""
    old_snapshot, new_snapshot = DictSnapshot(dict(old)), DictSnapshot(dict(new))
    rules = old_snapshot if old else new_snapshot
    return Change(old_snapshot, new_snapshot, diff_snapshots(old, new),
                  parent_config(rules, new_snapshot), commit_time=parse_instant(commit_time),
                  parent_time=None if parent_time is None else parse_instant(parent_time),
                  message=message, rules=rules)


# --- the cache ----------------------------------------------------------------------------

DUMPS: dict[str, str] = {
    "meta": "SELECT key, value FROM meta WHERE key IN ('commit', 'dirty', 'schema')",
    "files": "SELECT * FROM files",
    "notes": "SELECT path, name, category, description, aliases, body FROM notes",
    "aliases": "SELECT * FROM aliases",
    "links": "SELECT * FROM links",
    "events": "SELECT id, op, scope, subject, relation, subject_key, relation_key, object, "
              "valid_from, valid_to, recorded_at, target, confidence, source, session, "
              "quote, trust, reason, path, line FROM events",
    "holdings": "SELECT * FROM holdings",
    "keys": "SELECT scope, subject_key, relation_key, subject, relation, first_at, first_id, "
            "numeric FROM keys",
    "notes_fts": "SELECT n.path, f.* FROM notes_fts f JOIN notes n ON n.rowid = f.rowid",
    "keys_fts": "SELECT k.scope, k.subject_key, k.relation_key, f.* FROM keys_fts f "
                "JOIN keys k ON k.rowid = f.rowid",
    "passages_fts": "SELECT n.path, f.rowid % 4096, f.* FROM passages_fts f "
                    "JOIN notes n ON n.rowid = f.rowid / 4096",
    "passages": "SELECT count(*) FROM passages_fts",
    "notes_terms": "SELECT * FROM notes_terms",
    "keys_terms": "SELECT * FROM keys_terms",
    "skipped": "SELECT * FROM skipped",
    "log_digests": "SELECT * FROM log_digests",
}


def dump(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of a cache file, without rowids, sorted: equal dumps = equal caches."""
    import sqlite3

    conn = sqlite3.connect(path)
    try:
        for table in ("notes_fts", "keys_fts", "passages_fts"):
            conn.execute(f"INSERT INTO {table}({table}) VALUES ('integrity-check')")
        return {name: sorted(conn.execute(sql).fetchall(), key=repr)
                for name, sql in DUMPS.items()}
    finally:
        conn.close()


# --- the context block --------------------------------------------------------------------

_NOTE_HEAD = re.compile(r"- \[(rules|entities|references|project)\] ")
_UPDATED = re.compile(r'( \(updated ([0-9]{4}-[0-9]{2}-[0-9]{2}|".*")\))?')
_CUT = re.compile(r"\([0-9]+ more (cut|cut by the budget|items? did not fit the budget)\)")
_REMARKS = ("- did you mean: ", "- spelling: ", "- note: ")


def block_quotes(block: str) -> list[str]:
    """What the notes of a context block quote, decoded (each head's name and description,
    each body), after checking that every line of the block is of its own kind: the frame
    first and last, the data line, a fact, a note's head (`- [category] "name": "…"`) or
    body (`    "…"`), a remark or the cut line. Fails on any other line: stored text that
    started a line of its own. (The number of fact lines is the test's to check.)"""
    from memrepo.core.context_block import (
        DATA_NOTE,
        EMPTY,
        FOOTER,
        HEADER,
        RULES_DATA_NOTE,
        SHORT_FOOTER,
        SHORT_HEADER,
        TINY_FOOTER,
        TINY_HEADER,
    )

    first, *lines, last = block.splitlines()
    assert (first, last) in {(HEADER, FOOTER), (SHORT_HEADER, SHORT_FOOTER),
                             (TINY_HEADER, TINY_FOOTER)}, block
    decoder, quotes = json.JSONDecoder(), []
    for line in lines:
        head = _NOTE_HEAD.match(line)
        if head:
            name, end = decoder.raw_decode(line, head.end())
            assert line[end:end + 2] == ": ", line
            description, end = decoder.raw_decode(line, end + 2)
            assert _UPDATED.fullmatch(line[end:]), line
            quotes += [name, description]
        elif line.startswith('    "'):
            body, end = decoder.raw_decode(line, 4)
            assert end == len(line), line
            quotes.append(body)
        else:
            assert (line in (DATA_NOTE, RULES_DATA_NOTE, EMPTY) or _CUT.fullmatch(line)
                    or line.startswith(("- [fact] ", *_REMARKS))), f"a line of no kind: {line!r}"
    return quotes


# --- the real MCP client ---------------------------------------------------------------------

def mcp_remember(root: Path, calls: Sequence[Mapping[str, Any]],
                 scope: str = "michal") -> list[dict[str, Any]]:
    """Each of `calls` made to the `remember` tool of one `memrepo serve` (host trust)
    through the real MCP client; their results as dicts."""
    params = StdioServerParameters(  # the SDK passes only a few variables on by default
        command=sys.executable, cwd=str(root), env=dict(os.environ),
        args=["-m", "memrepo", "--repo", str(root), "serve", "--scope", scope,
              "--session", "agent-1", "--trust", "host"])

    async def run() -> list[dict[str, Any]]:
        async with stdio_client(params) as (read, write), \
                ClientSession(read, write) as session:
            await session.initialize()
            return [_payload(await session.call_tool("remember", dict(call)))
                    for call in calls]

    return anyio.run(run)



def world_repository(factory: pytest.TempPathFactory, world: str, name: str) -> Path:
    """A memory repository built from a question world's YAML text (memrepo.bench.world)."""
    source = factory.mktemp("world") / "world.yaml"
    source.write_text(world, encoding="utf-8")
    root = factory.mktemp("memory") / name
    build(load(str(source)), root)
    return root


def world_fixtures(world: str, name: str, now: str) -> tuple[Any, Any]:
    """The `world_repo` (built once per module) and `memory` (asked at `now`) fixtures of a
    question world's YAML text: `world_repo, memory = world_fixtures(WORLD, "ewa", NOW)`."""

    @pytest.fixture(scope="module")
    def world_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
        return world_repository(tmp_path_factory, world, name)

    @pytest.fixture()
    def memory(world_repo: Path, monkeypatch: pytest.MonkeyPatch) -> Memory:
        return world_memory(world_repo, monkeypatch, now)

    return world_repo, memory


def world_yaml(name: str, about: str, now: str, events: str) -> str:
    """A question world's YAML of fact events (`world_facts`, `world_event`), no notes, no
    questions."""
    return (f"world: {name}\nabout: \"{about}\"\nnow: \"{now}\"\nnotes: []\nevents:\n"
            f"{events}questions: []\n")


def world_event(scope: str, subject: str, relation: str, value: str, since: str,
                quote: str | None = None) -> str:
    """One `events:` line of a question world's YAML asserting a value since a day,
    recorded on 2026-11-01 (with the sentence it was said in, when given)."""
    said = f"quote: \"{quote}\", source: conversation" if quote else "source: manual"
    return (f"  - {{op: assert, scope: {scope}, subject: {subject}, relation: {relation}, "
            f"object: \"{value}\", valid_from: \"{since}\", "
            f"recorded_at: \"2026-11-01T10:00:00Z\", {said}}}\n")


def world_facts(scope: str, facts: Iterable[tuple[str, str, str]]) -> str:
    """The `events:` lines of a question world's YAML asserting each (subject, relation,
    value) in `scope`, valid since 2025-01-01, recorded on 2025-01-05."""
    return "".join(
        f"  - {{op: assert, scope: {scope}, subject: {subject}, relation: {relation}, "
        f"object: \"{value}\", valid_from: \"2025-01-01\", "
        f"recorded_at: \"2025-01-05T10:00:00Z\", source: manual}}\n"
        for subject, relation, value in facts)


def world_memory(root: Path, monkeypatch: pytest.MonkeyPatch, now: str) -> Memory:
    """The Python API on a world's repository, asked at `now`, without the semantic layer."""
    monkeypatch.setenv("MEMREPO_NOW", now)
    monkeypatch.setenv("MEMREPO_VECTORS", "0")
    return Memory(root)


def answered_keys(memory: Memory, scope: str, question: str) -> list[str]:
    """`subject.relation=object` of each fact recall answers with."""
    return [f"{f.subject}.{f.relation}={f.object}" for f in memory.recall(scope, question).facts]
