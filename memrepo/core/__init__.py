"""The pure core of memrepo: no file, git or database access happens here.

Everything in this package takes values and returns values, so it can be tested
exhaustively (including property tests) without a repository.
"""
