"""The Yokai 3x4 tablebase engine: position index, move and unmove generation, retrograde
analysis and reachability, on flat numpy arrays.

Every function here is plain Python over numpy arrays and small ints, so that it runs
unchanged under numba (`jit` compiles it when numba is installed: `pip install .[solver]`)
or as ordinary Python (the fallback, practical for sub-games only). Set the environment
variable RULES_EXPLORER_NO_NUMBA=1 before import to force the pure-Python path.

Frame. A position is stored *normalised*: the side to move is always "us" and moves up the
board (toward rank 4); the other side, "them", moves down. A position with the second
player to move is turned 180 degrees and its colours swapped. Square = rank * 3 + file.

Piece codes: 0 empty; ours 1 Kodama (C), 2 Kodama Samurai (H), 3 Kitsune (E), 4 Tanuki (G),
5 Koropokkuru (L); theirs are ours + 8 (9 c, 10 h, 11 e, 12 g, 13 l).
Hands: 6 counts, ours (C, E, G) then theirs (C, E, G).

Value codes (uint16 while building): 0 unknown (a draw when the build ends), 2d+1 win in
d plies, 2d+2 loss in d plies, DRAW_TERMINAL for the both-safe try draw, DRAW for
the rest once the build ends.
"""

from __future__ import annotations

import os
from math import comb

import numpy as np

if os.environ.get("RULES_EXPLORER_NO_NUMBA"):
    HAVE_NUMBA = False
else:
    try:
        import numba
        HAVE_NUMBA = True
    except ImportError:  # the optional extra is not installed: pure Python
        HAVE_NUMBA = False


def jit(function):
    """numba's njit when available (cached on disk), else the function itself."""
    return numba.njit(cache=True, nogil=True)(function) if HAVE_NUMBA else function


SQUARES, FILES = 12, 3
THEM = 8
C, H, E, G, L = 1, 2, 3, 4, 5
DRAW_TERMINAL = 0xFFFF
DRAW = 0xFFFE  # no level decided it: play can go round forever

