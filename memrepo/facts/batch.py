"""The batch file of `memrepo remember --batch`: one JSON object per line, each a fact
({subject, relation, object[, valid_from, valid_to, quote, confidence, scope, new_key]});
the command line's options are the defaults of every line. A bad line refuses the whole file,
naming `file:line`."""

from __future__ import annotations

import json
from typing import Any

from memrepo.core.problems import InputError, Problem
from memrepo.facts.writes import FactInput
from memrepo.files import read_text

_FACT_KEYS = ("scope", "subject", "relation", "object", "valid_from", "valid_to", "quote",
              "confidence", "new_key")


def read_batch(name: str, scope: str, valid_from: str | None, valid_to: str | None,
               confidence: float, new_key: bool = False) -> list[FactInput]:
    """The facts of a JSONL batch file; command-line options are the defaults per line."""
    text = read_text(name, "batch file")
    facts = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        raw = _fact_object(name, number, line)
        fields = {"scope": scope, "valid_from": valid_from, "valid_to": valid_to,
                  "confidence": confidence, "new_key": new_key, **raw}
        try:
            facts.append(FactInput(**fields))
        except TypeError:
            raise _bad_line(name, number, "needs subject, relation and object") from None
    return facts


def _fact_object(name: str, number: int, line: str) -> dict[str, Any]:
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as err:
        raise _bad_line(name, number, f"not JSON: {err}") from None
    if not isinstance(raw, dict) or set(raw) - set(_FACT_KEYS):
        raise _bad_line(name, number, f"a line is one object with the keys {_FACT_KEYS}")
    if not all(isinstance(raw.get(k), str) for k in ("subject", "relation", "object")):
        raise _bad_line(name, number, "subject, relation and object must be strings")
    if not all(isinstance(raw[k], str) for k in (*_FACT_KEYS[4:7], "scope") if k in raw):
        raise _bad_line(name, number, "scope, valid_from, valid_to and quote are strings")
    if not isinstance(raw.get("new_key", False), bool):
        raise _bad_line(name, number, "new_key is true or false")
    confidence = raw.get("confidence", 1.0)
    if isinstance(confidence, bool) or not isinstance(confidence, int | float):
        raise _bad_line(name, number, "confidence is a number between 0 and 1")
    return raw


def _bad_line(name: str, number: int, problem: str) -> InputError:
    return InputError(Problem(name, problem, 'one fact per line, e.g. {"subject": '
                              '"electricity_bill", "relation": "amount", "object": '
                              '"210 zł"}', number))
