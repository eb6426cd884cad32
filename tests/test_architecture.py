"""Where a game's knowledge lives (issue #21 item 1, docs/architecture.md): every game declares
what the project needs of it in its own module under rules_kernel/games/, so no code elsewhere
names a game. Docstrings and comments may (they are documentation); code may not."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import rules_kernel as rk

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("rules_kernel", "widgets", "publish")
GAMES_ROOM = ROOT / "rules_kernel" / "games"


def code_strings(tree: ast.Module) -> list[ast.Constant]:
    """Every string constant of a module that is not a docstring."""
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def test_no_code_outside_the_games_names_a_game():
    ids = rk.list_games()
    named = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if GAMES_ROOM in path.parents:
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in code_strings(tree):
                if named.search(node.value):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:60]!r}")
    assert not found, "game ids named outside rules_kernel/games/:\n" + "\n".join(found)


def test_the_scan_sees_a_game_named_in_code():
    """The test above can fail: a game id in code is found, the same id in a docstring is not."""
    tree = ast.parse('"""yokai-3x4 in a docstring"""\nGAME = "war-chest"\nNOTE = "a to-war-ish word"\n')
    assert [node.value for node in code_strings(tree)] == ["war-chest", "a to-war-ish word"]


# --- issue 45 item 4: no package imports another package's private names ---------------------


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of a module file under `root` (a package's __init__ is the package)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def unit_of(module: str) -> str:
    """The package a module belongs to, for this rule: a child of a top-level package
    (`rules_kernel.formats`, `rules_kernel.persistent`, `widgets.explorer`), and each game's
    own package or module (`rules_kernel.games.yokai`)."""
    parts = module.split(".")
    depth = 3 if parts[:2] == ["rules_kernel", "games"] else 2
    return ".".join(parts[:depth])


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def is_module(dotted: str, root: Path) -> bool:
    base = root.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def import_source(node: ast.ImportFrom, package: str) -> str:
    """The absolute module a `from ... import` names, relative imports resolved from `package`."""
    source = node.module or ""
    if not node.level:
        return source
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, source] if source else base)


def private_imports(path: Path, root: Path = ROOT) -> list[tuple[str, str]]:
    """(module, name) for each private name a module takes from another package: `from x import
    _y`, an import through a private module (`from x._y import z`, `import x._y`), and `m._y`
    on a name bound to another package's module (`from rules_kernel.games import yokai` ...
    `yokai._make`). Imports inside functions and under TYPE_CHECKING count like any other."""
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[tuple[str, str]] = set()
    modules: dict[str, str] = {}  # local name -> the module it is bound to

    def crossing(target: str) -> bool:
        """Another package of the project (the standard library's privates are not ours to
        police: `os._exit` is documented)."""
        return target.split(".")[0] in PACKAGES and unit_of(target) != unit_of(here)

    def note(target: str) -> None:
        """`target` is a dotted name imported from elsewhere: private if any of its parts past
        its package is (a private module or a private name)."""
        parts = target.split(".")
        if crossing(target) and any(is_private(p) for p in parts[len(unit_of(target).split(".")) - 1 :]):
            found.add((here, target))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                note(alias.name)
                if alias.asname:
                    modules[alias.asname] = alias.name
                else:
                    modules[alias.name.split(".")[0]] = alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            source = import_source(node, package)
            for alias in node.names:
                target = f"{source}.{alias.name}"
                note(target)
                if is_module(target, root):
                    modules[alias.asname or alias.name] = target
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            owner = dotted_module(node.value, modules, root)
            if owner is not None and crossing(owner):
                found.add((here, f"{owner}.{node.attr}"))
    return sorted(found)


def dotted_module(node: ast.expr, modules: dict[str, str], root: Path) -> str | None:
    """The module an expression names (`yokai`, `rk.games.yokai`), or None if it names none."""
    if isinstance(node, ast.Name):
        return modules.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = dotted_module(node.value, modules, root)
        if owner is not None and is_module(f"{owner}.{node.attr}", root):
            return f"{owner}.{node.attr}"
    return None


def all_private_imports(root: Path = ROOT) -> list[tuple[str, str]]:
    return sorted(
        found
        for package in PACKAGES
        for path in sorted((root / package).rglob("*.py"))
        for found in private_imports(path, root)
    )


#: Private names still taken across packages. Each is a debt of issue 45, not a permission: the
#: test fails when one is added elsewhere, and when one of these is gone (then strike it here),
#: so the list can only shrink.
ALLOWED_PRIVATE_IMPORTS: set[tuple[str, str]] = set()


def test_no_package_imports_another_packages_private_names():
    found = set(all_private_imports())
    new = sorted(found - ALLOWED_PRIVATE_IMPORTS)
    gone = sorted(ALLOWED_PRIVATE_IMPORTS - found)
    assert not new, "private names imported from another package (offer a public seam):\n" + "\n".join(
        f"{module}: {name}" for module, name in new
    )
    assert not gone, "no longer imported: strike from ALLOWED_PRIVATE_IMPORTS:\n" + "\n".join(
        f"{module}: {name}" for module, name in gone
    )


def test_formats_take_nothing_private_from_a_game():
    """Issue 45 item 4: the players' formats read and write the Yōkai games through their
    notation's public seams only (SAN, check, the KIF names and squares)."""
    formats = ROOT / "rules_kernel" / "formats"
    assert [found for path in sorted(formats.rglob("*.py")) for found in private_imports(path)] == []


