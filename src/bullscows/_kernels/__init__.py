"""Scoring kernels over integer arrays.

This package holds the only modules of the project that import numba (``compiled`` gathers
the scoring kernels, ``search_dfs`` the optimal search); ``reference`` is their pure-Python
twin, the definition the tests hold the compiled kernels to. Import ``compiled`` only where a
command needs it, so that ``bullscows --help`` stays fast.
"""
