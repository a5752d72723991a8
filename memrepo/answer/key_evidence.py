"""How a question's words meet a key (memrepo.answer.scoring): a word that is one of the key's
subject or relation words (its base forms, a longer form, a concept both name), the
base forms of key names, the labels that tell alike keys apart, a modifier that makes the
asked thing another of the key's kind ("FOREST honey" vs `acacia_honey`), and the sentence
a key was recorded from holding a word its name does not.
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.identities import words
from memrepo.answer.mentions import Mentions
from memrepo.answer.reading import Reading
from memrepo.cache.lookups import KeyRow
from memrepo.core.stems import base_forms
from memrepo.core.text import fold, words_of

HEADS = frozenset(words_of("number numbers numer cislo address adres adresa name size"))


def forms_of(*names: str) -> set[str]:
    """The base forms of the words of key names (`acacia_honey`, `price_per_jar`)."""
    return {f for name in names for w in words(name) for f in base_forms(w)}


def another_kind(key: KeyRow, read: Reading, held: set[str] | frozenset[str] = frozenset(),
                 ) -> bool:
    """Whether the question names the head noun of the key's subject with a modifier of
    its own that the key does not hold: "FOREST honey" is another honey than
    `acacia_honey`, "the VAN insurance" another insurance than `car_insurance` — or a
    label the key's own label is not ("car 2" is not `training_car_1`, "category C" not
    `course_price_b`)."""
    own_labels = labels_of(key)
    if own_labels and read.labels and not own_labels & set(read.labels.values()):
        return True
    subject = words(key.subject_key)
    if len(subject) < 2:
        return False
    head = set(base_forms(subject[-1]))
    own = forms_of(key.subject_key, key.relation_key)
    for i in read.salient:
        before = i - 1
        if (head.intersection(base_forms(read.folded[i])) and before in read.salient
                and f"#{before}" not in held and f"~{before}" not in held
                and not own.intersection(base_forms(read.folded[before]))
                and before not in read.in_names and before not in read.optional
                and read.folded[before] not in HEADS
                and not _the_business(read.folded[before], subject)):
            return True
    return False


def other_language(key: KeyRow, read: Reading, concepts: ConceptTable) -> bool:
    """Whether the question names a language and the key another one, and not the asked
    one ("the POLISH course" is not `kurz_anglictina_b1`, "who teaches GERMAN" not
    `english_teacher`)."""
    asked = {c for i in read.salient for c in read.concepts.get(i, frozenset())} & LANGUAGES
    if not asked:
        return False
    own = concepts.concepts_of_words([*words(key.subject_key), *words(key.relation_key)])
    return bool(own & LANGUAGES) and not own & asked


LANGUAGES = frozenset(f"{name}_language" for name in words_of(
    "english german polish slovak czech russian spanish french italian ukrainian"))
"""The concepts of languages (concepts.yaml): one asked, another is no answer."""


def _the_business(modifier: str, subject: Sequence[str]) -> bool:
    """Whether "the WORK car", "firmowe auto" may name a key of the business's thing
    (`salon_car`, `shop_van`): not one the household's own (`family_car`)."""
    return modifier in BUSINESS and not set(subject[:-1]) & _PRIVATE


BUSINESS = frozenset(words_of("""work company business firm office firmowy firmowe firmowa
firmowego sluzbowy sluzbowe sluzbowa sluzbowego firemni firemne firemny sluzebni sluzobne
sluzobny sluzobna pracovni"""))
_PRIVATE = frozenset(words_of("""family home private personal own house household rodzinny
rodzinne rodzinna domowy prywatny prywatne rodinny rodinne rodinna domaci soukromy soukrome
sukromny sukromne osobni osobne"""))


def labels_of(key: KeyRow) -> set[str]:
    """The words of a key that tell it from others alike: `course_price_B`, `car_2`."""
    return {w for w in (*words(key.subject_key), *words(key.relation_key))
            if len(w) == 1 or w.isdigit()}


