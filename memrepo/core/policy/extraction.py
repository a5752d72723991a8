"""Extraction filters (SPEC §8): which candidate facts from a conversation may be written.

Pure: candidates in, a decision per candidate out. Three filters, each drop with a reason:
the quote must occur verbatim in the conversation; facts about the agent itself and
instruction phrasings (English, Polish, Slovak) are dropped; untrusted sessions write to
quarantine (the store routes them — the report only says where they go). Exact duplicates
within one extraction and candidates that would fail validation are dropped too, so every
write that follows is known to be acceptable before the first one happens.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from memrepo.core.facts.times import TimeFormatError, parse_instant
from memrepo.core.policy.secrets import Finding, fact_finding
from memrepo.core.text import fold


@dataclass(frozen=True, slots=True)
class Candidate:
    """One fact a model (or a candidates file) proposes."""

    subject: str
    relation: str
    object: str
    quote: str
    valid_from: str | None = None
    confidence: float | None = None

    def label(self) -> str:
        return f"{self.subject}.{self.relation} = {self.object}"

    def to_json(self) -> dict[str, Any]:
        return {"subject": self.subject, "relation": self.relation, "object": self.object,
                "quote": self.quote, "valid_from": self.valid_from,
                "confidence": self.confidence}


@dataclass(frozen=True, slots=True)
class Dropped:
    candidate: Candidate
    reason: str


@dataclass(frozen=True, slots=True)
class Screening:
    """The outcome of the filters: what may be written, and what was dropped and why."""

    kept: list[Candidate]
    dropped: list[Dropped]


def parse_candidates(document: Mapping[str, Any]) -> list[Candidate]:
    """Candidates from a document already valid per schema/candidates.schema.json."""
    return [_candidate(item) for item in document["facts"]]


def _candidate(item: Mapping[str, Any]) -> Candidate:
    confidence = item.get("confidence")
    return Candidate(
        subject=item["subject"], relation=item["relation"], object=item["object"],
        quote=item["quote"], valid_from=item.get("valid_from"),
        confidence=None if confidence is None else float(confidence),
    )


# --- filter (a): the quote occurs verbatim ----------------------------------------------

_SPACE = re.compile(r"\s+")


def normalise_quote_text(text: str) -> str:
    """NFC and collapsed whitespace — nothing else (no case folding, no diacritics)."""
    return _SPACE.sub(" ", unicodedata.normalize("NFC", text)).strip()


def quote_occurs(quote: str, conversation: str) -> bool:
    needle = normalise_quote_text(quote)
    return bool(needle) and needle in normalise_quote_text(conversation)


# --- filter (b): facts about the agent itself, instructions -----------------------------

# Words that name the agent. A subject names it when every word is one of these or a
# determiner ("assistant", "the AI", "AI model", "you"), so "Tesla Model 3" or "insurance
# agent" pass. Relations and whole objects use narrower sets: "works_in_ai" or an object
# "AI" (a field of work) are facts about the user's world.
_SUBJECT_AGENT_WORDS = frozenset({
    "assistant", "assistants", "ai", "agent", "model", "bot", "chatbot", "llm", "gpt",
    "chatgpt", "you", "yourself", "asystent", "asystenta", "asistent", "asistenta", "ty",
    "ciebie", "teba", "tebe",
})
_RELATION_AGENT_WORDS = frozenset({
    "assistant", "assistants", "bot", "chatbot", "llm", "you", "yourself", "your",
    "asystent", "asystenta", "asistent", "asistenta",
})
_OBJECT_AGENT_WORDS = frozenset({
    "assistant", "you", "yourself", "asystent", "asystenta", "asistent", "asistenta",
    "ciebie", "teba", "tebe",
})
_DETERMINERS = frozenset({
    "the", "a", "an", "this", "that", "my", "your", "our", "ten", "ta", "to", "moj", "twoj",
    "tvoj", "nas", "s",
})
# Phrases that name the agent anywhere (relation, object, quote): unambiguous ones only.
_AGENT_PHRASES = (
    "ai assistant", "ai agent", "ai model", "language model", "llm", "chatbot",
    "the assistant", "the ai", "the bot", "as an ai", "system prompt", "asystent ai",
    "asistent ai", "asystenta ai", "model jezykowy", "jazykovy model",
)

_INSTRUCTION_PATTERNS: tuple[tuple[str, str], ...] = (
    # English
    (r"\b(ignore|disregard|forget)( all| any| the| your| of)*( previous| prior| above"
     r"| earlier| preceding| other| all)? (instructions?|prompts?|rules)\b", "en"),
    (r"\bsystem prompt\b", "en"),
    (r"\b(dont|do not|never) (tell|reveal to|inform) the user\b", "en"),
    (r"\byou must\b", "en"),
    # "from now on" is an instruction only when it addresses the agent: "From now on I work
    # at Acme" is an ordinary fact.
    (r"\bfrom now on,? (you|your|call|always|never|answer|respond|reply|only|do|don t|"
     r"dont|say|speak|use|be|stop|treat)\b", "en"),
    (r"\balways (answer|respond|reply|say)\b", "en"),
    (r"\bpretend\b", "en"),
    # Polish
    (r"\b(z?ignoruj|pomin)( wszystkie)? (poprzednie|wczesniejsze|powyzsze) "
     r"(instrukcje|polecenia)\b", "pl"),
    (r"\bprompt systemowy\b", "pl"),
    (r"\bnie (mow|mowi|informuj) uzytkownikowi\b", "pl"),
    (r"\bod teraz,? (jestes|masz|mow|odpowiadaj|zawsze|nigdy|pisz|nazywaj|badz|ignoruj|"
     r"udawaj|traktuj|uzywaj)\b", "pl"),
    (r"\bzawsze odpowiadaj\b", "pl"),
    (r"\budawaj\b", "pl"),
    # Slovak
    (r"\bignoruj( vsetky)? (predchadzajuce|predosle|doterajsie) (pokyny|instrukcie)\b",
     "sk"),
    (r"\bsystemovy prompt\b", "sk"),
    (r"\bnehovor pouzivatelovi\b", "sk"),
    (r"\bodteraz,? (si|mas|hovor|odpovedaj|vzdy|nikdy|pis|volaj|bud|ignoruj|"
     r"predstieraj|pouzivaj)\b", "sk"),
    (r"\bvzdy odpovedaj\b", "sk"),
    (r"\bpredstieraj\b", "sk"),
)
_INSTRUCTIONS = tuple((re.compile(pattern), language)
                      for pattern, language in _INSTRUCTION_PATTERNS)
_LANGUAGE_NAMES = {"en": "English", "pl": "Polish", "sk": "Slovak"}
_NOT_WORD = re.compile(r"[^a-z0-9]+")


def match_text(text: str) -> str:
    """Folded text (case, diacritics, ł/đ/ø/ß) as space-separated words; apostrophes vanish
    so "don't", "don’t" and "dont" agree."""
    folded = fold(text).replace("'", "")
    return _NOT_WORD.sub(" ", folded).strip()


def instruction_in(text: str) -> str | None:
    """The instruction phrasing found in `text` (described for a report), if any."""
    folded = match_text(text)
    for pattern, language in _INSTRUCTIONS:
        found = pattern.search(folded)
        if found:
            return f"instruction phrasing ({_LANGUAGE_NAMES[language]}: {found.group(0)!r})"
    return None


def names_agent(text: str, agent_words: frozenset[str] = _SUBJECT_AGENT_WORDS) -> bool:
    """True when `text` consists of words naming the agent (and determiners)."""
    words = [w for w in match_text(text).split() if w not in _DETERMINERS]
    return bool(words) and all(w in agent_words for w in words)


def mentions_agent(text: str) -> bool:
    """True when `text` contains an unambiguous phrase naming the agent."""
    padded = f" {match_text(text)} "
    return any(f" {phrase} " in padded for phrase in _AGENT_PHRASES)


def about_agent_or_instruction(candidate: Candidate) -> str | None:
    """Why the candidate is about the agent itself or is an instruction; None if neither."""
    fields = {"subject": candidate.subject, "relation": candidate.relation,
              "object": candidate.object, "quote": candidate.quote}
    for name, text in fields.items():
        found = instruction_in(text)
        if found:
            return f"{found} in the {name}"
    naming = _field_naming_agent(candidate)
    if naming:
        return f"a fact about the assistant itself (the {naming} names it)"
    for name, text in fields.items():
        if mentions_agent(text):
            return f"a fact about the assistant itself (the {name} mentions it)"
    return None


def _field_naming_agent(candidate: Candidate) -> str | None:
    if names_agent(candidate.subject):
        return "subject"
    if set(match_text(candidate.relation).split()) & _RELATION_AGENT_WORDS:
        return "relation"
    if names_agent(candidate.object, _OBJECT_AGENT_WORDS):
        return "object"
    return None


# --- validation: what the store would refuse --------------------------------------------

def validation_problem(candidate: Candidate) -> str | None:
    """Why writing the candidate would be refused; None when it is writable."""
    for name in ("subject", "relation", "object", "quote"):
        if not getattr(candidate, name).strip():
            return f"{name} is empty"
    if candidate.valid_from is not None:
        try:
            parse_instant(candidate.valid_from)
        except TimeFormatError as err:
            return f"valid_from: {err}"
    if candidate.confidence is not None and not 0 <= candidate.confidence <= 1:
        return f"confidence {candidate.confidence} is not between 0 and 1"
    return _secret_problem(candidate)


def _secret_problem(candidate: Candidate) -> str | None:
    found = _credential(candidate)
    if found is None:
        return None
    if found.by_key:
        return (f"the relation names a credential ({found.kind}); no value is stored under "
                "it, only where it lives")
    return f"the fact looks like a credential ({found.kind}); secrets are not stored"


def _credential(candidate: Candidate) -> Finding | None:
    """The fact read whole, as the write path reads it (core.policy.secrets)."""
    return fact_finding({"subject": candidate.subject, "relation": candidate.relation,
                         "object": candidate.object, "quote": candidate.quote})


REDACTED = "[redacted]"


def _as_reported(candidate: Candidate) -> Candidate:
    """A dropped candidate as the report shows it: a credential's texts never echoed."""
    if _credential(candidate) is None:
        return candidate
    shown = replace(candidate, object=REDACTED, quote=REDACTED)
    if fact_finding({"subject": candidate.subject}) is not None:
        shown = replace(shown, subject=REDACTED)
    if fact_finding({"relation": candidate.relation}) is not None:
        shown = replace(shown, relation=REDACTED)
    return shown


