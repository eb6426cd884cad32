"""The rule explainers: every puzzle on their pages can be solved and can be failed, the
widgets judge the reader's answer as the rules do, and the pages show only widgets.

The notebooks' code cells are run here in-process (the same code Voilà runs), so the puzzles
tested are exactly the published ones."""

from __future__ import annotations

import ast
from pathlib import Path

import nbformat
import pytest

import rules_kernel as rk
from widgets.puzzle import ChoicePuzzle, MovePuzzle, RuleBoard, captures, reinforces, wins

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
EXPLAINERS = sorted(NOTEBOOKS.glob("rules-*.ipynb"))


def run_cells(path: Path) -> list[object]:
    """Execute a notebook's code cells; return the value each cell ends with."""
    namespace: dict[str, object] = {}
    shown = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        tree = ast.parse(cell.source)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        exec(compile(tree, str(path), "exec"), namespace)  # noqa: S102 - our own notebooks
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), str(path), "eval"), namespace))  # noqa: S307
    return shown


@pytest.fixture(scope="module", params=EXPLAINERS, ids=lambda p: p.stem)
def page(request) -> tuple[str, list[object]]:
    return request.param.stem, run_cells(request.param)


def turns(state: rk.State, depth: int = 8):
    """Every way the player to move can play out their turn (sub-decisions included)."""
    player = state.current_player
    for move in state.legal_moves():
        after = state.apply(move)
        if after.is_terminal() or after.current_player != player or depth == 0:
            yield [str(move)], after
        else:
            for rest, end in turns(after, depth - 1):
                yield [str(move), *rest], end


def test_five_explainers():
    assert {p.stem for p in EXPLAINERS} == {
        "rules-yokai-3x4",
        "rules-yokai-5x6",
        "rules-war-stories",
        "rules-to-war",
        "rules-war-chest",
    }


def test_every_cell_ends_with_a_widget_or_nothing(page):
    """Voilà shows outputs only: no frame, list or repr may reach the page."""
    import ipywidgets as w

    name, shown = page
    assert shown, name
    assert all(isinstance(value, w.Widget) for value in shown), [type(v) for v in shown]


def test_at_least_three_puzzles_and_live_boards(page):
    name, shown = page
    puzzles = [v for v in shown if isinstance(v, (MovePuzzle, ChoicePuzzle))]
    assert len(puzzles) >= 3, name
    assert sum(isinstance(v, RuleBoard) for v in shown) >= 2, name


def test_move_puzzles_can_be_solved_and_failed(page):
    """Each "find the move" puzzle has at least one turn that reaches its goal and at least one
    that does not (so it asks something), judged by the kernel from the start position."""
    name, shown = page
    for puzzle in (v for v in shown if isinstance(v, MovePuzzle)):
        start = puzzle.start
        if puzzle.judge == "action":
            results = [puzzle.goal(start, start.apply(m)) for m in start.legal_moves()]
        else:
            results = [puzzle.goal(start, end) for _, end in turns(start)]
        assert any(results) and not all(results), f"{name}: {start.to_text()}"


def play_turn(puzzle: MovePuzzle, moves: list[str]) -> bool | None:
    for move in moves:
        puzzle.board.play(move)
    return puzzle.solved


def test_the_widget_judges_like_the_rules(page):
    """Playing a right turn on the puzzle's board says "Right!"; Undo clears the verdict; a wrong
    turn says "Not quite"."""
    name, shown = page
    for puzzle in (v for v in shown if isinstance(v, MovePuzzle)):
        start = puzzle.start
        lines = (
            [([str(m)], start.apply(m)) for m in start.legal_moves()]
            if puzzle.judge == "action"
            else list(turns(start))
        )
        right = next(line for line, end in lines if puzzle.goal(start, end))
        wrong = next(line for line, end in lines if not puzzle.goal(start, end))
        assert play_turn(puzzle, right) is True and "Right!" in puzzle.feedback.value
        for _ in right:
            puzzle.board.undo()
        assert puzzle.solved is None and puzzle.feedback.value == ""
        assert play_turn(puzzle, wrong) is False and "Not quite" in puzzle.feedback.value


def choice_puzzles(shown) -> list[ChoicePuzzle]:
    return [v for v in shown if isinstance(v, ChoicePuzzle)]


def test_choice_answers_agree_with_the_kernel(page):
    """The answer each "which is it?" puzzle expects is what the kernel does (rulebook
    passages cited in the puzzles; checked here by playing the rule out)."""
    name, shown = page
    (puzzle,) = choice_puzzles(shown)
    state = puzzle.board.states[0]  # the position given (chance after it is drawn by itself)
    if name == "rules-yokai-3x4":  # "Ein gefangener Kodama Samurai wird ... wieder ... Kodama"
        after = state.apply("b1b2")
        assert "C" in after.to_text().split("[")[1].split("]")[0] and puzzle.answer == "a Kodama"
    elif name == "rules-yokai-5x6":  # Spezifische Regeln 2: a Kodama on the last rank must promote
        assert [str(m) for m in state.legal_moves() if m.cells[0] == "b5"] == ["b5b6+"]
        assert puzzle.answer == "it must become a Kodama Samurai"
    elif name == "rules-war-stories":  # the card under d4, seen from White's side, is a Ki
        assert state.view(0).scene(0).token_at("d4").face_down
        assert state.scene().token_at("d4").name == "Ki" and puzzle.answer == "a Ki"
    elif name == "rules-to-war":  # Der Kampf: equal attack and defence, both leave the field
        end = state.play("BED@b1", "b1b2")
        names = [t.name for t in end.scene().tokens]
        assert not any(n.startswith(("Saqāliba", "Krieger")) for n in names)
        assert puzzle.answer == "both leave the field"
    elif name == "rules-war-chest":  # only coins in the bag can be drawn
        drawn = " ".join(str(o) for o, _ in state.chance_outcomes())
        assert "crossbowman" not in drawn and "pikeman" in drawn and "royal" in drawn
        assert puzzle.answer == "a Crossbowman"


def test_choice_puzzle_buttons(page):
    name, shown = page
    (puzzle,) = choice_puzzles(shown)
    wrong = next(b for b in puzzle.buttons if b.description != puzzle.answer)
    wrong.click()
    assert "Not quite" in puzzle.feedback.value and wrong.button_style == "danger"
    right = next(b for b in puzzle.buttons if b.description == puzzle.answer)
    right.click()
    assert "Right!" in puzzle.feedback.value and right.button_style == "success"


def test_goals_on_hand_made_positions():
    """The goal helpers on positions whose answer is known by hand."""
    yokai = rk.load_game("yokai-3x4").from_text("g1l/1E1/1C1/L1G[] w - - 0 1")
    assert wins(yokai, yokai.apply("b3c4")) and not wins(yokai, yokai.apply("b3a4"))
    assert captures(yokai, yokai.apply("b3a4")) and not captures(yokai, yokai.apply("c1c2"))
    assert not reinforces(yokai, yokai.apply("b3a4"))


def test_a_bad_puzzle_is_refused():
    with pytest.raises(rk.RulesError, match="not among the choices"):
        ChoicePuzzle("?", ["a", "b"], "c")
    with pytest.raises(rk.RulesError, match="judge"):
        MovePuzzle("yokai-3x4", "2l/L2/3/3[] w - - 0 1", "?", judge="later")


def test_rule_text_is_escaped():
    from widgets.puzzle import rich

    assert (
        rich("<script>x</script> *Kodama* **b**") == "&lt;script&gt;x&lt;/script&gt; <i>Kodama</i> <b>b</b>"
    )
