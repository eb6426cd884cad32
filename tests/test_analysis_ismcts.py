"""The information-set tree search (rules_kernel.analysis.ismcts): it never reads what the
viewer may not know, it is reproducible under a seed, and it finds a win within the turn in
each card game."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from playing import random_game

import rules_kernel as rk
from rules_kernel.analysis import Limit, TreeSearchEngine, analyse
from rules_kernel.games.war_chest import compose

# White moves the Kibatai f4e6: the black Daimyo on d7 is attacked with nowhere to go (Haisen).
# Cards on the unrevealed squares are hidden from both players' views.
WAR_STORIES_WIN = (
    "2ds2/6/6/5K/6/6/2DS2 khg.ki.-.-.ki.asr.-.khg.he.kbr.-.ki.asg.kbr.khb.kby.he.ki.he.-.asy.asb.khb.-."
    "khy.kbb.he.asy.ki.-.khy.asr.khr.asg.-.khr.asb.ki.-.-.kby.kbb w - a1,b1,e1,f1,a2,e2,f2,a3,b3,c3,d3,"
    "b4,c4,d4,e4,f4,a5,b5,d5,e5,f5,a6,b6,c6,e6,a7,b7 00 48 he,he,he,he,kbg,kbg"
)
# To War!, the strategic game: the second player holds BER, BOG, KOE (the first player's hand is
# hidden from it); a card placed on b4 pushes the column to a breakthrough in five decisions.
TO_WAR_WIN = (
    "0:BED.1:KOE.0:MAM.0:MAM.1:BER.0:MAM.1:BOG.1:BOG.0:BED.1:KRI.1:BOG.1:REI MAM=1,BED=1,SAQ=1,SAR=1/"
    "BER=0,KOE=1,REI=1,KRI=2,BOG=0 BED,MAM/BER,BOG,KOE BED,MAM,SAQ,SAQ,SAQ,SAR/BER,KRI,REI b 6,6 - - 45"
)
FAST = dict(rollout_actions=8)
#: the search before its heuristic prior: random rollouts and no bias spread the playouts over
#: the moves, so a different hidden card shows in the figures (the prior piles them on a win)
SPREAD = dict(rollout_actions=8, prior_weight=0.0, exploration=0.7)


def war_chest_win():
    """Side A has one marker left: `control swordsman 1,3` wins (NL "Overwinningsvoorwaarden")."""
    game = rk.load_game("war-chest")
    return compose(
        game,
        "1,3:0:swordsman:1;5,3:1:archer:1",
        ("swordsman,pikeman", "archer,royal"),
        control="4,0:0;6,1:0;0,5:1;2,6:1;2,1:0;3,2:0;5,3:0",
    )


def war_chest_decision(seed: int, moves: int = 8):
    """A War Chest position reached at random where the player to move has `moves` or more."""
    state, rng = rk.load_game("war-chest").initial_state(), random.Random(seed)
    while state.current_player == rk.CHANCE or len(state.legal_moves()) < moves:
        chance = state.current_player == rk.CHANCE
        state = state.apply(state.sample_chance(rng) if chance else rng.choice(state.legal_moves()))
    return state


def scenarios():
    return [
        ("war-stories", rk.load_game("war-stories").from_text(WAR_STORIES_WIN), 0),
        ("to-war", rk.load_game("to-war", strategic=True).from_text(TO_WAR_WIN), 1),
        ("war-chest", war_chest_win(), 0),
    ]


# --- never the hidden state ---------------------------------------------------------------------


class Sealed:
    """A true state that lets the engine ask for a view and the game, and raises on anything
    else: an engine that plays on the true state, reads its cards or determinizes it fails."""

    def __init__(self, state) -> None:
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "views", [])

    @property
    def game(self):
        return self._state.game

    def view(self, player):
        counted = Counted(self._state.view(player))
        self.views.append((player, counted))
        return counted

    def __getattr__(self, name):
        raise AssertionError(f"the engine read {name!r} of the true state")


class Counted:
    """A view that counts its determinizations and otherwise behaves as the view."""

    def __init__(self, view) -> None:
        self._view, self.determinized = view, 0

    def determinize(self, rng):
        self.determinized += 1
        return self._view.determinize(rng)

    def __getattr__(self, name):
        return getattr(self._view, name)


@pytest.mark.parametrize("game_id, state, seat", scenarios(), ids=lambda v: v if isinstance(v, str) else "")
def test_the_search_only_ever_reads_the_viewers_view(game_id, state, seat):
    sealed = Sealed(state)
    engine = TreeSearchEngine(seed=3, **FAST)
    result = analyse(sealed, viewer=seat, engine=engine, limit=Limit(seconds=None, playouts=12))
    assert [seat for seat, _ in sealed.views] == [seat] and result.search.playouts == 12
    assert sealed.views[0][1].determinized == 12  # one imagined world per playout, from the view
    assert result.position == state.view(seat).to_text() and result.viewer == seat


def hidden_twin(game_id: str, state, seat: int):
    """The same position with the hidden things of `seat`'s view dealt otherwise."""
    if game_id == "war-stories":
        view = state.view(seat)
        # cards never turned (the default view also shows turned-back cards as "?": no memory)
        hidden = [sq for sq, code in enumerate(view.cards) if code == "?" and sq not in state.revealed]
        a, b = next((a, b) for a in hidden for b in hidden if state.cards[a] != state.cards[b])
        cards = list(state.cards)
        cards[a], cards[b] = cards[b], cards[a]
        return replace(state, cards=tuple(cards))
    if game_id == "to-war":
        other = 1 - seat
        codes = state.game.army_codes(other)
        held = state.hands[other][0]
        swap = next(c for c, n in zip(codes, state.reserves[other], strict=True) if n and c != held)
        counts = list(state.reserves[other])
        counts[codes.index(swap)] -= 1
        counts[codes.index(held)] += 1
        hands = list(state.hands)
        hands[other] = tuple(sorted((*state.hands[other][1:], swap)))
        reserves = list(state.reserves)
        reserves[other] = tuple(counts)
        return replace(state, hands=tuple(hands), reserves=tuple(reserves))
    other = 1 - seat  # war-chest: a coin of the opponent's hand and one of its bag change places
    hand, bag = list(state.hands[other]), list(state.bags[other])
    i, j = next((i, j) for i in range(len(hand)) for j in range(len(bag)) if hand[i] != bag[j])
    hand[i], bag[j] = bag[j], hand[i]
    hands, bags = list(state.hands), list(state.bags)
    hands[other], bags[other] = tuple(sorted(hand)), tuple(sorted(bag))
    return replace(state, hands=tuple(hands), bags=tuple(bags))


