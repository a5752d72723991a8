"""The `memrepo` command: a thin argparse layer over the library.

Each subcommand lives in memrepo/commands/<name>.py and provides
`add_parser(subparsers) -> None` and `run(args) -> int`. Command modules import heavy
dependencies (pygit2, jsonschema, mcp) inside `run`, so `--help` and the query path start fast.

Exit codes (SPEC §11): 0 done, 1 refused by a check or validation, 2 usage error,
3 unexpected error (the traceback goes to a log file, never to the terminal); 141 (as a shell
reports SIGPIPE) when the reader of the output went away (`memrepo search … | head -1`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from memrepo.core.display import shown
from memrepo.core.problems import RENDER_LIMIT, InputError, require_utf8
from memrepo.crashlog import write_crash_log
from memrepo.faults import escape_unprintable_output, fault_problem
from memrepo.progress import show_on_terminal

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

COMMANDS: tuple[str, ...] = (
    "init", "check", "verify", "index", "cache",
    "remember", "recall", "forget", "retract", "history", "why", "search",
    "context", "extract", "promote", "triage", "serve", "mcp-config", "sync", "doctor",
    "hooks", "bench", "demo",
)

NO_PROGRESS = frozenset({"serve", "hooks"})
"""Commands that never draw a progress bar: the MCP server, and what git hooks run (like
`cache sync --hook`)."""

EXIT_OK, EXIT_REFUSED, EXIT_USAGE, EXIT_UNEXPECTED = 0, 1, 2, 3
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a reader that went away


class UsageError(Exception):
    """A command line that cannot be acted on (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """argparse, whose usage errors echo arguments escaped (no raw control sequences)."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        super()._print_message(shown(message, None, lines=True), file)

    def error(self, message: str) -> NoReturn:
        """The problem and how to fix it, as every other refusal says them (not a usage
        dump): `memrepo recall: the following arguments are required: --scope`."""
        self.exit(EXIT_USAGE, f"{self.prog}: {message}\n"
                              f"  To fix: see `{self.prog} --help` for what it takes\n")


def build_parser(available: Sequence[str]) -> argparse.ArgumentParser:
    parser = _Parser(
        prog="memrepo", description="Git-native long-term memory for AI agents.",
    )
    parser.add_argument(
        "--repo", metavar="PATH",
        help="memory repository (default: $MEMREPO_REPO, else the git repository "
             "containing the working directory)",
    )
    parser.add_argument("-V", "--version", action="store_true",
                        help="print the installed version and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in available:
        command_module(name).add_parser(subparsers)
    return parser


def command_module(name: str) -> Any:
    """memrepo/commands/<name>.py (`mcp-config` is `mcp_config.py`)."""
    return importlib.import_module(f"memrepo.commands.{name.replace('-', '_')}")


def chosen_command(argv: Sequence[str]) -> str | None:
    """The subcommand named on the command line, found without importing any command
    module (each costs imports; a hook run should pay only for its own)."""
    index = 0
    while index < len(argv):
        word = argv[index]
        if word == "--repo":
            index += 2
        elif word.startswith("--repo="):
            index += 1
        else:
            return word if word in COMMANDS else None
    return None


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    escape_unprintable_output()
    if words[:1] in (["--version"], ["-V"]):
        print(f"memrepo {installed_version()}")
        return EXIT_OK
    chosen = chosen_command(words)
    parser = build_parser([chosen] if chosen else COMMANDS)
    args, unknown = parser.parse_known_args(words)
    if unknown:  # said by the subcommand's parser: "memrepo context: …", its --help
        _subcommand_parser(parser, args.command).error(
            f"unrecognized arguments: {' '.join(unknown)}")
    if args.command not in NO_PROGRESS and not getattr(args, "hook", False):
        show_on_terminal()
    module = command_module(args.command)
    return guarded(f"memrepo {args.command}", lambda: _run(module, args))


def installed_version() -> str:
    """The version of the installed distribution (read only when asked: the metadata
    look-up costs start-up time every other command need not pay)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("memrepo")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


def _subcommand_parser(parser: argparse.ArgumentParser, command: str,
                       ) -> argparse.ArgumentParser:
    for action in parser._actions:  # argparse keeps its subparsers only there
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser


def _run(module: Any, args: argparse.Namespace) -> int:
    """Refuse arguments that are not UTF-8 text (bytes the shell passed undecoded) before
    any command sees them; then run the command."""
    for name, value in vars(args).items():
        for text in value if isinstance(value, list) else (value,):
            if isinstance(text, str):
                require_utf8(f"argument {name.upper()}", text)
    return int(module.run(args))


def guarded(label: str, action: Callable[[], int]) -> int:
    """Run an entry point's action (a command, a script) with the exit codes above: a
    refusal or a usage error is one line naming `label`, never a traceback."""
    try:
        return action()
    except InputError as err:
        print(f"{label}: {err}", file=sys.stderr)
        return EXIT_REFUSED
    except UsageError as err:
        print(f"{label}: {shown(str(err), RENDER_LIMIT)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("memrepo: interrupted; nothing half-written was committed", file=sys.stderr)
        return 130
    except BrokenPipeError:
        if not _stdout_closed():
            return _unexpected(label)
        # the reader of the output went away (`memrepo search … | head`): stop quietly, as
        # git does; stdout goes to /dev/null so the interpreter's last flush cannot fail
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except OSError as err:
        problem = fault_problem(err)
        if problem is None:
            return _unexpected(label)
        print(f"{label}: {problem.render()}", file=sys.stderr)
        return EXIT_REFUSED
    except Exception:
        return _unexpected(label)


def _unexpected(label: str) -> int:
    log = write_crash_log(label)
    where = f"; details in {log}" if log else ""
    print(f"{label}: unexpected error ({shown(repr(sys.exc_info()[1]))}){where}",
          file=sys.stderr)
    return EXIT_UNEXPECTED


def _stdout_closed() -> bool:
    """Whether standard output is a pipe nobody reads any more (a broken pipe elsewhere,
    e.g. to a git process, is an unexpected error)."""
    import select

    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(events & (select.POLLERR | select.POLLHUP) for _, events in poller.poll(0))
    except (OSError, ValueError):
        return False


if __name__ == "__main__":
    sys.exit(main())
