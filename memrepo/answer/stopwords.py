"""Function words of questions in English, Polish, Slovak and Czech, folded (memrepo.core.text).

Curated in the repository rather than taken from a package: the maintained lists
(stop-words, stopwords-iso: the same data, BSD-3/MIT) also drop content words that people
ask about — "bill", "name", "home", "research", "value", "zł", "roku", "nový" — which would
make those questions unanswerable, and their English list has 1,300 entries. These lists
hold only pronouns, auxiliaries, prepositions, conjunctions, particles and question words;
they were started from those lists and cut by hand. Words that are names somewhere
("Sam", "Ale") are left out on purpose. Date words ("now", "teraz", "dnes") are read by
memrepo.answer.question before stop words are dropped.
"""

from __future__ import annotations

from memrepo.core.text import words_of

ENGLISH = words_of("""
a about above after again against all also am an and any are aren as at be because been
before being below between both but by can cannot could couldn d did didn do does doesn
doing don down during each either else ever every few for from further had hadn has hasn
have haven having he her here hers herself him himself his how i if in into is isn it its
itself just ll m ma may me might mightn more most much must mustn my myself needn no nor
not now o of off on once only or other our ours ourselves out over own please re s same
shall shan she should shouldn so some such t than that the their theirs them themselves
then there these they this those through to too under until up upon us ve very was wasn
we were weren what whats when whenever where which while who whom whose why will with
would wouldn y yet you your yours yourself yourselves whatever whichever anyone
anything someone something tell let lets many use used uses using need needs needed
""")

POLISH = words_of("""
a aby ach acz aczkolwiek aj albo ale alez ani az bardziej bardzo bez bo bowiem by byc byl
byla bylam bylem byli bylo byly bylismy bylysmy byliscie bym bys bede bedzie bedziesz beda ci
cie ciebie co cokolwiek
cos czy czyli czemu czego czym dla dlaczego dlatego do dokad dosc gdy gdyby gdyz gdzie
gdziekolwiek gdzies go i ich ile im inna inne inny ja jak jaka jakas jakby jaki jakie
jakiego jakiej jakim jakimi jakich jakis jako jakos je jego jej jemu jest jestem jestes
jestesmy jeszcze ktorymi jesli jezeli juz kazdy kiedy kim kims kogo komu kto ktokolwiek ktos
ktora ktore ktorego
ktorej ktory ktorych ktorym ktorzy ku lecz lub ma maja mam mamy masz macie mi mial miala
mialam mialem mieli mimo miedzy mna mnie moge moi moim moja moje mojego mojej moich moj
mozna moze mozemy mozesz moga mozecie mu my na nad nam nami nas nasi nasz nasza nasze
naszego naszej naszych natomiast
nawet nia nic nich nie niech niego niej niemu nigdy nim nimi niz o obok od oraz oto po pod
podczas pomimo ponad poniewaz poza prosze przeciez przed przez przy sa sie skad sobie soba
swoj swoja swoje swoim swojego swojej ta tak taka taki takie takze tam te tego tej temu ten
tez to toba tobie tu tutaj twoj twoja twoje twojego ty tych tylko tym u w wam wami was wasz
wasza wasze we wiec wszystko wy wlasnie z za ze zeby
""")

SLOVAK = words_of("""
mozem mozes mozeme mozete mozu muzu muzes muze muzeme muzete muzou
a aby aj ak ako aka ake akeho akej akom akou aku aky akym akych akymi ktorymi ale alebo ani asi
az bez bol
bola bolo
boli bude budem budes budeme budete budu bud by byt cez co coho com comu ci do este i iba
ich im ine iny ja je jeho jej jemu ju k kam kde ked kedy kto koho kolko kom komu ktora ktore
ktoreho ktorej ktori ktorom ktorou ktoru ktory ktorych ku lebo len ma mal mala mali malo
mam mame mas mat mate maju medzi mi mna mne mnou moj moja moje mojho mojej mojom mojich
mojou moju mu my na nad nam nami nas nasa nase nasho nasej nech nez nie nic o od odo on
ona oni ono ony po pod podla pokial potom pre pred predo preto pretoze preco pri prosim s
sa si sme so som ste su ta tak taky takze tam te teda ten tento tej tie tieto tiez to toho
tom tomto tu tvoj tvoja tvoje ty tym uz v vam vas vase vo vy vsak z za zo ze
""")

CZECH = words_of("""
jaky jaka jake jakou jakeho jakem jakym jakymi jaci jakych kterymi ktery ktera ktere kterou ktereho
kteremu kterem kterym kteri kterych kdo koho komu kym co ceho cemu cim kde kdy kam odkud
proc jak kolik jsou jsem jsi jste jsme je byl byla bylo byli byly bude budou budeme mam
mas ma mame maji muj moje moji mych mym meho memu tvuj tvoje jeho jeji jejich nas nase
nasi naseho nasem nasim vase se si sebe pro pri pred mezi kvuli taky take jen uz jeste
nebo ze aby kdyz protoze ten ta ty tento tato toto tomu mel mela melo meli mely
ji ho jich nemu nej
""")
"""Czech, for questions in Czech about a Czech household; names ("Tom", "Tim", "Jim") and
words of other languages' content ("mate") are left out."""

HAVING_AND_BEING = words_of("""
mielismy mieliscie mialo mialy mialas miales bedziemy bedziecie bedziesz""")
"""Polish forms of "to have" and "to be" no list above has ("jaki rabat MIELIŚMY w Iskrze
w lutym")."""

POSSESSIVES_OF_ASKER = words_of("""
mine mem moimi mojemu mojim nasemu nasich nasmu nasom naszemu naszym naszymi""")
"""The asker's possessives no list above has ("kto jest NASZYM dentystą?")."""

STOP_WORDS: frozenset[str] = (ENGLISH | POLISH | SLOVAK | CZECH | HAVING_AND_BEING
                               | POSSESSIVES_OF_ASKER)

QUESTION_WORDS = frozenset(words_of("""
what which who whom whose when where why how co jaki jaka jakie ktory ktora ktore kto kogo
kiedy gdzie dlaczego czemu ile jak czy aky aka ake kde kedy preco kolko ako ci jakiej jakiego
jakim jakich jakimi jaka jaki ktorej ktorego ktorym ktorych ktorymi akej akeho akom akych
akymi ktoreho ktorom ktorych jake jakou jakem kdo kdy proc kolik dokedy dokiedy dokdy odkedy
odkiedy odkdy ktery ktera ktere ktereho kterem kterou kterym kterych ktoru aku kam skad
odkud odkial koho komu kym kim czym czego cim coho"""))
"""The words that open a question. A joining word right before one starts another question
("What car do I drive AND WHEN is the oil change?"); a noun right after one is what it asks
("jaki samochód MAMY": we have, not mum's)."""
