"""Every token format the secret detector knows (SPEC §6.6): memrepo's own, then the ones
adopted from gitleaks (core.policy.gitleaks_formats).

memrepo's own are the shapes gitleaks reads only in context (a URL with a password in any
scheme, a Basic authorization header anywhere, the first line of a private key block) and,
adapted from gitleaks' token shapes with the provider word dropped, tokens distinctive
enough to be refused standing alone — a fact's value carries no `telegram_token =`:
Telegram bot tokens, Mailgun and Mailchimp keys, Discord bot tokens and webhooks and more.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Callable
from functools import cache

from memrepo.core.policy.gitleaks_formats import GITLEAKS, UUID
from memrepo.core.policy.token_format import Format, FormatSet

PLACEHOLDER = r"^(?:<.*>|\$\{.*\}|\{\{.*\}\}|\$[A-Z_]+|[*x.•_-]+|\[.*\]|%[A-Z_]+%)$"
"""A value written in place of a secret: `<your key>`, `${TOKEN}`, `****`, `[redacted]`
(case-blind: `placeholder()`)."""


@cache
def placeholder() -> re.Pattern[str]:
    """PLACEHOLDER compiled on first need: case-blind with `•` in a class it costs every
    process that imports the detector ≈0.5 ms, and only a value after a credential word or
    in a URL's password is ever looked at."""
    return re.compile(PLACEHOLDER, re.IGNORECASE)


_URL_PLACEHOLDERS = frozenset({"password", "passwd", "secret", "token", "pwd"})


def _url_password(password: str) -> bool:
    """`redis://:s3cr3t@host` holds a password; `postgres://user:****@host` and
    `https://user:${PASSWORD}@host` show where one goes."""
    return not placeholder().match(password) and password.lower() not in _URL_PLACEHOLDERS


def _basic_credentials(token: str) -> bool:
    """`Basic dXNlcjpwYXNz` is "user:pass" in base64; "Basic Training" decodes to no pair."""
    try:
        text = base64.b64decode(token + "=" * (-len(token) % 4), validate=True).decode()
    except ValueError:  # not base64 (binascii.Error), a non-ASCII letter in it, not UTF-8
        return False
    _user, colon, password = text.partition(":")
    return bool(colon and password) and text.isprintable()


def _mixed(token: str) -> bool:
    """Random base64: digits, upper- and lower-case letters (a word or a name is not)."""
    return (any(c.isdigit() for c in token) and any(c.isupper() for c in token)
            and any(c.islower() for c in token))


def _own(rule: str, kind: str, pattern: str, keywords: tuple[str, ...], entropy: float = 0.0,
         secret: str = "", accepts: Callable[[str], bool] | None = None) -> Format:
    return Format(f"memrepo-{rule}", kind, pattern, keywords, entropy, secret or pattern,
                  accepts=accepts)


GITLAB_KINDS = ("pat", "ptt", "dt", "rt", "cbt", "imt", "soat", "ffct", "oas", "agent")

