"""The shape of the house (ARCHITECTURE.md): no import cycle anywhere, no import inside a
function that would close one, every game a package of the same file names, and no game named
by the generic code (solvers/, the modules at the top of solodeck/, the command line)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx

import solodeck
from solodeck.registry import GAMES

ROOT = Path(solodeck.__file__).resolve().parent.parent
# where each part of the solodeck namespace lives in the tree (setup.py's package_dir)
FOLDERS = {"solodeck": ROOT / "solodeck", "solodeck.solvers": ROOT / "solvers",
           "solodeck.encodings": ROOT / "encodings", "solodeck.ext": ROOT / "ext"}
GAME_FILES = {"__init__", "rules", "position", "search", "blind"}
EXTRA_GAME_FILES = {"dungeon": {"values"}}  # a file of another role, named for it (ARCHITECTURE.md)


def modules() -> dict:
    """{dotted name: path} of every Python module of the package."""
    found = {}
    for package, folder in FOLDERS.items():
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).with_suffix("").parts
            if package == "solodeck" and parts[0] in ("solvers", "encodings", "ext"):
                continue
            name = ".".join((package, *parts))
            found[name.removesuffix(".__init__")] = path
    return found


def imports(name: str, path: Path, known: set) -> tuple[set, set]:
    """(module-level imports, imports inside functions) of solodeck modules, as dotted names. A
    module imported also imports its parent packages, which count as imported too, except the
    importer's own (they are being imported already: a sibling reached through them is fine)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    parts_of_name = name.split(".")
    own = {".".join(parts_of_name[:i]) for i in range(1, len(parts_of_name))}
    top, inner = set(), set()

    def resolve(node) -> set:
        if isinstance(node, ast.Import):
            targets = {alias.name for alias in node.names}
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = {f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names}
        out = set()
        for target in targets:
            parts = target.split(".")
            out |= ({".".join(parts[:i]) for i in range(1, len(parts))} - own | {target}) & known
        return out

    def visit(node, in_function: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                (inner if in_function else top).update(resolve(child))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

    visit(ast.parse(path.read_text()), False)
    return top - {name}, inner - {name}


def graph():
    found = modules()
    g, deferred = nx.DiGraph(), []
    for name, path in found.items():
        top, inner = imports(name, path, set(found))
        g.add_node(name)
        g.add_edges_from((name, target) for target in top)
        deferred += [(name, target) for target in inner]
    return g, deferred


def test_no_import_cycle():
    g, _deferred = graph()
    cycles = list(nx.simple_cycles(g))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c + c[:1]) for c in cycles[:5])


def test_no_import_inside_a_function_closes_a_cycle():
    """An import deferred into a function may wait for a heavy module; it must not hide a cycle."""
    g, deferred = graph()
    hiding = [(a, b) for a, b in deferred if a in nx.descendants(g, b)]
    assert not hiding, "imports inside functions that dodge a cycle: " + ", ".join(f"{a} -> {b}" for a, b in hiding)


def test_every_game_is_a_package_of_the_same_files():
    games = ROOT / "solodeck" / "games"
    assert {p.name for p in games.glob("*.py")} == {"__init__.py"}, "a game module outside a package"
    packages = [p for p in games.iterdir() if (p / "__init__.py").exists()]
    assert packages
    for package in packages:
        files = {p.stem for p in package.glob("*.py")}
        allowed = GAME_FILES | EXTRA_GAME_FILES.get(package.name, set())
        assert files <= allowed, f"games/{package.name}: {sorted(files - allowed)} is not one of {sorted(allowed)}"
        assert "rules" in files, f"games/{package.name} has no rules.py"


def name_patterns() -> re.Pattern:
    """Every game's registry name and title, as words (hyphens, spaces or underscores between
    the words, or none: 'dead-center', 'Dead Center', 'dead_center', 'deadcenter')."""
    words = set()
    for game in GAMES.values():
        title = re.sub(r"\(.*?\)|^the ", "", game.title.lower()).strip()
        for text in {game.name, title}:
            parts = re.findall(r"[a-z0-9]+", text)
            words.add(r"[\s_-]?".join(map(re.escape, parts)))
    return re.compile(r"\b(" + "|".join(sorted(words, key=len, reverse=True)) + r")\b", re.IGNORECASE)


def test_the_generic_code_names_no_game():
    pattern = name_patterns()
    generic = sorted((ROOT / "solvers").glob("*.py")) + sorted((ROOT / "solodeck").glob("*.py"))
    found = [f"{p.relative_to(ROOT)}:{i}: {line.strip()[:80]}"
             for p in generic for i, line in enumerate(p.read_text().splitlines(), start=1) if pattern.search(line)]
    assert not found, "game names in generic code:\n" + "\n".join(found[:20])
