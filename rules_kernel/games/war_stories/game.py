"""`WarStories`: the game's options (the rulebook's optional rules, the start squares, a cap on
long games, what a move into one's own Haisen does), the initial position, reading a position
text, and the declarations the rest of the project reads (core.Game: list order) and the parts
it names (`PARTS`: the agents' heuristic, the reference panel), which live in `hints.py` and
`reference.py`."""

from __future__ import annotations

from typing import ClassVar

from rules_kernel.core import Game, Option
from rules_kernel.games.war_stories import edit, hints, notation, scene
from rules_kernel.games.war_stories import reference as reference_panel
from rules_kernel.games.war_stories.rules import (
    DAIMYO,
    FILES,
    PLAYER_NAMES,
    SHINOBI,
    SIZE,
    SQUARES,
    UNKNOWN,
)
from rules_kernel.games.war_stories.state import WarStoriesState
from rules_kernel.position_text import read_position


def _positive_or_none(value: int | None) -> int | None:
    if value is not None and value < 1:
        raise ValueError(f"must be at least 1 (or None for no cap), got {value}")
    return value


def _parse_start(value: str) -> tuple[int, int, int, int]:
    names = value.split()
    if len(names) != 4 or any(n not in SQUARES for n in names) or len(set(names)) != 4:
        raise ValueError(
            "give four different squares: White Daimyo, White Shinobi, Black Daimyo, "
            f"Black Shinobi (like 'c1 d1 c7 d7'), not {value[:40]!r}"
        )
    squares = tuple(SQUARES[n] for n in names)
    (wf, wr), (bf, br) = ((sq % FILES, sq // FILES) for sq in (squares[0], squares[2]))
    if max(abs(wf - bf), abs(wr - br)) == 1:
        raise ValueError(
            f"the Daimyos on {names[0]} and {names[2]} would touch (each attacked by the other at the start)"
        )
    return squares


class WarStories(Game):
    id = "war-stories"
    title = "War Stories (Sengokuki)"
    # what the game is (rules_kernel.info): the cards lie face down, shuffled; a player's
    # view forgets the cards turned back
    HIDDEN_INFORMATION = True
    CHANCE = True
    MEMORY = True
    # the parts besides the rules (rules_kernel.parts): the position's are WarStoriesState's hooks
    PARTS: ClassVar[dict[str, object]] = {
        "position text": WarStoriesState,
        "words": notation,  # piece moves and flips in words, what a view forgot, why no move
        "scene": scene,  # what the board shows
        "editor": edit,  # the board editor: its palette, counters, turn fields and an edit
        "reference": reference_panel,  # the pieces with their moves, the board cards
        "heuristic": hints,  # material and each Daimyo's danger
    }
    OPTIONS: ClassVar[dict[str, Option]] = {
        "shinobi_wo_tsukau": Option(
            False,
            "optional rule: two Heiya as the first two cards of a "
            "turn earn an extra Shinobi on the second one's square",
            kind=bool,
        ),
        "nobori": Option(
            False,
            "optional rule: cards flipped back at the end of a turn carry a "
            "Nobori and may not be flipped in the next turn",
            kind=bool,
        ),
        "start": Option(
            "c1 d1 c7 d7",
            "start squares: White Daimyo, White Shinobi, Black Daimyo, Black Shinobi",
            kind=str,
            check=lambda v: (_parse_start(v), v)[1],
        ),
        "max_plies": Option(
            None,
            "stop an endless game after this many actions, as unfinished "
            "(None: no cap; the rulebook has no draw rule)",
            kind=(int, type(None)),
            check=_positive_or_none,
        ),
        "self_haisen": Option(
            "loses",
            "a move that leaves the mover's own Daimyo in Haisen: "
            "'loses' (the rulebook: the game ends when either Daimyo stands in "
            "Haisen) or 'illegal' (not offered, as in chess)",
            choices=("loses", "illegal"),
        ),
    }

    @property
    def start_squares(self) -> tuple[int, int, int, int]:
        return _parse_start(self.options["start"])

    @property
    def card_squares(self) -> tuple[int, ...]:
        taken = set(self.start_squares)
        return tuple(sq for sq in range(SIZE) if sq not in taken)

    @property
    def player_names(self) -> tuple[str, ...]:
        return PLAYER_NAMES

    def initial_state(self) -> WarStoriesState:
        pieces = [0] * SIZE
        wd, ws, bd, bs = self.start_squares
        pieces[wd], pieces[ws] = DAIMYO, SHINOBI
        pieces[bd], pieces[bs] = DAIMYO | 8, SHINOBI | 8
        cards = tuple(UNKNOWN if sq in self.card_squares else None for sq in range(SIZE))
        return WarStoriesState(self, tuple(pieces), cards, dealt=False)

    def from_text(self, text: str) -> WarStoriesState:
        """A position from `to_text`'s form; PositionTextError naming the field for anything
        that is not a position of this game (rules/NOTES.md: the box, the turn, the markers)."""
        return read_position(self.id, text, self._read_position)

    def _read_position(self, fields: list[str]) -> WarStoriesState:
        state = WarStoriesState(self, *notation.position_parts(fields))
        notation.check_position(state)
        return state

    # --- what the rest of the project needs (core.Game's declarations) ---
    LIST_ORDER = 30
    #: the agents' material values (hints.py)
    AGENT_VALUES: ClassVar[dict[int, int]] = hints.AGENT_VALUES
