"""Fairy-Stockfish (pyffish) as an independent oracle for the Yōkai games."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pyffish

import rules_kernel as rk

VARIANT = {"yokai-3x4": "dobutsu", "yokai-5x6": "gorogoro"}


@dataclass
class Disagreement:
    game: str
    seed: int
    moves: list[str]
    what: str

    def __str__(self) -> str:
        return f"{self.game} seed {self.seed} after {' '.join(self.moves) or '(start)'}: {self.what}"


# Fairy-Stockfish ends a gorogoro game only by "no legal move"; dobutsu also by capture and
# try, which need is_immediate_game_end (each pyffish call costs ~2 ms, so skip it there).
IMMEDIATE_ENDS = {"dobutsu": True, "gorogoro": False}


def fsf_view(variant: str, fen: str):
    """(legal moves, terminal, winner index or None) as Fairy-Stockfish sees the position."""
    legal = set(pyffish.legal_moves(variant, fen, []))
    ended, value = False, 0
    if IMMEDIATE_ENDS[variant] or not legal:
        ended, value = pyffish.is_immediate_game_end(variant, fen, [])
    if not ended and not legal:
        ended, value = True, pyffish.game_result(variant, fen, [])
    side = 0 if fen.split()[1] == "w" else 1
    winner = None
    if ended and value != 0:
        winner = side if value > 0 else 1 - side
    return legal, ended, winner


def is_fsf_drop_mate(variant: str, fen: str, move: str) -> bool:
    """Fairy-Stockfish plays a Kodama drop that mates as a legal move that LOSES for the
    dropper (the mated side is scored the winner). The rulebook (5x6, rule 4: "Das Spiel
    kann nicht dadurch beendet werden, dass ein Kodama ... springt") and rules/NOTES.md make
    that drop illegal instead. Same game value, different move lists: this recognises it."""
    if not move.startswith("P@"):
        return False
    # the move must be passed as a move (not folded into the FEN): FSF looks at the last move
    return not pyffish.legal_moves(variant, fen, [move]) and pyffish.game_result(variant, fen, [move]) > 0


def hand_multiset(fen: str) -> tuple[str, str]:
    placement = fen.split()[0]
    board, hand = placement.split("[")
    return board, "".join(sorted(hand.rstrip("]").replace("-", "")))


def compare_random_game(game_id: str, seed: int, max_plies: int = 200) -> Disagreement | None:
    """Play a random game; at every position compare with Fairy-Stockfish."""
    variant = VARIANT[game_id]
    game = rk.load_game(game_id)
    fen = pyffish.start_fen(variant)
    state = game.initial_state()
    rng = random.Random(seed)
    moves: list[str] = []
    for _ in range(max_plies + 1):
        if state.outcome() is not None and state.outcome().reason.startswith("repetition"):
            return None  # Fairy-Stockfish leaves repetition draws to the caller
        legal, ended, winner = fsf_view(variant, fen)
        ours = {str(m) for m in state.legal_moves()}
        legal -= {m for m in legal - ours if is_fsf_drop_mate(variant, fen, m)}
        where = Disagreement(game_id, seed, list(moves), "")
        if state.is_terminal() != ended:
            where.what = f"terminal: ours {state.is_terminal()} ({state.outcome()}), fsf {ended}"
            return where
        if ended:
            if state.outcome().winner != winner:
                where.what = f"winner: ours {state.outcome()}, fsf {winner}"
                return where
            return None
        if ours != legal:
            where.what = f"moves: only ours {sorted(ours - legal)}, only fsf {sorted(legal - ours)}"
            return where
        ours_text = state.to_text()
        if hand_multiset(fen) != hand_multiset(ours_text) or fen.split()[1] != ours_text.split()[1]:
            where.what = f"position: ours {ours_text}, fsf {fen}"
            return where
        move = rng.choice(sorted(ours))
        moves.append(move)
        state = state.apply(move)
        fen = pyffish.get_fen(variant, fen, [move])
    return None
