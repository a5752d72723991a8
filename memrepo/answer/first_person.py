"""The language and the person a question speaks in (memrepo.answer.subjects): Polish,
Slovak or Czech rather than English, the words by which the asker speaks of themself ("I",
"my", "we", "our", "mój", "nasz" …), and a verb in the first person ("Gdzie mieszkam?",
"Koľko platíme?") whose subject is the asker though no pronoun says so.

Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from memrepo.answer.concepts import ConceptTable
from memrepo.answer.stopwords import ENGLISH, POLISH, SLOVAK
from memrepo.core.text import words_of

ASKER = frozenset(words_of("""
i me myself ja mnie mi mna mne mnou"""))
"""Words by which the asker speaks of themself (en/pl/sk/cs, folded)."""
ASKERS_OWN = frozenset(words_of("""
my mine moj moja moje moi mojego mojej mojemu moim moimi moich mojho mojom mojim mojich
muj meho memu mem mym mych"""))
"""Possessives of the asker: "my phone" is the asker's, "my mother's phone" the mother's."""
OURS = frozenset(words_of("""
we us our ours ourselves nasz nasza nasze nasi naszego naszej naszemu naszym naszych naszymi
nas nam nami nase nasa nasho nasej nasmu nasom nasim nasich nasemu nasem"""))
"""The asker with others ("our IČO", "we pay"): the household or the business, not the
asker alone — a soft mention that restricts nothing."""
OUR_OWN = frozenset(words_of("""
our ours nasz nasza nasze nasi naszego naszej naszemu naszym naszych naszymi nase nasa nasho
nasej nasmu nasom nasim nasich nasemu nasem"""))
"""Possessives of the asker with others ("our accountant")."""


def in_slavic(question: Sequence[str]) -> bool:
    """Whether a question is in Polish, Slovak or Czech rather than English (more of their
    function words than English ones)."""
    slavic_words = POLISH | SLOVAK | _ASKING
    prepositions = sum(polish_we(question, i) for i in range(len(question)))
    english = sum(word in ENGLISH and word not in slavic_words
                  for word in question) - prepositions
    slavic = sum(word in slavic_words and word not in ENGLISH
                 for word in question) + prepositions
    if slavic == english:  # "Podaj telefon i maila do Zdrowego Talerza": no word decides
        return any(map(_looks_slavic, question))
    return slavic > english


_ASKING = frozenset(words_of("""podaj podajcie powiedz pokaz przypomnij prosze daj dajcie
povedz ukaz pripomen prosim rekni"""))
"""Words asking for something in Polish, Slovak or Czech ("PODAJ NIP firmy i numer konta")."""


def polish_we(question: Sequence[str], i: int) -> bool:
    """Polish "we" (in) before a word in w- or f- ("WE wrześniu", "we Wrocławiu"): no
    English "we"."""
    return question[i] == "we" and i + 1 < len(question) and question[i + 1][:1] in ("w", "f")


def _looks_slavic(word: str) -> bool:
    """A word spelt as English words never are ("ZDROWEGO", "TALERZA", "przedszkola")."""
    return len(word) > 3 and (any(pair in word for pair in _SLAVIC_PAIRS)
                              or word.endswith(_SLAVIC_ENDINGS))


_SLAVIC_PAIRS = ("rz", "sz", "cz", "dz", "zd", "yj", "ij")
_SLAVIC_ENDINGS = ("ego", "emu", "ych", "ami", "owi", "ej", "iu", "ou")


_FIRST_SINGULAR = ("ę", "am", "łem", "lem", "iem", "ujem", "im", "ím")
"""Endings of a verb in the first person singular ("płacę", "bývam", "mieszkałem", "beriem",
"pracujem", "platím") — not "-em" alone, a noun's instrumental ("z LEKARZEM", "MĘŻEM")."""
_FIRST_PLURAL = ("my", "me")


def first_person_singular(raw: Sequence[str], folded: Sequence[str],
                           concepts: ConceptTable) -> bool:
    """A Polish, Slovak or Czech verb of the table in the first person singular ("Gdzie
    mieszkam?", "Koľko platím?"), or "to be" or "to have" so ("Na co jestem uczulona?",
    "Kiedy mam urlop?"): the asker is its subject though no pronoun says so."""
    return bool(_I_AM.intersection(folded)) or bool(_I_GO.intersection(
        written.lower() for written in raw)) or any(
        concepts.knows(word) and written.endswith(_FIRST_SINGULAR) and len(word) > 4
        and not (i and folded[i - 1] in _GOVERNING)  # "szczepienie NA WŚCIEKLIZNĘ": a noun
        for i, (written, word) in enumerate(zip(raw, folded, strict=True)))


_I_AM = frozenset(words_of("""jestem mam bylem bylam som mam bol bola jsem mel mela
znam umiem wiem musze moge poznam viem musim mozem chcem potrebujem
znam vim umim musim muzu chci potrebuji potrebuju"""))
"""The first person singular of "to be", "to have" and of everyday verbs no concept holds
("jakie języki ZNAM", "koľko MUSÍM zaplatiť")."""
_GOVERNING = frozenset(words_of("na za do w we o przez po pod nad przed z ze u od dla"))
"""Polish prepositions: a word in -ę after one is a noun's accusative, not "I" (płacę)."""
_I_GO = frozenset(("idę", "jadę", "chodzę", "pójdę", "pojadę", "idem", "pôjdem", "chodím",
                   "jdu", "půjdu", "jedu", "pojedu"))
"""The first person singular of "to go", as written: folded, Polish "idę" would be Slovak
"ide" ("kedy IDE Ema k zubárovi": she goes)."""
_WE_ARE = frozenset(words_of("jestesmy mamy bylismy sme mame boli jsme mame byli"))


def first_person_plural(raw: Sequence[str], folded: Sequence[str],
                         concepts: ConceptTable) -> bool:
    return bool(_WE_ARE.intersection(folded)) or any(
        concepts.knows(word) and written.endswith(_FIRST_PLURAL) and len(word) > 5
        for written, word in zip(raw, folded, strict=True))
