"""`memrepo extract` orchestration (SPEC §8): conversation → candidates → filters → writes.

Candidates come from a model (memrepo.agent.llm) or a file; both are checked against
schema/candidates.schema.json. The filters (memrepo.core.policy.extraction) run over every
candidate before the first write, so a bad candidate is reported as dropped rather than
half-written. Each kept fact is one `writes.remember` with its quote and session.

Keys (SPEC §4): the model is shown the keys the scope already has, and a candidate whose
new key looks like exactly one recorded key is written to that key (`mapped_from` says
from what); one that looks like several is dropped — an automated path never creates a
near-duplicate key silently.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from memrepo.agent.llm import complete_json
from memrepo.cache import open_fresh
from memrepo.cache.query import scope_keys
from memrepo.core.display import shown
from memrepo.core.duplicates.near_duplicates import label_words
from memrepo.core.policy.extraction import Candidate, Dropped, parse_candidates, screen
from memrepo.core.policy.trust import write_scope
from memrepo.core.problems import InputError, Problem
from memrepo.core.records import WriteResult
from memrepo.core.text import words
from memrepo.facts.new_event import UNTRUSTED_CONFIDENCE
from memrepo.facts.writes import remember, similar_problem
from memrepo.files import WorkTree, read_text
from memrepo.schemas import load_schema, schema_errors

CANDIDATES_SCHEMA = "candidates.schema.json"
MAX_PROMPT_KEYS = 300


@dataclass(frozen=True, slots=True)
class Kept:
    """A kept candidate and what became of it: `added`, `unchanged` or `dry-run`."""

    candidate: Candidate
    scope: str
    status: str
    id: str | None = None
    commit: str | None = None
    mapped_from: str | None = None  # the candidate's own key, when written to a recorded one

    def to_json(self) -> dict[str, Any]:
        return {**self.candidate.to_json(), "scope": self.scope, "status": self.status,
                "id": self.id, "commit": self.commit, "mapped_from": self.mapped_from}


@dataclass(slots=True)
class Report:
    scope: str
    target_scope: str
    session: str
    trust: str
    source: str
    dry_run: bool
    kept: list[Kept] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "scope": self.scope, "target_scope": self.target_scope, "session": self.session,
            "trust": self.trust, "source": self.source, "dry_run": self.dry_run,
            "kept": [k.to_json() for k in self.kept],
            "dropped": [{**d.candidate.to_json(), "reason": d.reason} for d in self.dropped],
        }

    def render(self) -> str:
        lines = [f"extract: {len(self.kept)} kept, {len(self.dropped)} dropped "
                 f"(session {self.session}, source {self.source}, trust {self.trust})"]
        lines += [f"  {k.status:<9} {k.scope}: {k.candidate.label()}"
                  + (f"  (mapped from {k.mapped_from})" if k.mapped_from else "")
                  + (f"  [{k.id}]" if k.id else "") for k in self.kept]
        lines += [f"  dropped   {d.candidate.label()} — {d.reason}" for d in self.dropped]
        if self.trust == "untrusted":
            lines.append(f"untrusted session: kept facts go to scope {self.target_scope} "
                         f"(quarantine) with confidence at most {UNTRUSTED_CONFIDENCE:g}")
        if self.dry_run:
            lines.append("dry run: nothing was written")
        return shown("\n".join(lines), None, lines=True)


# --- inputs -----------------------------------------------------------------------------

def read_conversation(path: str | None) -> str:
    """The conversation text from a file, or from stdin for None / `-`."""
    return read_text(path, "conversation")


def candidates_schema(root: Path | None) -> dict[str, Any]:
    return load_schema(CANDIDATES_SCHEMA, None if root is None else WorkTree(root))


def candidate_problems(document: Any, root: Path | None) -> list[str]:
    return schema_errors(document, CANDIDATES_SCHEMA, None if root is None else WorkTree(root))


def load_candidates_file(path: str, root: Path | None) -> list[Candidate]:
    """Candidates from a JSON file; InputError naming the file and its first problem."""
    fix = 'write {"facts": [{"subject", "relation", "object", "quote", "valid_from"?}]}'
    try:
        document = json.loads(Path(path).read_bytes().decode("utf-8"))
    except OSError as err:
        raise InputError(Problem(path, f"cannot read the candidates file: {err.strerror}",
                                 "give a readable JSON file")) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise InputError(Problem(path, f"not JSON: {err}", fix)) from None
    problems = candidate_problems(document, root)
    if problems:
        raise InputError(Problem(path, problems[0], fix))
    return parse_candidates(document)


def model_candidates(endpoint: str, model: str, conversation: str, root: Path | None,
                     timeout: float, keys: Sequence[tuple[str, str]] = ()) -> list[Candidate]:
    """Candidates from an OpenAI-compatible endpoint; none for a blank conversation.
    `keys`: the recorded keys the model is asked to reuse."""

    if not conversation.strip():
        return []
    answer = complete_json(endpoint, model, conversation, candidates_schema(root),
                           lambda doc: candidate_problems(doc, root), timeout, keys)
    return parse_candidates(answer)


def prompt_keys(root: Path, scope: str, conversation: str,
                limit: int = MAX_PROMPT_KEYS) -> list[tuple[str, str]]:
    """The recorded keys of `scope` to show the model: those whose subject the
    conversation mentions first, then the others in the order first recorded."""

    conn = open_fresh(root)
    try:
        keys = [(subject, relation) for _, _, subject, relation in scope_keys(conn, scope)]
    finally:
        conn.close()
    mentioned = set(words(conversation))
    first = [k for k in keys if set(label_words(k[0])) <= mentioned]
    return list(dict.fromkeys([*first, *keys]))[:limit]


# --- filtering and writing --------------------------------------------------------------

def extract(root: Path, *, scope: str, session: str, trust: str, conversation: str,
            candidates: list[Candidate], source: str, dry_run: bool = False) -> Report:
    """Filter the candidates and write what is kept (unless `dry_run`)."""
    destination = write_scope(scope, trust)
    screening = screen(candidates, conversation)
    report = Report(scope, destination, session, trust, source, dry_run,
                    dropped=list(screening.dropped))
    for candidate in screening.kept:
        if dry_run:
            report.kept.append(Kept(candidate, destination, "dry-run"))
            continue
        outcome = _write(root, report, candidate)
        if isinstance(outcome, Kept):
            report.kept.append(outcome)
        else:
            report.dropped.append(outcome)
    return report


def _write(root: Path, report: Report, candidate: Candidate) -> Kept | Dropped:
    result = _remember(root, report, candidate, candidate.subject, candidate.relation)
    if result.status != "similar_key":
        return Kept(candidate, report.target_scope, result.status, result.id, result.commit)
    if len(result.similar) != 1:
        return Dropped(candidate, "similar_key: " + similar_problem(
            candidate.subject, candidate.relation, result.similar))
    [key] = result.similar
    result = _remember(root, report, candidate, key.subject, key.relation, new_key=True)
    return Kept(candidate, report.target_scope, result.status, result.id, result.commit,
                mapped_from=f"{candidate.subject}.{candidate.relation}")


def _remember(root: Path, report: Report, candidate: Candidate, subject: str, relation: str,
              new_key: bool = False) -> WriteResult:
    confidence = 1.0 if candidate.confidence is None else candidate.confidence
    try:
        return remember(
            root, scope=report.scope, subject=subject, relation=relation,
            object=candidate.object, valid_from=candidate.valid_from, quote=candidate.quote,
            source=report.source, session=report.session, confidence=confidence,
            trust=report.trust, new_key=new_key)
    except InputError as err:
        raise _partial_failure(report, err) from None


def _partial_failure(report: Report, err: InputError) -> InputError:
    """A write refused after validation passed: say exactly what was already written."""
    if not report.kept:
        return err
    written = ", ".join(f"{k.candidate.label()} ({k.status})" for k in report.kept)
    detail = err.detail
    return InputError(Problem(detail.path, f"{detail.problem} — {len(report.kept)} fact(s) "
                              f"were already written: {written}", detail.fix, detail.line))
