"""The parts a game names (issue 45 item 2): the core protocol is the rules, and everything else
a game brings (its heuristic, its reference panel, its statistics' settings) is an object it
names in `PARTS`, asked through `rk.info(game).part(name)` and `rules_kernel.parts`.

The values every game gave before the parts were objects were recorded from main's code
(`game.heuristic(state, p)`, `game.reference()`, `type(game).data_options(i)`,
`type(game).seat_holdings(record)`) into tests/golden/parts_before.json: positions of a seeded
random game of each, and records of seeded random actions; the parts give the same.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from test_toy_game import Nim, NimBoard, NimState

import rules_kernel as rk
from rules_kernel import agents, parts, simulate, stats
from rules_kernel.core import Game, ReferenceEntry, State
from rules_kernel.info import STATE_PARTS
from rules_kernel.records import Record
from widgets.reference import reference_html

BEFORE = json.loads((Path(__file__).parent / "golden" / "parts_before.json").read_text(encoding="utf-8"))

#: the methods core.Game had for what is now a part
MOVED = (
    "heuristic",
    "reference",
    "data_options",
    "seat_holdings",
    "open_solved_table",
    "solved_table_availability",
)


def _actions(game: Game, most: int, seed: int) -> list[Any]:
    """Seeded random actions from the start, as the recording script played them."""
    rng, state, actions = random.Random(seed), game.initial_state(), []
    while not state.is_terminal() and len(actions) < most:
        action = (
            state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())
        )
        actions.append(action)
        state = state.apply(action)
    return actions


def test_the_core_protocol_is_the_rules():
    """Game defines none of the methods the parts replaced, nor does any game class: a game
    answers them only through its parts (and the deprecated forwards of `Game.__getattr__`)."""
    for name in MOVED:
        assert not hasattr(Game, name), name
        for game_id in rk.list_games():
            assert not hasattr(rk.game_class(game_id), name), (game_id, name)


@pytest.mark.parametrize("game_id", sorted(BEFORE))
def test_every_game_s_parts_keep_the_protocol_and_give_what_the_methods_gave(game_id):
    cls = rk.game_class(game_id)
    game, found, before = cls(), rk.info(game_id), BEFORE[game_id]
    for name, protocol in parts.PROTOCOLS.items():
        if found.has(name):
            assert isinstance(found.part(name), protocol), (game_id, name)
    for part in found.parts & STATE_PARTS:
        assert isinstance(game.initial_state(), found.part(part))  # the State class's hooks
    heuristic = found.part("heuristic")
    for text, values in before["heuristic"]:
        state = game.from_text(text)
        assert [heuristic.heuristic(state, p) for p in range(game.num_players)] == values
        assert [parts.heuristic(state, p) for p in range(game.num_players)] == values
    entries = found.part("reference").reference(game)
    assert all(isinstance(e, ReferenceEntry) for e in entries)
    assert hashlib.sha256(repr(entries).encode()).hexdigest() == before["reference"]
    settings = [json.loads(json.dumps(parts.data_options(cls, i))) for i in range(13)]
    assert settings == before["data_options"]
    held = []
    for setting in (0, 5):
        played = cls(**parts.data_options(cls, setting))
        held.append(parts.seat_holdings(cls, Record.from_actions(played, _actions(played, 40, setting))))
    assert json.loads(json.dumps(held)) == before["seat_holdings"]


def test_a_part_the_game_lacks_is_a_clear_error_not_a_key_error():
    found = rk.info("yokai-3x4")
    with pytest.raises(
        LookupError, match=r"Yōkai no Mori 3x4 \(yokai-3x4\) brings no 'statistics' part; its parts: ed"
    ):
        found.part("statistics")
    with pytest.raises(ValueError, match="no part 'heuristics'; the parts are position text"):
        found.part("heuristics")
    # the defaults stand in where a game has no part
    state = rk.load_game("yokai-3x4").initial_state()
    assert parts.data_options(type(state.game), 4) == {} and parts.seat_holdings(type(state.game), None) == {}
    assert parts.solved_table_availability(rk.load_game("yokai-5x6")) == "absent"
    with pytest.raises(rk.RulesError, match="yokai-5x6 has no solved table"):
        parts.open_solved_table(rk.load_game("yokai-5x6"))


def test_the_heuristic_is_looked_up_once_a_game_class(monkeypatch):
    """`evaluate` runs in every playout: the part's function is found once a class, not per call."""
    asked = []
    real_info = parts.info
    monkeypatch.setattr(parts, "info", lambda game: asked.append(game) or real_info(game))
    parts.forget()
    states = rk.playout(rk.load_game("war-stories").initial_state(), random.Random(2))
    scores = [agents.evaluate(state, 0) for state in states]
    assert asked == [rk.game_class("war-stories")] and len(scores) == len(states) > 10
    parts.forget()


