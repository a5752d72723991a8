"""How much each word of a question weighs in choosing its keys (memrepo.answer.scoring):
its rarity among the scope's keys; the asker, a possessor and a word no key or concept holds
once the question names whose fact it is weigh nothing; a plain verb ("DRIVE", "use") names
no thing; whether a key misses the rarest words.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from memrepo.answer.candidates import possessor_position
from memrepo.answer.concepts import ConceptTable
from memrepo.answer.first_person import in_slavic
from memrepo.answer.key_evidence import HEADS
from memrepo.answer.mentions import Mentions
from memrepo.answer.reading import Reading
from memrepo.cache import Connection
from memrepo.cache.lookups import key_name_words, scope_term_counts
from memrepo.core.stems import base_forms
from memrepo.core.text import words_of


def paid_for(folded: Sequence[str], i: int) -> bool:
    """Whether a word is the thing a payment is for: "pay FOR (the) WATER", "płacę ZA wodę"."""
    before = [w for w in folded[max(0, i - 2):i] if w not in _ARTICLES]
    return bool(before) and before[-1] in ("for", "za")


def paid_to(read: Reading, i: int, money: frozenset[str]) -> bool:
    """Whether a word is whom a payment goes to ("ile płacimy DO SPÓŁDZIELNI", "what do we
    pay TO the council"; `money`: the concepts of paying): a key that does not hold it is
    another payment."""
    before = [j for j in range(max(0, i - 3), i) if read.folded[j] not in _ARTICLES]
    return len(before) >= 2 and read.folded[before[-1]] in ("to", "do") and any(
        read.concepts.get(j, frozenset()) & money for j in before[:-1])


_ARTICLES = frozenset(("the", "a", "an", "my", "our"))


def misses_rarest(held: set[str] | frozenset[str], counted: set[str],
                   weights: dict[str, float], rarest: float, paid_for: set[str]) -> bool:
    """Whether a key holds none of the question's rarest words. A word it holds only
    through the concept table does not stand for the thing a payment is for when that is
    as rare and left out ("how much do I PAY for WATER": `rent.amount` holds 'pay' as a
    price, not 'water')."""
    top = {w for w, weight in weights.items() if weight >= rarest - 1e-9}
    if top & {w for w in held if w[0] != "~"}:
        return False
    return not (top & counted) or bool((top & paid_for) - counted)


def question_weights(conn: Connection, scope: str, read: Reading, mentions: Mentions,
             concepts: ConceptTable) -> tuple[dict[str, float], set[int]]:
    """Each counted word (by position, as "#3") weighted by its rarity among the scope's
    keys (what another scope records never changes this one's answers); the
    asker and a possessor ("Lenka's mother") not at all. Once the question names whose fact
    it asks about, a word that no key and no concept holds ("in PRAGUE", "on SATURDAY")
    cannot tell that subject's keys apart: it weighs nothing (and is returned apart)."""
    counted = [i for i in read.salient if not possessor_position(i, mentions)
               and i not in read.optional and i not in mentions.set_aside]
    forms = {f for i in counted for f in base_forms(read.folded[i])}
    counts, n = scope_term_counts(conn, scope, forms)
    named = any(m.identities for m in mentions.found) or (
        mentions.asker is not None and bool(mentions.asker.identities))
    verbs = {i for i in counted if read.folded[i] in PLAIN_VERBS and not read.concepts.get(i)}
    in_keys = key_name_words(conn, forms) if named or verbs else set()
    out: dict[str, float] = {}
    unplaced = set()
    for i in counted:
        df = max((counts.get(f, 0) for f in base_forms(read.folded[i])), default=0)
        if named and _says_nothing_of_keys(i, read, mentions, in_keys):
            if i not in verbs and not set(base_forms(read.folded[i])) & PLAIN_VERBS:
                unplaced.add(i)
            continue
        if i in verbs and not set(base_forms(read.folded[i])) & in_keys:
            continue  # "which car did we DRIVE", "can we USE the parking": the verb of
            # a thing asked about names no other thing
        out[f"#{i}"] = math.log((n - df + 0.5) / (df + 0.5) + 1) if n else 1.0
    for cue, weight in read.cues.items():
        out[cue] = weight
    return out, unplaced


def _says_nothing_of_keys(i: int, read: Reading, mentions: Mentions, in_keys: set[str],
                          ) -> bool:
    """A word no key's subject or relation holds and no concept names, outside a mention
    and not the modifier of a compound ("ROOM number", "SHOE size", "numer POKOJU": the
    thing asked about)."""
    if read.concepts.get(i) or any(m.start <= i < m.end for m in mentions.found):
        return False
    if set(base_forms(read.folded[i])) & in_keys:
        return False
    # the modifier of a compound names the thing asked about: English puts it first
    # ("ROOM number"), Polish, Slovak and Czech after its head ("numer POKOJU")
    beside = i - 1 if in_slavic(read.folded) else i + 1
    return not (0 <= beside < len(read.folded) and (beside in read.salient
                                                     or read.folded[beside] in HEADS))


PLAIN_VERBS = frozenset(words_of("""
drive drives drove driven driving take takes took taken taking get gets got gotten getting
use uses used using go goes went gone going come comes came coming make makes made making
keep keeps kept keeping bring brings brought see sees saw seen visit visits visited call
calls called meet meets met send sends sent ask asks asked leave leaves left stay stays
stayed need needs needed want wants wanted hold holds held run runs ran running put puts
wear wears wore carry carries carried handle handles handled deal deals dealt happen
happens happened belong belongs belonged stand stands stood sit sits sat mean means meant
say says said tell tells told know knows knew think thinks thought remember remembers
feel feels felt seem seems seemed become becomes became find finds found
give gives gave given show shows showed shown reach reaches reached expect expects expected
do does did done doing
chodzi chodza chodzil chodzila chodzili chodzic chodi chodia chodil chodila chodili chodit
chodime chodzimy jezdzi jezdzimy jezdzil jezdzila jezdzili jazdi jazdime jazdil jazdila
jezdi jezdime jezdil jezdila uzywa uzywamy uzywal uzywala pouziva pouzivame pouzival
pouzivala pouzivaji bierze bierzemy bral brala berie berieme bral brala bere bereme
dava davame davam davaju davaji davate davali daval davala dajemy daje dajecie daja dajesz
dawal dawala dawali dawalismy
wychodzi wychodza wychodzilo wychodzil wyszlo wyszla wyjdzie vychadza vychadzal vychadzalo
vyslo vyjde vychazi vychazelo schodzi schodza zejdzie sciaga sciagaja pobiera pobieraja
strhava strhavaju strhne strhavaji
save saves saved saving store stores stored storing note notes noted noting
znal znala znalo znali vedel vedela vedelo vedeli
robi robia robil robila robili robisz robimy robie robis robime dela delaji delal delala
delali delas delame
jedziemy jedzie jada jedziesz jade jechac pojedziemy pojedzie jechalismy jechali jedeme
jede jedou jedes jedu pojedeme ideme ides pojdeme idziemy idzie pojdziemy
"""))
"""Verbs that name nothing of their own ("which car did we DRIVE", "what cut does Booking
TAKE", "until when can we USE the parking"): counted only where a key or a concept holds
them, so that a thing asked about by such a verb is not refused for it."""
