"""rk.info: what a game is, declared in one place, and asked by every consumer (issue 45 item 1).

The rules' facts each game declares, checked against the rulebooks: Yōkai no Mori hides
nothing and has no chance: every piece stands on the board or, captured, in its captor's
reserve "außerhalb des Spielfeldes" (yokai-no-mori.de.txt, line 66). War Stories: the board
cards are laid face down and shuffled (war-stories-sengokuki.nl.txt, line 38), turned back
"weer dicht" after a turn (line 60), and "een goed geheugen" is what the game asks (line
27). To War!: each army deck "mischt sie und legt sie verdeckt vor euch ab" (to-war.de.txt,
line 50). War Chest: each round a player draws three coins from the bag "zonder ze aan de
tegenstander te tonen", the bag shuffled (war-chest.nl.txt, line 131).
"""

from __future__ import annotations

import warnings

import pytest

import rules_kernel as rk
from rules_kernel import check, formats
from rules_kernel.info import PARTS, STATE_PARTS, GameInfo, derived_from_hooks, info

FACTS = {  # game id: (hidden information, chance, memory)
    "yokai-3x4": (False, False, False),
    "yokai-5x6": (False, False, False),
    "war-stories": (True, True, True),
    "to-war": (True, True, False),
    "war-chest": (True, True, False),
}


@pytest.mark.parametrize("game_id", sorted(FACTS))
def test_every_game_declares_what_it_is_and_the_hooks_agree(game_id):
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)  # nothing is taken from the hooks
        found = info(game_id)
    assert found.undeclared == ()
    assert (found.hidden_information, found.chance, found.memory) == FACTS[game_id]
    hooks = derived_from_hooks(rk.game_class(game_id))
    assert (hooks["HIDDEN_INFORMATION"], hooks["CHANCE"], hooks["MEMORY"]) == FACTS[game_id]
    # every game brings the position text, words, a scene, an editor, a reference and a heuristic; those whose
    # seats hold something (To War!'s armies, War Chest's units) their statistics
    statistics = {"statistics"} if game_id in ("to-war", "war-chest") else set()
    assert found.parts == STATE_PARTS | {"words", "scene", "editor", "reference", "heuristic"} | statistics
    assert hooks["PARTS"] & STATE_PARTS == STATE_PARTS  # the State's hooks, as declared
    assert not hooks["PARTS"] - STATE_PARTS  # no methods left on the Game class for parts
    assert found.id == game_id and found.title == rk.game_class(game_id).title