def summary_of(result):
    return [(m.move, m.visits, round(m.value.win_probability, 9)) for m in result.moves], result.values


@pytest.mark.parametrize("game_id, state, seat", scenarios(), ids=lambda v: v if isinstance(v, str) else "")
def test_what_the_viewer_cannot_see_changes_nothing(game_id, state, seat):
    """Two true states that differ only in what `seat` cannot see give the same analysis in
    that seat's view; all-seeing, the same two differ (so the test would catch a peek)."""
    twin = hidden_twin(game_id, state, seat)
    assert twin != state and twin.view(seat).to_text() == state.view(seat).to_text()
    limit = Limit(seconds=None, playouts=16)

    def run(s, viewer, options):
        return summary_of(analyse(s, viewer=viewer, engine=TreeSearchEngine(seed=5, **options), limit=limit))

    assert run(state, seat, FAST) == run(twin, seat, FAST)
    assert run(state, seat, SPREAD) == run(twin, seat, SPREAD)
    assert run(state, None, SPREAD) != run(twin, None, SPREAD)


# --- reproducible -----------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_analysis_and_another_seed_another():
    game = rk.load_game("war-chest")
    state, rng = game.initial_state(), random.Random(1)
    while state.current_player == rk.CHANCE or len(state.legal_moves()) < 4:
        state = state.apply(
            state.sample_chance(rng) if state.current_player == rk.CHANCE else rng.choice(state.legal_moves())
        )
    limit = Limit(seconds=None, playouts=16)
    first, again, other = (
        analyse(state, viewer=state.current_player, limit=limit, engine=TreeSearchEngine(seed=seed, **FAST))
        for seed in (7, 7, 8)
    )
    assert summary_of(first) == summary_of(again) and first.line == again.line
    assert summary_of(first) != summary_of(other)


# --- wins within the turn -------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id, state, seat", scenarios(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_forced_win_within_the_turn_is_found(game_id, state, seat):
    assert state.current_player == seat and not state.is_terminal()
    budget = 90 if game_id == "to-war" else 30  # To War!'s win takes five decisions of the turn
    result = analyse(
        state,
        viewer=seat,
        engine=TreeSearchEngine(seed=1, **FAST),
        limit=Limit(seconds=None, playouts=budget),
    )
    end = state
    for move in result.line:
        if end.is_terminal() or end.current_player != seat:
            break
        end = end.apply(move)
    assert end.is_terminal() and end.outcome().winner == seat, (result.line, str(result.value))
    assert result.value.win_probability > 0.6 and result.best.visits == max(m.visits for m in result.moves)


def test_a_chance_node_is_analysed_for_the_viewer():
    game = rk.load_game("to-war")
    state = game.initial_state()
    assert state.current_player == rk.CHANCE
    result = analyse(
        state, viewer=1, engine=TreeSearchEngine(seed=2, **FAST), limit=Limit(seconds=None, playouts=6)
    )
    assert result.player == 1 and result.moves == () and len(result.values) == 2
    assert result.value.win_probability == pytest.approx(result.values[1])


