"""Scoring kernels over integer arrays.

``compiled`` is the only module of the project that imports numba; ``reference`` is its
pure-Python twin, the definition the tests hold the compiled kernels to. Import ``compiled``
only where a command needs it, so that ``bullscows --help`` stays fast.
"""
