"""`memrepo serve`: the MCP stdio server (SPEC §8) on the official `mcp` SDK.

Exactly three tools — remember, recall, forget — bound at start to one scope, one session
and one trust level, none of which a tool argument can change. Reads go through the
session's `Reader` (memrepo.core.policy.trust): an untrusted session reads only its quarantine —
no host facts and no notes — unless the server was started with `--grant-host-reads`.
The category indexes and TRIGGERS.md are listed as resources and every note is offered
through the template `memrepo://note/{name}` (not listed one by one: there may be 100k), to
readers of notes only. Every call is journaled (secrets redacted, long values cut:
agent/journal.py).
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.server.stdio import stdio_server
from mcp.types import CallToolResult, InputRequiredResult, ToolAnnotations
from pydantic import ValidationError

from memrepo.agent.api import Memory
from memrepo.agent.journal import record_call, require_journal
from memrepo.core.config import CATEGORIES
from memrepo.core.display import shown
from memrepo.core.notes.triggers import TRIGGERS_PATH
from memrepo.core.policy.trust import Reader
from memrepo.core.problems import InputError, Problem
from memrepo.core.record_base import replace
from memrepo.faults import fault_problem
from memrepo.files import read_bytes

INSTRUCTIONS = (
    "Long-term memory. Read the index resources first (memrepo://index/<category>); every "
    "note is readable as memrepo://note/<name> (a resource template), by the names the "
    "indexes list and the uri recall answers give. "
    "Use recall before answering questions about the user, people, companies or past "
    "events: ask it the question in plain words (dates in it are understood). Its facts "
    "answer at the time asked about; its notes (name, description, snippet, uri) may "
    "answer too — read a note when its snippet is not enough. If recall says not_recorded "
    "and no note answers, say it is not recorded instead of guessing. "
    "Use remember for durable facts the user states, with the exact words as quote. "
    "Use forget when something stops being true. Rules outrank references, which outrank "
    "entities, which outrank project notes."
)


UNTRUSTED_INSTRUCTIONS = (
    "Long-term memory of an untrusted session: what you remember is kept in quarantine "
    "until a person reviews it, and recall reads only that quarantine. Ask recall the "
    "question in plain words; if it says not_recorded, say it is not recorded instead of "
    "guessing. Use remember for durable facts the user states, with the exact words as "
    "quote; forget when something stops being true."
)


@dataclass(frozen=True)
class Session:
    root: Path
    scope: str
    session: str
    trust: str
    host_reads: bool = False

    @property
    def reader(self) -> Reader:
        return Reader(self.scope, self.trust, self.host_reads)


class _MemoryServer(MCPServer):
    """Tool arguments are checked against the tool's own schema before the SDK sees them:
    an unknown argument is refused (the SDK would drop it silently) and a missing or
    mistyped one gets one line naming it, in place of pydantic's multi-line report."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None,
                        ) -> CallToolResult | InputRequiredResult:
        _refuse_surrogates(name, arguments)
        tool = next((t for t in await self.list_tools() if t.name == name), None)
        if tool is not None:
            _check_arguments(name, tool.input_schema, arguments)
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as err:
            if not isinstance(err.__cause__, ValidationError):
                raise
            first = err.__cause__.errors()[0]
            argument = ".".join(str(part) for part in first["loc"])
            raise ToolError(_one_line(Problem(
                f"{name}: argument {argument!r}", first["msg"],
                f"give {argument} as the tool's input schema says"))) from None


    async def run_stdio_async(self) -> None:
        """The SDK's stdio transport, reading lines with lone surrogate escapes made
        U+FFFD first: its JSON parser refuses them, and the call was never answered."""
        async with stdio_server(stdin=_stdin_lines()) as (read_stream, write_stream):
            await self._lowlevel_server.run(
                read_stream, write_stream, self._lowlevel_server.create_initialization_options())


