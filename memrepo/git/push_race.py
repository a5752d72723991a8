"""A push that lost the race to another clone's push, as the pusher reads git's answer.

Two clones that fetched the same server commit both push; the first lands, the second must
fetch, merge and push again — a lost race, not a refusal. The pusher sees it in one of
git's own words (its push refused before sending, "[rejected] … (fetch first)" or
"(non-fast-forward)"; the server's ref moved while the hook ran, "failed to update ref" /
"cannot lock ref"), or in the line memrepo's server hook writes when it finds the branch
already moved past the commit the push expected (`LOST_RACE_LINE`, written by
scripts/pre_receive.py before it spends any time verifying). Anything else a server says —
a check that failed — is a refusal, never retried.
"""

from __future__ import annotations

LOST_RACE_LINE = ("memrepo pre-receive: another push landed first; fetch, merge and push "
                  "again (`memrepo sync` does)")
"""The server hook's first line when a push lost the race; the pusher looks for this
exact line (as a `remote:` line), so no other text a server relays can look like it."""

GIT_RACE_SIGNS = ("[rejected]", "(failed to update ref)", "cannot lock ref")
"""git's words for a branch that moved: before the push was sent (the client refuses
itself), or while the server's hook ran (the server's ref update finds another value)."""


def lost_race(output: str) -> bool:
    """Whether `git push`'s output (stdout and stderr) says the push lost a race."""
    if any(sign in output for sign in GIT_RACE_SIGNS):
        return True
    return any(line.removeprefix("remote:").strip() == LOST_RACE_LINE
               for line in output.splitlines())
