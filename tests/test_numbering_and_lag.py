"""Issue 46 items 3 and 4, at the widgets' level (no browser).

Item 3, one numbering: a turn is what the game's rulebook calls one (`State.turn_part`, counted
by `rules_kernel.core.turns`); the explorer's list, its note while looking back, its list's
label, the Replay's entries and the report's `turn` column count the same way, and chance and
follow-ups sit inside the turn they belong to (War Chest's Warrior Priest draw and Royal Guard
choice, To War!'s draw and pushes, War Stories' flips).

Item 4, nothing lags: a game chosen in the menu is shown at once; New game leaves no picture,
link or last move of the game before; the perfect-play switch becomes usable by itself when the
table is ready, the news posted where the page's handlers run (never a widget touched from the
poll's thread); Edit position opens under its button and takes the focus.
"""

from __future__ import annotations

import random
import re
import threading

import pytest

import rules_kernel as rk
import widgets
from rules_kernel.analysis import Limit, report
from rules_kernel.core import TURN_GOES_ON, Turn, turns
from rules_kernel.session import Session
from widgets.explorer import ALL_SEEING, building, perfect_play
from widgets.movelist import turns_of
from widgets.presentation import line_of
from widgets.replay import Replay

GAMES = ["yokai-3x4", "yokai-5x6", "war-stories", "to-war", "war-chest"]
#: "Showing the position after turn 37 of 42 (Side A's)", "in turn 3 of 9 (White's), after: ..."
NOTE = re.compile(r"(?:after|in) turn (\d+) of (\d+)")


def played(game_id: str, actions: int, seed: int = 3, **options) -> widgets.Explorer:
    """An explorer in the all-seeing view after `actions` random actions (chance by itself)."""
    ex = widgets.Explorer(game_id, seed=seed, **options)
    ex.perspective.value = ALL_SEEING
    rng = random.Random(seed)
    while ex.session.ply < actions and not ex.state.is_terminal():
        ex.play(rng.choice(ex.state.legal_moves()))
    return ex


def rows_of(ex: widgets.Explorer) -> list[dict]:
    return turns_of(line_of(ex.session, None), ex.game.player_names)


def row_of_ply(rows: list[dict]) -> dict[int, int]:
    """Each ply's row number in the list (0: a chance row between turns)."""
    return {ply: row["number"] for row in rows for ply, _ in row["actions"]}


# --- item 3: one numbering ------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_the_list_numbers_each_rulebook_turn_once_and_every_consumer_counts_the_same(game_id):
    ex = played(game_id, 40)
    rows = rows_of(ex)
    numbered = [row["number"] for row in rows if row["number"]]
    assert numbered == list(range(1, len(numbered) + 1))  # no number twice ("45." / "47."), none left out
    line = ex.session.line()
    by_row = row_of_ply(rows)
    for node in line[1:]:  # the session's turns are the list's rows
        assert by_row[node.ply] == (node.turn.number if node.turn else 0)
    total = numbered[-1]
    assert f"Moves, {total} turns" in ex.move_list.label
    # looking back at each position: the note names the row the list marks
    for ply in range(1, len(line) - 1):
        ex.look_at(ply)
        note = NOTE.search(ex.looking_back_text.value)
        if by_row[ply]:
            assert note and int(note.group(1)) == by_row[ply] and int(note.group(2)) == total
        assert f"turn {by_row[ply]} of {total}" in ex.move_list.label if by_row[ply] else True
    ex.back_to_the_game()
    # the Replay of the same game: each entry numbered by its turn, chance between turns bare
    replay = Replay(ex.record())
    entries = list(replay.moves.options)[1:]
    for ply, entry in enumerate(entries, start=1):
        if by_row[ply]:
            assert entry.startswith(f"{by_row[ply]}. "), entry
        else:
            assert not re.match(r"\d+\. ", entry), entry


def test_the_report_counts_turns_as_the_list_does():
    """The report's `turn` column: War Stories' flips of one turn share its number, the deal
    has none."""
    ex = played("war-stories", 12)
    by_row = row_of_ply(rows_of(ex))
    df = report(ex.record(), engine="ismcts", limit=Limit(seconds=None, playouts=2), progress=False)
    assert list(df["ply"]) == sorted(by_row)
    assert [0 if t != t or t is None else int(t) for t in df["turn"]] == [by_row[p] for p in df["ply"]]


