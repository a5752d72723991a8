"""The cache follows git by itself: post-checkout, post-merge and post-rewrite hooks run
`memrepo-refresh-cache --quiet --hook` (scripts/refresh_cache.py); no query and no manual
step in between. The cache scripts also run by hand."""

from __future__ import annotations

import subprocess
from pathlib import Path

from memrepo.cache import rebuild
from memrepo.cache.build import build_into
from memrepo.cache.db import cache_path
from memrepo.facts import writes as store
from tests.support import add_note, commit, dump, git


def cache_matches_a_fresh_build(repo: Path, tmp_path: Path) -> bool:
    reference = tmp_path / "reference.sqlite"
    reference.unlink(missing_ok=True)
    build_into(repo, reference)
    return dump(cache_path(repo)) == dump(reference)


def remember(repo: Path, obj: str) -> None:
    store.remember(repo, scope="michal", subject="car", relation="km", object=obj,
                   quote=f"the car has {obj}", source="conversation")


def test_checkout_merge_and_rebase_refresh_the_cache(demo_repo: Path, tmp_path: Path) -> None:
    git(demo_repo, "checkout", "-q", "-b", "side")
    add_note(demo_repo, "entities", "acme", "Ordering profile of Acme Boxes: minimum 200 "
             "boxes, two-week lead time")
    assert commit(demo_repo, "acme").returncode == 0
    remember(demo_repo, "61000 km")
    rebuild(demo_repo)
    git(demo_repo, "checkout", "-q", "main")  # post-checkout
    assert cache_matches_a_fresh_build(demo_repo, tmp_path)
    remember(demo_repo, "60500 km")
    git(demo_repo, "checkout", "-q", "side")
    assert cache_matches_a_fresh_build(demo_repo, tmp_path)
    git(demo_repo, "rebase", "-q", "main")  # post-rewrite (and post-checkout)
    assert cache_matches_a_fresh_build(demo_repo, tmp_path)
    git(demo_repo, "checkout", "-q", "main")
    done = subprocess.run(["git", "merge", "--no-edit", "side"], cwd=demo_repo,
                          capture_output=True, text=True, check=False)  # post-merge
    assert done.returncode == 0, done.stdout + done.stderr
    assert cache_matches_a_fresh_build(demo_repo, tmp_path)


def test_the_cache_scripts_build_and_refresh_by_hand(demo_repo: Path, tmp_path: Path) -> None:
    built = subprocess.run(["memrepo-build-cache", "--repo", str(demo_repo)],
                           capture_output=True, text=True, check=False)
    assert built.returncode == 0 and built.stdout.startswith("cache rebuilt: "), built.stderr
    remember(demo_repo, "62000 km")
    refreshed = subprocess.run(["memrepo-refresh-cache", "--repo", str(demo_repo)],
                               capture_output=True, text=True, check=False)
    assert refreshed.returncode == 0 and refreshed.stdout.startswith("cache "), refreshed.stderr
    assert cache_matches_a_fresh_build(demo_repo, tmp_path)


def test_the_cache_scripts_refuse_outside_a_repository(tmp_path: Path) -> None:
    for script in ("memrepo-build-cache", "memrepo-refresh-cache"):
        done = subprocess.run([script, "--repo", str(tmp_path)], capture_output=True,
                              text=True, check=False)
        assert done.returncode == 1 and "not inside a git repository" in done.stderr, script
        assert "Traceback" not in done.stderr
