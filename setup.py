"""Which packages the distribution holds: every package under memrepo/, found (a hand list
silently drops a new subpackage from the wheel while an editable install hides it), plus the
folders SPEC's layout keeps at the top and the wheel installs inside memrepo (package-dir in
pyproject.toml). Everything else about the distribution is in pyproject.toml."""

from setuptools import find_packages, setup

MAPPED = ["memrepo.hooks", "memrepo.scripts", "memrepo.schema", "memrepo.demo_memory"]

setup(packages=find_packages(include=["memrepo", "memrepo.*"]) + MAPPED)