# Steps (file, rank) of our pieces; theirs are mirrored in rank.
_STEPS = {
    C: ((0, 1),),
    H: ((-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (0, -1)),
    E: ((1, 1), (1, -1), (-1, -1), (-1, 1)),
    G: ((0, 1), (1, 0), (0, -1), (-1, 0)),
    L: ((0, 1), (1, 0), (0, -1), (-1, 0), (1, 1), (1, -1), (-1, -1), (-1, 1)),
}


def _step_tables():
    """DEST[code, sq, :NDEST]: squares a piece steps to; ATTACKS[code, sq]: the same as a bitmask;
    ORIGINS[code, sq, :NORIGINS]: squares from which the piece steps onto sq."""
    dest = np.zeros((16, SQUARES, 8), np.int64)
    ndest = np.zeros((16, SQUARES), np.int64)
    attacks = np.zeros((16, SQUARES), np.int64)
    for kind, steps in _STEPS.items():
        for owner, code in ((1, kind), (-1, kind + THEM)):
            for sq in range(SQUARES):
                f, r = sq % FILES, sq // FILES
                for df, dr in steps:
                    nf, nr = f + df, r + dr * owner
                    if 0 <= nf < FILES and 0 <= nr < SQUARES // FILES:
                        to = nr * FILES + nf
                        dest[code, sq, ndest[code, sq]] = to
                        ndest[code, sq] += 1
                        attacks[code, sq] |= 1 << to
    origins = np.zeros((16, SQUARES, 8), np.int64)
    norigins = np.zeros((16, SQUARES), np.int64)
    for code in range(16):
        for frm in range(SQUARES):
            for i in range(ndest[code, frm]):
                to = dest[code, frm, i]
                origins[code, to, norigins[code, to]] = frm
                norigins[code, to] += 1
    return dest, ndest, attacks, origins, norigins


DEST, NDEST, ATTACKS, ORIGINS, NORIGINS = _step_tables()


# --- the index -------------------------------------------------------------------------------
#
# index = lion_pair * REST + rest. lion_pair = our Koropokkuru's square * 11 + theirs (counted
# among the 11 other squares). rest ranks the other pieces kind by kind: Kodama (4 states per
# piece: C, H, c, h) on the 10 free squares, then Kitsune (E, e) on the squares left, then
# Tanuki (G, g); each kind's configuration is (pieces on board n, their squares as a
# combination, their states, our hand count u; theirs is the rest). ix packs the offsets.

KIND_STATES = (4, 2, 2)
IX_MATERIAL, IX_REST, IX_CH_PRE, IX_CH_MUL, IX_E_PRE, IX_E_MUL, IX_G_PRE = 0, 3, 4, 7, 10, 43, 76
IX_SIZE = 109


def _count(m: int, states: int, pieces: int, n: int) -> int:
    """Configurations of one kind with n of its pieces on m free squares."""
    return comb(m, n) * states ** n * (pieces - n + 1) if n <= pieces else 0


def _configurations(m: int, states: int, pieces: int) -> int:
    return sum(_count(m, states, pieces, n) for n in range(pieces + 1))


def index_tables(material: tuple[int, int, int]) -> np.ndarray:
    """The offsets of the index for a material (Kodama, Kitsune, Tanuki pieces: 0..2 each)."""
    kc, ke, kg = material
    ix = np.zeros(IX_SIZE, np.int64)
    ix[IX_MATERIAL:IX_MATERIAL + 3] = material

    def after_elephants(m):  # configurations of Kitsune and Tanuki on m free squares
        return sum(_count(m, 2, ke, n) * _configurations(m - n, 2, kg) for n in range(ke + 1))

    total = 0
    for n in range(3):
        ix[IX_CH_PRE + n] = total
        ix[IX_CH_MUL + n] = after_elephants(10 - n)
        total += _count(10, 4, kc, n) * after_elephants(10 - n)
    ix[IX_REST] = total
    for m in range(11):
        pre_e = pre_g = 0
        for n in range(3):
            ix[IX_E_PRE + m * 3 + n] = pre_e
            ix[IX_E_MUL + m * 3 + n] = _configurations(m - n, 2, kg) if n <= m else 0
            pre_e += _count(m, 2, ke, n) * (_configurations(m - n, 2, kg) if n <= m else 0)
            ix[IX_G_PRE + m * 3 + n] = pre_g
            pre_g += _count(m, 2, kg, n)
    return ix


def table_size(ix: np.ndarray) -> int:
    return 132 * int(ix[IX_REST])


@jit
def _kind_config(n, a, b, sa, sb, states, pieces, u):
    """The within-kind rank of n pieces on slots a < b with states sa, sb; u in our hand."""
    splits = pieces - n + 1
    if n == 0:
        return u
    if n == 1:
        return (a * states + sa) * splits + u
    return ((b * (b - 1) // 2 + a) * states * states + sa * states + sb) * splits + u


@jit
def rank(board, hands, ix):
    """The index of a normalised position (both Koropokkuru on the board)."""
    ours = theirs = -1
    for sq in range(SQUARES):
        if board[sq] == L:
            ours = sq
        elif board[sq] == L + THEM:
            theirs = sq
    pair = ours * 11 + (theirs if theirs < ours else theirs - 1)
    slot_c = slot_e = slot_g = 0
    nc = ne = ng = 0
    ca = cb = csa = csb = ea = eb = esa = esb = ga = gb = gsa = gsb = 0
    for sq in range(SQUARES):
        code = board[sq]
        if code == L or code == L + THEM:
            continue
        kind = code & 7
        if code != 0 and (kind == C or kind == H):
            state = (kind - C) + (2 if code & THEM else 0)
            if nc == 0:
                ca, csa = slot_c, state
            else:
                cb, csb = slot_c, state
            nc += 1
            slot_c += 1
        elif code != 0 and kind == E:
            state = 1 if code & THEM else 0
            if ne == 0:
                ea, esa = slot_e, state
            else:
                eb, esb = slot_e, state
            ne += 1
            slot_c += 1
            slot_e += 1
        elif code != 0 and kind == G:
            state = 1 if code & THEM else 0
            if ng == 0:
                ga, gsa = slot_g, state
            else:
                gb, gsb = slot_g, state
            ng += 1
            slot_c += 1
            slot_e += 1
            slot_g += 1
        else:
            slot_c += 1
            slot_e += 1
            slot_g += 1
    wc = _kind_config(nc, ca, cb, csa, csb, 4, ix[IX_MATERIAL], hands[0])
    we = _kind_config(ne, ea, eb, esa, esb, 2, ix[IX_MATERIAL + 1], hands[1])
    wg = _kind_config(ng, ga, gb, gsa, gsb, 2, ix[IX_MATERIAL + 2], hands[2])
    me = 10 - nc
    mg = me - ne
    rest = (ix[IX_CH_PRE + nc] + wc * ix[IX_CH_MUL + nc]
            + ix[IX_E_PRE + me * 3 + ne] + we * ix[IX_E_MUL + me * 3 + ne]
            + ix[IX_G_PRE + mg * 3 + ng] + wg)
    return pair * ix[IX_REST] + rest


@jit
def _place_kind(board, w, n, pieces, states, base_code):
    """Put n pieces of one kind described by within-rank w on the board; return our hand count."""
    splits = pieces - n + 1
    u = w % splits
    q = w // splits
    if n == 0:
        return u
    a = b = sa = sb = 0
    if n == 1:
        sa = q % states
        a = q // states
    else:
        sb = q % states
        sa = (q // states) % states
        combo = q // (states * states)
        b = 1
        while (b + 1) * b // 2 <= combo:
            b += 1
        a = combo - b * (b - 1) // 2
    slot = 0
    for sq in range(SQUARES):
        if board[sq] != 0:
            continue
        if slot == a:
            board[sq] = _state_code(base_code, sa)
        elif n == 2 and slot == b:
            board[sq] = _state_code(base_code, sb)
        slot += 1
    return u


@jit
def _state_code(base_code, state):
    """Kodama states: C, H, c, h; Kitsune and Tanuki: ours, theirs."""
    if base_code == C:
        return (C + (state & 1)) + (THEM if state >= 2 else 0)
    return base_code + (THEM if state == 1 else 0)


@jit
def _pick_block(rest, pre, offset, pieces):
    """The largest n <= pieces whose block starts at or below rest."""
    n = pieces
    while n > 0 and pre[offset + n] > rest:
        n -= 1
    return n


@jit
def unrank(index, ix, board, hands):
    """Fill board (12) and hands (6) with the position of an index."""
    rest_size = ix[IX_REST]
    pair = index // rest_size
    rest = index - pair * rest_size
    ours = pair // 11
    theirs = pair % 11
    if theirs >= ours:
        theirs += 1
    for sq in range(SQUARES):
        board[sq] = 0
    board[ours] = L
    board[theirs] = L + THEM
    kc, ke, kg = ix[IX_MATERIAL], ix[IX_MATERIAL + 1], ix[IX_MATERIAL + 2]
    nc = _pick_block(rest, ix, IX_CH_PRE, kc)
    rest -= ix[IX_CH_PRE + nc]
    wc = rest // ix[IX_CH_MUL + nc]
    rest -= wc * ix[IX_CH_MUL + nc]
    me = 10 - nc
    ne = _pick_block(rest, ix, IX_E_PRE + me * 3, ke)
    rest -= ix[IX_E_PRE + me * 3 + ne]
    we = rest // ix[IX_E_MUL + me * 3 + ne]
    rest -= we * ix[IX_E_MUL + me * 3 + ne]
    mg = me - ne
    ng = _pick_block(rest, ix, IX_G_PRE + mg * 3, kg)
    wg = rest - ix[IX_G_PRE + mg * 3 + ng]
    uc = _place_kind(board, wc, nc, kc, 4, C)
    ue = _place_kind(board, we, ne, ke, 2, E)
    ug = _place_kind(board, wg, ng, kg, 2, G)
    hands[0], hands[1], hands[2] = uc, ue, ug
    hands[3], hands[4], hands[5] = kc - nc - uc, ke - ne - ue, kg - ng - ug


# --- rules in the normalised frame ------------------------------------------------------------

@jit
def _attack_mask(board, them):
    """Squares attacked by one side (them = 0: us, 1: them)."""
    mask = 0
    for sq in range(SQUARES):
        code = board[sq]
        if code != 0 and (code >= THEM) == (them == 1):
            mask |= ATTACKS[code, sq]
    return mask


@jit
def try_status(board):
    """The kernel's try rule for the side to move: 0 none, 1 we win (our Koropokkuru safe on
    rank 4), 2 we lose (theirs safe on rank 1), 3 both (a draw)."""
    ours = theirs = -1
    for sq in range(SQUARES):
        if board[sq] == L:
            ours = sq
        elif board[sq] == L + THEM:
            theirs = sq
    status = 0
    if ours >= 9 and not (_attack_mask(board, 1) >> ours) & 1:
        status |= 1
    if theirs <= 2 and not (_attack_mask(board, 0) >> theirs) & 1:
        status |= 2
    return status


@jit
def can_capture_lion(board):
    """Whether the side to move attacks the other Koropokkuru (a win in one ply)."""
    for sq in range(SQUARES):
        if board[sq] == L + THEM:
            return (_attack_mask(board, 0) >> sq) & 1 == 1
    return False


@jit
def _normalise_into(src_board, src_hands, board, hands):
    """Turn the board (after our move) to the other side's frame: rotate, swap colours."""
    for sq in range(SQUARES):
        code = src_board[sq]
        board[SQUARES - 1 - sq] = code ^ THEM if code != 0 else 0
    for k in range(3):
        hands[k] = src_hands[k + 3]
        hands[k + 3] = src_hands[k]


@jit
def _flip_into(src_board, src_hands, board, hands):
    """Like _normalise_into but flipping the ranks only (files kept), the convention of
    some other solvers; the rules are symmetric under a file mirror, so values agree."""
    for sq in range(SQUARES):
        code = src_board[sq]
        board[(3 - sq // FILES) * FILES + sq % FILES] = code ^ THEM if code != 0 else 0
    for k in range(3):
        hands[k] = src_hands[k + 3]
        hands[k + 3] = src_hands[k]


@jit
def children(board, hands, ix, out, scratch_board, scratch_hands, child_board, child_hands,
             skip_lion_capture, far_rank_kodama_drops=True, flip_ranks=False):
    """Indices of the positions after each legal move (in the opponent's frame) into out;
    returns their number, or -1 if a move captures the other Koropokkuru (a win in 1) and
    skip_lion_capture is false (if true, such moves are left out: they end the game).
    far_rank_kodama_drops=False leaves out Kodama drops on the far rank (not a kernel rule:
    only for comparing counts with solvers that forbid them); flip_ranks=True normalises the
    children by a rank flip instead of a half turn (also only for comparing counts)."""
    count = 0
    for frm in range(SQUARES):
        code = board[frm]
        if code == 0 or code >= THEM:
            continue
        for i in range(NDEST[code, frm]):
            to = DEST[code, frm, i]
            target = board[to]
            if target != 0 and target < THEM:
                continue
            if target == L + THEM:
                if skip_lion_capture:
                    continue
                return -1
            for sq in range(SQUARES):
                scratch_board[sq] = board[sq]
            for k in range(6):
                scratch_hands[k] = hands[k]
            scratch_board[frm] = 0
            scratch_board[to] = H if code == C and to >= 9 else code
            if target != 0:
                kind = target & 7
                if kind == H:
                    kind = C
                scratch_hands[0 if kind == C else (1 if kind == E else 2)] += 1
            if flip_ranks:
                _flip_into(scratch_board, scratch_hands, child_board, child_hands)
            else:
                _normalise_into(scratch_board, scratch_hands, child_board, child_hands)
            out[count] = rank(child_board, child_hands, ix)
            count += 1
    for k in range(3):
        if hands[k] == 0:
            continue
        kind = C if k == 0 else (E if k == 1 else G)
        for to in range(SQUARES):
            if board[to] != 0 or (kind == C and to >= 9 and not far_rank_kodama_drops):
                continue
            for sq in range(SQUARES):
                scratch_board[sq] = board[sq]
            for j in range(6):
                scratch_hands[j] = hands[j]
            scratch_board[to] = kind
            scratch_hands[k] -= 1
            if flip_ranks:
                _flip_into(scratch_board, scratch_hands, child_board, child_hands)
            else:
                _normalise_into(scratch_board, scratch_hands, child_board, child_hands)
            out[count] = rank(child_board, child_hands, ix)
            count += 1
    return count


@jit
def _emit_predecessor(scratch_board, scratch_hands, ix, out, count, pred_board, pred_hands):
    """Turn a position just before their move (in our frame) into their frame and keep it if
    the game was not over there (terminal positions have no moves)."""
    _normalise_into(scratch_board, scratch_hands, pred_board, pred_hands)
    if try_status(pred_board) != 0:
        return count
    out[count] = rank(pred_board, pred_hands, ix)
    return count + 1


@jit
def predecessors(board, hands, ix, out, scratch_board, scratch_hands, pred_board, pred_hands):
    """Indices of every position from which one legal move of theirs leads here; each
    (position, move) pair once. Their last move was a step (maybe a capture, maybe a
    promotion) or a drop."""
    count = 0
    for to in range(SQUARES):
        code = board[to]
        if code < THEM:
            continue
        kind = code - THEM
        if kind != H and kind != L:  # an unpromoted piece may have been dropped
            for sq in range(SQUARES):
                scratch_board[sq] = board[sq]
            for j in range(6):
                scratch_hands[j] = hands[j]
            scratch_board[to] = 0
            scratch_hands[3 + (0 if kind == C else (1 if kind == E else 2))] += 1
            count = _emit_predecessor(scratch_board, scratch_hands, ix, out, count,
                                      pred_board, pred_hands)
        if not (kind == C and to <= 2):  # a Kodama reaching rank 1 by a step has promoted
            count = _unsteps(board, hands, ix, out, count, to, code, code, scratch_board,
                             scratch_hands, pred_board, pred_hands)
        if kind == H and to <= 2:  # a Kodama that promoted on arrival
            count = _unsteps(board, hands, ix, out, count, to, code, C + THEM, scratch_board,
                             scratch_hands, pred_board, pred_hands)
    return count


@jit
def _unsteps(board, hands, ix, out, count, to, code, before, scratch_board, scratch_hands,
             pred_board, pred_hands):
    """Their piece `code` on `to` came from an empty origin as `before`; optionally it
    captured one of our pieces there (taken back from their hand; a Kodama maybe promoted)."""
    for i in range(NORIGINS[before, to]):
        frm = ORIGINS[before, to, i]
        if board[frm] != 0:
            continue
        for captured in range(5):  # nothing, C, H, E, G
            hand_slot = 3 + (0 if captured <= 2 else captured - 2)
            if captured > 0 and hands[hand_slot] == 0:
                continue
            for sq in range(SQUARES):
                scratch_board[sq] = board[sq]
            for j in range(6):
                scratch_hands[j] = hands[j]
            scratch_board[frm] = before
            scratch_board[to] = captured
            if captured > 0:
                scratch_hands[hand_slot] -= 1
            count = _emit_predecessor(scratch_board, scratch_hands, ix, out, count,
                                      pred_board, pred_hands)
    return count


# --- the passes -----------------------------------------------------------------------------

HANGS = 0x80  # counter flag: some move leaves our Koropokkuru en prise


@jit
def count_moves(board, hands):
    """(moves, moves that leave our Koropokkuru en prise, whether one takes theirs)."""
    ours = -1
    for sq in range(SQUARES):
        if board[sq] == L:
            ours = sq
    threats = _attack_mask(board, 1)
    moves = hanging = 0
    for frm in range(SQUARES):
        code = board[frm]
        if code == 0 or code >= THEM:
            continue
        for i in range(NDEST[code, frm]):
            to = DEST[code, frm, i]
            target = board[to]
            if target != 0 and target < THEM:
                continue
            if target == L + THEM:
                return moves, hanging, True
            lion = to if code == L else ours
            after = threats
            if target != 0:  # the captured piece no longer attacks
                board[to] = 0
                after = _attack_mask(board, 1)
                board[to] = target
            moves += 1
            if (after >> lion) & 1:
                hanging += 1
    empty = 0
    for sq in range(SQUARES):
        if board[sq] == 0:
            empty += 1
    for k in range(3):
        if hands[k] > 0:
            moves += empty
            if (threats >> ours) & 1:
                hanging += empty
    return moves, hanging, False


@jit
def initialise(ix, values, counters, flags, start, stop):
    """Terminal positions (try) and wins in one (their Koropokkuru en prise) get their value;
    every other position counts its moves, except the moves that leave our Koropokkuru en
    prise (children won in one by capture, which never propagate: flag HANGS instead).
    Returns the number of positions with no move at all."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    stuck = 0
    for index in range(start, stop):
        if flags[index] & REACHED == 0:
            continue
        unrank(index, ix, board, hands)
        status = try_status(board)
        if status == 1:
            values[index] = 1
        elif status == 2:
            values[index] = 2
        elif status == 3:
            values[index] = DRAW_TERMINAL
        else:
            moves, hanging, takes_lion = count_moves(board, hands)
            if takes_lion:
                values[index] = 3
            elif moves == 0:
                stuck += 1
            elif moves == hanging:
                values[index] = 6  # every move hangs the Koropokkuru: lost in 2
            else:
                counters[index] = (moves - hanging) | (HANGS if hanging else 0)
    return stuck


@jit
def propagate_level(ix, values, counters, flags, level, start, stop):
    """Retrograde step: every position decided in `level` plies passes its value to its
    predecessors. Returns how many positions were decided in level + 1 plies."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    preds = np.zeros(1024, np.int64)
    b1 = np.zeros(SQUARES, np.int64)
    h1 = np.zeros(6, np.int64)
    b2 = np.zeros(SQUARES, np.int64)
    h2 = np.zeros(6, np.int64)
    win_code = 2 * level + 1
    loss_code = 2 * level + 2
    decided = 0
    for index in range(start, stop):
        value = values[index]
        if value != win_code and value != loss_code:
            continue
        unrank(index, ix, board, hands)
        if value == 3 and can_capture_lion(board):
            continue  # counted at the start through the HANGS flag
        n = predecessors(board, hands, ix, preds, b1, h1, b2, h2)
        for i in range(n):
            p = preds[i]
            if values[p] != 0 or flags[p] & EXPANDED == 0:
                continue
            if value == loss_code:
                values[p] = win_code + 2
                decided += 1
            else:
                counter = counters[p] - 1
                counters[p] = counter
                if counter & 0x7F == 0:
                    # the longest loss: a HANGS move is itself a loss in 2
                    values[p] = loss_code + 2 if (level >= 1 or counter == 0) else 6
                    decided += 1
    return decided


@jit
def count_level(values, level, start, stop):
    total = 0
    for index in range(start, stop):
        if values[index] == 2 * level + 1 or values[index] == 2 * level + 2:
            total += 1
    return total


REACHED, PENDING, EXPANDED = 1, 2, 4


@jit
def reach_sweep(ix, flags, start, stop, far_rank_kodama_drops=True, flip_ranks=False):
    """One sweep of the forward search from the start: expand every pending position that
    is not decided on the spot (no try, no Koropokkuru to take: see docs/tablebase.md) and
    mark its children reached. Returns the number of positions taken off the pending list."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    out = np.zeros(128, np.int64)
    b1 = np.zeros(SQUARES, np.int64)
    h1 = np.zeros(6, np.int64)
    b2 = np.zeros(SQUARES, np.int64)
    h2 = np.zeros(6, np.int64)
    taken = 0
    for index in range(start, stop):
        flag = flags[index]
        if flag & PENDING == 0:
            continue
        taken += 1
        unrank(index, ix, board, hands)
        if try_status(board) != 0 or can_capture_lion(board):
            flags[index] = flag & ~PENDING
            continue
        flags[index] = (flag & ~PENDING) | EXPANDED
        n = children(board, hands, ix, out, b1, h1, b2, h2, True, far_rank_kodama_drops, flip_ranks)
        for i in range(n):
            child = out[i]
            if flags[child] & REACHED == 0:
                flags[child] |= REACHED | PENDING
    return taken


@jit
def tally(values, flags, mask, start, stop, out):
    """Counts over the positions whose flags include `mask` (mask 0: all positions):
    out[0] positions, [1] terminal wins, [2] terminal losses, [3] terminal draws,
    [4] wins, [5] draws, [6] losses among the others, [7] their Koropokkuru en prise,
    [8] largest code."""
    for index in range(start, stop):
        if mask != 0 and flags[index] & mask == 0:
            continue
        value = values[index]
        out[0] += 1
        if value == 1:
            out[1] += 1
        elif value == 2:
            out[2] += 1
        elif value == DRAW_TERMINAL:
            out[3] += 1
        elif value == DRAW or value == 0:
            out[5] += 1
        elif value & 1:
            out[4] += 1
        else:
            out[6] += 1
        if value == 3:
            out[7] += 1
        if value < DRAW and value > out[8]:
            out[8] = value


# --- the retrograde step in two halves, for threads ------------------------------------------
# gather_predecessors only reads the table (positions decided in `level` plies do not change
# while that level is processed), so several threads can gather at once; apply_predecessors
# writes and runs on one thread.

@jit
def gather_predecessors(ix, values, flags, level, start, stop, buffer):
    """Append 2 * predecessor + (1 if the child is lost) for every undecided predecessor of
    the positions decided in `level` plies in [start, stop). Stops early when the buffer
    could overflow: returns (the index to resume from, the number of entries)."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    preds = np.zeros(1024, np.int64)
    b1 = np.zeros(SQUARES, np.int64)
    h1 = np.zeros(6, np.int64)
    b2 = np.zeros(SQUARES, np.int64)
    h2 = np.zeros(6, np.int64)
    win_code = 2 * level + 1
    loss_code = 2 * level + 2
    count = 0
    for index in range(start, stop):
        value = values[index]
        if value != win_code and value != loss_code:
            continue
        if count + 1024 > buffer.size:
            return index, count
        unrank(index, ix, board, hands)
        if value == 3 and can_capture_lion(board):
            continue  # counted at the start through the HANGS flag
        lost = 1 if value == loss_code else 0
        n = predecessors(board, hands, ix, preds, b1, h1, b2, h2)
        for i in range(n):
            p = preds[i]
            if values[p] == 0 and flags[p] & EXPANDED != 0:
                buffer[count] = 2 * p + lost
                count += 1
    return stop, count


@jit
def apply_predecessors(values, counters, buffer, count, level):
    """Pass the gathered values on: a lost child makes a win in level + 1; the last won
    child makes a loss in level + 1. Returns how many positions were decided."""
    decided = 0
    for i in range(count):
        p = buffer[i] >> 1
        if values[p] != 0:
            continue
        if buffer[i] & 1:
            values[p] = 2 * level + 3
            decided += 1
        else:
            counter = counters[p] - 1
            counters[p] = counter
            if counter & 0x7F == 0:
                # the longest loss: a HANGS move is itself a loss in 2
                values[p] = 2 * level + 4 if (level >= 1 or counter == 0) else 6
                decided += 1
    return decided


@jit
def tally_stored(ix, flags, mask, stored, slots, draw_from, start, stop, out):
    """Wins, draws and losses (out[0..2], out[3] missing) of the positions whose flags
    include `mask`, read from a stored table (one slab per kept Koropokkuru pair; a pair
    not kept is read through its mirror image)."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    mirror = np.zeros(SQUARES, np.int64)
    rest = ix[IX_REST]
    for index in range(start, stop):
        if flags[index] & mask == 0:
            continue
        pair = index // rest
        where = index
        if slots[pair] < 0:
            unrank(index, ix, board, hands)
            for sq in range(SQUARES):
                mirror[sq] = board[sq - sq % FILES + FILES - 1 - sq % FILES]
            where = rank(mirror, hands, ix)
            pair = where // rest
        value = stored[slots[pair] * rest + where % rest]
        if value == 0:
            out[3] += 1
        elif value >= draw_from:
            out[1] += 1
        elif value & 1:
            out[0] += 1
        else:
            out[2] += 1


@jit
def tally_folded(ix, flags, mask, stored, slots, draw_from, start, stop, out):
    """Like tally_stored, but a position and its file mirror count once (out[4] is the
    number of such pairs, or single positions, in the set): the convention of Tanaka's
    figures."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    mirror = np.zeros(SQUARES, np.int64)
    rest = ix[IX_REST]
    for index in range(start, stop):
        if flags[index] & mask == 0:
            continue
        unrank(index, ix, board, hands)
        for sq in range(SQUARES):
            mirror[sq] = board[sq - sq % FILES + FILES - 1 - sq % FILES]
        other = rank(mirror, hands, ix)
        if other < index and flags[other] & mask != 0:
            continue  # counted with its mirror image
        out[4] += 1
        where = index if slots[index // rest] >= 0 else other
        value = stored[slots[where // rest] * rest + where % rest]
        if value == 0:
            out[3] += 1
        elif value >= draw_from:
            out[1] += 1
        elif value & 1:
            out[0] += 1
        else:
            out[2] += 1
