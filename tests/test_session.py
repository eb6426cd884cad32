"""The game session (rules_kernel/session.py): a tree of actions, navigation, variations,
undo/redo, comments, automatic chance and agents, observers, records."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.agents import Agent, RandomAgent
from rules_kernel.records import Record, RecordedAction, RecordError
from rules_kernel.session import COMMENT, NODE, SETTINGS, TREE, Session, SessionError

YOKAI = rk.load_game("yokai-3x4")
OPENING = ["b1a2", "a4a3", "a2a3", "b4a3"]  # the second player captures the Koropokkuru


def notations(nodes) -> list[str]:
    return [n.notation for n in nodes[1:]]


def replayed(node) -> rk.State:
    """The node's state found again by applying its path's notations with every check."""
    path = node.path()
    state = path[0].state
    for step in path[1:]:
        state = state.apply(step.notation)
    return state


def random_action(state: rk.State, rng: random.Random) -> rk.Action:
    if state.current_player == rk.CHANCE:
        return state.sample_chance(rng)
    return rng.choice(state.legal_moves())


# --- navigation -----------------------------------------------------------------------------


def test_playing_moves_the_current_node_and_keeps_the_states():
    session = Session("yokai-3x4")
    for move in OPENING[:3]:
        session.play(move)
    assert session.ply == 3 and notations(session.line()) == OPENING[:3]
    assert session.state == YOKAI.initial_state().play(*OPENING[:3])
    assert session.node.parent.children == (session.node,)
    assert [n.ply for n in session.line()] == [0, 1, 2, 3]


def test_back_forward_start_end_and_go_to_walk_the_current_line():
    session = Session("yokai-3x4")
    for move in OPENING[:3]:
        session.play(move)
    assert session.back() and session.ply == 2
    assert session.forward() and session.ply == 3
    assert not session.forward()  # the line ends here
    session.start()
    assert session.ply == 0 and not session.back()
    assert notations(session.line()) == OPENING[:3]  # the line still goes on from the start
    session.go_to(2)
    assert session.node.notation == "a4a3" and session.state == YOKAI.initial_state().play(*OPENING[:2])
    session.end()
    assert session.ply == 3
    with pytest.raises(SessionError, match="ends at ply 3"):
        session.go_to(4)
    with pytest.raises(SessionError, match="a ply is a number"):
        session.go_to(-1)
    assert session.ply == 3  # a failed navigation changes nothing


def test_an_illegal_move_changes_nothing():
    session = Session("yokai-3x4")
    session.play("b1a2")
    with pytest.raises(rk.IllegalMoveError, match="b2c3"):
        session.play("b2c3")
    assert session.ply == 1 and len(list(session.nodes())) == 2


# --- variations -----------------------------------------------------------------------------


def test_a_new_move_from_a_past_position_starts_a_variation_and_keeps_the_old_line():
    session = Session("yokai-3x4")
    for move in OPENING[:3]:
        session.play(move)
    session.go_to(1)
    session.play("b4c3")
    assert notations(session.main_line()) == OPENING[:3]  # lichess: the old line stays main
    assert notations(session.line()) == ["b1a2", "b4c3"]
    assert [n.notation for n in session.line()[1].children] == ["a4a3", "b4c3"]
    session.back()
    assert [n.notation for n in session.variations()] == ["a4a3", "b4c3"]
    session.forward(0)  # into the main continuation
    assert notations(session.line()) == OPENING[:3]


def test_the_current_line_is_the_one_last_walked():
    session = Session("yokai-3x4")
    for move in OPENING[:3]:
        session.play(move)
    main_end = session.node
    session.go_to(1)
    session.play("b4c3")
    variation = session.play("c1c2")
    session.start()
    assert notations(session.line()) == ["b1a2", "b4c3", "c1c2"]
    session.end()
    assert session.node is variation
    for there in (main_end, variation):  # a jump makes the line through its node current
        session.go(there)
        session.start()
        session.end()
        assert session.node is there
    session.go_to(1)
    assert session.forward() and session.forward() and session.node is variation


def test_playing_a_move_that_was_played_walks_into_it():
    session = Session("yokai-3x4")
    session.play("b1a2")
    first = session.node
    session.back()
    assert session.play("b1a2") is first
    assert len(session.root.children) == 1


def test_forward_into_a_variation_that_does_not_exist_says_so():
    session = Session("yokai-3x4")
    with pytest.raises(SessionError, match="no variation 0"):
        session.forward(0)


def test_promote_and_delete_lines():
    session = Session("yokai-3x4")
    session.play("b1a2")
    session.play("a4a3")
    session.start()
    session.play("b2b3")
    side = session.node
    session.play("c4b3")  # the Kodama taken back: two plies of a variation
    assert not side.is_main_line()
    session.promote_to_main(session.node)
    assert notations(session.main_line()) == ["b2b3", "c4b3"] and side.is_main_line()
    session.promote(session.root.children[1])  # b1a2 back up one place
    assert notations(session.main_line()) == ["b1a2", "a4a3"]
    session.delete(side)  # the current node was inside: it moves to the parent
    assert session.node is session.root and notations(session.line()) == ["b1a2", "a4a3"]
    assert [n.notation for n in session.root.children] == ["b1a2"]
    with pytest.raises(SessionError, match="was deleted"):
        session.go(side)
    with pytest.raises(SessionError, match="start position"):
        session.delete(session.root)


def test_a_node_of_another_session_is_refused():
    one, other = Session("yokai-3x4"), Session("yokai-3x4")
    other.play("b1a2")
    with pytest.raises(SessionError, match="not a node of this session"):
        one.go(other.node)


# --- undo / redo ----------------------------------------------------------------------------


def test_undo_takes_back_the_agents_reply_and_redo_plays_it_again():
    session = Session("yokai-3x4", seed=3, agents={1: "random"})
    session.play("b1a2")
    assert session.ply == 2 and session.state.current_player == 0  # the agent replied
    reply = session.node
    assert session.undo() and session.ply == 0
    assert session.redo() and session.node is reply
    assert session.undo() and not session.undo()  # nothing before the start


def test_after_undo_a_different_move_is_a_variation_and_redo_is_not_lost():
    session = Session("yokai-3x4", seed=3, agents={1: "random"})
    session.play("b1a2")
    old = session.node
    session.undo()
    session.play("b2b3")
    assert session.ply == 2 and notations(session.main_line())[0] == "b1a2"
    session.go(old)
    assert session.node is old  # the taken-back line is still there


def test_automatic_actions_follow_a_line_already_in_the_tree():
    session = Session("yokai-3x4", seed=3, agents={1: "random"})
    session.play("b1a2")
    reply = session.node
    session.start()
    session.play("b1a2")  # walks into the existing move; the agent's reply is walked too
    assert session.node is reply and len(session.root.children) == 1


# --- comments -------------------------------------------------------------------------------


def test_comments_belong_to_nodes_and_travel_in_the_record():
    session = Session("yokai-3x4")
    session.comment = "before anything"
    session.play("b1a2")
    session.comment = "the Lion steps out"
    session.back()
    assert session.comment == "before anything" and session.line()[1].comment == "the Lion steps out"
    record = session.to_record()
    assert record.meta["comments"] == {"0": "before anything", "1": "the Lion steps out"}
    again = Session.from_record(record)
    assert [n.comment for n in again.main_line()] == ["before anything", "the Lion steps out"]
    assert again.meta == {}
    with pytest.raises(SessionError, match="text"):
        session.comment = 3


def test_meta_comments_of_another_shape_stay_metadata():
    record = Record.from_actions(YOKAI, OPENING[:2], meta={"comments": "a note on the whole game"})
    session = Session.from_record(record)
    assert all(n.comment == "" for n in session.nodes())
    assert session.to_record() == record


# --- automatic chance and agents ------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["war-stories", "war-chest"])
def test_the_same_seed_gives_the_same_game(game_id):
    def game(seed):
        session = Session(game_id, seed=seed, agents={0: "random", 1: "random"}, max_automatic=60)
        return notations(session.line())

    first = game(11)
    assert len(first) > 20 and first == game(11)  # (a game may end before 60 actions)
    assert first != game(12)


def test_chance_is_resolved_at_once_unless_by_hand():
    dealt = Session("war-stories", seed=1)
    assert dealt.ply == 1 and dealt.line()[1].is_chance
    by_hand = Session("war-stories", seed=1, manual_chance=True)
    assert by_hand.ply == 0 and by_hand.state.current_player == rk.CHANCE
    by_hand.sample_chance()
    assert by_hand.node.notation == dealt.node.notation  # the same generator, the same deal
    with pytest.raises(SessionError, match="no chance event"):
        by_hand.sample_chance()


def test_a_chance_outcome_can_be_played_by_its_notation():
    dealt = Session("war-stories", seed=4)
    by_hand = Session("war-stories", manual_chance=True)
    by_hand.play(dealt.node.notation)
    assert by_hand.state == dealt.state


def test_automatic_actions_stop_at_the_bound():
    session = Session("war-chest", seed=2, agents={0: "random", 1: "random"}, max_automatic=10)
    assert session.ply == 10
    assert session.run_automatic(limit=5) == 5 and session.ply == 15
    session.agents = {}
    assert session.run_automatic() == 0  # a person is to move (or chance has just been drawn)


class SpyAgent(Agent):
    """Plays at random and keeps every view it was given."""

    def __init__(self) -> None:
        super().__init__(seed=0)
        self.seen: list[rk.State] = []

    def choose(self, view: rk.State) -> rk.Move:
        self.seen.append(view)
        return self.rng.choice(view.legal_moves())


def test_an_agent_sees_only_its_seats_view_and_remembers_what_it_saw():
    """The computer player gets its seat's view with perfect memory (`agent_view`): every
    flip is seen by both players and a player may remember it (rules/NOTES.md,
    "Information"); the cards never turned stay hidden."""
    spy = SpyAgent()
    session = Session("war-stories", seed=5, agents={1: spy}, max_automatic=30)
    session.run_automatic()
    while len(spy.seen) < 12 and not session.state.is_terminal():
        session.play(session.state.legal_moves()[0])
    asked = [n.parent.state for n in session.line()[1:] if n.parent.state.current_player == 1]
    assert len(asked) == len(spy.seen) >= 12
    for view, truth in zip(spy.seen, asked, strict=True):
        assert view.current_player == 1 and view == truth.view(1, memory=True)
        assert view != truth  # the cards never turned stay hidden
    # somewhere it remembered a card that what lies in sight (`view(1)`) shows as "?"
    assert any(view != truth.view(1) for view, truth in zip(spy.seen, asked, strict=True))


def test_an_agents_move_is_kept_as_the_full_states_own_action():
    session = Session("war-stories", seed=6, agents={0: RandomAgent(1), 1: "random"}, max_automatic=20)
    for node in session.line()[1:]:
        assert node.action in node.parent.state.legal_moves() or node.is_chance


def test_agents_are_checked_when_they_are_given():
    with pytest.raises(rk.SeatError):
        Session("yokai-3x4", agents={2: "random"})
    with pytest.raises(rk.RulesError, match="unknown agent"):
        Session("yokai-3x4", agents={1: "grandmaster"})
    session = Session("yokai-3x4")
    session.set_agent(1, "greedy")
    assert session.agents == {1: "greedy"}
    session.set_agent(1, None)
    assert session.agents == {}


# --- observers ------------------------------------------------------------------------------


def test_observers_hear_once_per_change():
    session = Session("yokai-3x4", seed=1, agents={1: "random"})
    heard = []
    stop = session.observe(heard.append)
    session.play("b1a2")  # our move and the agent's reply: one change
    assert len(heard) == 1 and heard[0].kinds == {NODE, TREE} and heard[0].session is session
    session.undo()
    assert heard[-1].kinds == {NODE}
    session.comment = "hmm"
    assert heard[-1].kinds == {COMMENT}
    session.comment = "hmm"  # the same text: no change
    session.manual_chance = True
    assert heard[-1].kinds == {SETTINGS} and len(heard) == 4
    with session.batch():
        session.redo()
        session.comment = "again"
    assert len(heard) == 5 and heard[-1].kinds == {NODE, COMMENT}
    session.end()  # already there: nothing changed, nobody is told
    session.go_to(session.ply)
    assert len(heard) == 5
    stop()
    session.start()
    assert len(heard) == 5 and session.ply == 0


def test_a_failing_observer_does_not_silence_the_others():
    session = Session("yokai-3x4")
    heard = []

    def broken(change):
        raise RuntimeError("a widget failed")

    session.observe(broken)
    session.observe(heard.append)
    with pytest.raises(RuntimeError, match="a widget failed"):
        session.play("b1a2")
    assert len(heard) == 1 and session.ply == 1


# --- from a position ------------------------------------------------------------------------


def test_a_session_may_start_from_a_position_text():
    text = YOKAI.initial_state().play("b1a2", "a4a3").to_text()
    session = Session(YOKAI, position=text)
    assert session.root.state == YOKAI.from_text(text) and not session.starts_at_initial
    session.play("a2a3")
    assert session.state == YOKAI.from_text(text).apply("a2a3")
    record = session.to_record()  # a record may start from any position: it says which
    assert record.start == text and [a.notation for a in record.actions] == ["a2a3"]
    assert Session(session.state).root.state == session.state
    with pytest.raises(rk.PositionTextError):
        Session(YOKAI, position="not a position")


def test_a_session_from_the_initial_position_text_exports_a_record():
    session = Session(YOKAI, position=YOKAI.initial_state().to_text())
    session.play("b1a2")
    assert session.starts_at_initial
    assert notations(Session.from_record(session.to_record()).line()) == ["b1a2"]


@pytest.mark.parametrize("game_id", ["yokai-3x4", "yokai-5x6", "war-stories", "to-war", "war-chest"])
def test_a_session_from_a_position_round_trips_through_a_record(game_id):
    """record -> JSON line -> record -> session, for a session started from a position text
    (issue #22 item 9: the explorer's Export after Load position)."""
    game, rng = rk.load_game(game_id), random.Random(6)
    state = game.initial_state()
    for _ in range(8):  # a few actions in, chance resolved, the game not over
        if state.current_player == rk.CHANCE:
            state = state.apply(state.sample_chance(rng))
            continue
        moves = state.legal_moves()
        rng.shuffle(moves)
        state = next(s for s in map(state.apply, moves) if not s.is_terminal())
    text = state.to_text()
    session = Session(game, position=text, seed=3)
    assert session.root.state == state and not session.starts_at_initial
    for _ in range(5):
        if not session.state.is_terminal():
            session.play(random_action(session.state, rng))
    session.comment = "from a loaded position"
    record = session.to_record()
    assert record.start == text and record.meta["comments"] == {str(session.ply): "from a loaded position"}
    line = record.to_json()
    read = records.loads(line + "\n")[0]
    assert read == record and read.to_json() == line
    again = Session.from_record(read)
    assert again.root.state == session.root.state and not again.starts_at_initial
    assert notations(again.main_line()) == notations(session.main_line())
    assert again.state == session.state and again.comment == "from a loaded position"
    assert list(again.states(again.main_line()[-1])) == record.replay()
    assert again.to_record() == record and again.to_record().to_json() == line


def test_a_session_from_a_state_records_its_start():
    state = YOKAI.initial_state().play("b2b3", "c4b3")
    session = Session(state)
    session.play("a1b2")
    record = session.to_record()
    assert record.start == state.to_text()
    assert Session.from_record(record).state == state.apply("a1b2")
    assert "start" not in Session(YOKAI.initial_state()).to_record().to_dict()  # the initial position


def test_a_start_no_position_text_gives_back_is_not_recorded(monkeypatch):
    session = Session(YOKAI, position=YOKAI.initial_state().play("b1a2").to_text())
    initial = YOKAI.initial_state()
    monkeypatch.setattr(session.game, "from_text", lambda text: initial, raising=False)
    with pytest.raises(SessionError, match="gives another position back"):
        session.to_record()


def test_a_record_with_a_bad_start_names_the_field():
    record = Record("yokai-3x4", {}, (RecordedAction("a2a3"),), source="games.jsonl", line=2, start="1l1/3")
    with pytest.raises(RecordError, match="^games.jsonl, line 2: field 'start' is not a yokai-3x4 position"):
        Session.from_record(record)


# --- records --------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["yokai-3x4", "war-stories", "war-chest"])
def test_a_record_round_trips_through_a_session(game_id):
    session = Session(game_id, seed=8, agents={0: "random", 1: "random"}, max_automatic=150)
    session.go_to(session.ply // 2)
    session.play(random_action(session.state, random.Random(1)), auto=False)  # a variation
    record = session.to_record()
    assert [a.notation for a in record.actions] == notations(session.main_line())
    line = records.loads(record.to_json() + "\n")[0]
    again = Session.from_record(line)
    assert again.to_record() == record and notations(again.main_line()) == notations(session.main_line())
    assert list(again.states(again.main_line()[-1])) == record.replay()


def test_a_finished_game_records_its_result():
    session = Session("yokai-3x4")
    for move in OPENING:
        session.play(move)
    record = session.to_record()
    assert record.result["winner"] == 1 and record.result["finished"]
    assert record == Record.from_actions(YOKAI, OPENING, players=YOKAI.player_names)


def test_the_exported_line_may_end_anywhere():
    session = Session("yokai-3x4", agents={1: "mcts:20"}, seed=2)
    session.play("b1a2")
    assert session.to_record(session.line()[1]).actions == (RecordedAction("b1a2"),)
    assert session.to_record().players[1] == {"name": YOKAI.player_names[1], "agent": "mcts:20"}


def bad(actions, **result) -> Record:
    return Record(
        "yokai-3x4", {"repetitions": 3}, tuple(actions), result=result or None, source="games.jsonl", line=4
    )


@pytest.mark.parametrize(
    "record, message",
    [
        (bad([RecordedAction("b1a2"), RecordedAction("b2c3")]), "games.jsonl, line 4, ply 1: 'b2c3'"),
        (bad([RecordedAction("b1a2", chance=True)]), "ply 0: 'b1a2' is recorded as a chance outcome"),
        (bad([RecordedAction(m) for m in [*OPENING, "b1b2"]]), "ply 4: the game ended"),
        (bad([RecordedAction(m) for m in OPENING], winner=0, finished=True), "line 4: the recorded result"),
        (bad([RecordedAction("b1a2")], winner=None, finished=True), "recorded result"),
    ],
)
def test_a_bad_record_names_the_ply(record, message):
    with pytest.raises(RecordError) as failure:
        Session.from_record(record)
    assert message in str(failure.value)


# --- lazy states ----------------------------------------------------------------------------


def test_a_long_game_keeps_only_checkpoints_and_recent_states():
    game = rk.load_game("war-chest")
    session = Session(
        game,
        seed=3,
        agents={0: "random", 1: "random"},
        max_automatic=150,
        checkpoint_every=16,
        recent_states=8,
    )
    nodes = session.line()
    assert len(nodes) == 151
    assert [n.ply for n in nodes if n._state is not None] == list(range(0, 151, 16))
    assert len(session._store.recent) <= 8
    states = list(session.states())
    assert states[-1] == session.state
    for ply in (149, 17, 100, 33, 0, 150):  # each computed again from its checkpoint
        session.go_to(ply)
        assert session.state == states[ply] == replayed(session.node)


# --- invariants under random use ----------------------------------------------------------------

STEPS = ("play", "play", "back", "forward", "go_to", "undo", "redo", "undo_redo", "start", "end")


def tree_paths(session) -> set[tuple[str, ...]]:
    return {tuple(notations(n.path())) for n in session.nodes()}


def check_invariants(session, seen: set[tuple[str, ...]]) -> None:
    line = session.line()
    assert [n.ply for n in line] == list(range(len(line)))
    assert line[session.ply] is session.node
    assert session.state == replayed(session.node)
    here = session.node
    with session.batch():  # walking the line does not change it
        session.start()
        assert session.line() == line
        session.go_to(here.ply)
    assert session.node is here
    seen |= {tuple(notations(session.node.path()[: k + 1])) for k in range(session.ply + 1)}


def do(session, step: str, number: int) -> None:
    if step == "play":
        state = session.state
        if not state.is_terminal():
            session.play(random_action(state, random.Random(number)))
    elif step == "forward":
        choices = len(session.variations())
        session.forward(None if number % 2 or not choices else number % choices)
    elif step == "go_to":
        session.go_to(number % len(session.line()))
    elif step == "undo_redo":
        before = session.node
        if not session.is_automatic(session.state) and session.undo():
            assert session.redo() and session.node is before
    else:
        getattr(session, step)()


@pytest.mark.parametrize("game_id", ["yokai-3x4", "war-stories", "war-chest"])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    agent=st.booleans(),
    steps=st.lists(st.tuples(st.sampled_from(STEPS), st.integers(0, 10**6)), max_size=24),
)
def test_random_use_keeps_the_tree_whole(game_id, seed, agent, steps):
    session = Session(
        game_id,
        seed=seed,
        agents={1: "random"} if agent else {},
        max_automatic=12,
        checkpoint_every=3,
        recent_states=2,
    )
    seen: set[tuple[str, ...]] = set()
    check_invariants(session, seen)
    for step, number in steps:
        do(session, step, number)
        check_invariants(session, seen)
    assert tree_paths(session) == seen  # no line lost, none made behind our back
    for node in session.nodes():
        assert node.ply == (0 if node.parent is None else node.parent.ply + 1)
        assert node.state == replayed(node) and node.state.to_text() == replayed(node).to_text()


# --- variations in records (issue #24 item 6) ------------------------------------------------


def annotated_tree() -> Session:
    """A main line with a comment, a variation with its own comment, and a line nested in it."""
    session = Session("yokai-3x4")
    session.play("b2b3")
    session.play("c4b3")
    session.comment = "recapture"
    session.go_to(1)
    session.play("a4a3")
    session.comment = "a quieter reply"
    session.play("b3b4+")
    session.go_to(2)
    session.play("a1b2")
    session.go(session.main_line()[-1])
    return session


def test_a_record_carries_the_tree_its_comments_and_reads_back_the_same():
    session = annotated_tree()
    record = session.to_record()
    assert [a.notation for a in record.actions] == ["b2b3", "c4b3"]  # the main line, as before
    assert record.meta["variations"] == [
        {
            "ply": 1,
            "actions": ["a4a3", "b3b4+"],
            "comments": {"2": "a quieter reply"},
            "variations": [{"ply": 2, "actions": ["a1b2"]}],
        }
    ]
    again = Session.from_record(records.Record.from_json(record.to_json()))
    shape = [(n.notation, n.comment, [c.notation for c in n.children]) for n in again.nodes()]
    assert shape == [(n.notation, n.comment, [c.notation for c in n.children]) for n in session.nodes()]
    assert again.node is again.main_line()[-1] and "variations" not in again.meta
    assert again.to_record().to_json() == record.to_json()


def test_a_card_games_variation_writes_its_chance_outcomes():
    session = Session("to-war", seed=4)
    for _ in range(3):
        session.play(session.state.legal_moves()[0])
    session.go_to(len(session.line()) - 3)
    session.play(session.state.legal_moves()[-1])
    session.go(session.main_line()[-1])
    record = session.to_record()
    again = Session.from_record(records.Record.from_json(record.to_json()))
    assert again.to_record().to_json() == record.to_json()
    assert sum(len(n.children) > 1 for n in again.nodes()) == 1


@pytest.mark.parametrize(
    ("variations", "says"),
    [
        ("nope", "meta.variations: must be a list of lines"),
        ([{"ply": 7, "actions": ["a4a3"]}], "a line branches at ply 7, which this line does not reach"),
        ([{"ply": 1, "actions": []}], "the line at ply 1 has no actions"),
        ([{"ply": 1, "actions": ["a4a3", "zz"]}], "meta.variations: ply 3: 'zz' is not"),
        ([{"ply": 1, "actions": [{"chance": "deal"}]}], "ply 2: 'deal': that is not what is due there"),
        ([{"ply": 1, "actions": ["a4a3"], "path": "/etc/passwd"}], "a line is an object with"),
        ([{"ply": True, "actions": ["a4a3"]}], "a line branches at ply True"),
    ],
)
def test_bad_variations_are_refused_naming_the_line_and_ply(variations, says):
    record = annotated_tree().to_record()
    data = json.loads(record.to_json())
    data["meta"]["variations"] = variations
    with pytest.raises(records.RecordError) as caught:
        Session.from_record(records.Record.from_dict(data))
    assert says in str(caught.value)


def test_an_old_record_without_variations_reads_as_before():
    record = records.load("data/yokai-3x4-random.jsonl")[0]
    session = Session.from_record(record)
    assert all(len(n.children) <= 1 for n in session.nodes())
    assert session.to_record().to_json() == record.to_json()
