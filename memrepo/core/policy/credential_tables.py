"""The credential words of core.policy.credential_words, read: its terms by their
first folded word (`terms()`) and the regex of every spelling (`line_words()`). Written by
`credential_words.tables_source()`; do not edit (after a change to the tables there, write
this file again with it: tests/core/policy/credential_words_test.py checks it is current)."""

TERMS: dict[str, tuple[tuple[tuple[str, ...], str, bool], ...]] = {
    'password': (
        (('password',), 'a password', False),
    ),
    'passwd': (
        (('passwd',), 'a password', False),
    ),
    'pwd': (
        (('pwd',), 'a password', False),
    ),
    'passcode': (
        (('passcode',), 'a password', False),
    ),
    'passphrase': (
        (('passphrase',), 'a password', False),
    ),
    'pass': (
        (('pass', 'phrase'), 'a password', False),
    ),
    'master': (
        (('master', 'password'), 'a password', False),
        (('master', 'key'), 'an API key', False),
    ),
    'passwort': (
        (('passwort',), 'a password', False),
    ),
    'kennwort': (
        (('kennwort',), 'a password', False),
    ),
    'login': (
        (('login', 'password'), 'a password', False),
        (('login', 'credentials'), 'credentials', False),
    ),
    'one': (
        (('one', 'time', 'password'), 'a password', False),
    ),
    'security': (
        (('security', 'code'), 'a card security code', False),
    ),
    'card': (
        (('card', 'security', 'code'), 'a card security code', False),
        (('card', 'verification', 'code'), 'a card security code', False),
        (('card', 'verification', 'value'), 'a card security code', False),
    ),
    'sicherheitscode': (
        (('sicherheitscode',), 'a card security code', False),
    ),
    'kartenprufnummer': (
        (('kartenprufnummer',), 'a card security code', False),
    ),
    'door': (
        (('door', 'code'), 'an access code', False),
    ),
    'gate': (
        (('gate', 'code'), 'an access code', False),
    ),
    'alarm': (
        (('alarm', 'code'), 'an access code', False),
    ),
    'access': (
        (('access', 'code'), 'an access code', False),
        (('access', 'token'), 'a token', False),
        (('access', 'key'), 'an API key', False),
    ),
    'entry': (
        (('entry', 'code'), 'an access code', False),
    ),
    'safe': (
        (('safe', 'code'), 'an access code', False),
    ),
    'unlock': (
        (('unlock', 'code'), 'an access code', False),
    ),
    'lock': (
        (('lock', 'code'), 'an access code', False),
    ),
    'keypad': (
        (('keypad', 'code'), 'an access code', False),
    ),
    'garage': (
        (('garage', 'code'), 'an access code', False),
    ),
    'zugangscode': (
        (('zugangscode',), 'an access code', False),
    ),
    'turcode': (
        (('turcode',), 'an access code', False),
    ),
    'geheimzahl': (
        (('geheimzahl',), 'a PIN', False),
    ),
    'persoenliche': (
        (('persoenliche', 'geheimzahl'), 'a PIN', False),
    ),
    'token': (
        (('token',), 'a token', False),
    ),
    'auth': (
        (('auth', 'token'), 'a token', False),
    ),
    'api': (
        (('api', 'token'), 'a token', False),
        (('api', 'key'), 'an API key', False),
        (('api', 'schlussel'), 'an API key', False),
        (('api', 'kluc'), 'a private key', True),
        (('api', 'klic'), 'a private key', True),
    ),
    'bearer': (
        (('bearer', 'token'), 'a token', False),
    ),
    'refresh': (
        (('refresh', 'token'), 'a token', False),
    ),
    'bot': (
        (('bot', 'token'), 'a token', False),
    ),
    'apikey': (
        (('apikey',), 'an API key', False),
    ),
    'secret': (
        (('secret', 'access', 'key'), 'an API key', False),
        (('secret', 'recovery', 'phrase'), 'a wallet seed phrase', False),
        (('secret', 'key'), 'an API key', False),
        (('secret',), 'a secret', False),
    ),
    'encryption': (
        (('encryption', 'key'), 'an API key', False),
    ),
    'signing': (
        (('signing', 'key'), 'an API key', False),
    ),
    'client': (
        (('client', 'secret'), 'a secret', False),
    ),
    'app': (
        (('app', 'secret'), 'a secret', False),
    ),
    'shared': (
        (('shared', 'secret'), 'a secret', False),
    ),
    'webhook': (
        (('webhook', 'secret'), 'a secret', False),
    ),
    'private': (
        (('private', 'key'), 'a private key', False),
    ),
    'privater': (
        (('privater', 'schlussel'), 'a private key', False),
    ),
    'geheimer': (
        (('geheimer', 'schlussel'), 'a private key', False),
    ),
    'recovery': (
        (('recovery', 'code'), 'a recovery or one-time code', False),
        (('recovery', 'codes'), 'a recovery or one-time code', False),
        (('recovery', 'key'), 'a recovery or one-time code', False),
        (('recovery', 'phrase'), 'a wallet seed phrase', False),
    ),
    'backup': (
        (('backup', 'code'), 'a recovery or one-time code', False),
        (('backup', 'codes'), 'a recovery or one-time code', False),
    ),
    '2': (
        (('2', 'fa', 'backup', 'codes'), 'a recovery or one-time code', False),
        (('2', 'fa', 'code'), 'a recovery or one-time code', False),
        (('2', 'fa', 'codes'), 'a recovery or one-time code', False),
        (('2', 'fa', 'secret'), 'a recovery or one-time code', False),
    ),
    'otp': (
        (('otp', 'secret'), 'a recovery or one-time code', False),
        (('otp',), 'a recovery or one-time code', False),
    ),
    'totp': (
        (('totp', 'secret'), 'a recovery or one-time code', False),
        (('totp',), 'a recovery or one-time code', False),
    ),
    'mfa': (
        (('mfa', 'secret'), 'a recovery or one-time code', False),
        (('mfa', 'code'), 'a recovery or one-time code', False),
        (('mfa', 'codes'), 'a recovery or one-time code', False),
    ),
    'wiederherstellungscode': (
        (('wiederherstellungscode',), 'a recovery or one-time code', False),
    ),
    'seed': (
        (('seed', 'phrase'), 'a wallet seed phrase', False),
        (('seed', 'words'), 'a wallet seed phrase', False),
    ),
    'mnemonic': (
        (('mnemonic', 'phrase'), 'a wallet seed phrase', False),
        (('mnemonic',), 'a wallet seed phrase', False),
    ),
    'wallet': (
        (('wallet', 'seed'), 'a wallet seed phrase', False),
    ),
    'credentials': (
        (('credentials',), 'credentials', False),
    ),
    'creds': (
        (('creds',), 'credentials', False),
    ),
    'zugangsdaten': (
        (('zugangsdaten',), 'credentials', False),
    ),
    'haslo': (
        (('haslo',), 'a password', True),
        (('haslo',), 'a password', True),
    ),
    'heslo': (
        (('heslo',), 'a password', True),
    ),
    'pin': (
        (('pin', 'code'), 'a PIN', True),
        (('pin', 'number'), 'a PIN', True),
        (('pin', 'kod'), 'a PIN', True),
        (('pin', 'kod'), 'a PIN', True),
        (('pin', 'code'), 'a PIN', True),
        (('pin',), 'a PIN', True),
    ),
    'pincode': (
        (('pincode',), 'a PIN', True),
    ),
    'kod': (
        (('kod', 'do', 'drzwi'), 'an access code', True),
        (('kod', 'do', 'bramy'), 'an access code', True),
        (('kod', 'do', 'alarmu'), 'an access code', True),
        (('kod', 'do', 'sejfu'), 'an access code', True),
        (('kod', 'do', 'domofonu'), 'an access code', True),
        (('kod', 'k', 'dveram'), 'an access code', True),
        (('kod', 'od', 'dveri'), 'an access code', True),
        (('kod', 'od', 'alarmu'), 'an access code', True),
        (('kod', 'k', 'alarmu'), 'an access code', True),
        (('kod', 'pin'), 'a PIN', True),
        (('kod', 'pin'), 'a PIN', True),
        (('kod', 'puk'), 'a PUK', True),
        (('kod', 'puk'), 'a PUK', True),
        (('kod', 'cvv'), 'a card security code', True),
        (('kod', 'cvc'), 'a card security code', True),
        (('kod', 'cvv'), 'a card security code', True),
        (('kod', 'zabezpieczajacy'), 'a card security code', True),
        (('kod', 'dostepu'), 'an access code', True),
        (('kod', 'alarmu'), 'an access code', True),
        (('kod', 'odzyskiwania'), 'a recovery or one-time code', True),
    ),
    'numer': (
        (('numer', 'pin'), 'a PIN', True),
    ),
    'pinkod': (
        (('pinkod',), 'a PIN', True),
    ),
    'puk': (
        (('puk', 'code'), 'a PUK', True),
        (('puk', 'kod'), 'a PUK', True),
        (('puk',), 'a PUK', True),
    ),
    'cvv': (
        (('cvv', '2'), 'a card security code', True),
        (('cvv',), 'a card security code', True),
    ),
    'cvc': (
        (('cvc', '2'), 'a card security code', True),
        (('cvc',), 'a card security code', True),
    ),
    'cvn': (
        (('cvn',), 'a card security code', True),
    ),
    'bezpecnostny': (
        (('bezpecnostny', 'kod'), 'a card security code', True),
    ),
    'bezpecnostni': (
        (('bezpecnostni', 'kod'), 'a card security code', True),
    ),
    'pristupovy': (
        (('pristupovy', 'kod'), 'an access code', True),
        (('pristupovy', 'kod'), 'an access code', True),
    ),
    'klucz': (
        (('klucz', 'api'), 'a private key', True),
        (('klucz', 'prywatny'), 'a private key', True),
    ),
    'sukromny': (
        (('sukromny', 'kluc'), 'a private key', True),
    ),
    'soukromy': (
        (('soukromy', 'klic'), 'a private key', True),
    ),
    'kody': (
        (('kody', 'zapasowe'), 'a recovery or one-time code', True),
        (('kody', 'odzyskiwania'), 'a recovery or one-time code', True),
    ),
    'fraza': (
        (('fraza', 'odzyskiwania'), 'a recovery or one-time code', True),
    ),
    'obnovovaci': (
        (('obnovovaci', 'kod'), 'a recovery or one-time code', True),
        (('obnovovaci', 'kody'), 'a recovery or one-time code', True),
    ),
    'obnovovacie': (
        (('obnovovacie', 'kody'), 'a recovery or one-time code', True),
    ),
    'zalozne': (
        (('zalozne', 'kody'), 'a recovery or one-time code', True),
    ),
    'zalozni': (
        (('zalozni', 'kody'), 'a recovery or one-time code', True),
    ),
    'dane': (
        (('dane', 'logowania'), 'credentials', True),
        (('dane', 'dostepowe'), 'credentials', True),
    ),
    'prihlasovacie': (
        (('prihlasovacie', 'udaje'), 'credentials', True),
    ),
    'prihlasovaci': (
        (('prihlasovaci', 'udaje'), 'credentials', True),
    ),
}

