"""`memrepo triage --apply` (SPEC §9): only safe, reversible actions, each its own commit.

Merging a near-duplicate note into the note it duplicates: every line only the weaker note
had is carried into the kept note (`merge_edits.carry_over`, under "## From <name>"), its
title/name and aliases become aliases of the kept note (entities; a note that carried
nothing and has no aliases gets a closing line naming it), links and TRIGGERS.md rows
pointing to it are rewritten to the kept note, the weaker note is moved to
memory/archive/<category>/ (`git mv`), the indexes are regenerated, and a real `git commit`
runs the hooks with the trailers `Merged-into:` and `Removed:` — `git revert` of it
restores every file. A refused commit is undone completely (index and work tree) and
reported. Rules are never merged, nor notes a rule links to: a rule change needs a
person's `Approved-by:`.

Merging a near-duplicate fact key: memrepo.facts.key_merges, one commit each; keys that
held different values at once are left for a person (a contradiction).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from memrepo.cache.gitstate import dirty_paths
from memrepo.core.duplicates.key_triage import key_merges
from memrepo.core.duplicates.triage import (
    Duplicate,
    Merge,
    NoteRecord,
    TriageInput,
    near_duplicates,
    plan_merges,
)
from memrepo.core.notes.headers import (
    archive_path,
    index_path,
    parse_note,
    split_front_matter,
    tags_of,
)
from memrepo.core.notes.merge_edits import (
    add_aliases,
    add_tags,
    carry_over,
    mention_merged,
    retarget_links,
    retarget_triggers,
)
from memrepo.core.notes.triggers import TRIGGERS_PATH
from memrepo.core.problems import InputError, Problem
from memrepo.facts.key_merges import merge_key
from memrepo.files import read_beneath, write_atomically
from memrepo.git.command import run_git
from memrepo.git.porcelain import GitError, git
from memrepo.maintenance.indexes import regenerate_indexes
from memrepo.maintenance.triage import ActionResult
from memrepo.progress import task

if TYPE_CHECKING:
    pass


class ActionFailed(Exception):
    """An action that cannot be completed; its changes are undone."""


def apply_merges(root: Path, given: TriageInput, day: str) -> list[ActionResult]:
    """Merge every near-duplicate note and key --apply may merge; one commit each."""
    require_clean(root)
    duplicates = [_with_updated(root, d) for d in near_duplicates(given.notes,
                                                                   given.distinct)]
    results = [_skipped(d) for d in duplicates if _not_mergeable(d)]
    merges = plan_merges(duplicates, given.notes)
    with task("memrepo triage --apply: merging notes", total=len(merges)) as steps:
        for merge in merges:
            ruled = _linked_from_rules(merge, given.notes)
            results.append(ActionResult("skipped", f"merge of {merge.old.path} into "
                                        f"{merge.kept.path}", f"the rule {ruled} links to "
                                        "it; a rule change needs Approved-by: merge by hand")
                           if ruled else merge_note(root, merge, given.notes, day))
            steps.advance()
    return results + apply_key_merges(root, given)


def apply_key_merges(root: Path, given: TriageInput) -> list[ActionResult]:
    """Merge every near-duplicate fact key without conflicts; one commit each."""

    results = []
    merges = key_merges(given.facts, given.config, given.distinct)
    with task("memrepo triage --apply: merging keys", total=len(merges)) as steps:
        for merge in merges:
            steps.advance()
            (scope, *kept), (_, *duplicate) = merge.shown
            summary = (f"merge of the key {'.'.join(duplicate)} into {'.'.join(kept)} "
                       f"({scope})")
            if merge.plan.conflicts:
                results.append(ActionResult("skipped", summary, "they hold different "
                                            "values at the same time (see Contradictions)"))
                continue
            done = merge_key(root, scope, (kept[0], kept[1]), (duplicate[0], duplicate[1]),
                             merge.how)
            results.append(ActionResult("committed" if done.status == "merged" else
                                        "skipped", summary, f"commit {done.detail[:12]}"
                                        if done.status == "merged" else done.detail))
    return results


def _linked_from_rules(merge: Merge, notes: Sequence[NoteRecord]) -> str | None:
    """A rule note linking the note to be archived (its link would be rewritten)."""
    return next((n.path for n in notes if n.category == "rules" and n.path != merge.old.path
                 and any(link.target == merge.old.name for link in n.links)), None)


def require_clean(root: Path) -> None:

    if dirty_paths(root):
        raise InputError(Problem("memory/", "uncommitted changes in the memory; --apply "
                                 "commits each action on its own and must not sweep them in",
                                 "commit or stash them, then run `memrepo triage --apply` "
                                 "again"))


def _not_mergeable(duplicate: Duplicate) -> bool:
    first, second = duplicate.first, duplicate.second
    return first.category != second.category or first.category == "rules"


def _skipped(duplicate: Duplicate) -> ActionResult:
    pair = f"{duplicate.first.path} and {duplicate.second.path}"
    if duplicate.first.category == "rules" or duplicate.second.category == "rules":
        why = "a rule change needs Approved-by: from a person; merge them by hand"
    else:
        why = "they are in different categories; decide where the note belongs"
    return ActionResult("skipped", f"near-duplicates {pair}", why)


def _with_updated(root: Path, duplicate: Duplicate) -> Duplicate:
    return dataclasses.replace(duplicate, first=_read_updated(root, duplicate.first),
                               second=_read_updated(root, duplicate.second))


def _read_updated(root: Path, note: NoteRecord) -> NoteRecord:
    data = read_beneath(root, note.path)
    parsed = None if data is None else parse_note(note.path, data)
    updated = getattr(parsed, "header", {}).get("updated")
    return dataclasses.replace(note, updated=updated if isinstance(updated, str) else None)


# --- one merge --------------------------------------------------------------------------------

def merge_note(root: Path, merge: Merge, notes: Sequence[NoteRecord], day: str,
               ) -> ActionResult:
    old, kept = merge.old, merge.kept
    summary = f"merged {old.path} into {kept.path}"
    archive = archive_path(old.category, old.name)
    if (root / archive).exists() or not (root / old.path).is_file():
        return ActionResult("skipped", summary, f"{archive} already exists or the note is "
                            "gone; merge by hand")
    try:
        (root / archive).parent.mkdir(parents=True, exist_ok=True)
        git(root, "mv", old.path, archive)
        edited = _edit_notes(root, merge, notes, day)
        edited += _regenerate_indexes(root, {old.category, kept.category})
        git(root, "add", "--", *edited)  # git mv staged the move itself
        git(root, "commit", "-q", "-F", "-", stdin=_message(merge))
    except GitError as failure:
        _undo(root)
        return ActionResult("refused", summary,
                            f"{failure.command} refused: {_essence(failure.output)}")
    except (ActionFailed, InputError, OSError, UnicodeError) as failure:
        _undo(root)
        return ActionResult("refused", summary, str(failure))
    head = run_git(root, "rev-parse", "--short", "HEAD").stdout.strip()
    return ActionResult("committed", summary, f"commit {head}")


def _edit_notes(root: Path, merge: Merge, notes: Sequence[NoteRecord], day: str) -> list[str]:
    old, kept = merge.old, merge.kept
    changed = [_edit_kept(root, merge, day)]
    linking = {n.path for n in notes if any(link.target == old.name for link in n.links)}
    for path in sorted(linking - {old.path}):
        if _rewrite(root, path, lambda text: retarget_links(
                text, (old.category, old.name), (kept.category, kept.name))):
            changed.append(path)
    if _rewrite(root, TRIGGERS_PATH, lambda text: retarget_triggers(text, old.name,
                                                                    kept.name)):
        changed.append(TRIGGERS_PATH)
    return changed


def _edit_kept(root: Path, merge: Merge, day: str) -> str:
    """The kept note with every line only the old one had, the old names as aliases
    (entities), the old tags, links to the old note pointed at itself."""
    old, kept = merge.old, merge.kept
    names = [old.title or old.name, *old.aliases]
    old_text = (read_beneath(root, archive_path(old.category, old.name)) or b"").decode()
    old_front = split_front_matter(old.path, old_text)
    old_tags = [] if isinstance(old_front, Problem) else tags_of(old_front.header)

    def edit(text: str) -> str:
        titled = old.name if old.title in (None, old.name) else f"{old.name}, {old.title}"
        carried = carry_over(text, old_text, titled, day)
        if carried is None:
            raise ActionFailed(f"cannot read the header of {kept.path} or {old.path}, or "
                               "a code block is not closed; merge them by hand")
        aliased = add_aliases(carried, names) if kept.category == "entities" else None
        if aliased is None and carried == text:
            aliased = mention_merged(text, old.name, old.title, day)
        edited = aliased or carried
        tagged = add_tags(edited, old_tags) if old_tags else edited
        if tagged is None:
            raise ActionFailed(f"cannot add the tags of {old.path} to the header of "
                               f"{kept.path}; merge them by hand")
        return retarget_links(tagged, (old.category, old.name), (kept.category, kept.name))
    _rewrite(root, kept.path, edit)
    return kept.path


def _rewrite(root: Path, path: str, edit: Callable[[str], str]) -> bool:
    """Apply `edit` (text → text) to a work-tree file; True when it changed."""

    data = read_beneath(root, path)  # refuses a symbolic link: never written through one
    if data is None:
        return False
    text = data.decode("utf-8")
    new = edit(text)
    if new == text:
        return False
    write_atomically(root / path, new.encode("utf-8"))
    return True


def _regenerate_indexes(root: Path, categories: set[str]) -> list[str]:

    regenerated = regenerate_indexes(root, categories=categories)
    missing = sorted(categories - regenerated.texts.keys())
    if missing:
        reason = regenerated.problems[0].render() if regenerated.problems else "unknown"
        raise ActionFailed(f"cannot regenerate the {missing[0]} index: {reason}")
    return [index_path(category) for category in sorted(categories)]


def _message(merge: Merge) -> str:
    old, kept = merge.old, merge.kept
    return (f"triage: merge {old.name} into {kept.name}\n\n"
            f"{old.path} looks like the same note as {kept.path} ({merge.how}). It is "
            f"archived at {archive_path(old.category, old.name)}; links and triggers "
            f"now point to {kept.name}.\n\n"
            f"Merged-into: {kept.name}\n"
            f"Removed: {old.name}: merged into {kept.name} by triage\n")


def _undo(root: Path) -> None:
    """memory/ back to HEAD, index and work tree: `require_clean` made sure nothing else
    was there, so whatever an action had done so far goes, and nothing of the person's."""
    run_git(root, "restore", "--source=HEAD", "--staged", "--worktree", "--", "memory")


def _essence(output: str) -> str:
    """The lines of git/hook output that say what is wrong (pre-commit's progress lines
    and blank lines dropped), joined for one report line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    telling = [line for line in lines if line.startswith(("memory/", "To fix", "error",
                                                          "fatal"))]
    return " / ".join(telling or lines[-3:]) or "no output"
