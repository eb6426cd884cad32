"""A War Chest position and the kernel protocol on it: who acts, the legal actions (worked
out in `rules`), chance, the outcome, secrets (views), text and scene. What the rules ask of a
position (who stands where, markers left) is here too; how actions change it is in `rules`."""

from __future__ import annotations

import random
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from rules_kernel.core import (
    BETWEEN_TURNS,
    CHANCE,
    NOT_COMPUTED,
    TURN_BEGINS,
    TURN_GOES_ON,
    ChanceNotEnumerableError,
    HiddenInformationError,
    IllegalMoveError,
    Move,
    Outcome,
    State,
    TextChance,
)
from rules_kernel.games.war_chest import rules
from rules_kernel.games.war_chest.box import (
    ARMY_SIZE,
    COINS,
    DRAFT_ORDER,
    HIDDEN,
    UNITS,
    Hex,
    Pending,
    Unit,
)
from rules_kernel.games.war_chest.text import position_text
from rules_kernel.games.war_chest.text import status as position_status

if TYPE_CHECKING:
    from rules_kernel.games.war_chest.game import WarChest


@dataclass(frozen=True, repr=False, eq=False)  # equality: by position (`_position_key`)
class WarChestState(State):
    game: WarChest
    phase: str  # "deal" (armies or draft cards to come), "draft", "draw", "play"
    armies: tuple[tuple[str, ...], ...]
    pool: tuple[str, ...]  # draft cards not yet picked
    bags: tuple[tuple[str, ...], ...]  # each a sorted multiset of coin names
    hands: tuple[tuple[str, ...], ...]
    faceup: tuple[tuple[str, ...], ...]  # the public part of each discard pile
    facedown: tuple[tuple[str, ...], ...]  # its private part
    supply: tuple[tuple[str, ...], ...]
    eliminated: tuple[tuple[str, ...], ...]  # out of the game
    units: tuple[tuple[Hex, int, str, int], ...]  # (hex, owner, type, height), sorted by hex
    control: tuple[tuple[Hex, int], ...]  # controlled locations: (hex, side)
    initiative: int
    claimed: bool  # the initiative was claimed this round
    turn: int  # the seat acting (play) or drawing (draw)
    pending: tuple[Pending, ...]  # follow-ups; the last one is resolved first
    ply: int = 0  # actions so far, chance included; a position only under `max_actions`
    last: tuple[str, ...] = field(default=(), compare=False)  # cells of the last action, for drawing

    # --- equality: the position, not the display hints -----------------------------------
    def _position_key(self) -> tuple:
        """What the rules depend on: every field but the last-action highlight, and the action
        counter only when a cap (`max_actions`) makes it end the game."""
        key = tuple(getattr(self, name) for name in _POSITION_FIELDS)
        return key + (self.ply,) if self.game.options["max_actions"] is not None else key

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, WarChestState):
            return NotImplemented
        return self._position_key() == other._position_key()

    def __hash__(self) -> int:
        return hash(self._position_key())

    # --- protocol --------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        if self.phase in ("deal", "draw"):
            return CHANCE
        if self.phase == "draft":
            return DRAFT_ORDER[self.game.num_players][sum(map(len, self.armies))]
        if self.pending:
            kind, player, _ = self.pending[-1]
            return CHANCE if kind == "priest-draw" else player
        return self.turn

    @property
    def turn_part(self) -> str:
        """The rulebook's turn: one coin, one action ("Elke keer dat je een munt gebruikt, kun
        je één actie uitvoeren"), its follow-ups (a tactic's second step, the Royal Guard's
        choice, the Warrior Priest's draw) inside it; a round's draws and the deal stand
        between turns; in the draft a player who takes two cards in a row takes them in one
        turn ("De tweede speler neemt vervolgens twee militaire kaarten")."""
        if self.phase in ("deal", "draw"):
            return BETWEEN_TURNS
        if self.phase == "draft":
            order, taken = DRAFT_ORDER[self.game.num_players], sum(map(len, self.armies))
            return TURN_GOES_ON if taken and order[taken - 1] == order[taken] else TURN_BEGINS
        return TURN_GOES_ON if self.pending else TURN_BEGINS

    def legal_moves(self) -> list[Move]:
        if self.current_player == CHANCE or self.is_terminal():
            return []
        return list(self._move_list)

    @cached_property
    def _move_list(self) -> list[Move]:
        return rules.legal_moves(self)

    def _compute_outcome(self) -> Outcome | None:
        game = self.game
        for side in (0, 1):
            if self.markers_left(side) == 0:
                who = f"{'Side' if game.num_players == 2 else 'Team'} {'AB'[side]}"
                reason = f"{who} placed its last control marker"
                if game.num_players == 2:
                    return Outcome.win(side, reason)
                return Outcome(side, reason, (side, side + 2))
        if rules.deadlocked(self):
            return Outcome.draw("deadlock: no coin is left to act with, so no side can place another marker")
        cap = game.options["max_actions"]
        if cap is not None and self.ply >= cap:
            return Outcome.unfinished(f"stopped after {cap} actions (max_actions)")
        return None

    def _successor(self, action) -> WarChestState:
        if action.is_chance:
            after = rules.after_chance(self, str(action))
        elif getattr(action, "coin", None) == HIDDEN:  # a view's hidden coin: nothing to act with
            raise HiddenInformationError(
                f"{action}: this coin is hidden in this view; play on the full "
                "state or on view.determinize(rng)"
            )
        else:
            after = rules.after_move(self, action)
        settled = rules.settled(after)
        successor = settled.replaced(ply=self.ply + 1, last=() if action.is_chance else action.cells)
        _carry_outcome(settled, successor)
        return successor

    # --- who is where ----------------------------------------------------------------------------
    @cached_property
    def board(self) -> dict[Hex, Unit]:
        return {h: (owner, kind, height) for h, owner, kind, height in self.units}

    @cached_property
    def controller(self) -> dict[Hex, int]:
        return dict(self.control)

    def unit_hexes(self, player: int, kind: str) -> list[Hex]:
        return [h for h, owner, k, _ in self.units if owner == player and k == kind]

    def markers_left(self, side: int) -> int:
        """Control markers the side has not placed (a side wins when it has none left)."""
        return self.game.map.markers - self._markers_placed[side]

    @cached_property
    def _markers_placed(self) -> tuple[int, int]:
        sides = [s for _, s in self.control]
        return sides.count(0), sides.count(1)

    # --- chance ------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[TextChance, float]]:
        if self.current_player != CHANCE or self.is_terminal():
            return []
        if self.phase == "deal":
            if self.game.options["setup"] == "random":
                raise ChanceNotEnumerableError(
                    "the deal of the armies has too many outcomes to list; use sample_chance"
                )
            k = len(DRAFT_ORDER[self.game.num_players])
            total = comb(len(UNITS), k)
            return [
                (TextChance("reveal:" + ",".join(cards)), 1 / total)
                for cards in combinations(sorted(UNITS), k)
            ]
        player, k = rules.drawer(self)
        return [(TextChance("draw:" + ",".join(coins)), p) for coins, p in rules.draw_odds(self, player, k)]

    def sample_chance(self, rng: random.Random) -> TextChance:
        if self.phase == "deal" and self.game.options["setup"] == "random":
            units = rng.sample(UNITS, ARMY_SIZE[self.game.num_players] * self.game.num_players)
            size = ARMY_SIZE[self.game.num_players]
            armies = [sorted(units[i * size : (i + 1) * size]) for i in range(self.game.num_players)]
            return TextChance("deal:" + "/".join(",".join(a) for a in armies))
        if self.phase == "deal":
            cards = sorted(rng.sample(UNITS, len(DRAFT_ORDER[self.game.num_players])))
            return TextChance("reveal:" + ",".join(cards))
        player, k = rules.drawer(self)
        return TextChance("draw:" + ",".join(rules.sample_draw(self, player, k, rng)))

    def parse_chance(self, text: str) -> TextChance:
        if self.phase == "deal" and self.game.options["setup"] == "random":
            rules.parse_deal(self, text)
            return TextChance(text)
        if self.phase == "deal":
            cards = text[len("reveal:") :].split(",") if text.startswith("reveal:") else []
            k = len(DRAFT_ORDER[self.game.num_players])
            if len(cards) != k or len(set(cards)) != k or any(c not in COINS for c in cards):
                raise IllegalMoveError(
                    f"{text[:40]!r}: the draft starts with 'reveal:' and {k} different "
                    "unit names, separated by ','"
                )
            return TextChance("reveal:" + ",".join(sorted(cards)))
        player, k = rules.drawer(self)
        body = text[len("draw:") :] if text.startswith("draw:") else ","  # ",": no draw's text
        coins = tuple(body.split(",")) if body else ()
        if coins == tuple(sorted(coins)) and rules.possible_draw(self, player, k, coins):
            return TextChance(text)  # one of `chance_outcomes`, found by counting, not listing
        bag = ", ".join(self.bags[player]) or "empty"
        raise IllegalMoveError(
            f"{text!r}: not a possible draw of {k} coin(s) for {self.game.player_names[player]} (bag: {bag})"
        )

    # --- secrets -------------------------------------------------------------------------------
    def view(self, player: int, *, memory: bool | None = None) -> WarChestState:
        """Another player's hand and face-down discards become '?'; the coins behind them are
        pooled into that player's bag counts, which is what counting tells you."""
        super().view(player)  # the base view checks the seat: SeatError for a bad one
        # memory: a coin seen face up stays in sight or in the counts, so it changes nothing
        bags, hands, facedown = list(self.bags), list(self.hands), list(self.facedown)
        for other in range(self.game.num_players):
            if other == player:
                continue
            secret = [c for c in hands[other] + facedown[other] if c != HIDDEN]
            if not secret:
                continue
            bags[other] = tuple(sorted(bags[other] + tuple(secret)))
            hands[other] = (HIDDEN,) * len(hands[other])
            facedown[other] = (HIDDEN,) * len(facedown[other])
        pending = tuple(
            ("priest-use", p, HIDDEN) if k == "priest-use" and p != player else (k, p, d)
            for k, p, d in self.pending
        )
        last = tuple(c for c in self.last if not c.startswith("hand-") or c.startswith(f"hand-{player}:"))
        return replace(
            self, bags=tuple(bags), hands=tuple(hands), facedown=tuple(facedown), pending=pending, last=last
        )

    def determinize(self, rng: random.Random) -> WarChestState:
        """Deal every '?' from its owner's pooled bag counts at random."""
        bags, hands, facedown = list(self.bags), list(self.hands), list(self.facedown)
        pending = list(self.pending)
        for p in range(self.game.num_players):
            unknown_hand, unknown_down = hands[p].count(HIDDEN), facedown[p].count(HIDDEN)
            if not unknown_hand + unknown_down:
                continue
            pool = list(bags[p])
            rng.shuffle(pool)
            dealt_hand, dealt_down = pool[:unknown_hand], pool[unknown_hand : unknown_hand + unknown_down]
            bags[p] = tuple(sorted(pool[unknown_hand + unknown_down :]))
            hands[p] = tuple(sorted([c for c in hands[p] if c != HIDDEN] + dealt_hand))
            facedown[p] = tuple(sorted([c for c in facedown[p] if c != HIDDEN] + dealt_down))
            pending = [
                (k, q, rng.choice(hands[p]) if k == "priest-use" and q == p and d == HIDDEN else d)
                for k, q, d in pending
            ]
        return replace(
            self, bags=tuple(bags), hands=tuple(hands), facedown=tuple(facedown), pending=tuple(pending)
        )

    # --- text, drawing, messages -----------------------------------------------------------------
    def to_text(self) -> str:
        return position_text(self)

    def status(self) -> list[str]:
        """What no game from the start reaches (`core.State.status`): coins back in the box (a
        study position lists fewer than the box; they are out of the game)."""
        return position_status(self)


def _carry_outcome(settled: WarChestState, successor: WarChestState) -> None:
    """Give `successor` (`settled` with the action counted) the outcome `settled` worked out
    already, where the count cannot change it: a win or a deadlock holds at any count, and no
    outcome stays none below the cap. `settled` asks for its outcome on the way (is the turn
    over?), and working it out again was a twentieth of the tree search's time."""
    known = settled.__dict__.get("_outcome", NOT_COMPUTED)
    cap = successor.game.options["max_actions"]
    if known is not NOT_COMPUTED and (known is not None or cap is None or successor.ply < cap):
        object.__setattr__(successor, "_outcome", known)  # a cache, as `State.outcome` sets it


#: the fields of a position (`WarChestState._position_key`); `ply` joins them under a cap
_POSITION_FIELDS = tuple(f.name for f in fields(WarChestState) if f.compare and f.name != "ply")