def test_war_stories_flips_of_one_turn_share_its_number():
    state = rk.load_game("war-stories").initial_state()
    session = Session(state, seed=7)
    session.play("flip:a1")
    assert session.state.turn_part == TURN_GOES_ON  # the second flip belongs to the same turn
    session.play("flip:b1")
    (deal, first, second) = session.line()[1:]
    assert deal.turn is None and first.turn == second.turn == Turn(1, 0)
    rows = turns_of(line_of(session, None), session.game.player_names)
    assert [(r["number"], len(r["actions"])) for r in rows] == [(0, 1), (1, 2)]


def test_to_war_draw_and_pushes_sit_in_the_drawers_turn():
    ex = played("to-war", 60)
    rows = [row for row in rows_of(ex) if row["number"]]
    assert not any(row["chance"] for row in rows_of(ex))  # every draw opens a turn: no row apart
    for row in rows:
        assert row["actions"][0][1].split()[0] in ("draws", "places")  # the turn opens with its draw
        assert all(not text.startswith("draws ") for _, text in row["actions"][1:])
    pushed = [row for row in rows if any(text.startswith("pushes ") for _, text in row["actions"])]
    assert pushed, "no push chain in 60 actions: pick another seed"
    for row in pushed:  # a place and its pushes: one turn, one number
        assert [text.split()[0] for _, text in row["actions"]][:2] == ["draws", "places"]


def priest_draw(node) -> bool:
    """Is `node` chance in mid-turn (a follow-up pending: the Warrior Priest's draw)?"""
    before = node.parent.state
    return before.current_player == rk.CHANCE and bool(before.pending)


def war_chest_with_a_priest_draw() -> Session:
    """A War Chest game (seeded, deterministic) played until the Warrior Priest's draw in
    mid-turn; the Royal Guard's owner has chosen in another side's turn on the way."""
    game = rk.load_game(
        "war-chest",
        setup=[
            ["warrior-priest", "royal-guard", "lancer", "cavalry"],
            ["footman", "pikeman", "archer", "swordsman"],
        ],
    )
    session = Session(game.initial_state(), seed=0)
    rng = random.Random(0)
    while session.ply < 400:
        moves = session.state.legal_moves()
        fights = [m for m in moves if m.verb in ("attack", "control")]
        steps = [m for m in moves if m.verb in ("deploy", "move")]
        session.play(rng.choice(fights or (steps if steps and rng.random() < 0.7 else moves)))
        if any(
            n.parent.state.current_player == rk.CHANCE and n.parent.state.pending for n in session.line()[1:]
        ):
            return session
    raise AssertionError("no Warrior Priest draw in 400 actions")


def test_war_chest_mid_turn_draw_and_guard_sit_in_their_turn_and_no_number_repeats():
    session = war_chest_with_a_priest_draw()
    names = session.game.player_names
    rows = turns_of(line_of(session, None), names)
    numbered = [row["number"] for row in rows if row["number"]]
    assert numbered == list(range(1, len(numbered) + 1))
    drawn = next(
        n for n in session.line()[1:] if n.parent.state.current_player == rk.CHANCE and n.parent.state.pending
    )
    (row,) = [row for row in rows if any(ply == drawn.ply for ply, _ in row["actions"])]
    assert row["number"] == drawn.parent.turn.number and not row["chance"]  # in the attack's turn
    assert [ply for ply, _ in row["actions"]] == [drawn.ply - 1, drawn.ply]
    guarded = [n for n in session.line()[1:] if getattr(n.action, "verb", None) == "guard"]
    assert guarded, "no Royal Guard choice on the way"
    for node in guarded:  # the owner's choice in the attacker's turn: named, in that row
        (row,) = [row for row in rows if any(ply == node.ply for ply, _ in row["actions"])]
        mover = node.parent.state.current_player
        assert row["number"] == node.parent.turn.number and row["side"] != names[mover]
        assert dict(map(tuple, row["actions"]))[node.ply].startswith(f"{names[mover]}: ")


