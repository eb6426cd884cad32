"""Position text under hostile and careless input (issue 14), for Yōkai no Mori 3x4 and 5x6
and War Stories: valid texts from random games, mutated by hypothesis. Whatever comes in,
`from_text` raises PositionTextError or returns a position that round-trips, equal and with
the same hash, and on which the game can be played."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from playing import random_game

import rules_kernel as rk

GAMES = {
    "yokai-3x4": rk.load_game("yokai-3x4"),
    "yokai-5x6": rk.load_game("yokai-5x6"),
    "war-stories": rk.load_game("war-stories"),
    "war-stories-options": rk.load_game("war-stories", nobori=True, shinobi_wo_tsukau=True),
}


def sample_texts(game: rk.Game, games: int = 6, cap: int = 300) -> list[str]:
    """Texts of positions along random games, views included (they hold '?')."""
    texts = []
    for seed in range(games):
        states, _ = random_game(game, seed, cap)
        for state in states[:: max(1, len(states) // 8)] + [states[-1]]:
            texts.append(state.to_text())
            if state.current_player != rk.CHANCE:
                texts.append(state.view(state.current_player).to_text())
    return texts


TEXTS = {name: sample_texts(game) for name, game in GAMES.items()}

# characters a careless or hostile user might type: digits of other scripts, markers,
# separators, piece letters of every game
NOISE = "0123456789²٣⁵-*^?[]/+.,: wbxhdealkiporsgnSGKPCELDAHcelsgkp\t"
MUTATION = st.tuples(
    st.sampled_from(["replace", "insert", "delete", "swap-fields", "drop-field", "huge-number"]),
    st.integers(0, 10**6),
    st.text(alphabet=NOISE, min_size=1, max_size=3),
)


def mutate(text: str, mutations) -> str:
    for kind, where, noise in mutations:
        i = where % (len(text) + 1)
        fields = text.split(" ")
        if kind == "replace":
            text = text[:i] + noise + text[i + len(noise) :]
        elif kind == "insert":
            text = text[:i] + noise + text[i:]
        elif kind == "delete":
            text = text[:i] + text[i + len(noise) :]
        elif kind == "swap-fields" and len(fields) > 1:
            j = where % (len(fields) - 1)
            fields[j], fields[j + 1] = fields[j + 1], fields[j]
            text = " ".join(fields)
        elif kind == "drop-field":
            del fields[where % len(fields)]
            text = " ".join(fields)
        elif kind == "huge-number":
            text = text[:i] + "9" * 4400 + text[i:]
    return text


def check_accepted(game: rk.Game, state: rk.State) -> None:
    """An accepted text is a real position: it round-trips and plays."""
    again = game.from_text(state.to_text())
    assert again == state and hash(again) == hash(state)
    assert again.to_text() == state.to_text()
    assert all(isinstance(remark, str) and remark for remark in state.status())  # says, never refuses
    moves = state.legal_moves()
    assert state.is_terminal() == (state.outcome() is not None)
    if state.is_terminal():
        assert moves == []
    state.scene()
    for player in range(game.num_players):
        state.view(player)
    for move in moves[:6]:
        try:
            state.apply(move)
        except rk.core.HiddenInformationError:
            pass  # a view flipping a card it has never seen: a RulesError by design


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_position_texts_raise_only_position_text_errors(name, data):
    game = GAMES[name]
    original = data.draw(st.sampled_from(TEXTS[name]), label="original")
    text = mutate(original, data.draw(st.lists(MUTATION, min_size=1, max_size=3), label="mutations"))
    try:
        state = game.from_text(text)
    except rk.PositionTextError as error:
        assert len(str(error)) < 600  # a huge text is cut, not echoed
        return
    check_accepted(game, state)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_unmutated_texts_are_accepted(name):
    """The fuzz starts from texts that are valid (else it would test nothing)."""
    game = GAMES[name]
    for text in TEXTS[name]:
        check_accepted(game, game.from_text(text))


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("bad", [None, 42, b"gle/1c1/1C1/ELG[] w", ["w"], "", " ", "\x00" * 3])
def test_not_text_at_all(name, bad):
    with pytest.raises(rk.PositionTextError):
        GAMES[name].from_text(bad)
