"""Exhaustive search for optimal decision trees (see ``search.optimal``)."""

from bullscows.search.optimal import Objective, OptimalResult, Progress, optimal_tree

__all__ = ["Objective", "OptimalResult", "Progress", "optimal_tree"]