# --- the heuristic prior (progressive bias) -------------------------------------------------------------


@pytest.mark.parametrize("weight", [0.0, 2.0])
@pytest.mark.parametrize(
    "game_id, state, seat", scenarios()[::2], ids=lambda v: v if isinstance(v, str) else ""
)
def test_a_move_that_wins_on_the_spot_is_first_after_one_playout(game_id, state, seat, weight):
    """Scoring every move of the root once (its prior) plays the winning move in the first
    world, so it ranks first from the first playout, with or without the bias."""
    engine = TreeSearchEngine(seed=4, rollout_actions=0, prior_weight=weight)
    result = analyse(state, viewer=seat, engine=engine, limit=Limit(seconds=None, playouts=1))
    assert state.apply(result.best.move).outcome().winner == seat, result.best.move


def test_the_prior_steers_the_playouts_and_stays_reproducible():
    """With the bias the playouts go to the moves the heuristic likes (the first move is the
    best-scored one after its look); the same seed and weight give the same analysis."""
    state = war_chest_decision(seed=1)
    limit = Limit(seconds=None, playouts=24)

    def run(seed, weight):
        engine = TreeSearchEngine(
            seed=seed, prior_weight=weight, exploration=0.05, minimax_weight=0.0, expand_leaf=False
        )
        return analyse(state, viewer=state.current_player, limit=limit, engine=engine)

    first, again, unbiased = run(7, 2.0), run(7, 2.0), run(7, 0.0)
    assert summary_of(first) == summary_of(again) and first.line == again.line
    assert summary_of(first) != summary_of(unbiased)
    # unbiased, 24 playouts among the moves each try an untried one; biased, they pile on a few
    assert max(m.visits for m in first.moves) > max(m.visits for m in unbiased.moves)


# --- a leaf a ply deeper (expand_leaf) and implicit minimax backups -----------------------------------

# Yōkai 3x4, the first player (upper case) to move: its Koropokkuru on b2 can take the Kodama on
# b3, which the Tanuki on b4 guards, or step to a3, next to the other Koropokkuru; either loses it
# on the next move, and taking the Koropokkuru wins (rulebook, "Einde van het spel").
HANGING_KOROPOKKURU = "lg1/1c1/1L1/3[] w - - 0 1"


@pytest.mark.parametrize("minimax_weight", [0.0, 0.5])
def test_a_leaf_scored_a_ply_deeper_sees_the_reply_that_takes_the_koropokkuru(minimax_weight):
    """One playout a move, untried moves first: scored at once, taking the Kodama looks best
    (material); scored by the best reply, it and the step to a3 are lost (0) and rank last."""
    state = rk.load_game("yokai-3x4").from_text(HANGING_KOROPOKKURU)
    limit = Limit(seconds=None, playouts=len(state.legal_moves()))

    def values(expand_leaf):
        engine = TreeSearchEngine(
            seed=2, prior_weight=0.0, expand_leaf=expand_leaf, minimax_weight=minimax_weight
        )
        result = analyse(state, engine=engine, limit=limit)
        assert all(line.visits == 1 for line in result.moves)
        return result.best.move, {line.move: line.value.win_probability for line in result.moves}

    best, at_once = values(expand_leaf=False)
    assert best == "b2b3" and at_once["b2b3"] > at_once["b2a1"]
    best, deeper = values(expand_leaf=True)
    assert deeper["b2b3"] == deeper["b2a3"] == 0.0
    assert best not in ("b2b3", "b2a3") and deeper[best] == at_once[best]


def test_implicit_minimax_backs_up_the_best_reply_and_stays_reproducible():
    """With minimax backups a node's value is its best move's for whoever chooses there: at the
    root's children, 1 minus the opponent's best reply; the same seed gives the same analysis."""
    state = rk.load_game("yokai-3x4").from_text(HANGING_KOROPOKKURU)
    limit = Limit(seconds=None, playouts=40)

    def run():
        engine = TreeSearchEngine(seed=3, minimax_weight=0.5, expand_leaf=True)
        return analyse(state, engine=engine, limit=limit)

    first, again = run(), run()
    assert summary_of(first) == summary_of(again) and first.line == again.line
    assert first.best.move not in ("b2b3", "b2a3")
    assert {line.move: line.visits for line in first.moves}["b2b3"] <= 2  # refuted at its first look


