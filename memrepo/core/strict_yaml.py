"""A strict YAML reader for note headers and the config file.

PyYAML's safe loader keeps the last of duplicate keys, expands aliases (a small file can
explode into gigabytes) and turns dates into `date` objects. Here duplicate keys and
aliases are refused, and dates stay strings (SPEC §3).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Any

import yaml
from yaml.constructor import ConstructorError
from yaml.nodes import MappingNode, Node

MAX_YAML_BYTES = 64 * 1024


class YamlError(ValueError):
    """YAML the strict reader refuses; `line` is 1-based within the YAML text."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class _NoDuplicateKeys(yaml.constructor.SafeConstructor):
    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, Hashable):
                break  # the base constructor refuses it ("found unhashable key")
            if key in seen:
                raise YamlError(f"duplicate key {key!r}", key_node.start_mark.line + 1)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _unicode_str(constructor: Any, node: Any) -> str:
    """A string scalar; an escape such as "\\ud800" (a lone surrogate) is no character
    and would crash every UTF-8 writer downstream (indexes, the cache, JSON Schema)."""
    value = str(constructor.construct_scalar(node))
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise YamlError("a \\u escape names no Unicode character (a lone surrogate)",
                        node.start_mark.line + 1) from None
    return value


_NoDuplicateKeys.add_constructor("tag:yaml.org,2002:str", _unicode_str)


class _StrictLoader(_NoDuplicateKeys, yaml.SafeLoader):
    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise YamlError("YAML aliases (*name) are not allowed", event.start_mark.line + 1)
        return super().compose_node(parent, index)


class _FastLoader(_NoDuplicateKeys, getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's scanner and parser with the strict constructor. Composition happens in C,
    so aliases cannot be refused here: `load_fast` never gives it a text with a `*`."""


# Keep dates as strings: drop the implicit timestamp resolver.
_StrictLoader.yaml_implicit_resolvers = _FastLoader.yaml_implicit_resolvers = {
    first: [(tag, regex) for tag, regex in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_strict(text: str) -> Any:
    """Parse YAML text strictly; raise YamlError with a line number on any problem."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_YAML_BYTES:
        raise YamlError(f"YAML block is larger than {MAX_YAML_BYTES // 1024} KiB")
    try:
        return _shallow(yaml.load(text, Loader=_StrictLoader))
    except YamlError:
        raise
    except (yaml.YAMLError, ConstructorError) as err:
        line = _error_line(text, err)
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise YamlError(f"invalid YAML: {problem}", line) from None
    except RecursionError:
        raise YamlError("YAML is nested too deeply") from None
    except ValueError as err:  # PyYAML's int/float constructors on scalars like `0x_`
        raise YamlError(f"invalid YAML value: {err}") from None


def _error_line(text: str, err: Exception) -> int | None:
    """The 1-based line of a PyYAML error: its mark, or for a refused character (a
    ReaderError, which has no mark) the line of the character's position."""
    mark = getattr(err, "problem_mark", None)
    if mark is not None:
        return int(mark.line) + 1
    if isinstance(err, yaml.reader.ReaderError):
        return text.count("\n", 0, err.position) + 1
    return None


NON_PRINTABLE = "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]"
"""The characters PyYAML's reader refuses (`yaml.reader.Reader.NON_PRINTABLE`), named by
what they are rather than by what they are not: the same set (a test compares every code
point), compiled in a fraction of a millisecond where the negated class of ranges up to
U+10FFFF costs `re` ≈5 ms — in every process that reads a config or a YAML header."""

_STRICT_ONLY = re.compile(f"[*!\r\t\ufeff\x85\u2028\u2029]|(?:^|[\\s\\[\\]{{}},:])[|>]|"
                          f"\\?|{NON_PRINTABLE}")
"""Aliases, block scalars, tags, CRs, tabs, byte order marks, Unicode line breaks, any `?`
(libyaml reads `{a? }` and `[a?x]` as plain scalars, PyYAML refuses both) and the
characters the strict reader refuses: where libyaml and the strict reader may disagree. A
`|` or `>` counts only where a node may start (after a space, a line break, a flow
indicator or `:`): inside a word (`Name <email>`, every config's approvers) it cannot
begin a block scalar, and such a text keeps the fast path."""


def load_fast(text: str) -> Any:
    """`load_strict` for bulk reading (the cache): the same value for every text that
    `load_strict` accepts, and the same YamlError for every other.

    Texts the C parser might judge differently from the strict reader (aliases, characters
    the strict reader refuses, anything the C path fails on) take the strict path.
    """
    if _STRICT_ONLY.search(text) or len(text) > MAX_YAML_BYTES // 4:
        return load_strict(text)
    try:
        value = yaml.load(text, Loader=_FastLoader)
    except Exception:  # the strict reader gives the reason (or disagrees)
        return load_strict(text)
    return _shallow(value)


MAX_DEPTH = 64
"""The deepest nesting of lists and mappings a YAML block may have: libyaml reads far
deeper than Python's recursion limit, which every later walk of the value would hit."""


def _shallow(value: Any) -> Any:
    """`value` itself; YamlError when it nests deeper than MAX_DEPTH (walked without
    recursion)."""
    level: list[Any] = [value]
    for _ in range(MAX_DEPTH + 1):
        level = [inner for item in level if isinstance(item, dict | list)
                 for inner in (item.values() if isinstance(item, dict) else item)]
        if not level:
            return value
    raise YamlError(f"YAML is nested more than {MAX_DEPTH} levels deep")
