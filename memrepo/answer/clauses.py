"""The questions one text asks (SPEC §7): "What car do I drive and when is the oil change?"
asks two, each answered on its own (memrepo.answer.ask, memrepo.answer.search) and merged in
turn; a part keeps a key only where it says whose it is, and asks at the text's time only
when it speaks of the past."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import replace
from typing import TypeVar

from memrepo.answer.concepts import shipped
from memrepo.answer.first_person import in_slavic
from memrepo.answer.question import POSSESSIVES, Question, head_kind, kind_positions
from memrepo.answer.stopwords import QUESTION_WORDS as _QUESTION_WORDS
from memrepo.answer.stopwords import STOP_WORDS
from memrepo.answer.when import find_times, month_names_as_names
from memrepo.core.stems import WORD, base_forms, tokens
from memrepo.core.text import fold, words_of

T = TypeVar("T")
_JOINERS = frozenset(words_of("and plus i a oraz"))
_OWN = frozenset(words_of("""
i me my mine we us our ours ja mnie mi moj moja moje moi mojego mojej my nas nasz nasza
nasze mna moju mojom mojho nase nasej"""))
"""Words by which the asker speaks of their own (en/pl/sk)."""
_PAST = frozenset(words_of("was were did had byl byla bylo byli byly bol bola bolo boli"))
MAX_QUESTIONS = 4
"""Questions answered one by one in a text; the rest is asked with the last (each costs a
ranking: a text of 500 joined questions must not cost 500)."""
_AFTER_QUESTION_MARK = re.compile(r"(?<=\?)\s+")
_AMPERSAND = re.compile(r"\s+&\s+")
_BACK_REFERENCES = frozenset(words_of("""
he she it they him her them its his their hers theirs"""))
_SLAVIC_BACK_REFERENCES = frozenset(words_of("""
on ona ono oni one ony go jego jej ich nim niej nich mu jemu ho jeho ju nej"""))
"""Words that point back to a thing the question before named ("… and who supplied IT?",
"… a ile mu płacimy?"): such a part is not a question of its own. The Polish, Slovak and
Czech ones only in a part in those languages ("which school does Samuel GO to")."""


def clauses(text: str) -> list[str]:
    """The questions a text asks, each in its own words: split after a '?' and before a
    joining word followed by a question word ("What car do I drive and when is the oil
    change?" asks two). A part that is no question of its own stays with the one before:
    without a salient word ("… and why?"), pointing back to it ("… and how does he
    address them?"), or a sentence that asks nothing ("… ? Answer yes or no."). A part that
    points back to a thing the one before names by its kind or a capitalised name asks
    about that thing: "What car do I drive and when is its service?" asks "when is its
    service (car)"."""
    asked: list[list[str]] = []
    text = _AMPERSAND.sub(" and ", text)  # "agata's rate & what days she comes"
    for number, sentence in enumerate(_AFTER_QUESTION_MARK.split(text.strip())):
        asks = not number or sentence.endswith("?")
        for part in filter(None, map(str.strip, _joined_questions(sentence) if asks
                                     else [sentence])):
            own = asks and len(asked) < MAX_QUESTIONS
            if own and asked and refers_back(part):
                # "… and what is it now?" asks about the rent named before; who "jej" is,
                # when no word names a thing, the answering says (memrepo.answer.ask)
                named = _things_named(" ".join(asked[-1]))
                part = f"{part} ({' '.join(named)})" if named else part
            if own and asked and (whole := _completed(part, " ".join(asked[-1]))):
                part = whole  # "… and on the Octavia?": the plates on the Octavia
            own = own and _has_salient_word(part)
            if asked and not own:
                asked[-1].append(part)
            else:
                asked.append([part])
    return [" ".join(pieces) for pieces in asked] or [text]


def _joined_questions(sentence: str) -> list[str]:
    """The sentence cut before each joining word followed by a question word, a
    preposition allowed between ("… a DO KTOREJ školy chodí?", "… and AT WHICH school")."""
    parts, start = [], 0
    found = list(WORD.finditer(sentence))
    for number, word in enumerate(found[:-1]):
        following = [fold(w[0].lower()) for w in found[number + 1:number + 3]]
        asks = following[0] in _QUESTION_WORDS or (
            len(following) == 2 and following[0] in PREPOSITIONS
            and following[1] in _QUESTION_WORDS) or (
            following[0] in _THEIRS and number + 2 < len(found)) or (  # "… and HIS phone?"
            following[1:] == ["s"] and _whose_thing(sentence[start:word.start()])) or (
            _parallel(following, sentence[start:word.start()]))
        if word.start() > start and fold(word[0].lower()) in _JOINERS and asks:
            parts.append(sentence[start:word.start()])
            start = word.start()
    return _shared_rest([*parts, sentence[start:]])


def _parallel(following: Sequence[str], before: str) -> bool:
    """Whether the words after a joining word repeat a preposition of the part before, the
    same thing asked of another ("the plates ON the van and ON the Octavia", "telefon DO
    Pawła i DO Kasi", "numer DO Chemia-Polu i mail DO AutoDetalu") or the thing itself
    ("ADRES dziadka i ADRES babci") — not "the phone and email OF Acme", one thing's two."""
    folded = [word for _, word in tokens(before)]
    # near its end, after the thing asked ("numer DO Chemia-Polu"): not a verb's "do" after
    # a question word ("What DO Denisa and Petra do …"), "have TO send my invoices", "s"
    said = {word for i, word in enumerate(folded) if i and i >= len(folded) - 3
            and folded[i - 1] not in _QUESTION_WORDS}
    first, *second = following[:2]
    if first in folded and first not in STOP_WORDS and second and second[0] != "s":
        return True  # "ADRES dziadka i ADRES babci", "RATA leasingu i RATA kredytu"
    return first != "s" and ((first in PREPOSITIONS and first in said) or (
        first not in STOP_WORDS and second[:1] != ["s"] and bool(second)
        and second[0] in PREPOSITIONS and second[0] in said))


def _completed(part: str, before: str) -> str:
    """A part cut at a repeated preposition asks what the part before asked, of another:
    "What are the plates on the van | and ON the Octavia?" → "What are the plates on the
    Octavia?", "Daj mi telefon do Pawła | i DO Kasi" → "Daj mi telefon do Kasi", "Ile
    płacimy za prąd w domu, | a ile W warsztacie?" → "Ile płacimy za prąd w warsztacie?";
    "" for a part that asks something of its own."""
    said = list(WORD.finditer(part))
    if said and fold(said[0][0].lower()) in _JOINERS:
        said = said[1:]
    said = said[_asked_again([fold(w[0].lower()) for w in said], before):]
    # "Ile płacimy za prąd w domu, | a ILE w warsztacie?", "… and HOW MUCH at the workshop"
    if not said or _QUESTION_WORDS.intersection(fold(w[0].lower()) for w in said):
        return ""
    preposition = fold(said[0][0].lower())
    if preposition not in PREPOSITIONS:
        return ""
    at = [w.start() for w in WORD.finditer(before) if fold(w[0].lower()) == preposition]
    return f"{before[:at[-1]].rstrip()} {part[said[0].start():]}" if at else ""


def _asked_again(part: Sequence[str], before: str) -> int:
    """How many words a part opens with that repeat the question words the part before
    opened with ("ile …, a ILE w warsztacie?", "how much …, and HOW MUCH at the shop"),
    leaving at least two words: what it asks again, of another."""
    opening = [w for _, w in tokens(before)]
    count = 0
    while count < min(len(part) - 2, len(opening)) and part[count] == opening[count] and (
            part[count] in _QUESTION_WORDS or (count and part[count] in _HOW_MUCH)):
        count += 1
    return count


_HOW_MUCH = frozenset(("much", "many", "long", "often"))


def _shared_rest(parts: list[str]) -> list[str]:
    """Question words joined before or after one rest ask each of it: "WHEN and where is
    Lena's exam?" asks "When is Lena's exam?" and "where is Lena's exam?", "Gdzie mamy
    ubezpieczone auto I DO KIEDY?" also "do kiedy mamy ubezpieczone auto?"."""
    out = []
    for number, part in enumerate(parts):
        rest = _after_question_word(parts[number + 1]) if number + 1 < len(parts) else ""
        before = _after_question_word(parts[number - 1]) if number else ""
        only_asking = all(w in _QUESTION_WORDS or w in _JOINERS or w in PREPOSITIONS
                          for _, w in tokens(part))
        if only_asking and (rest or (before and _TIME_OR_PLACE.intersection(
                w for _, w in tokens(part)))):  # "… auto I DO KIEDY?": until when it is
            part = f"{part.strip().rstrip('?')} {rest or before.strip().rstrip('?') + '?'}"
        out.append(part)
    return out


_TIME_OR_PLACE = frozenset(words_of("when where kiedy gdzie kedy kde kdy dokedy dokiedy"))
"""Question words that, after a question, ask it again of its time or place ("… and
WHEN?"); "… and why?" stays with the question it follows."""


def _after_question_word(part: str) -> str:
    """A part without its joining word and its question word ("and where is X" → "is X");
    "" when it holds nothing else."""
    for word in WORD.finditer(part):
        if fold(word[0].lower()) not in _JOINERS | _QUESTION_WORDS:
            return part[word.start():]
    return ""


def _whose_thing(before: str) -> bool:
    """Whether the words before "and X's …" ask of someone's thing of their own ("When are
    MY DENTIST APPOINTMENT and grandma's cardiology appointment?" asks two): a possessive
    and a word of what is owned — not "mum's and dad's phones", one thing of two people."""
    folded = [word for _, word in tokens(before)]
    marks = [i for i, w in enumerate(folded) if w in _OWN or (
        w == "s" and i and folded[i - 1] not in _CONTRACTED)]
    owners = {i - 1 for i in marks if folded[i] == "s"}
    things = [w for i, w in enumerate(folded) if w not in STOP_WORDS and i not in owners
              and w not in _QUESTION_WORDS and w not in _OWN and w != "s"
              and marks and i > marks[0]]
    return bool(things)


_CONTRACTED = _QUESTION_WORDS | frozenset(words_of("it that there here he she"))
"""Words whose "'s" is "is", not a possessive: "WHERE'S Emma and Liam's wedding?" asks one
thing of two people."""


_THEIRS = frozenset(words_of("his her their its jego jej ich jeho"))
"""A possessive pointing back after a joining word starts a thing asked of whom the part
before named: "What's Oliver's email AND HIS phone number?" asks two."""
PREPOSITIONS = frozenset(words_of("""
at in on to for with from of by do w we z ze na u o od v ve vo zo k ku s so pri pod until till
since"""))


def in_turn(answers: Iterable[Sequence[T]], key: Callable[[T], Hashable]) -> list[T]:
    """The parts' answers merged: each part's first, then each part's second, …; an item
    already taken (the same `key`) is not taken again."""
    taken: dict[Hashable, T] = {}
    for row in itertools.zip_longest(*answers):
        for item in row:
            if item is not None:
                taken.setdefault(key(item), item)
    return list(taken.values())


def names_subject(question: Question, subject: str, named: Iterable[str] = ()) -> bool:
    """Whether a part of a text says whose key it asks about: a subject it names or whose
    words (in any form) it holds, or the asker's own ("my address", "where do I work") —
    "What is the phone", cut from "… and what is the email of Acme?", asks about nobody's
    phone in particular."""
    if subject in named or _OWN.intersection(word for _, word in tokens(question.text)):
        return True
    asked = {form for term in question.terms for form in (term.word, *term.bases)}
    return any(asked.intersection((word, *base_forms(word)))
               for word in WORD.findall(fold(subject)))  # `a_b`, `a-b`: two words


def owner_said_for_all(parts: Sequence[Question], subjects: Iterable[str]) -> bool:
    """Whether a part names one of `subjects` as an owner, which may be said of every part:
    "what is the phone and what is the email OF ACME?", "… and ACME's email?" — not a thing
    asked of itself ("VAT number and when's the next RETURN due?")."""
    forms = [{form for word in WORD.findall(fold(subject)) for form in (word, *base_forms(word))}
             for subject in subjects]
    for part in parts:
        said = [word for _, word in tokens(part.text)]
        for i, word in enumerate(said):
            possessive = (i + 1 < len(said) and said[i + 1] == "s") or (
                i > 0 and said[i - 1] in _OWNER_BEFORE)
            if possessive and any({word, *base_forms(word)} & one for one in forms):
                return True
    return False


_OWNER_BEFORE = frozenset(words_of("of for od dla u"))


def at_its_time(part: Question, text: Question) -> Question:
    """A part of a text that names no time asks at the text's time when it speaks of the
    past ("What was my rent in March and what was the gas bill?"), else now ("What was my
    city in 2021 and what is my city?")."""
    if part.valid is not None or part.known is not None:
        return part
    if not _PAST.intersection(word for _, word in tokens(part.text)):
        return part
    return replace(part, valid=text.valid, known=text.known)


def side_by_side(text: str) -> list[str]:
    """The text asked of each of two names written side by side ("what are KATKA'S AND
    RADEK'S shifts?", "Which schools are TOMÁŠ AND SOFIA at?", "telefony Kasi i Tomka") —
    one question per name, the rest shared; [] where it names no such pair. Only names
    with a capital letter, neither the text's first word nor part of a longer name
    ("Kancelaria Dudek i Wspólnicy" is one firm)."""
    written = unicodedata.normalize("NFC", text)
    found = list(WORD.finditer(written))
    for i in range(1, len(found) - 2):
        first, joiner, second = found[i], found[i + 1], found[i + 2]
        if joiner[0].lower() == "s" and i + 3 < len(found):  # "Katka's and Radek's"
            joiner, second = found[i + 2], found[i + 3]
        if fold(joiner[0].lower()) not in _JOINERS or not (
                _a_name(first[0]) and _a_name(second[0])) or _a_name(found[i - 1][0]):
            continue
        end = second.end()
        if end < len(written) and written[end:end + 2] in ("'s", "’s"):
            end += 2
        after = WORD.search(written, end)
        if after is not None and _a_name(after[0]) and after.start() - end <= 1:
            continue  # "Dudek i Wspólnicy Kancelaria": a longer name
        owner = written[first.end():joiner.start()].rstrip()
        return [f"{written[:first.start()]}{first[0]}{owner}{written[end:]}",
                f"{written[:first.start()]}{written[second.start():end]}{written[end:]}"]
    return []


def _a_name(word: str) -> bool:
    return word[:1].isupper() and word != "I" and fold(word.lower()) not in STOP_WORDS


def _has_salient_word(part: str) -> bool:
    return any(word not in STOP_WORDS for _, word in tokens(part))


def refers_back(part: str) -> bool:
    """Whether a part of a text points back to what the part before named ("… and how
    much do we pay HER?")."""
    pairs = tokens(part)
    folded = [word for _, word in pairs]
    pointing = _BACK_REFERENCES | (_SLAVIC_BACK_REFERENCES if in_slavic(folded) else set())
    return bool(pointing.intersection(folded)) or _ends_with_there(part) or any(
        raw.lower() in _WRITTEN_BACK for raw, _ in pairs)


def _ends_with_there(part: str) -> bool:
    """"… and who's the contact person THERE? (colours)": at the place the part before
    named or answered."""
    said = tokens(part[:_guessed_referent(part)])
    return bool(said) and said[-1][1] == "there"


def with_referent(part: str, naming: str) -> str:
    """A part that points back, read with what the part before named: a possessive
    pronoun before a word becomes the name's possessive ("… i gdzie pracuje JEJ mąż?" →
    "Marta's mąż": her husband, not the asker's); otherwise the name is added after. The
    thing it was guessed to point to stays after it in parentheses ("… who insures it?
    (car)": the salon's car)."""
    guessed = _guessed_referent(part)
    kept = f" {part[guessed:].strip()}" if guessed is not None else ""
    written = WORD.findall(part[:guessed] if guessed is not None else part)
    for i, word in enumerate(written[:-1]):
        if fold(word) in _POSSESSIVE_BACK:
            return " ".join([*written[:i], f"{naming}'s", *written[i + 1:]]) + "?" + kept
    for i, word in enumerate(written):
        if fold(word) in _THING_BACK or word.lower() in _WRITTEN_BACK:  # "… which day do
            # THEY pick up?": the laundry; "… i kto JĄ ubezpiecza?": the Octavia
            return " ".join([*written[:i], naming, *written[i + 1:]]) + "?" + kept
    return f"{part} ({naming})"


def _guessed_referent(part: str) -> int | None:
    """Where the thing guessed for a part pointing back starts: a last "( … )" holding no
    other parenthesis (found without a pattern: a long text costs one pass)."""
    written = part.rstrip()
    start = written.rfind("(")
    if not written.endswith(")") or start < 0 or ")" in written[start:-1]:
        return None
    return start


_WRITTEN_BACK = frozenset(("ją", "nią", "ji"))
"""Words pointing back to a thing only as written: folded, "JĄ" is "ja" (I)."""
_POSSESSIVE_BACK = frozenset(words_of("his her its their jej jego ich jeho jeji jejich"))
_THING_BACK = frozenset(words_of("it they them he she him ona ono oni ony ho go ju mu"))
"""Words standing for the thing or person itself: "… a kedy HO doplatíme?" is when the loan
the part before asked of is paid off; "… and what sport does HE do now?" Matěj's sport."""


def _head_after(folded: list[str], i: int) -> int:
    """The word a possessive owns: the one after it, or — when that word is no word of the
    concept table and the next one is — the next ("our bee VET", "my new CAR"; "my DAD
    live" stops at the role)."""
    table = shipped()
    if i + 1 < len(folded) and not table.knows(folded[i]) and table.knows(folded[i + 1]):
        return i + 1
    return i


def _things_named(question: str) -> list[str]:
    """The words by which a question names its thing: the kind of the answer ("what CAR
    do I drive"), a word after a possessive ("my DAD") or before one ("the ACCOUNTANT's
    phone"), and the names it writes with a capital letter (not its first word, "I", nor
    a date: "in April"); naming none of these, the word after "the"."""
    folded = [word for _, word in tokens(question)]
    dates = {folded[i] for i in find_times(month_names_as_names(question, folded), 0).used}
    owned = {_head_after(folded, i + 1) for i, word in enumerate(folded[:-1])
             if word in POSSESSIVES}
    owned |= {i for i, word in enumerate(folded[:-1]) if folded[i + 1] == "s"}  # "X's"
    things = [folded[i] for i in sorted(kind_positions(folded) | owned)
              if not head_kind(folded[i])]  # "aké ČÍSLO má účtovníčka": a number is no thing
    names = [word for word in WORD.findall(unicodedata.normalize("NFC", question))[1:]
             if word[:1].isupper() and word != "I"]  # as written: "(Matěj)" names him
    found = [word for word in dict.fromkeys([*things, *names])
             if fold(word.lower()) not in STOP_WORDS and fold(word.lower()) not in dates]
    if not found:  # "who's THE VAN insured with and how much is it": the thing after "the"
        found = [folded[j] for j in dict.fromkeys(_head_after(folded, i + 1)
                                                  for i, word in enumerate(folded[:-1])
                                                  if word == "the")
                 if folded[j] not in STOP_WORDS and folded[j] not in dates]
    return found


def said_of_another(part: str, before: str) -> list[str]:
    """The part before asked again of another thing, when a part is a question word and
    at most three words naming that thing ("… , a JAKI WARSZTAT?", "… and WHAT ABOUT
    UNION?"): the text before with one of its words replaced by that thing's words — its
    capitalised names first, then its other words from the last — for the answering to try
    in turn; [] for a part that asks anything of its own."""
    said = [w[0] for w in WORD.finditer(part)]
    folded = [fold(w.lower()) for w in said]
    start = 1 if folded[:1] and folded[0] in _JOINERS else 0
    while start < len(folded) and (folded[start] in _QUESTION_WORDS or folded[start] in _ABOUT):
        start += 1
    thing = said[start:]
    if not thing or len(thing) > 3 or start == 0 or any(
            fold(w.lower()) in STOP_WORDS for w in thing):
        return []
    words = [w[0] for w in WORD.finditer(before)]
    content = [i for i, w in enumerate(words) if i and fold(w.lower()) not in STOP_WORDS
               and fold(w.lower()) not in _QUESTION_WORDS]
    names = [i for i in content if words[i][:1].isupper()]
    order = [*names, *(i for i in reversed(content) if i not in names)]
    return [" ".join([*words[:i], *thing, *words[i + 1:]]) + "?" for i in order]


_ABOUT = frozenset(words_of("about co"))
"""Words after a question word before the thing asked of: "what ABOUT Union", "a CO
warsztat"."""