def test_war_chest_the_side_that_ends_a_round_and_opens_the_next_takes_two_turns():
    """The list used to repeat a number around a round's draws when one side played the last
    coin of a round and the first of the next (the initiative): two turns, two numbers."""
    ex = played("war-chest", 120)
    rows = rows_of(ex)
    seen = False
    turned = [(i, row) for i, row in enumerate(rows) if row["number"]]
    for (i, before), (j, after) in zip(turned, turned[1:], strict=False):
        if j > i + 1 and before["side"] == after["side"]:  # the round's draws between them
            seen = True
            assert after["number"] == before["number"] + 1
    numbered = [row["number"] for row in rows if row["number"]]
    assert seen and len(numbered) == len(set(numbered))


def test_turns_reads_the_states_a_line_passes_through():
    """The function every consumer calls: the session's cached turns and `turns(states)` agree."""
    ex = played("war-chest", 80)
    states = list(ex.session.states())
    assert turns(states[:-1]) == [node.turn for node in ex.session.line()[1:]]


# --- item 4: nothing lags ---------------------------------------------------------------------


def test_a_game_chosen_in_the_menu_is_shown_at_once():
    ex = widgets.Explorer("yokai-3x4", seed=1)
    ex.play(ex.state.legal_moves()[0])
    ex.address.address = "http://x/explorer?game=yokai-3x4&moves=b2b3"
    ex.game_select.value = "war-chest"  # no New game pressed
    assert ex.game.id == "war-chest" and ex.session.game.id == "war-chest"
    assert ex.board.scene.status == ex.state.scene(ex.viewer).status
    assert ex.options_toggle.description.startswith("Options of War Chest")
    assert ex.address.address == ""  # the link named the game before
    ex.options_toggle.value = True  # the page says when its options apply
    assert "apply when you press New game" in ex.options_box.children[1].value


def test_new_game_leaves_no_picture_link_or_last_move_of_the_game_before():
    ex = played("war-stories", 6)
    ex.tools_toggle.value = True
    ex.pictures.kind.value = "svg"
    ex.pictures.button.click()
    ex.copy_link.click()
    ex._link_copied("http://localhost/explorer?game=war-stories", True)
    last = line_of(ex.session, None)[-1].text
    assert ex.pictures.link.value and ex.link_note.value and last in ex.announcer.value
    ex.game_select.value = "yokai-3x4"
    assert ex.pictures.link.value == "" and ex.link_note.value == ""
    assert last not in ex.announcer.value and "war-stories" not in ex.export_area.value


class Loop:
    """The kernel's loop as the page's handlers see it: callbacks wait until it runs them."""

    def __init__(self) -> None:
        self.waiting: list = []
        self.posted = threading.Event()

    def add_callback(self, work) -> None:
        self.waiting.append(work)
        self.posted.set()


def test_the_tables_readiness_is_posted_to_the_page_not_applied_from_the_thread(monkeypatch):
    state = {"now": "preparing"}
    monkeypatch.setattr(rk.tablebase, "availability", lambda game_id, **_: state["now"])
    monkeypatch.setattr(perfect_play, "PERFECT_POLL_SECONDS", 0.02)
    loop = Loop()
    monkeypatch.setattr(perfect_play, "_kernel_loop", lambda: loop)
    ex = widgets.Explorer("yokai-3x4")
    assert ex.perfect.disabled and ex.perfect.description == "Perfect play: being prepared"
    state["now"] = "ready"  # the server's preparation ends; nobody clicks
    assert loop.posted.wait(20)
    assert ex.perfect.disabled  # the thread touched no widget: the news waits for the loop
    (work,) = loop.waiting
    work()  # the kernel's loop runs it, between the browser's messages
    assert not ex.perfect.disabled and ex.perfect.description == "Perfect play (solved table)"
    assert "Perfect play is ready" in ex.message.value


def test_edit_position_opens_under_its_button_and_takes_the_focus():
    ex = widgets.Explorer("yokai-3x4")
    ex.tools_toggle.value = True
    before = ex.focus.request
    ex.edit_toggle.value = True
    tools = list(ex.tools_box.children)
    row = next(i for i, child in enumerate(tools) if ex.edit_toggle in getattr(child, "children", ()))
    assert tools[row + 1] is ex.editor_box and ex.editor_box.children  # right under its button
    assert ex.editor_box not in ex.children  # not at the top of the page
    assert building.EDITOR_CLASS in ex.editor_box._dom_classes
    assert ex.focus.request == before + 1 and ex.focus.target == building.EDITOR_CLASS
