"""Scoring kernels over integer arrays.

This package holds the only modules of the project that import numba (``compiled`` gathers
the scoring kernels, ``trees`` a heuristic's tree builders, ``search_dfs`` the optimal search,
``search_memo`` its memo, ``search_queries`` the other questions its Python levels ask and
``universe_kernels`` a large universe's arrays);
``reference`` is their pure-Python twin, the definition the tests hold the compiled kernels
to. ``build``, run at installation, compiles the tree builders and the search ahead of time
for the types ``signatures`` writes out, and ``ahead`` loads those modules without numba:
``tables``, ``tree_build``, ``search_calls`` and ``ahead`` load no numba, so that a heuristic
tree of codes held in one word and every search need none. Import ``compiled`` only where a
command needs it, so that ``bullscows --help`` stays fast.
"""

import os

# Numba colours its error messages with colorama when that is installed, and colorama swaps
# sys.stdout and sys.stderr for the whole process meanwhile: a kernel compiled on another
# thread (``compiled.warm_up`` while a game starts) would then leave a command writing to a
# stream it had replaced. Every numba import goes through this package; numba reads this once.
os.environ["NUMBA_DISABLE_ERROR_MESSAGE_HIGHLIGHTING"] = "1"
