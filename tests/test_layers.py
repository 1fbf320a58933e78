"""The layer order of the architecture, read from the imports (the syntax tree; nothing runs).

Data flows down: a module imports only from its own layer or the layers below it, and no two
modules import each other, directly or through others. Imports made only for type checking
count too: they are dependencies of the design even when Python does not follow them.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src" / "bullscows"

#: Lowest first. A module belongs to the first entry that is its name or a package above it.
LAYERS: list[tuple[str, ...]] = [
    ("errors", "seeding", "caching", "readers", "atomic", "_kernels"),
    ("strategy_spec", "specs"),
    ("rules",),
    ("universe", "feedback", "figures"),
    ("codes",),
    ("knowledge", "symmetry", "tree"),  # values of a game: what is known, decision trees
    ("executors", "search"),  # the optimal search works on integer arrays and trees
    ("strategies",),
    ("outcomes", "hints", "estimates"),  # what strategies give: guess counts, trees, hints
    ("bench", "charts"),
    # games as state machines, their analysis, a player's standing and the daily puzzle
    ("records", "sessions", "analysis", "standings", "daily"),
    ("cli", "web", "__main__", ""),  # front ends, entry points, the package
]


def module_name(path: Path, source: Path) -> str:
    parts = list(path.relative_to(source).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(source: Path = SOURCE) -> dict[str, set[str]]:
    """Every module of the package at ``source`` with the modules of the package it imports
    (names relative to the package: ``""`` is the package itself)."""
    paths = sorted(source.rglob("*.py"))
    modules = {module_name(path, source) for path in paths}
    found: dict[str, set[str]] = {}
    for path in paths:
        name = module_name(path, source)
        here = name.split(".") if path.name != "__init__.py" else [*name.split("."), "_"]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:  # relative: from the package this module is in
                    base = here[: len(here) - node.level]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                    if not module.startswith("bullscows"):
                        continue
                    module = module.removeprefix("bullscows").removeprefix(".")
                deps.update(_imported(module, [a.name for a in node.names], modules))
            elif isinstance(node, ast.Import):
                deps.update(
                    a.name.removeprefix("bullscows").removeprefix(".")
                    for a in node.names
                    if a.name.split(".")[0] == "bullscows"
                )
        deps.discard(name)
        found[name] = deps
    return found


def _imported(package: str, names: list[str], modules: set[str]) -> set[str]:
    """What ``from package import names`` imports: each name that is a module of the package
    (``from bullscows._kernels import search_dfs`` imports ``_kernels.search_dfs``, so that a
    cycle between the modules of one package is seen), else the package itself."""
    found = {f"{package}.{n}" if package else n for n in names}
    found &= modules
    whole = len(found) < len(names)
    return found | {package} if whole else found


def layer(module: str) -> int:
    for number, names in enumerate(LAYERS):
        for name in names:
            if module == name or (name and module.startswith(name + ".")):
                return number
    raise AssertionError(f"module {module!r} has no layer: add it to LAYERS")


def test_every_module_has_a_layer() -> None:
    for module in imports():
        layer(module)


def upward(graph: dict[str, set[str]], module: str) -> list[str]:
    return sorted(d for d in graph[module] if layer(d) > layer(module))


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """An import cycle, or ``None``. A package importing its own modules (to re-export them)
    is no cycle with them."""
    edges = {
        m: {d for d in deps if d in graph and not (d.startswith(m + ".") or m == "")}
        for m, deps in graph.items()
    }
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for dep in sorted(edges[module]):
            if state.get(dep) == 1:
                return [*path[path.index(dep) :], dep]
            if dep not in state and (cycle := visit(dep)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(edges):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


@cache
def graph() -> dict[str, set[str]]:
    """The imports of the package itself, read once for every test."""
    return imports()


@pytest.mark.parametrize("module", sorted(graph()))
def test_imports_go_down(module: str) -> None:
    assert not upward(graph(), module), f"{module or 'bullscows'} imports from above"


def test_no_cycles() -> None:
    assert find_cycle(graph()) is None


def test_a_cycle_inside_a_package_is_seen(tmp_path: Path) -> None:
    # ``from bullscows._kernels import calls`` imports the module ``_kernels.calls``, not only
    # the package: two modules of one package importing each other are a cycle, however each
    # names the other (a name the package's ``__init__`` defines stays an import of it).
    package = tmp_path / "bullscows" / "_kernels"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("SCALE = 1\n")
    (package / "calls.py").write_text("def run():\n    from bullscows._kernels import dfs\n")
    (package / "dfs.py").write_text(
        "from bullscows._kernels import SCALE\nfrom bullscows._kernels.calls import FAIL\n"
    )
    graph = imports(tmp_path / "bullscows")
    assert graph["_kernels.calls"] == {"_kernels.dfs"}
    assert graph["_kernels.dfs"] == {"_kernels", "_kernels.calls"}
    assert find_cycle(graph) == ["_kernels.calls", "_kernels.dfs", "_kernels.calls"]
    (package / "dfs.py").write_text("from . import SCALE\n")
    assert find_cycle(imports(tmp_path / "bullscows")) is None


def test_an_upward_import_and_a_cycle_are_seen(tmp_path: Path) -> None:
    # The checks must be able to fail: a package whose rules import the CLI, whose knowledge
    # and symmetry import each other (one of them only for type checking), and whose cli
    # imports relatively.
    package = tmp_path / "bullscows"
    (package / "cli").mkdir(parents=True)
    (package / "__init__.py").write_text("from bullscows.rules import Rules\n")
    (package / "rules.py").write_text("from bullscows.cli import main\n")
    (package / "knowledge.py").write_text("import bullscows.symmetry\n")
    (package / "symmetry.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .knowledge import K\n"
    )
    (package / "cli" / "__init__.py").write_text("from ..rules import Rules\nmain = 1\n")
    graph = imports(package)
    assert graph["cli"] == {"rules"} and graph["symmetry"] == {"knowledge"}
    assert upward(graph, "rules") == ["cli"]
    assert find_cycle(graph) in (
        ["knowledge", "symmetry", "knowledge"], ["cli", "rules", "cli"],
    )  # fmt: skip


def tree_node_types(source: Path = SOURCE) -> list[str]:
    """The classes of the package at ``source`` that hold a decision-tree node: a guess and
    its subtrees (annotated fields ``guess`` and ``branches`` or ``replies``)."""
    found = []
    for path in sorted(source.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                fields = {
                    item.target.id
                    for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
                }
                if "guess" in fields and fields & {"branches", "replies"}:
                    found.append(f"{module_name(path, source)}.{node.name}")
    return found


def test_one_tree_node_type(tmp_path: Path) -> None:
    # Every tree, the search's included, is made of tree.Node values: no second type and no
    # converters between them.
    assert tree_node_types() == ["tree.model.Node"]
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "tree.py").write_text(
        "class Tree(TypedDict):\n    guess: int\n    replies: dict[int, Tree]\n"
    )
    assert tree_node_types(tmp_path) == ["search.tree.Tree"]