LINE_WORDS = (
    'card[ _.-]?verification[ _.-]?value|persoenliche[ _.-]?geheimzahl|card[ _.-]?verificatio'
    'n[ _.-]?code|secret[ _.-]?recovery[ _.-]?phrase|wiederherstellungscode|kod[ _.-]?zabezpi'
    'eczajacy|kod[ _.-]?zabezpieczający|prihlasovacie[ _.-]?udaje|prihlasovacie[ _.-]?údaje|c'
    'ard[ _.-]?security[ _.-]?code|fraza[ _.-]?odzyskiwania|geheimer[ _.-]?schlussel|prihlaso'
    'vaci[ _.-]?udaje|privater[ _.-]?schlussel|přihlašovací[ _.-]?údaje|kody[ _.-]?odzyskiwan'
    'ia|login[ _.-]?credentials|one[ _.-]?time[ _.-]?password|secret[ _.-]?access[ _.-]?key|2'
    'fa[ _.-]?backup[ _.-]?codes|bezpecnostni[ _.-]?kod|bezpecnostny[ _.-]?kod|bezpečnostní[ '
    '_.-]?kód|bezpečnostný[ _.-]?kód|kartenprufnummer|kod[ _.-]?odzyskiwania|obnovovacie[ _.-'
    ']?kody|obnovovacie[ _.-]?kódy|kod[ _.-]?do[ _.-]?domofonu|master[ _.-]?password|mnemonic'
    '[ _.-]?phrase|obnovovaci[ _.-]?kody|obnovovací[ _.-]?kódy|recovery[ _.-]?phrase|sicherhe'
    'itscode|dane[ _.-]?dostepowe|dane[ _.-]?dostępowe|dane[ _.-]?logowania|encryption[ _.-]?'
    'key|klucz[ _.-]?prywatny|login[ _.-]?password|obnovovaci[ _.-]?kod|obnovovací[ _.-]?kód|'
    'pristupovy[ _.-]?kod|prístupový[ _.-]?kód|přístupový[ _.-]?kód|recovery[ _.-]?codes|webh'
    'ook[ _.-]?secret|api[ _.-]?schlussel|client[ _.-]?secret|kod[ _.-]?do[ _.-]?alarmu|kod[ '
    '_.-]?od[ _.-]?alarmu|kody[ _.-]?zapasowe|kód[ _.-]?od[ _.-]?alarmu|recovery[ _.-]?code|r'
    'efresh[ _.-]?token|security[ _.-]?code|shared[ _.-]?secret|soukromy[ _.-]?klic|soukromý['
    ' _.-]?klíč|sukromny[ _.-]?kluc|súkromný[ _.-]?kľúč|access[ _.-]?token|backup[ _.-]?codes'
    '|bearer[ _.-]?token|kod[ _.-]?do[ _.-]?bramy|kod[ _.-]?do[ _.-]?drzwi|kod[ _.-]?do[ _.-]'
    '?sejfu|kod[ _.-]?k[ _.-]?alarmu|kod[ _.-]?k[ _.-]?dveram|kod[ _.-]?od[ _.-]?dveri|kód[ _'
    '.-]?k[ _.-]?alarmu|kód[ _.-]?k[ _.-]?dverám|kód[ _.-]?od[ _.-]?dveří|recovery[ _.-]?key|'
    'zalozne[ _.-]?kody|zalozni[ _.-]?kody|zugangsdaten|záložné[ _.-]?kódy|záložní[ _.-]?kódy'
    '|access[ _.-]?code|backup[ _.-]?code|credentials|garage[ _.-]?code|keypad[ _.-]?code|kod'
    '[ _.-]?dostepu|kod[ _.-]?dostępu|pass[ _.-]?phrase|private[ _.-]?key|seed[ _.-]?phrase|s'
    'igning[ _.-]?key|totp[ _.-]?secret|unlock[ _.-]?code|wallet[ _.-]?seed|zugangscode|2fa[ '
    '_.-]?secret|access[ _.-]?key|alarm[ _.-]?code|app[ _.-]?secret|auth[ _.-]?token|entry[ _'
    '.-]?code|geheimzahl|kod[ _.-]?alarmu|master[ _.-]?key|mfa[ _.-]?secret|otp[ _.-]?secret|'
    'passphrase|pin[ _.-]?number|secret[ _.-]?key|seed[ _.-]?words|2fa[ _.-]?codes|api[ _.-]?'
    'token|bot[ _.-]?token|door[ _.-]?code|gate[ _.-]?code|klucz[ _.-]?api|lock[ _.-]?code|mf'
    'a[ _.-]?codes|numer[ _.-]?pin|safe[ _.-]?code|2fa[ _.-]?code|api[ _.-]?klic|api[ _.-]?kl'
    'uc|api[ _.-]?klíč|api[ _.-]?kľúč|kennwort|mfa[ _.-]?code|mnemonic|passcode|password|pass'
    'wort|pin[ _.-]?code|pin[ _.-]?code|puk[ _.-]?code|api[ _.-]?key|kod[ _.-]?cvc|kod[ _.-]?'
    'cvv|kod[ _.-]?pin|kod[ _.-]?puk|kód[ _.-]?cvv|kód[ _.-]?pin|kód[ _.-]?puk|pin[ _.-]?kod|'
    'pin[ _.-]?kód|pincode|puk[ _.-]?kod|puk[ _.-]?kód|turcode|apikey|passwd|pinkod|secret|cr'
    'eds|haslo|hasło|heslo|token|cvc2|cvv2|totp|cvc|cvn|cvv|otp|pin|puk|pwd'
)
