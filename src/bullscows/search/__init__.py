"""Exhaustive search for optimal decision trees (see ``search.optimal``)."""

from bullscows.search.optimal import Objective, OptimalResult, Progress, optimal_tree
from bullscows.search.tree import Tree

__all__ = ["Objective", "OptimalResult", "Progress", "Tree", "optimal_tree"]
