"""The reference panel of Yōkai no Mori (`Game.reference`): each piece of the variant with its
steps (`STEPS`: the dots on the wooden pieces, "er bewegt sich ein Feld weit in die Richtungen
die durch die farbigen Punkte vorgegeben sind"), what promotes and how, and the drop."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_kernel.core import ReferenceEntry
from rules_kernel.games.yokai.rules import (
    _DIAGONAL,
    _GOLD,
    _ORTHOGONAL,
    KIND_NAMES,
    KIRIN,
    KITSUNE,
    KODAMA,
    KODAMA_SAMURAI,
    KOROPOKKURU,
    ONI,
    PROMOTES_TO,
    STEPS,
    SUPER_ONI,
    TANUKI,
    UNPROMOTED,
)

if TYPE_CHECKING:
    from rules_kernel.games.yokai.game import YokaiGame

_REFERENCE_ORDER = (KOROPOKKURU, KIRIN, TANUKI, KITSUNE, ONI, SUPER_ONI, KODAMA, KODAMA_SAMURAI)
_STEP_WORDS = {
    frozenset(_ORTHOGONAL + _DIAGONAL): "one square in any direction",
    frozenset(_ORTHOGONAL): "one square straight: forward, back, left or right",
    frozenset(_DIAGONAL): "one square diagonally, in any of the four directions",
    frozenset(_GOLD): "one square in any direction but diagonally back",
    frozenset(STEPS[ONI]): "one square diagonally or straight forward",
    frozenset(STEPS[KODAMA]): "one square straight forward",
}


def reference(game: YokaiGame) -> list[ReferenceEntry]:
    """The "reference" part (`YokaiGame.PARTS`): each piece of the variant with its steps
    (`STEPS`: the dots on the wooden pieces, "er bewegt sich ein Feld weit in die Richtungen die
    durch die farbigen Punkte vorgegeben sind"), in `_REFERENCE_ORDER`, what promotes and how,
    then the drop."""
    far = "the last rank" if game.ZONE_DEPTH == 1 else f"the far {game.ZONE_DEPTH} ranks"
    if game.PROMOTION_OPTIONAL:
        promotes = f"moving into, out of or inside the promotion zone ({far}) it may promote to {{to}}"
    else:
        promotes = f"reaching the promotion zone ({far}) it promotes to {{to}}"
    if game.ROYAL:
        king = "the master: a move that leaves it attacked is not allowed; no legal move loses the game"
    else:
        king = "the master: capturing it wins; reaching the last rank without being captured next turn wins"
    entries = []
    for kind in _REFERENCE_ORDER:
        if kind not in game.LETTERS:
            continue
        notes = [_STEP_WORDS[frozenset(STEPS[kind])]]
        if kind == KOROPOKKURU:
            notes.append(king)
        if kind in PROMOTES_TO:
            notes.append(promotes.format(to=KIND_NAMES[PROMOTES_TO[kind]]))
            if kind == KODAMA and game.PROMOTION_OPTIONAL:
                notes.append("reaching the last rank it must")
        if kind in UNPROMOTED:
            notes.append(
                f"a promoted {KIND_NAMES[UNPROMOTED[kind]]}; captured, it goes to the hand unpromoted"
            )
        entries.append(
            ReferenceEntry(
                KIND_NAMES[kind], "; ".join(notes), STEPS[kind], short=game.LETTERS[kind], group="Pieces"
            )
        )
    drop = "instead of a move, put a captured piece from your hand on any empty square, unpromoted"
    if game.DROP_RESTRICTIONS:
        drop += (
            "; it must be able to move from there, no two own Kodama in one file, and a Kodama "
            "drop may not checkmate"
        )
    else:
        drop += "; a Kodama dropped on the last rank never moves or promotes"
    entries.append(ReferenceEntry("Drop", drop, group="Moves"))
    return entries