def test_the_info_by_id_instance_or_class_and_what_else_it_says():
    by_id = rk.info("war-chest")
    assert isinstance(by_id, GameInfo)
    assert by_id == rk.info(rk.load_game("war-chest")) == rk.info(rk.game_class("war-chest"))
    assert by_id.players == 2 and by_id.player_counts == (2, 4)
    assert rk.info("yokai-3x4").formats == {"PGN": "dobutsu", "KIF": "どうぶつしょうぎ"}
    assert rk.info("yokai-3x4").solved_table and rk.info("yokai-5x6").solved_table is None
    assert rk.info("yokai-5x6").fairy_stockfish_variant and rk.info("to-war").formats == {}
    assert rk.info("war-chest").heatmaps and rk.info("war-chest").has("editor")
    with pytest.raises(rk.OptionError, match="no-such-game"):
        rk.info("no-such-game")
    with pytest.raises(TypeError, match="a game id, a Game or a Game class"):
        rk.info(3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no part 'editr'; the parts are position text"):
        by_id.has("editr")


def _legacy_game() -> type[rk.Game]:
    """A game written before the declarations: an open game with a hidden hand, no editor, and
    its heuristic a method of the game (as the earlier docs had it)."""
    from examples.nim import Nim, NimBoard, NimState

    class SecretState(NimState):
        def view(self, player, *, memory=None):
            return self

        def scene(self, perspective=None):  # the board a method of the State, as then
            return NimBoard.scene(self, perspective)

    class Legacy(Nim):
        id = "nim-legacy"
        title = "Nim before the declarations"
        HIDDEN_INFORMATION = CHANCE = MEMORY = PARTS = None  # as if never written

        def initial_state(self):
            return SecretState(self, left=self.options["counters"], side=0)

        def heuristic(self, state, player):
            return 0.25

    return Legacy


def SecretState_of(cls):  # noqa: N802 - names the class it returns
    return type(cls().initial_state())


def test_a_game_without_the_declarations_is_read_from_its_hooks_with_one_warning():
    legacy = _legacy_game()
    with pytest.warns(DeprecationWarning, match=r"Legacy \(nim-legacy\) does not declare HIDDEN_INFORMATION"):
        found = info(legacy)
    assert found.undeclared == ("HIDDEN_INFORMATION", "CHANCE", "MEMORY", "PARTS")
    assert (found.hidden_information, found.chance, found.memory) == (True, False, False)
    assert found.parts == {"position text", "scene", "heuristic"}
    assert found.part("position text") is SecretState_of(legacy) and found.part("heuristic").heuristic
    assert found.part("scene").scene(legacy().initial_state(), None).game == "nim-legacy"  # its method
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        assert info(legacy) == found  # once per class
    report = rk.check_game(legacy, games=2)
    failed = report.result(check.INFO)
    assert failed.status == check.FAILED and "HIDDEN_INFORMATION = True; CHANCE = False" in failed.detail
    assert (
        'PARTS = {"heuristic": <a module with heuristic(state, player)>, "position text": '
        'SecretState, "scene": <a module with scene(state, perspective)>}' in failed.detail
    )


def test_the_check_names_a_declared_part_or_fact_without_its_hook():
    from examples.nim import Nim, NimState, NimTheory

    class Boasting(Nim):
        id = "nim-boasting"
        PARTS = {**Nim.PARTS, "editor": NimState}

    failed = rk.check_game(Boasting, games=2).result(check.INFO)
    assert failed.status == check.FAILED
    assert failed.detail == "PARTS names 'editor', but the game lacks " + PARTS["editor"]

    class Modest(Nim):
        id = "nim-modest"
        PARTS = {"position text": NimState}

    # no scene part named: the info is complete, but the game has no board to draw
    report = rk.check_game(Modest, games=2)
    assert report.result(check.INFO).status == check.PASSED
    failed = report.result(check.SCENE)
    assert failed.status == check.FAILED and "raised NotImplementedError" in failed.detail

    class Misnamed(Nim):
        id = "nim-misnamed"
        PARTS = {**Nim.PARTS, "reference": NimTheory()}  # an object without reference(game)

    failed = rk.check_game(Misnamed, games=2).result(check.INFO)
    assert (
        failed.detail.startswith("PARTS['reference'] is NimTheory")
        and "lacks reference(game)" in failed.detail
    )

    class Wrong(Nim):
        id = "nim-wrong"
        PARTS = {
            **Nim.PARTS,
            "heuristic": type("Words", (), {"heuristic": staticmethod(lambda s, p: "good")}),
        }

    failed = rk.check_game(Wrong, games=2).result(check.INFO)
    assert "heuristic(state, 0) gave 'good', not a number" in failed.detail

    class Secretive(Nim):
        id = "nim-secretive"
        MEMORY = True

    failed = rk.check_game(Secretive, games=2).result(check.INFO)
    assert failed.detail == "MEMORY = True, but the game has no State.forgets (what a view forgets)"


def test_the_widgets_and_formats_ask_the_declarations_not_the_hooks(monkeypatch):
    """Change a declaration and the consumer follows it: nothing is guessed from the hooks."""
    from widgets import editor, presentation

    yokai, war_stories = rk.game_class("yokai-3x4"), rk.game_class("war-stories")
    state = rk.load_game("yokai-3x4").initial_state()
    assert not presentation.has_secrets(rk.load_game("yokai-3x4")) and editor.has_editor(state)
    assert presentation.forgetting(rk.load_game("war-stories").initial_state())
    monkeypatch.setattr(yokai, "HIDDEN_INFORMATION", True)
    monkeypatch.setattr(yokai, "PARTS", {k: v for k, v in yokai.PARTS.items() if k != "editor"})
    monkeypatch.setattr(war_stories, "MEMORY", False)
    assert presentation.has_secrets(rk.load_game("yokai-3x4")) and not editor.has_editor(state)
    assert not presentation.forgetting(rk.load_game("war-stories").initial_state())
    assert [cls.id for cls in formats.games_with("PGN")] == ["yokai-3x4", "yokai-5x6"]
    monkeypatch.setattr(yokai, "PGN_VARIANT", None)
    assert [cls.id for cls in formats.games_with("PGN")] == ["yokai-5x6"]
    assert formats.known("PGN") == "gorogoroplus (yokai-5x6)"


def test_sides_are_the_game_s_rule_team():
    """War Chest with four players: two teams of two, "Teamleden zitten tegenover elkaar"
    (war-chest.nl.txt, line 313; seats alternate round the table); every other game: each seat
    its own side."""
    four = rk.load_game("war-chest", players=4)
    assert [four.team(seat) for seat in range(4)] == [0, 1, 0, 1]
    assert [rk.load_game("to-war").team(seat) for seat in range(2)] == [0, 1]


def test_hidden_information_may_hang_on_a_boolean_option_and_a_typo_is_refused(monkeypatch):
    """To War! hides a hand only in its strategic variant (HIDDEN_INFORMATION = "strategic"):
    the info says the game can hide something, and `hides` says which settings do."""
    found = rk.info("to-war")
    assert found.hidden_information and found.hidden_when == "strategic"
    assert found.hides({"strategic": True}) and not found.hides({"strategic": False})
    assert rk.info("war-stories").hides({}) and not rk.info("yokai-3x4").hides({})
    to_war = type(rk.load_game("to-war"))
    monkeypatch.setattr(to_war, "HIDDEN_INFORMATION", "strategy")
    with pytest.raises(ValueError, match="names 'strategy', which is not one of its boolean options"):
        rk.info("to-war")