# --- a game written against the earlier docs: its parts as methods of the game ---------------


class OldNimState(NimState):
    """Its State, drawing itself as the earlier docs had it (a `scene` method)."""

    def scene(self, perspective=None):
        return NimBoard.scene(self, perspective)

    def _successor(self, action):
        after = super()._successor(action)
        return OldNimState(self.game, after.left, after.side, after.last)


class OldNim(Nim):
    """The toy Nim as the earlier docs had a game write its extras: methods of the Game class,
    the board a method of its State, PARTS as names."""

    id = "old-nim"
    title = "Nim of the earlier docs"
    PARTS = frozenset({"position text", "scene", "heuristic"})

    def initial_state(self):
        return OldNimState(self, self.options["sticks"], 0)

    def from_text(self, text):
        state = super().from_text(text)
        return OldNimState(self, state.left, state.side)

    def heuristic(self, state, player):
        lost = state.left % (self.options["most"] + 1) == 0
        return (-0.5 if lost else 0.5) * (1 if player == state.side else -1)

    def reference(self):
        return [ReferenceEntry("Take", "take one or two firesticks; whoever takes the last one wins")]

    @classmethod
    def data_options(cls, setting):
        return {"sticks": 5 + setting % 3}

    @classmethod
    def seat_holdings(cls, record):
        return {"pile": [record.options["sticks"]] * 2}


@pytest.fixture
def old_nim():
    rk.register_game(OldNim)
    parts.forget()
    yield OldNim
    rk.unregister_game(OldNim.id)
    parts.forget()


def test_a_game_of_the_earlier_docs_runs_everywhere_with_one_warning(old_nim, monkeypatch):
    monkeypatch.setattr(sys.modules["rules_kernel.info"], "_WARNED", set())  # warned in this test
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = rk.info(OldNim)
        tasks = [simulate.experiment_task("old-nim", "seats", i) for i in range(3)]
        games = stats.experiment_games(simulate.play_tasks(tasks))
        played = simulate.simulate("old-nim", 6, agents=("greedy", "random"), seed=3, progress=False)
        panel = reference_html(OldNim())
        greedy = agents.make_agent("greedy", seed=1)
        chosen = [str(greedy.choose(OldNim(sticks=9).from_text(f"{left} 0"))) for left in (4, 5, 7, 8)]
    said = [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]
    assert len(said) == 1 and said[0].startswith("OldNim (old-nim) does not declare PARTS")
    assert (
        "its methods OldNim.heuristic, OldNim.reference, OldNim.data_options, OldNim.seat_holdings" in said[0]
    )
    assert found.undeclared == ("PARTS",) and found.parts == {
        "position text",
        "scene",
        "heuristic",
        "reference",
        "statistics",
    }
    assert found.part("position text") is OldNimState
    assert found.part("scene") is found.part("heuristic") is found.part("statistics")  # the adapter
    # the statistics cycle its settings and read what its seats held
    assert [dict(t.options)["sticks"] for t in tasks] == [5, 6, 7]
    assert games["pile_0"].tolist() == [5, 6, 7] and games["pile_1"].tolist() == [5, 6, 7]
    # the greedy agent plays by its heuristic: leave a multiple of three, every time
    assert chosen == ["take 1", "take 2", "take 1", "take 2"]
    assert {r.result["winner"] for r in played} == {0}  # 7 sticks: the first player wins with theory
    assert "take one or two firesticks" in panel
    report = rk.check_game(OldNim, games=2)
    detail = report.result("the info complete").detail
    assert (
        'PARTS = {"heuristic": <a module with heuristic(state, player)>, "position text": OldNimState, '
        '"reference": <a module with reference(game)>, "scene": <a module with scene(state, perspective)>, '
        '"statistics": <a module with '
        "data_options(setting) and seat_holdings(record)>}"
    ) in detail