def _stdin_lines() -> Any:
    """This process's stdin as the transport reads it (UTF-8, bad bytes replaced), fd 0
    pointed at the null device meanwhile (as the SDK does: a child reads no request)."""
    private = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    text = io.TextIOWrapper(os.fdopen(private, "rb"), encoding="utf-8", errors="replace")
    return _WholeCharacters(anyio.wrap_file(text))


class _WholeCharacters:
    """Lines of JSON with every lone surrogate escape (`\\ud800` without its pair)
    written as `\\ufffd`."""

    def __init__(self, lines: Any) -> None:
        self._lines = lines

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._lines:
            yield _LONE_ESCAPE.sub(_replacement, line) if "\\u" in line else line


_LONE_ESCAPE = re.compile(
    r"(?<!\\)((?:\\\\)*)"  # an escape, not an escaped backslash followed by "u"
    r"(\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"  # high, no low next
    r"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2})")  # low, no high


def _replacement(match: re.Match[str]) -> str:
    return match.group(1) + "\\ufffd"


def _refuse_surrogates(tool: str, arguments: dict[str, Any]) -> None:
    """A lone surrogate (`\\ud800` in the JSON) is no text: refused in one line naming the
    argument, before it reaches an answer the server could not encode."""
    for name, value in arguments.items():
        if isinstance(value, str) and _SURROGATE.search(value):
            raise ToolError(_one_line(Problem(
                f"{tool}: argument {name!r}", "is not valid Unicode text (a lone surrogate)",
                "send the text as UTF-8")))


_SURROGATE = re.compile("[\ud800-\udfff]")


def _check_arguments(tool: str, schema: dict[str, Any], arguments: dict[str, Any]) -> None:
    accepted = list(schema.get("properties", {}))
    listed = f"{tool} accepts: {', '.join(accepted)}"
    unknown = [name for name in arguments if name not in accepted]
    if unknown:
        raise ToolError(_one_line(Problem(
            tool, f"unknown argument {unknown[0]!r}", f"leave it out; {listed}")))
    properties = schema.get("properties", {})
    loose = [name for name, value in arguments.items() if not isinstance(value, bool)
             and value is not None and properties[name].get("type") == "boolean"]
    if loose:  # the SDK would take "yes", "1" or "on" for true
        raise ToolError(_one_line(Problem(
            f"{tool}: argument {loose[0]!r}", "must be true or false (a JSON boolean)",
            f"give {loose[0]}: true or {loose[0]}: false, without quotes")))
    missing = [name for name in schema.get("required", []) if arguments.get(name) is None]
    if missing:
        raise ToolError(_one_line(Problem(
            tool, f"missing required argument {missing[0]!r}",
            f"give {', '.join(missing)} ({listed})")))


_FLAG = re.compile(r"(?<![\w-])--([a-z]+(?:-[a-z]+)*)")
_ARGUMENTS = frozenset({"subject", "relation", "object", "quote", "valid_from", "valid_to",
                        "new_key", "confirm", "query", "as_of", "known_at", "reason"})
"""The tools' arguments: the flags of the same name are rewritten, nothing else."""


def _in_tool_terms(problem: Problem) -> Problem:
    """A refusal naming the tool's arguments (`as_of`) where the library names the command
    line's flags (`--as-of`): the agent never typed a flag. Commands quoted in backticks
    (`memrepo doctor --repair`) are left as they are."""
    def argument(match: re.Match[str]) -> str:
        name = match.group(1).replace("-", "_")
        return name if name in _ARGUMENTS else match.group()

    def rewritten(text: str) -> str:
        parts = text.split("`")
        return "`".join(_FLAG.sub(argument, part) if i % 2 == 0 else part
                        for i, part in enumerate(parts))

    return replace(problem, path=rewritten(problem.path), fix=rewritten(problem.fix))


def _one_line(problem: Problem) -> str:
    return problem.render().replace("\n  To fix:", " To fix:")


