"""A game added from one module outside the package: a toy Nim, registered here, runs through
the explorer, the simulations and the statistics with no change to them (issue #21).

Everything the project needs of a game is in the classes below: the rules (core's protocol),
the title and options, the declarations of `rules_kernel.core.Game` (a drawing hint, a
heatmap), and the parts it names in `PARTS` (the agents' heuristic and the statistics'
settings: `NimTheory`). docs/kernel.md, "Adding a game", walks through them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

import rules_kernel as rk
import widgets
from rules_kernel import records, simulate, stats
from rules_kernel.core import Game, Move, Option, Outcome, PositionTextError, State
from rules_kernel.scene import Cell, Scene, Token
from widgets import stats_panel

# --- the toy game: one module's worth ------------------------------------------------------------


@dataclass(frozen=True)
class Take(Move):
    """Take `count` firesticks from the top of the pile; one click on the lowest of them."""

    count: int
    cells: tuple[str, ...]

    def __str__(self) -> str:
        return f"take {self.count}"


def _takes_heatmap(actions, scene):
    from rules_kernel import heatmaps  # pandas: only when drawn

    return heatmaps.cells_of_actions(
        actions, scene.game, lambda notation: "s" + notation.str.removeprefix("take ")
    )


def _refuse(why: str) -> int:
    raise ValueError(why)


@dataclass(frozen=True, repr=False)
class NimState(State):
    game: Nim
    left: int
    side: int
    last: tuple[str, ...] = field(default=(), compare=False)  # a display hint, not the position

    @property
    def current_player(self) -> int:
        return self.side

    def legal_moves(self) -> list[Move]:
        most = min(self.game.options["most"], self.left)
        return [Take(k, (f"s{self.left - k + 1}",)) for k in range(1, most + 1)]

    def _successor(self, action: Take) -> NimState:
        taken = tuple(f"s{i}" for i in range(self.left - action.count + 1, self.left + 1))
        return NimState(self.game, self.left - action.count, 1 - self.side, taken)

    def is_terminal(self) -> bool:
        return self.left == 0

    def outcome(self) -> Outcome | None:
        return Outcome.win(1 - self.side, "took the last firestick") if self.left == 0 else None

    def to_text(self) -> str:
        return f"{self.left} {self.side}"


class NimBoard:
    """The "scene" part: what the board shows (rules_kernel.parts.ScenePart)."""

    @staticmethod
    def scene(state: NimState, perspective: int | None = None) -> Scene:
        names = state.game.player_names
        cells = tuple(Cell(f"s{i}", i - 1, 0) for i in range(1, state.game.options["sticks"] + 1))
        tokens = tuple(Token(f"s{i}", "Firestick", "F") for i in range(1, state.left + 1))
        status = (
            f"{names[1 - state.side]} took the last firestick"
            if state.left == 0
            else f"{names[state.side]} to take ({state.left} left)"
        )
        return Scene(
            state.game.id,
            "square",
            cells,
            tokens,
            players=names,
            to_move=None if state.left == 0 else state.side,
            status=status,
            perspective=perspective,
            last_cells=state.last,
        )


class NimTheory:
    """The toy's "heuristic" and "statistics" parts: one small object with their functions."""

    def heuristic(self, state: State, player: int) -> float:
        """Nim's theory: the side to move loses when the pile is a multiple of most + 1."""
        lost = state.left % (state.game.options["most"] + 1) == 0
        for_mover = -0.5 if lost else 0.5
        return for_mover if player == state.side else -for_mover

    def data_options(self, setting: int) -> dict[str, Any]:
        return {"sticks": 5 + setting % 3}  # the statistics cycle through three pile sizes

    def seat_holdings(self, record: Any) -> dict[str, list[Any]]:
        return {}  # the seats hold nothing but their turn


theory = NimTheory()


class Nim(Game):
    """A pile of firesticks; each turn a player takes 1 to `most`; whoever takes the last wins."""

    id = "toy-nim"
    title = "Toy Nim"
    HIDDEN_INFORMATION = CHANCE = MEMORY = False  # what the game is (rk.info)
    # the parts it brings besides its rules (rules_kernel.parts), each named to its object
    PARTS: ClassVar[dict[str, Any]] = {
        "position text": NimState,
        "scene": NimBoard,
        "heuristic": theory,
        "statistics": theory,
    }
    OPTIONS: ClassVar[dict[str, Option]] = {
        "sticks": Option(
            7,
            "firesticks in the pile at the start",
            kind=int,
            check=lambda n: n if 1 <= n <= 20 else _refuse("from 1 to 20"),
        ),
        "most": Option(
            2,
            "the most firesticks a turn may take",
            kind=int,
            check=lambda n: n if 1 <= n <= 5 else _refuse("from 1 to 5"),
        ),
    }
    # the declarations of core.Game
    NAME_BREAKS: ClassVar[dict[str, tuple[str, ...]]] = {"Firestick": ("Fire-", "stick")}
    DATA_MAX_PLIES = 40
    HEATMAPS = (
        rk.Heatmap(
            "takes",
            "how many sticks a turn takes",
            "turns",
            "each turn counts on the stick of its count (s2: a turn that took two)",
            lambda actions, scene: _takes_heatmap(actions, scene),
        ),
    )

    def initial_state(self) -> NimState:
        return NimState(self, self.options["sticks"], 0)

    def from_text(self, text: str) -> NimState:
        found = re.fullmatch(r"([0-9]{1,2}) ([01])", text.strip()) if isinstance(text, str) else None
        if found is None or int(found[1]) > self.options["sticks"]:
            raise PositionTextError(
                f"{str(text)[:40]!r}: give the sticks left (at most "
                f"{self.options['sticks']}) and the side to move, 0 or 1: '5 1'"
            )
        return NimState(self, int(found[1]), int(found[2]))


