"""A user's own game checked by one command, and old games kept working (issue 45 item 8).

`rk.check_game(cls)` and `rules-explorer check-game MODULE:CLASS` run the protocol's
conformance suite on any Game subclass: the example of docs/kernel.md ("Adding a game",
examples/nim.py) passes it; a game broken in one hook fails the check that meets it, naming
the hook; every registered game passes it. A game whose `view(self, player)` follows the
earlier docs (no `memory`) is adapted by the kernel with a DeprecationWarning, and runs through
the simulations, the statistics and the explorer.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path

import pytest

import rules_kernel as rk
from rules_kernel import check, simulate, stats
from rules_kernel.check import FAILED, PASSED, SKIPPED, WARNING
from rules_kernel.cli import main
from rules_kernel.core import PositionTextError, check_seat

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # examples/ is not installed: the docs import it from the project's folder
    sys.path.insert(0, str(ROOT))

from examples.nim import Nim, NimState  # noqa: E402

CHECKS = [
    check.BASICS,
    check.PLAYOUTS,
    check.MOVES,
    check.TEXT,
    check.GARBAGE,
    check.VIEWS,
    check.RECORDS,
    check.SCENE,
    check.INFO,
]


def installed_command() -> str:
    exe = Path(sys.executable).parent / "rules-explorer"
    assert exe.is_file(), f"pip install -e . installs the rules-explorer command into {exe.parent}"
    return str(exe)


def statuses(report: check.GameCheck) -> dict[str, str]:
    return {result.name: result.status for result in report.results}


# --- the example of the docs passes, from the command line as the docs run it --------------------


def test_the_example_game_passes_check_game_on_the_command_line():
    """docs/kernel.md, "Adding a game": `rules-explorer check-game examples.nim:Nim` in the
    project's folder (the command imports the module from the folder it runs in)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [installed_command(), "check-game", "examples.nim:Nim"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stderr == ""
    out = done.stdout
    assert out.startswith("Checking Nim (id 'nim'): seed 0, 10 random games of at most 1000 actions")
    for name in CHECKS:
        assert f"  ok       {name}" in out, name
    words = " ".join(out.split())  # the report wraps its lines
    assert "won by Player 1" in words and "no hidden information" in words
    assert out.rstrip().endswith("9 of 9 checks passed: the game follows the protocol.")


def test_the_report_of_the_example_in_python():
    report = rk.check_game(Nim, seed=3, games=4)
    assert report.passed and [r.name for r in report.results] == CHECKS
    assert set(statuses(report).values()) == {PASSED}
    assert report.result(check.PLAYOUTS).detail.startswith("4 of 4 games ended after")
    assert "nim" not in rk.list_games()  # registered while checked, taken out after
    with pytest.raises(rk.OptionError, match="at least one game"):
        rk.check_game(Nim, games=0)


# --- a game broken in one hook fails the check that meets it, naming the hook --------------------

CARELESS = """
    from examples.nim import Nim, NimState


    class CarelessState(NimState):
        def apply(self, action):  # no check against legal_moves(): takes any move it is given
            if isinstance(action, str):
                action = self.parse_move(action)
            return self._successor(action)


    class CarelessNim(Nim):
        id = "careless-nim"

        def initial_state(self):
            return CarelessState(self, left=self.options["counters"], side=0)

        def from_text(self, text):
            state = super().from_text(text)
            return CarelessState(self, left=state.left, side=state.side)
"""