def build_server(session: Session) -> MCPServer:
    reader = session.reader
    memory = Memory.open(session.root, reader)
    instructions = INSTRUCTIONS if reader.reads_notes else UNTRUSTED_INSTRUCTIONS
    server: MCPServer = _MemoryServer(name="memrepo", instructions=instructions)
    _add_tools(server, memory, session)
    if reader.reads_notes:  # notes are the host's memory: not for untrusted eyes
        _add_resources(server, session.root, memory)
    return server


def _journaled(session: Session, tool: str, call: Callable[[], dict[str, Any]],
               arguments: dict[str, Any]) -> dict[str, Any]:
    try:
        require_journal(session.root, session.session)
        outcome = call()
    except InputError as err:
        outcome = {"status": "refused", "error": _one_line(_in_tool_terms(err.detail))}
    except OSError as err:  # a read-only or full .memrepo
        problem = fault_problem(err)
        if problem is None:
            raise
        outcome = {"status": "refused", "error": _one_line(problem)}
    record_call(session.root, session.session, session.scope, session.trust, tool,
                arguments, outcome)
    return outcome


TOOL_TITLES = {"remember": "Remember a fact", "recall": "Recall from memory",
               "forget": "Forget a fact (end it, keep its history)"}


def _annotations(tool: str, *, read_only: bool = False, idempotent: bool = False,
                 ) -> ToolAnnotations:
    """What a client may show or decide before a call: no tool deletes anything (forget
    appends an `end`; remember's new value takes over from its date, the old one stays in
    the history) and none reaches beyond the memory repository."""
    if read_only:
        return ToolAnnotations(title=TOOL_TITLES[tool], read_only_hint=True,
                               open_world_hint=False)
    return ToolAnnotations(title=TOOL_TITLES[tool], read_only_hint=False,
                           destructive_hint=False, idempotent_hint=idempotent,
                           open_world_hint=False)


def _add_tools(server: MCPServer, memory: Memory, session: Session) -> None:
    @server.tool(title=TOOL_TITLES["remember"], annotations=_annotations("remember"))
    def remember(subject: str, relation: str, object: str, quote: str,
                 valid_from: str | None = None, new_key: bool = False,
                 confirm: bool = False) -> dict[str, Any]:
        """Store a durable fact "subject.relation = object" that the user stated.

        subject: who or what the fact is about, e.g. "electricity_bill" or "jan-novak".
        relation: the attribute, e.g. "amount", "email", "lives_in".
        object: the value, e.g. "250 zł".
        quote: the user's exact words the fact comes from (verbatim, required).
        valid_from: when it became true in the world (YYYY-MM-DD or RFC 3339); default now.
        new_key: true only after a "similar_key" answer, when the key is really new.
        confirm: true when the user confirms a value memory already holds (it is then
        no longer reported as unconfirmed); refused if another value holds.
        Returns the key as first recorded (subject, relation) and status "added" (with the
        new fact id), "unchanged" when it already holds,
        or "similar_key" (nothing stored) when the key is new but looks like recorded keys
        ("similar"): call again with the recorded subject and relation if it is the same
        thing, or with new_key: true if it is a different thing.
        """
        arguments = {"subject": subject, "relation": relation, "object": object,
                     "quote": quote, "valid_from": valid_from, "new_key": new_key,
                     "confirm": confirm}
        return _journaled(session, "remember", lambda: _with_hint(memory.remember(
            scope=session.scope, subject=subject, relation=relation, object=object,
            valid_from=valid_from, quote=quote, new_key=new_key, confirm=confirm,
            source="mcp", session=session.session, trust=session.trust,
        ).to_json()), arguments)

    @server.tool(title=TOOL_TITLES["recall"],
                 annotations=_annotations("recall", read_only=True))
    def recall(query: str | None = None, subject: str | None = None,
               relation: str | None = None, as_of: str | None = None,
               known_at: str | None = None) -> dict[str, Any]:
        """Look up what memory holds. Ask a question in plain words ("How much did I pay
        for electricity in April?", "When did my rent change?"), or give subject (+ relation).

        as_of: the moment the answer should be true at (default: the question's own date,
        else now), e.g. "2026-04-15".
        known_at: answer with what memory knew at that moment (default now).
        facts: the values at the time asked about (a period or a change question: every
        value with its interval). notes: notes that match the question, with a snippet and
        a resource uri. status "not_recorded" means no fact holds: unless a note answers,
        say so, do not guess; "suggestions" lists close spellings that do exist and
        "respelled" the spelling searched for a misspelled word.
        """
        arguments = {"query": query, "subject": subject, "relation": relation,
                     "as_of": as_of, "known_at": known_at}

        def answer() -> dict[str, Any]:
            if subject is None and not (query or "").strip():
                raise InputError(Problem(
                    "recall", "nothing to recall: no query and no subject" if relation is None
                    else "a relation needs its subject",
                    "give query (a question in plain words) or subject (and relation)"))
            return memory.recall(session.scope, query, subject=subject, relation=relation,
                                 as_of=as_of, known_at=known_at).to_json()

        return _journaled(session, "recall", answer, arguments)

    # forgetting again what no longer holds answers "unchanged" and writes nothing
    @server.tool(title=TOOL_TITLES["forget"],
                 annotations=_annotations("forget", idempotent=True))
    def forget(subject: str, relation: str, reason: str,
               valid_to: str | None = None) -> dict[str, Any]:
        """Record that "subject.relation" no longer holds from valid_to (default now).

        Nothing is deleted: the history stays, and recall answers "not recorded" after
        valid_to. reason: why, in a few words (e.g. "moved out").
        """
        arguments = {"subject": subject, "relation": relation, "reason": reason,
                     "valid_to": valid_to}
        return _journaled(session, "forget", lambda: memory.forget(
            scope=session.scope, subject=subject, relation=relation, reason=reason,
            valid_to=valid_to,
            source="mcp", session=session.session, trust=session.trust,
        ).to_json(), arguments)


