"""Where a game's knowledge lives (issue #21 item 1, docs/architecture.md): every game declares
what the project needs of it in its own module under rules_kernel/games/, so no code elsewhere
names a game. Docstrings and comments may (they are documentation); code may not."""

from __future__ import annotations

import ast
import re
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