def test_a_subclass_of_a_named_game_overriding_a_method_the_old_way_is_heard():
    """A game built on one of ours, overriding `heuristic` as the earlier docs said: its
    method is what it meant, so it is its heuristic part (deprecated, with the warning)."""

    class Bolder(rk.game_class("yokai-3x4")):
        id = "yokai-bolder"

        def heuristic(self, state, player):
            return 0.5

    with pytest.warns(DeprecationWarning, match=r"its methods .*Bolder\.heuristic"):
        found = rk.info(Bolder)
    state = Bolder().initial_state()
    assert found.undeclared == ("PARTS",) and found.part("heuristic").heuristic(state, 0) == 0.5
    assert found.part("reference") is rk.info("yokai-3x4").part("reference")  # the rest inherited
    assert parts.heuristic(state, 1) == 0.5


def test_the_methods_game_had_still_answer_on_our_games_with_a_warning_once(monkeypatch):
    """User code calling `game.heuristic(state, p)` (or reference, ..., the table's) on a game
    of ours gets the part's answer and, once per name, a DeprecationWarning saying what to write."""
    monkeypatch.setattr(parts, "_WARNED", set())
    game = rk.load_game("to-war")
    state = game.initial_state()
    with pytest.warns(DeprecationWarning, match=r"write rules_kernel\.parts\.heuristic\(state, player\)"):
        assert game.heuristic(state, 0) == parts.heuristic(state, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        game.heuristic(state, 1)  # once per name
    with pytest.warns(DeprecationWarning):
        assert game.reference() == parts.reference(game)
    with pytest.warns(DeprecationWarning):
        assert game.data_options(1) == parts.data_options(type(game), 1)
    with pytest.warns(DeprecationWarning):
        assert rk.load_game("yokai-5x6").solved_table_availability() == "absent"
    with pytest.raises(AttributeError, match="'ToWar' object has no attribute 'heuristics'"):
        game.heuristics  # noqa: B018 - any other name is an AttributeError as ever


def test_the_scene_is_a_part_and_state_scene_a_convenience(monkeypatch):
    """Each game names its scene.py for its board; no State class draws itself, and
    `state.scene(p)` forwards to the part as `parts.scene(state, p)` does (the widgets')."""
    for game_id in rk.list_games():
        state = rk.load_game(game_id).initial_state()
        part = rk.info(game_id).part("scene")
        assert isinstance(part, parts.ScenePart) and type(state).scene is State.scene, game_id
        assert parts.scene(state) == state.scene() == part.scene(state, None)
        assert parts.scene(state, 1) == state.scene(1) == part.scene(state, 1)
    monkeypatch.setattr(Nim, "PARTS", {"position text": NimState})  # no board
    parts.forget()
    try:
        with pytest.raises(NotImplementedError, match=r"Toy Nim \(toy-nim\) brings no 'scene' part"):
            parts.scene(Nim().initial_state())
        with pytest.raises(NotImplementedError, match=r"Toy Nim \(toy-nim\) has no board: name a scene part"):
            Nim().initial_state().scene()
    finally:
        monkeypatch.undo()
        parts.forget()