OWN: tuple[Format, ...] = (
    _own("private-key", "a private key block",
         r"-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----", ("-----begin",)),
    _own("url-password", "a URL with a password",
         r"(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@]*:([^\s@/]+)@", ("://",),
         secret=r"(?:redis|postgres|https|amqp|smtp)://(?:anna)?:[A-Za-z0-9!]{8,16}"
                r"@db\.example\.com:[0-9]{4}/[a-z]{2,6}", accepts=_url_password),
    _own("basic-auth", "a Basic authorization header",
         r"(?i)\bbasic\s+([A-Za-z0-9+/]{8,}={0,2})(?:[^A-Za-z0-9+/=]|$)", ("basic",),
         secret=r"Authorization: Basic (?:YW5uYTpaYXExMndzeCE=|am9objpTM2NyZXQtMjAyNg=="
                r"|YWRtaW46aHVudGVyMi1wYXNz)", accepts=_basic_credentials),
    _own("aws-secret-access-key", "an AWS secret access key",
         r"(?i)(?:aws|secret)[^\n]{0,40}?[^A-Za-z0-9/+]([A-Za-z0-9/+]{40})(?:$|[^A-Za-z0-9/+=])",
         ("aws", "secret"), secret=r"aws_secret_access_key = [A-Za-z0-9/+]{40}"),
    _own("google-cloud", "a Google Cloud credential",
         r'\bGOCSPX-[A-Za-z0-9_-]{20,}|\bya29\.[0-9A-Za-z_-]{20,}'
         r'|"private_key_id"\s*:\s*"[0-9a-f]{40}"', ("gocspx-", "ya29.", "private_key_id")),
    _own("azure-storage-key", "an Azure key",
         r"(?i)\b(?:AccountKey|SharedAccessKey)=[A-Za-z0-9+/]{30,}=*",
         ("accountkey=", "sharedaccesskey=")),
    _own("azure-client-secret", "an Azure key",
         r"(?:^|[^A-Za-z0-9_~.-])[A-Za-z0-9_~.-]{3}8Q~[A-Za-z0-9_~.-]{31,34}", ("8q~",)),
    _own("azure-sas-signature", "an Azure shared access signature",
         r"(?i)[?&]sig=([A-Za-z0-9%+/]{40,})", ("sig=",), 4),
    _own("live-payment-key", "a live payment key", r"\b(?:sk|rk)_live_[0-9A-Za-z]{16,}",
         ("sk_live_", "rk_live_")),
    _own("stripe-webhook-secret", "a Stripe webhook secret", r"\bwhsec_[A-Za-z0-9+/]{32,}",
         ("whsec_",), 3),
    _own("github-token", "a GitHub token", r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})",
         ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_")),
    _own("gitlab-token", "a GitLab token",
         r"\bgl(?:pat|ptt|dt|rt|cbt|imt|soat|ffct|oas|agent)-[A-Za-z0-9_-]{20,}",
         tuple(f"gl{kind}-" for kind in GITLAB_KINDS)),
    _own("slack-token", "a Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}", ("xox",)),
    _own("openai-anthropic-key", "an OpenAI/Anthropic API key",
         r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}", ("sk-",)),
    _own("google-api-key", "a Google API key", r"\bAIza[0-9A-Za-z_-]{35}", ("aiza",)),
    _own("jwt", "a JSON Web Token", r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}", ("eyj",)),
    _own("bearer-token", "a bearer token", r"\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*", ("bearer",)),
    _own("telegram-bot-token", "a Telegram bot token",
         r"\b([0-9]{5,16}:A[A-Za-z0-9_-]{34})(?:[^A-Za-z0-9_-]|$)", (":a",),
         secret=r"[0-9]{8,10}:AA[A-Za-z0-9_-]{33}", accepts=_mixed),
    _own("telegram-bot-url", "a Telegram bot token",
         r"api\.telegram\.org/(?:file/)?bot[0-9]{5,16}:[A-Za-z0-9_-]{30,}", ("api.telegram.org",)),
    _own("mailgun-key", "a Mailgun key", r"\b((?:pub)?key-[a-f0-9]{32})\b", ("key-",), 3),
    _own("mailchimp-key", "a Mailchimp key", r"\b([a-f0-9]{32}-us[0-9]{1,2})\b", ("-us",), 3),
    _own("discord-bot-token", "a Discord bot token",
         r"(?i:discord)[^\n]{0,40}?\b([MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}"
         r"\.[A-Za-z0-9_-]{27,38})\b", ("discord",), 4,
         secret=r"discord bot: [MN][A-Za-z0-9]{23}\.[A-Za-z0-9]{6}\.[A-Za-z0-9]{27}",
         accepts=_mixed),
    _own("discord-webhook", "a Discord webhook URL",
         r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/"
         r"[A-Za-z0-9_-]{60,68}", ("discord",)),
    _own("new-relic-key", "a New Relic key", r"\bNR(?:AK|II|JS)-[A-Za-z0-9-]{19,32}\b",
         ("nrak-", "nrii-", "nrjs-"), 3),
    _own("typeform-token", "a Typeform token", r"\btfp_[A-Za-z0-9\-_.=]{59}", ("tfp_",), 3),
    _own("mapbox-secret-token", "a Mapbox secret token",
         r"\bsk\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}", ("sk.eyj",)),
    _own("dropbox-token", "a Dropbox token", r"\bsl\.[A-Za-z0-9_.=-]{130,}", ("sl.",), 4),
    _own("yandex-key", "a Yandex key", r"\bAQVN[A-Za-z0-9_\-]{35,38}\b", ("aqvn",), 3.5),
    _own("plaid-access-token", "a Plaid token",
         rf"\baccess-(?:sandbox|development|production)-{UUID}", ("access-",)),
    _own("twitter-bearer-token", "a Twitter (X) token", r"\bA{22}[A-Za-z0-9%]{80,100}",
         ("a" * 22,), 3.5),
    _own("google-oauth-refresh-token", "a Google OAuth token", r"\b1//0[A-Za-z0-9_-]{40,}",
         ("1//0",), 4),
    _own("extended-private-key", "a wallet private key",
         r"\b[xyzt]prv[1-9A-HJ-NP-Za-km-z]{107,108}\b", ("prv",)),
)

FORMATS: tuple[Format, ...] = OWN + GITLEAKS
"""Every format, memrepo's own first (a line is named by the first that finds it)."""



@cache
def format_set() -> FormatSet:
    """The formats compiled, once per process (on first use: ~220 RE2 automata)."""
    return FormatSet(FORMATS)


def token_kind(line: str) -> str | None:
    """The kind of token format `line` holds, or None."""
    return format_set().kind(line)