def test_the_line_starts_with_the_move_ranked_first():
    """Moves equal in visits rank by their value; the principal line (drawn as arrows) starts
    with that first move, not with another of the most visited (the line once broke the tie by
    the moves' names)."""
    checked = 0
    for seed in range(6):
        state = war_chest_decision(seed)
        result = analyse(state, viewer=state.current_player, limit=Limit(seconds=None, playouts=30))
        top = [line for line in result.moves if line.visits == result.moves[0].visits]
        checked += len(top) > 1
        assert result.line[0] == result.best.move == result.moves[0].move
    assert checked  # some analyses had ties among the most visited


# --- exploration per game --------------------------------------------------------------------------


def test_the_search_explores_as_the_game_declares_unless_told_otherwise():
    """`Game.SEARCH_EXPLORATION` (docs/analysis.md, "Exploration per game"): War Chest's
    heuristic tells moves apart by hundredths and declares 0.03; a game that declares none
    takes the search's default; an engine given a constant uses it. The same seed and playouts
    with the declared constant and with it given explicitly make the same analysis, and another
    constant another one."""
    from rules_kernel.analysis.ismcts import EXPLORATION, exploration_for

    war_chest, to_war = rk.load_game("war-chest"), rk.load_game("to-war")
    assert type(war_chest).SEARCH_EXPLORATION == 0.03 and type(to_war).SEARCH_EXPLORATION is None
    assert exploration_for(TreeSearchEngine(), war_chest) == 0.03
    assert exploration_for(TreeSearchEngine(), to_war) == EXPLORATION == 0.2
    assert exploration_for(TreeSearchEngine(exploration=0.5), war_chest) == 0.5
    state = war_chest_decision(3, moves=10)
    limit = Limit(seconds=None, playouts=60)

    def run(**options):
        return analyse(
            state, viewer=state.current_player, limit=limit, engine=TreeSearchEngine(seed=2, **options)
        )

    declared, explicit, default = run(), run(exploration=0.03), run(exploration=EXPLORATION)
    assert summary_of(declared) == summary_of(explicit)
    assert summary_of(declared) != summary_of(default)
    assert "exploration 0.03" in declared.search.notes[0] and "exploration 0.2" in default.search.notes[0]


def test_priors_over_several_worlds_of_the_movers_view():
    """`prior_worlds=k`: a prior is the heuristic's mean over k worlds the mover may be in.
    Where the mover sees everything (Yōkai 3x4) there is no other world, so the analysis is
    the same as with one; with hidden cards (War Stories, a random game's 30th action) it
    differs and stays reproducible; and the search still reads only the viewer's view (a
    sealed state)."""
    yokai = rk.load_game("yokai-3x4").initial_state()
    limit = Limit(seconds=None, playouts=40)

    def run(state, viewer, **options):
        return analyse(state, viewer=viewer, limit=limit, engine=TreeSearchEngine(seed=4, **options))

    assert summary_of(run(yokai, None, prior_worlds=3)) == summary_of(run(yokai, None))
    states, _ = random_game("war-stories", 5, 400)
    state = states[30]
    seat = state.current_player
    three, again, one = run(state, seat, prior_worlds=3), run(state, seat, prior_worlds=3), run(state, seat)
    assert summary_of(three) == summary_of(again) and summary_of(three) != summary_of(one)
    sealed = Sealed(state)
    run(sealed, seat, prior_worlds=3)
    assert [player for player, _ in sealed.views] == [seat]


# --- a bound on the tree's depth -------------------------------------------------------------------


def test_the_tree_stops_at_its_depth_bound_and_scores_the_bound_in_every_world():
    """`max_depth=d`: no node deeper than d decisions below the root. With d = 1 in a game
    without hidden things (Yōkai 3x4, the start), every playout through a move scores the
    position after it by the heuristic, so each move's value is exactly that score; the same
    budget unbounded goes deeper. In a card game's view the bound holds as well, and the
    search still reads only the viewer's view (a sealed state)."""
    from rules_kernel.agents import evaluate

    state = rk.load_game("yokai-3x4").initial_state()
    limit = Limit(seconds=None, playouts=120)

    def run(position, viewer=None, **options):
        return analyse(position, viewer=viewer, limit=limit, engine=TreeSearchEngine(seed=6, **options))

    unbounded, one, two = run(state), run(state, max_depth=1), run(state, max_depth=2)
    assert unbounded.search.depth > 2 and one.search.depth == 1 and two.search.depth == 2
    mover = state.current_player
    for line in one.moves:
        assert line.visits >= 1
        expected = (evaluate(state.apply(line.move), mover) + 1.0) / 2.0
        assert line.value.win_probability == pytest.approx(expected), line.move
    assert summary_of(two) != summary_of(unbounded)
    states, _ = random_game("war-stories", 5, 400)
    sealed = Sealed(states[30])
    seat = states[30].current_player
    assert run(sealed, seat, max_depth=2).search.depth == 2
    assert [player for player, _ in sealed.views] == [seat]
