"""Tests of the ``bullscows`` command line (a package, so its module names cannot clash)."""