def test_the_private_import_check_fails_on_a_module_that_imports_a_private_name(tmp_path):
    """The check above can fail: a made-up format module that takes a game's private function,
    goes through a private module, and calls a private function on a game module it imported
    is caught on each; its own package's privates, the standard library's, an object's and a
    dunder are not."""
    for package in ("rules_kernel/games/yokai", "rules_kernel/formats", "rules_kernel/tablebase"):
        (tmp_path / package).mkdir(parents=True)
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "rules_kernel" / "__init__.py").write_text("")
    (tmp_path / "rules_kernel" / "games" / "__init__.py").write_text("")
    (tmp_path / "rules_kernel" / "tablebase" / "_table.py").write_text("")
    fake = tmp_path / "rules_kernel" / "formats" / "fake.py"
    fake.write_text(
        "import os\n"
        "from rules_kernel.formats import _shared, echo\n"
        "from rules_kernel.games import yokai\n"
        "from rules_kernel.games.yokai import YokaiMove, __version__\n"
        "from rules_kernel.tablebase._table import Table\n"
        "\n"
        "def check(state, self):\n"
        "    from rules_kernel.games.yokai import _in_check\n"
        "    self._cache, os._exit\n"
        "    return _in_check(state) or yokai._make(state)\n"
    )
    assert private_imports(fake, tmp_path) == [
        ("rules_kernel.formats.fake", "rules_kernel.games.yokai._in_check"),
        ("rules_kernel.formats.fake", "rules_kernel.games.yokai._make"),
        ("rules_kernel.formats.fake", "rules_kernel.tablebase._table.Table"),
    ]


# --- issue 45 item 5: one-way imports -------------------------------------------------------