# --- all filters ------------------------------------------------------------------------

Check = Callable[[Candidate], "str | None"]


def screen(candidates: Sequence[Candidate], conversation: str) -> Screening:
    """Run every filter over the candidates, in order; the first reason found drops one."""
    checks: tuple[Check, ...] = (
        validation_problem,
        lambda c: None if quote_occurs(c.quote, conversation)
        else "the quote does not occur verbatim in the conversation",
        about_agent_or_instruction,
    )
    kept: list[Candidate] = []
    dropped: list[Dropped] = []
    seen: set[tuple[str, str, str, str | None]] = set()
    for candidate in candidates:
        reason = _first_reason(candidate, checks) or _duplicate(candidate, seen)
        if reason:
            dropped.append(Dropped(_as_reported(candidate), reason))
        else:
            kept.append(candidate)
    return Screening(kept, dropped)


def _first_reason(candidate: Candidate, checks: Iterable[Check]) -> str | None:
    for check in checks:
        reason = check(candidate)
        if reason:
            return reason
    return None


def _duplicate(candidate: Candidate, seen: set[tuple[str, str, str, str | None]]) -> str | None:
    key = (candidate.subject, candidate.relation, candidate.object, candidate.valid_from)
    if key in seen:
        return "an exact duplicate of an earlier candidate in this extraction"
    seen.add(key)
    return None
