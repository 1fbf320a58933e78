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
    ("errors", "seeding", "caching", "readers", "atomic", "words", "_kernels"),
    ("strategy_spec", "specs"),
    ("rules",),
    ("universe", "feedback", "figures"),
    ("codes",),
    ("knowledge", "symmetry", "tree"),  # values of a game: what is known, decision trees
    ("executors", "dask_tasks", "search"),  # the optimal search works on integer arrays and trees
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


#: The front ends: they print or serialise what ``sessions`` gives them.
FRONT_ENDS = ("cli", "web")
#: Where the move and outcome types are defined, and the package that exports them.
SESSIONS_MODULES = ("bullscows.sessions", "bullscows.sessions.moves", "bullscows.sessions.outcomes")


def move_types(source: Path = SOURCE) -> set[str]:
    """The move and outcome types of ``sessions`` (``Move``, ``Outcome`` and every class of
    ``sessions.moves`` and ``sessions.outcomes`` built on them)."""
    classes: dict[str, list[str]] = {}
    for module in ("moves", "outcomes"):
        tree = ast.parse((source / "sessions" / f"{module}.py").read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                classes[node.name] = [b.id for b in node.bases if isinstance(b, ast.Name)]
    found = {"Move", "Outcome"} & set(classes)
    while grown := {n for n, bases in classes.items() if n not in found and found & set(bases)}:
        found |= grown
    return found


def move_dispatch(path: Path, types: set[str]) -> list[str]:
    """Where the module at ``path`` asks which move or outcome it holds: ``isinstance``,
    ``issubclass``, ``type(x) is``, or a ``case`` pattern naming one of ``types`` (as
    imported from ``bullscows.sessions``, under any alias, or as an attribute of it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: dict[str, str] = {}  # local name -> type
    modules: set[str] = set()  # local names of sessions modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bullscows"):
            for alias in node.names:
                local = alias.asname or alias.name
                if (node.module or "").startswith("bullscows.sessions") and alias.name in types:
                    names[local] = alias.name
                elif f"{node.module}.{alias.name}" in SESSIONS_MODULES:
                    modules.add(local)
        elif isinstance(node, ast.Import):
            modules |= {a.asname for a in node.names if a.asname and a.name in SESSIONS_MODULES}

    def named(expr: ast.AST) -> list[str]:
        found = []
        for part in ast.walk(expr):
            if isinstance(part, ast.Name) and part.id in names:
                found.append(names[part.id])
            elif isinstance(part, ast.Attribute) and part.attr in types:
                base = part.value
                while isinstance(base, ast.Attribute):
                    base = base.value
                if isinstance(base, ast.Name) and (base.id in modules or base.id == "bullscows"):
                    found.append(part.attr)
        return found

    where: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        asked: list[str] = []
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("isinstance", "issubclass") and len(node.args) == 2:
                asked = named(node.args[1])
        elif isinstance(node, ast.Compare) and isinstance(node.left, ast.Call):
            left = node.left
            if isinstance(left.func, ast.Name) and left.func.id == "type":
                asked = [t for c in node.comparators for t in named(c)]
        elif isinstance(node, ast.MatchClass):
            asked = named(node.cls)
        if asked:
            line = getattr(node, "lineno", 0)
            where.append((line, f"{path.name}:{line}: {', '.join(asked)}"))
    return [text for _, text in sorted(where)]


def test_no_move_dispatch_in_the_front_ends() -> None:
    # A front end prints or serialises what a move's outcome says (``lines``, ``scored``,
    # ``stops``, ...); which move or outcome it holds is the library's business.
    types = move_types()
    assert {"Guess", "GiveUp", "Scored", "GaveUp", "Helped"} <= types
    assert "Playable" not in types
    found = [
        hit
        for front in FRONT_ENDS
        for path in sorted((SOURCE / front).rglob("*.py"))
        for hit in move_dispatch(path, types)
    ]
    assert found == []


def test_move_dispatch_is_seen(tmp_path: Path) -> None:
    types = move_types()
    planted = tmp_path / "play.py"
    planted.write_text(
        "from bullscows import sessions\n"
        "from bullscows.sessions import Codemaker, Scored\n"
        "from bullscows.sessions.moves import Hint as Ask\n"
        "def show(game, move, outcome):\n"
        "    if isinstance(game, Codemaker):\n"  # a game's type is no move dispatch
        "        pass\n"
        "    if isinstance(move, Ask | sessions.GiveUp):\n"
        "        pass\n"
        "    if type(outcome) is Scored:\n"
        "        pass\n"
        "    match outcome:\n"
        "        case sessions.outcomes.Noted(step=step):\n"
        "            pass\n"
    )
    assert move_dispatch(planted, types) == [
        "play.py:7: Hint, GiveUp", "play.py:9: Scored", "play.py:12: Noted",
    ]  # fmt: skip