def imports_of(path: Path, root: Path = ROOT) -> set[str]:
    """The project modules a module imports, wherever the import stands (inside a function
    too: it runs when called), except under `if TYPE_CHECKING:` (it never runs). `from x import
    y` imports the module `x.y` if there is one, else `x`; the parent packages Python runs first
    are not counted (import-linter counts the same way)."""
    here = module_name(path, root)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skipped = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for child in ast.walk(statement)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = import_source(node, package)
            for alias in node.names:
                target = f"{source}.{alias.name}"
                found.add(target if is_module(target, root) else source)
    return {name for name in found if name.split(".")[0] in PACKAGES and name != here}


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Unit -> the units it imports (a unit as for the private names: `rules_kernel.records`,
    `rules_kernel.formats`, one game's package; the package face `rules_kernel` is one too)."""
    graph: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            unit = unit_of(module_name(path, root))
            graph.setdefault(unit, set()).update(
                unit_of(name) for name in imports_of(path, root) if unit_of(name) != unit
            )
    return graph


def circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The import circles: each set of units that reach one another (Tarjan's strongly
    connected components of more than one unit)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(unit: str) -> None:
        index[unit] = low[unit] = len(index)
        stack.append(unit)
        for other in sorted(graph.get(unit, ())):
            if other not in index:
                visit(other)
                low[unit] = min(low[unit], low[other])
            elif other in stack:
                low[unit] = min(low[unit], index[other])
        if low[unit] == index[unit]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == unit:
                    break
            if len(component) > 1:
                found.add(frozenset(component))

    for unit in sorted(graph):
        if unit not in index:
            visit(unit)
    return found


#: Circles still in the tree: none since the record model moved below the formats (issue 45
#: item 5). Were one ever listed here, it would be a debt, not a permission: the test fails on a
#: new circle and when a listed one is gone, so the list can only shrink.
KNOWN_CIRCLES: set[frozenset[str]] = set()  # none left (issue 45 item 5); a new one fails


def test_no_import_circle_between_the_rooms():
    found = circles(import_graph())
    new = found - KNOWN_CIRCLES
    gone = KNOWN_CIRCLES - found
    assert not new, "import circles (imports inside functions count):\n" + "\n".join(
        " <-> ".join(sorted(circle)) for circle in new
    )
    assert not gone, "no longer a circle: strike from KNOWN_CIRCLES:\n" + "\n".join(
        " <-> ".join(sorted(circle)) for circle in gone
    )


def test_the_kernel_asks_the_registry_not_the_package_face():
    """The registry imports only core (and the games it registers); inside the kernel only the
    commands import the package face, which sits above everything (it imports Session)."""
    graph = import_graph()
    assert graph["rules_kernel.registry"] == {"rules_kernel.core", "rules_kernel.games"}
    face_users = {unit for unit, imported in graph.items() if "rules_kernel" in imported}
    kernel_users = {unit for unit in face_users if unit.startswith("rules_kernel.")}
    assert kernel_users == {"rules_kernel.cli"}
    assert "rules_kernel.agents" not in graph["rules_kernel.analysis"]
    assert "rules_kernel.evaluation" in graph["rules_kernel.analysis"] & graph["rules_kernel.agents"]


def test_the_circle_check_sees_a_circle_closed_inside_a_function(tmp_path):
    """The check above can fail: a module whose way back is an import inside a function is a
    circle; an import under TYPE_CHECKING is not (it never runs)."""
    kernel = tmp_path / "rules_kernel"
    (kernel / "analysis").mkdir(parents=True)
    (kernel / "__init__.py").write_text("")
    (kernel / "analysis" / "__init__.py").write_text("from rules_kernel.analysis.search import run\n")
    (kernel / "analysis" / "search.py").write_text(
        "def run(state):\n    from rules_kernel.agents import evaluate\n\n    return evaluate(state)\n"
    )
    (kernel / "agents.py").write_text(
        "from typing import TYPE_CHECKING\n\n"
        "if TYPE_CHECKING:\n    from rules_kernel.records import Record\n\n"
        "def evaluate(state):\n    return 0\n\n"
        "def search(state):\n    from rules_kernel import analysis\n\n    return analysis.run(state)\n"
    )
    (kernel / "records.py").write_text("from rules_kernel import agents\n")
    graph = import_graph(tmp_path)
    assert graph["rules_kernel.agents"] == {"rules_kernel.analysis"}
    assert circles(graph) == {frozenset({"rules_kernel.agents", "rules_kernel.analysis"})}


def lint_imports(cwd: Path, *, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """The real `lint-imports` of the test environment, on the contracts of `cwd`'s
    pyproject.toml."""
    command = Path(sys.executable).parent / "lint-imports"
    assert command.is_file(), f"{command} missing: the test extra installs import-linter"
    return subprocess.run(
        [str(command), "--no-cache", "--no-logo"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_import_contract_holds():
    """pyproject.toml's [tool.importlinter] contracts: the layers of docs/architecture.md."""
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"Contracts: [1-9]\d* kept, 0 broken", run.stdout), run.stdout


def test_the_import_contract_fails_on_an_import_against_the_layers(tmp_path):
    """The contract can fail: a copy of the tree where the tree search imports the agents again
    (inside a function, as it was before issue 45) breaks the kernel's layers, named by the
    import; the real tree is not touched."""
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__", "data")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    ismcts = tmp_path / "rules_kernel" / "analysis" / "ismcts.py"
    way_back = "\n\ndef back():\n    from rules_kernel.agents import make_agent\n\n    return make_agent\n"
    ismcts.write_text(ismcts.read_text(encoding="utf-8") + way_back, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = lint_imports(tmp_path, env=env)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "The kernel's layers" in run.stdout and "BROKEN" in run.stdout, run.stdout
    assert "rules_kernel.analysis.ismcts -> rules_kernel.agents" in run.stdout, run.stdout


#: the games' rules test files: the rules alone, as the rulebooks state them
RULES_TEST_FILES = ("test_yokai.py", "test_war_stories.py", "test_to_war.py", "test_war_chest.py")


def widget_imports(source: str) -> list[str]:
    """The modules of `widgets` a test file's source imports, anywhere in it (inside a test too)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
        found += [n for n in names if n == "widgets" or n.startswith("widgets.")]
    return found


def test_the_rules_test_files_test_no_widget():
    """Widget tests live in files of their own (issue 45 item 9): a game's rules file tests its
    rules; the move list's words as a widget writes them are tests/test_move_list_words.py's."""
    assert sorted(
        widget_imports("def test():\n    import widgets\nfrom widgets.presentation import x\n")
    ) == [
        "widgets",
        "widgets.presentation",
    ]
    for name in RULES_TEST_FILES:
        source = (ROOT / "tests" / name).read_text(encoding="utf-8")
        assert widget_imports(source) == [], f"tests/{name} imports {widget_imports(source)}"