# --- registering it: for these tests only ---------------------------------------------------------


@pytest.fixture
def nim():
    rk.register_game(Nim)
    yield Nim
    rk.unregister_game(Nim.id)


def test_registering_adds_the_game_and_unregistering_takes_it_out(nim):
    assert "toy-nim" in rk.list_games() and rk.list_games(ordered=True)[-1] == "toy-nim"
    game = rk.load_game("toy-nim", sticks=4)
    assert game.initial_state().play("take 2", "take 1").to_text() == "1 0"
    with pytest.raises(rk.OptionError, match="from 1 to 20"):
        rk.load_game("toy-nim", sticks=40)
    with pytest.raises(rk.OptionError, match="registered already"):
        rk.register_game(type("Impostor", (Nim,), {}))  # another class under the same id
    rk.register_game(Nim)  # the same class again changes nothing
    rk.unregister_game("toy-nim")
    assert "toy-nim" not in rk.list_games()
    with pytest.raises(rk.OptionError, match="unknown game 'toy-nim'"):
        rk.load_game("toy-nim")
    rk.register_game(Nim)  # for the fixture's teardown


def test_the_explorer_plays_it_by_clicks_and_against_an_agent(nim):
    ex = widgets.Explorer("toy-nim", seed=3)
    assert ex.game_select.value == "toy-nim" and ex.perfect.layout.display == "none"  # not solved
    x, y = ex.board.layout.center_of("s6")  # the second stick from the top: take 2
    assert ex.board.click_at(x, y) == "s6"
    assert [str(a) for a in ex.actions] == ["take 2"] and ex.state.to_text() == "5 1"
    assert ex.board.highlight["last"] == ("s6", "s7")
    ex.agent_kind.value = "greedy"
    ex.agent_plays[0].value = True
    ex.play("take 1")  # the greedy agent answers with the move Nim's theory calls winning
    assert ex.state.to_text() == "3 1" and len(ex.actions) == 3
    record = records.Record.from_json(ex.export())
    assert record.game == "toy-nim" and record.replay()[-1] == ex.state


def test_its_drawing_hint_reaches_the_board():
    """Without the game's NAME_BREAKS the name would break in its middle ('Fires-', 'tick')."""
    svg = Nim().initial_state()._repr_svg_()
    assert ">Fire-<" not in svg  # not registered: the drawing knows nothing of the game
    rk.register_game(Nim)
    try:
        svg = Nim().initial_state()._repr_svg_()
        assert ">Fire-<" in svg and ">stick<" in svg
    finally:
        rk.unregister_game(Nim.id)
    assert "Firestick" not in rk.NAME_BREAKS


def test_simulations_play_it_with_its_heuristic_on_one_core_or_two(nim):
    one = simulate.simulate("toy-nim", 12, agents=("greedy", "random"), seed=5, progress=False)
    two = simulate.simulate("toy-nim", 12, agents=("greedy", "random"), seed=5, progress=False, workers=2)
    assert [r.to_json() for r in one] == [r.to_json() for r in two]
    assert {r.result["winner"] for r in one} == {0}  # 7 sticks: the first player wins with theory


def test_statistics_frames_and_summaries_of_it(nim):
    tasks = [simulate.experiment_task("toy-nim", "seats", i) for i in range(6)]
    assert [dict(t.options)["sticks"] for t in tasks] == [5, 6, 7, 5, 6, 7]
    games = stats.experiment_games(simulate.play_tasks(tasks))
    assert len(games) == 6 and set(games["experiment"]) == {"seats"} and games["finished"].all()
    seats = stats.first_player_advantage(games)
    assert seats["games"].tolist() == [6] and seats["decided"].tolist() == [6]
    actions = stats.actions_frame(simulate.play_tasks(tasks))
    assert actions["piece"].astype(str).eq("Firestick").all()
    assert stats.branching_by_ply(actions)["max"].max() == 2
    dashboard = stats_panel.StatsDashboard(games, game="toy-nim")
    assert "Toy Nim" in dashboard.panels.children[0].value
    dashboard.more.value = 3
    dashboard.run.click()
    assert sorted(dashboard.selected()["index"]) == list(range(9))


def test_its_declared_heatmap_is_drawn_on_the_statistics_page(nim):
    """The statistics page draws every heatmap the games declare: Nim's joins with no change."""
    from widgets import heatmap

    tasks = [simulate.experiment_task("toy-nim", "seats", i) for i in range(6)]
    actions = stats.actions_frame(simulate.play_tasks(tasks))
    drawn = [p for p in heatmap.pictures() if p.game == "toy-nim"]
    assert [p.key for p in drawn] == ["toy-nim-takes"]
    assert drawn[0].title == "Toy Nim: how many sticks a turn takes"
    figure = heatmap.HeatmapFigure(drawn[0], actions)
    assert figure.data.games == 6
    assert set(figure.counts) <= {"s1", "s2"} and sum(figure.counts.values()) == len(actions)
    assert "n = 6 games" in figure.widget.children[-1].value