SIMILAR_KEY_HINT = ("nothing stored: this key is new but looks like the recorded keys in "
                    "'similar'. Call remember again with the recorded subject and relation "
                    "if it is the same thing, or with new_key: true if it is a different "
                    "thing.")


def _with_hint(answer: dict[str, Any]) -> dict[str, Any]:
    return {**answer, "hint": SIMILAR_KEY_HINT} if answer["status"] == "similar_key" else answer


def _add_resources(server: MCPServer, root: Path, memory: Memory) -> None:
    for category in CATEGORIES:
        _add_file_resource(server, root, f"memory/{category}/INDEX.md",
                           f"memrepo://index/{category}", f"index-{category}",
                           f"The {category} index: one line per note. Read it first.")
    _add_file_resource(server, root, TRIGGERS_PATH, "memrepo://triggers",
                       "triggers", "Which notes to read for which kind of question.")
    _add_note_resources(server, memory)


def _add_note_resources(server: MCPServer, memory: Memory) -> None:
    @server.resource("memrepo://note/{name}", name="note", mime_type="text/markdown",
                     title="A note by its name",
                     description="A note of any category by its name. Notes are not listed "
                                 "one by one: their names are in the index resources "
                                 "(memrepo://index/<category>), and recall answers carry "
                                 "each matching note's uri.")
    def read_note(name: str) -> str:
        try:
            return shown(memory.note_text(name), None, lines=True)
        except InputError as err:  # the client reads why, not "Error creating resource"
            raise ResourceNotFoundError(_one_line(err.detail)) from None


def _add_file_resource(server: MCPServer, root: Path, path: str, uri: str, name: str,
                       description: str) -> None:
    def read() -> str:  # never through a symbolic link (a pulled commit could plant one)
        data = read_bytes(root, path)
        return "" if data is None else shown(data.decode("utf-8", "replace"), None, lines=True)

    server.resource(uri, name=name, description=description, mime_type="text/markdown")(read)
