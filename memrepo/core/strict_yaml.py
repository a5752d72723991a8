"""A strict YAML reader for note headers and the config file.

PyYAML's safe loader keeps the last of duplicate keys, expands aliases (a small file can
explode into gigabytes) and turns dates into `date` objects. Here duplicate keys and
aliases are refused, and dates stay strings (SPEC §3).
"""

from __future__ import annotations

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


class _StrictLoader(yaml.SafeLoader):
    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()  # type: ignore[no-untyped-call]
            raise YamlError("YAML aliases (*name) are not allowed", event.start_mark.line + 1)
        return super().compose_node(parent, index)

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            if key in seen:
                raise YamlError(f"duplicate key {key!r}", key_node.start_mark.line + 1)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


# Keep dates as strings: drop the implicit timestamp resolver.
_StrictLoader.yaml_implicit_resolvers = {
    first: [(tag, regex) for tag, regex in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def load_strict(text: str) -> Any:
    """Parse YAML text strictly; raise YamlError with a line number on any problem."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_YAML_BYTES:
        raise YamlError(f"YAML block is larger than {MAX_YAML_BYTES // 1024} KiB")
    try:
        return yaml.load(text, Loader=_StrictLoader)
    except YamlError:
        raise
    except (yaml.YAMLError, ConstructorError) as err:
        mark = getattr(err, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise YamlError(f"invalid YAML: {problem}", line) from None
    except RecursionError:
        raise YamlError("YAML is nested too deeply") from None