def test_a_game_whose_apply_takes_an_illegal_move_fails_on_the_command_line(tmp_path):
    (tmp_path / "careless.py").write_text(textwrap.dedent(CARELESS))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [installed_command(), "check-game", "careless:CarelessNim", "--games", "3"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    out = done.stdout
    words = " ".join(out.split())  # the report wraps its lines
    assert "\n  FAILED   legal moves apply, others are refused: random game " in out
    assert re.search(
        r"apply\(the move 'take [23]'\) is not legal there but was applied \(it gave position '-1", words
    )
    assert "-> State.apply: keep the kernel's (it checks every move against legal_moves()" in words
    assert "\n  ok       position text reads back" in out  # only the check that meets the fault fails
    assert out.rstrip().endswith(
        "8 of 9 checks passed, 1 failed: fix the hook named under each failed check."
    )
    assert "Traceback" not in out + done.stderr


class ForgetfulText(NimState):
    def to_text(self) -> str:  # forgets the side to move
        return f"{self.left} 0"


class ForgetfulTextNim(Nim):
    id = "forgetful-text-nim"

    def initial_state(self):
        return ForgetfulText(self, left=self.options["counters"], side=0)

    def from_text(self, text):
        state = super().from_text(text)
        return ForgetfulText(self, left=state.left, side=state.side)


def test_a_text_that_does_not_read_back_fails_naming_to_text():
    report = rk.check_game(ForgetfulTextNim, games=2)
    assert not report.passed and [r.name for r in report.failures()] == [check.TEXT, check.GARBAGE]
    failed = report.result(check.TEXT)
    assert failed.detail.startswith("random game 1, after 1 action (take ")
    assert "from_text of its text gives another position" in failed.detail
    assert failed.hook.startswith("State.to_text (all a rule needs) / Game.from_text")
    assert "FAILED   position text reads back" in report.text()


class CrashingTextNim(Nim):
    id = "crashing-text-nim"

    def from_text(self, text):  # reads good texts, but a bad one is not a PositionTextError
        left, side = text.split()
        state = NimState(self, left=int(left), side=int(side))
        if not 0 <= state.left <= self.options["counters"] or state.side not in (0, 1):
            raise PositionTextError(f"{text!r}: no such position")
        return state


def test_from_text_raising_another_error_than_position_text_error_fails():
    report = rk.check_game(CrashingTextNim, games=2)
    assert statuses(report)[check.TEXT] == PASSED
    failed = report.result(check.GARBAGE)
    assert failed.status == FAILED
    assert failed.detail.startswith("from_text(NoneType None) raised AttributeError")
    assert "test_check_game.py, line" in failed.detail  # the line of the game's code
    assert failed.hook.startswith("Game.from_text: refuse a bad text with rk.PositionTextError")


class StuckState(NimState):
    def _compute_outcome(self):  # never sees the end: the empty pile is a position with no move
        return None


class StuckNim(Nim):
    id = "stuck-nim"

    def initial_state(self):
        return StuckState(self, left=self.options["counters"], side=0)


def test_a_game_that_does_not_see_its_end_fails_and_the_rest_is_not_run():
    report = rk.check_game(StuckNim, games=2)
    failed = report.result(check.PLAYOUTS)
    assert failed.status == FAILED
    assert (
        "the game is not over (outcome() is None) but the player to move has no legal move" in failed.detail
    )
    assert "position '0 " in failed.detail
    assert failed.hook == "State.legal_moves or State._compute_outcome"
    assert [r.status for r in report.results[2:]] == [SKIPPED] * 7


class EndlessState(NimState):
    def _successor(self, action):  # the last counter taken brings the pile back: no end
        after = super()._successor(action)
        return after.replaced(left=self.game.options["counters"]) if after.left == 0 else after


class EndlessNim(Nim):
    id = "endless-nim"

    def initial_state(self):
        return EndlessState(self, left=self.options["counters"], side=0)


def test_a_game_that_never_ends_fails_and_one_that_random_play_makes_long_warns():
    report = rk.check_game(EndlessNim, games=2, max_plies=50)
    failed = report.result(check.PLAYOUTS)
    assert failed.status == FAILED
    assert failed.detail.startswith("no random game ended in 50 actions: random game 1, after 50 actions (")
    assert failed.hook.startswith("State._compute_outcome: does the game see its end?")
    long = rk.check_game(Nim, games=10, max_plies=6)  # Nim's random games take 5 to 9 actions
    assert long.passed and statuses(long) == {**dict.fromkeys(CHECKS, PASSED), check.PLAYOUTS: WARNING}
    assert "still going after 6 actions" in long.result(check.PLAYOUTS).detail


class LyingState(NimState):
    def view(self, player: int, *, memory: bool | None = None) -> NimState:
        check_seat(self.game, player)
        return self.replaced(left=self.left + 1) if self.left else self  # one counter too many


class LyingNim(Nim):
    id = "lying-nim"

    def initial_state(self):
        return LyingState(self, left=self.options["counters"] - 1, side=0)

    def from_text(self, text):
        state = super().from_text(text)
        return LyingState(self, left=state.left, side=state.side)


def test_a_view_that_misstates_the_position_fails():
    report = rk.check_game(LyingNim, games=2)
    failed = report.result(check.VIEWS)
    assert failed.status == FAILED and statuses(report)[check.SCENE] == PASSED
    assert failed.detail.startswith(
        "random game 1, at the start, position '11 0': view(0) shows Counter on c12"
    )
    assert failed.detail.endswith("where the position has nothing")
    assert failed.hook.startswith(
        "State.view (or State.scene with a perspective): hide a secret, never change"
    )


def test_a_class_that_is_no_game_fails_its_basics():
    report = rk.check_game(NimState)  # type: ignore[arg-type]
    assert (
        report.results[0].status == FAILED
        and "not a subclass of rules_kernel.Game" in report.results[0].detail
    )
    assert [r.status for r in report.results[1:]] == [SKIPPED] * 8
    taken = type("Impostor", (Nim,), {"id": "yokai-3x4"})
    basics = rk.check_game(taken).results[0]
    assert (
        basics.status == FAILED
        and "registered for another game" in basics.detail
        and basics.hook == "fix Game.id"
    )


@pytest.mark.parametrize("game_id", rk.list_games())
def test_every_registered_game_passes_check_game(game_id):
    """The suite holds for the project's own games (hidden information, chance, 4 seats): it
    asks nothing of a game that the protocol does not."""
    report = rk.check_game(rk.game_class(game_id), games=1)
    assert report.passed, report.text()


# --- bad names: one line, no traceback --------------------------------------------------------------


@pytest.fixture
def own_folder(tmp_path, monkeypatch):
    """The command imports from the folder it runs in: a test's folder, sys.path as it was."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield tmp_path
    for name in ("exploding_game", "not_a_game"):
        sys.modules.pop(name, None)


@pytest.mark.parametrize(
    "target, says",
    [
        ("examples.nim", "check-game takes MODULE:CLASS, e.g. mygame:MyGame, not 'examples.nim'"),
        ("../etc/passwd:X", "check-game takes MODULE:CLASS"),
        ("no_such_module_here:Game", "no module 'no_such_module_here': run the command in the folder"),
        ("examples.nim:Nimm", "module examples.nim has no 'Nimm'; its Game classes: Nim"),
        ("examples.nim:Take", "examples.nim:Take is type <class 'examples.nim.Take'>, not a subclass"),
        ("not_a_game:helper", "not_a_game:helper is function"),
    ],
)
def test_a_name_that_names_no_game_class_is_one_line_and_status_2(own_folder, capsys, target, says):
    (own_folder / "not_a_game.py").write_text("def helper():\n    return 1\n")
    sys.path.insert(0, str(ROOT))  # where `examples` is
    assert main(["check-game", target]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rules-explorer: error: ") and says in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_module_that_raises_while_imported_is_one_line_and_status_1(own_folder, capsys):
    (own_folder / "exploding_game.py").write_text("import rules_kernel\n\nraise RuntimeError('boom')\n")
    assert main(["check-game", "exploding_game:Game"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("rules-explorer: error: importing exploding_game failed: RuntimeError: boom (")
    assert "exploding_game.py, line 3)" in err and err.count("\n") == 1


# --- item 2: a view written before `memory` keeps working --------------------------------------------


def old_view_game() -> type[Nim]:
    """A game written against the earlier docs: its view takes the player only."""

    class OldViewState(NimState):
        def view(self, player):  # the signature documented before `memory` joined the protocol
            check_seat(self.game, player)
            return self

    class OldViewNim(Nim):
        id = "nim-old-view"
        title = "Nim with an old view"

        def initial_state(self):
            return OldViewState(self, left=self.options["counters"], side=0)

        def from_text(self, text):
            state = super().from_text(text)
            return OldViewState(self, left=state.left, side=state.side)

    return OldViewNim


@pytest.fixture
def old_game():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # its own test below
        cls = old_view_game()
    rk.register_game(cls)
    yield cls
    rk.unregister_game(cls.id)


def test_a_view_taking_only_the_player_is_adapted_with_a_deprecation_warning():
    with pytest.warns(DeprecationWarning) as caught:
        cls = old_view_game()
    message = str(caught[0].message)
    assert "OldViewState.view(self, player) takes no 'memory'" in message
    assert "write it as `def view(self, player, *, memory=None)`" in message
    assert caught[0].filename == __file__  # the warning points at the game's class
    state = cls().initial_state()
    assert state.view(1, memory=True) is state and state.view(0) is state
    with pytest.raises(rk.SeatError):
        state.view(2, memory=True)  # the game's own view still runs: it checks the seat


def test_a_game_with_an_old_view_runs_through_simulate_and_the_statistics(old_game):
    played = simulate.simulate(old_game.id, 6, agents=("random", "greedy"), seed=2, progress=False)
    assert len(played) == 6 and all(r.result["finished"] for r in played)
    assert {r.result["winner"] for r in played} == {1}  # 12 counters lose for the first to move
    games = stats.games_frame(played)
    assert len(games) == 6
    table = stats.first_player_advantage(games)
    assert table["games"].tolist() == [6]
    assert len(stats.actions_frame(played)) == sum(len(r.actions) for r in played)


def test_the_explorer_plays_a_game_with_an_old_view_against_an_agent(old_game):
    import widgets

    ex = widgets.Explorer(old_game.id, seed=3)
    ex.agent_kind.value = "greedy"
    ex.agent_plays[1].value = True
    ex.play("take 1")  # the agent, given view(1, memory=True), answers
    assert len(ex.actions) == 2 and ex.state.to_text() == "8 0"  # it took 3: 8 is a losing pile


def test_check_game_passes_an_old_view_with_a_warning(old_game):
    report = rk.check_game(old_game, games=2)
    assert report.passed
    views = report.result(check.VIEWS)
    assert views.status == WARNING and "adapted by the kernel" in views.detail
    assert views.hook.startswith("State.view: write it as `def view(self, player, *, memory=None)`")
    assert "1 with a warning" in report.text()
