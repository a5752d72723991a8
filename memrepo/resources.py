"""Where the packaged data lives: schema/ and the demo memory.

A wheel installs them inside the package (memrepo/schema, memrepo/demo_memory); an editable
install leaves them in the source tree beside memrepo/.
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_SOURCE_NAMES = {"schema": "schema", "demo_memory": "memory"}


def data_dir(name: str) -> Path:
    """The directory of packaged data `name` ("schema" or "demo_memory")."""
    installed = _PACKAGE / name
    if installed.is_dir():
        return installed
    return _PACKAGE.parent / _SOURCE_NAMES[name]