def quotable(read: Reading, concepts: ConceptTable) -> dict[int, set[str]]:
    """Each salient word's forms a quote may hold (by position), and apart from them (by
    -1 - position) those of the one-word entries of its concepts ("the FLAT rent": "czynsz
    za MIESZKANIE")."""
    out = {}
    for i in read.salient:
        out[i] = set(base_forms(read.folded[i]))
        out[-1 - i] = {f for name in read.concepts.get(i, frozenset()) - concepts.roles
                       for entry in concepts.words_of.get(name, ()) if " " not in entry
                       for f in base_forms(fold(entry))} - out[i]
    return out


def in_its_quote(key: KeyRow, read: Reading, held: set[str], quoted: set[int],
                  concepts: ConceptTable) -> set[str]:
    """The question's words a key does not hold by its words but the sentence it was
    recorded from does ("who covers the BUILDING": "The building is insured with …"), or
    a word of its concept that is none of the key's own ("policy" is no more in a quote
    saying "insurance" of `van.insurance_expiry`): held as by a concept, never as the
    relation."""
    own = concepts.concepts_of_words([*words(key.subject_key), *words(key.relation_key)])
    return {f"~{i}" for i in read.salient
            if f"#{i}" not in held and f"~{i}" not in held and i not in read.in_names
            and (i in quoted or (-1 - i in quoted
                                 and not own & read.concepts.get(i, frozenset())))}


def same_word(word: str, named: frozenset[str], key_words: Sequence[str],
              concepts: ConceptTable) -> bool:
    """Whether a question word (`named`: the concepts of its phrase) is one of the key's
    subject words: the same base form, or a concept both name — the key's words as written
    (a subject named `daniel` is a name, not a form of "daň", tax)."""
    forms = set(base_forms(word))
    if any(forms & set(base_forms(k)) for k in key_words):
        return True
    return bool(named & concepts.concepts_as_written(key_words))


def relation_match(word: str, named: frozenset[str], relation_words: Sequence[str],
                   concepts: ConceptTable) -> str:
    """How a question word matches a key's relation words: '' when it does not."""
    forms = set(base_forms(word))
    asked = concepts.word_concepts(word)  # of the word itself: "phone PLANS" is `plan`
    for key_word in relation_words:
        if forms & set(base_forms(key_word)) or longer_form(word, key_word):
            if word != key_word and asked and (held := concepts.word_concepts(key_word)) \
                    and not asked & held:
                continue  # a form shared by two words the table tells apart: "RATA"
                # (an instalment) is no `interest_rate`
            return f"= '{key_word}'" if word == key_word else f"~ '{key_word}'"
    shared = named & concepts.concepts_of_words(relation_words)
    return f"{BY_CONCEPT}{min(shared)}" if shared else ""


def longer_form(word: str, key_word: str) -> bool:
    """A key word that is the question's word with a few letters more ("member" →
    `membership`, "insur…"): words of five letters or more."""
    return len(word) >= 5 and key_word.startswith(word) and len(key_word) - len(word) <= 4


BY_CONCEPT = "→ concept "


def naming_others(keys: Sequence[KeyRow], mentions: Mentions, read: Reading,
                   ) -> dict[str, frozenset[int]]:
    """For each key's subject, the question's words that name another recorded subject:
    those words in its quote are no reason to answer with it ("Odkiaľ je LUCIA ŠIMKOVÁ?"
    is not where Peter went, though he said "… preberá nemčinu Lucia Šimková")."""
    named = [(frozenset(s for i in m.identities for s in i.subjects),
              frozenset(range(m.start, m.end))) for m in mentions.found
             if not m.role and any(i.subjects for i in m.identities)]  # names, not roles
    subjects = {key.subject_key for key in keys}
    named += [(frozenset({subject}), span) for subject in subjects
              if (span := spelled_name_of(subject, read))]
    if not named:
        return {}
    return {subject: frozenset().union(*(span for owners, span in named
                                         if subject not in owners))
            for subject in subjects}


def spelled_name_of(subject_key: str, read: Reading) -> frozenset[int]:
    """Where the question spells a subject of two words or more, word for word in any case
    ("Lucia Šimková", "Lucii Šimkovej": `lucia_simkova`), else nothing."""
    name = words(subject_key)
    size = len(name)
    if size < 2:
        return frozenset()
    for start in range(len(read.folded) - size + 1):
        span = range(start, start + size)
        if all(set(base_forms(read.folded[i])) & set(base_forms(word))
                for i, word in zip(span, name, strict=True)):
            return frozenset(span)
    return frozenset()
