"""Scoring kernels over integer arrays.

This package holds the only modules of the project that import numba (``compiled`` gathers
the scoring kernels, ``search_dfs`` the optimal search and ``search_queries`` the other
questions its Python levels ask; ``bullscows.precompile``, run at installation, compiles the
tree builder ahead of time); ``reference`` is their pure-Python twin, the definition the tests
hold the compiled kernels to. Import ``compiled`` only where a command needs it, so that
``bullscows --help`` stays fast; ``tables`` and ``tree_build`` load no numba (a small
heuristic tree needs none).
"""
