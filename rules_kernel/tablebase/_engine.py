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

Value codes (uint16): 0 outside the solved set, 2d+1 win in d plies, 2d+2 loss in d plies,
DRAW_TERMINAL for the both-safe try draw, DRAW for the rest once the build ends; while
building, UNDECIDED | counter for a position not decided yet (see "the passes").

The build and the file use the folded index (a position and its mirror image share one
entry, a *node*); rank/unrank give the plain index of docs/tablebase.md, node_index and
unrank_node the folded one.
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


def jit_inline(function):
    """jit, and inlined by numba into its callers: the small helpers of move and unmove
    generation, called once per child or predecessor (as calls they cost about half the
    time there; inlining everything would make compiling take minutes)."""
    if not HAVE_NUMBA:
        return function
    return numba.njit(cache=True, nogil=True, inline="always")(function)


SQUARES, FILES = 12, 3
THEM = 8
C, H, E, G, L = 1, 2, 3, 4, 5
DRAW_TERMINAL = 0xFFFF
DRAW = 0xFFFE  # no level decided it: play can go round forever
CATCH = 1 << 40  # children(flag_catches=True): a child where the Koropokkuru can be taken

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
    return comb(m, n) * states**n * (pieces - n + 1) if n <= pieces else 0


def _configurations(m: int, states: int, pieces: int) -> int:
    return sum(_count(m, states, pieces, n) for n in range(pieces + 1))


def index_tables(material: tuple[int, int, int]) -> np.ndarray:
    """The offsets of the index for a material (Kodama, Kitsune, Tanuki pieces: 0..2 each)."""
    kc, ke, kg = material
    ix = np.zeros(IX_SIZE, np.int64)
    ix[IX_MATERIAL : IX_MATERIAL + 3] = material

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


# --- the folded index: the build's and the file's layout ----------------------------------------
#
# The rules are symmetric under the mirror (files a and c swapped), so a position and its
# mirror image have the same value. The build and the file keep one slab of REST entries for
# each *kept* lion pair: the smaller of each pair and its mirror image, 72 of the 132 pairs:
# node = slot * REST + rest. Positions of the other 60 pairs are found through their mirror
# image (FOLDED pairs: a node stands for a position and its mirror image). The 12 pairs that
# are their own mirror image (both Koropokkuru on the b-file) keep all their positions, so a
# position there and its mirror image are two nodes (SELF pairs).

FOLDED, MIRRORED, SELF = 0, 1, 2  # pair classes: kept, stored as its mirror, its own mirror


def _mirror_square(sq: int) -> int:
    return sq - sq % FILES + FILES - 1 - sq % FILES


def _pair_of(ours: int, theirs: int) -> int:
    return ours * 11 + (theirs if theirs < ours else theirs - 1)


def _pair_tables():
    """MIRROR_PAIR[pair], PAIR_CLASS[pair], PAIR_SLOT[pair] (-1 if not kept), SLOT_PAIR[slot]."""
    mirror_pair = np.zeros(132, np.int64)
    pair_class = np.zeros(132, np.int64)
    pair_slot = np.full(132, -1, np.int64)
    slot_pair = []
    for pair in range(132):
        ours, theirs = pair // 11, pair % 11
        theirs += theirs >= ours
        mirror_pair[pair] = _pair_of(_mirror_square(ours), _mirror_square(theirs))
        if pair <= mirror_pair[pair]:
            pair_slot[pair] = len(slot_pair)
            slot_pair.append(pair)
        pair_class[pair] = (
            SELF if pair == mirror_pair[pair] else FOLDED if pair < mirror_pair[pair] else MIRRORED
        )
    return mirror_pair, pair_class, pair_slot, np.array(slot_pair, np.int64)


MIRROR_PAIR, PAIR_CLASS, PAIR_SLOT, SLOT_PAIR = _pair_tables()
KEPT_PAIRS = len(SLOT_PAIR)  # 72
# SQUARE_ORDER[flip]: the squares read in order (flip 0) or mirrored (flip 1)
SQUARE_ORDER = np.array([list(range(SQUARES)), [_mirror_square(sq) for sq in range(SQUARES)]], np.int64)


def node_count(ix: np.ndarray) -> int:
    """Entries of the folded index (the build's arrays and the file's table)."""
    return KEPT_PAIRS * int(ix[IX_REST])


@jit_inline
def _kind_config(n, a, b, sa, sb, states, pieces, u):
    """The within-kind rank of n pieces on slots a < b with states sa, sb; u in our hand."""
    splits = pieces - n + 1
    if n == 0:
        return u
    if n == 1:
        return (a * states + sa) * splits + u
    return ((b * (b - 1) // 2 + a) * states * states + sa * states + sb) * splits + u


@jit
def _lion_squares(board):
    """The squares of our Koropokkuru and of theirs."""
    ours = theirs = -1
    for sq in range(SQUARES):
        if board[sq] == L:
            ours = sq
        elif board[sq] == L + THEM:
            theirs = sq
    return ours, theirs


@jit
def _lion_pair(board):
    """lion_pair = our Koropokkuru's square * 11 + theirs among the 11 other squares."""
    ours, theirs = _lion_squares(board)
    return _pair_at(ours, theirs)


@jit
def rank(board, hands, ix):
    """The index of a normalised position (both Koropokkuru on the board)."""
    return _lion_pair(board) * ix[IX_REST] + _rank_rest(board, hands, ix, 0)


@jit_inline
def _rank_rest(board, hands, ix, flip):
    """The `rest` part of the index: of the board, or of its mirror image if flip is 1 (the
    squares are read in mirrored order; the hands do not change)."""
    slot_c = slot_e = slot_g = 0
    nc = ne = ng = 0
    ca = cb = csa = csb = ea = eb = esa = esb = ga = gb = gsa = gsb = 0
    for i in range(SQUARES):
        code = board[SQUARE_ORDER[flip, i]]
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
    return (
        ix[IX_CH_PRE + nc]
        + wc * ix[IX_CH_MUL + nc]
        + ix[IX_E_PRE + me * 3 + ne]
        + we * ix[IX_E_MUL + me * 3 + ne]
        + ix[IX_G_PRE + mg * 3 + ng]
        + wg
    )


@jit_inline
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


@jit_inline
def _state_code(base_code, state):
    """Kodama states: C, H, c, h; Kitsune and Tanuki: ours, theirs."""
    if base_code == C:
        return (C + (state & 1)) + (THEM if state >= 2 else 0)
    return base_code + (THEM if state == 1 else 0)


@jit_inline
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
    _unrank_at(pair, index - pair * rest_size, ix, board, hands)


@jit_inline
def _unrank_at(pair, rest, ix, board, hands):
    """unrank, with the index split into its lion pair and its rest. Its helpers are inlined,
    so that the divisions by the numbers of states (4 and 2) become shifts: unpacking a
    position took 143 ns with them called, mostly in divisions."""
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


@jit
def unrank_node(node, ix, board, hands):
    """Fill board and hands with the position a node stands for (its kept image)."""
    rest_size = ix[IX_REST]
    slot = node // rest_size
    _unrank_at(SLOT_PAIR[slot], node - slot * rest_size, ix, board, hands)


@jit_inline
def _node_key(board, hands, ix, pair, flip):
    """The node of a position with this lion pair (flip 0, the pair must be kept) or of its
    mirror image (flip 1, the mirror pair must be kept)."""
    if flip:  # constant flips: the compiler can drop the square order table
        return PAIR_SLOT[MIRROR_PAIR[pair]] * ix[IX_REST] + _rank_rest(board, hands, ix, 1)
    return PAIR_SLOT[pair] * ix[IX_REST] + _rank_rest(board, hands, ix, 0)


@jit
def node_index(board, hands, ix):
    """The node of a normalised position: its own entry if its pair is kept, else its mirror
    image's."""
    pair = _lion_pair(board)
    return _node_key(board, hands, ix, pair, 1 if PAIR_CLASS[pair] == MIRRORED else 0)


@jit
def _is_symmetric(board):
    """Whether the board is its own mirror image (the hands always are)."""
    for r in range(SQUARES // FILES):
        if board[r * FILES] != board[r * FILES + FILES - 1]:
            return False
    return True


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
    ours, theirs = _lion_squares(board)
    return _try_status_at(board, ours, theirs)


@jit_inline
def _try_status_at(board, ours, theirs):
    """try_status with the Koropokkuru squares known."""
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


@jit_inline
def _swap(code):
    """The same piece for the other side."""
    return code ^ THEM if code != 0 else 0


@jit_inline
def _pair_at(ours, theirs):
    return ours * 11 + (theirs if theirs < ours else theirs - 1)


@jit
def _fold_of(board, nodes):
    """-1: index positions (rank); else 1 if the board's (kept) pair is FOLDED, 0 if SELF."""
    if not nodes:
        return -1
    return 1 if PAIR_CLASS[_lion_pair(board)] == FOLDED else 0


@jit_inline
def _child_nodes(board, hands, ix, out, count, fold, pair):
    """Append the node(s) a child position stands for, in the walk from a node: its own node;
    if the parent's pair is FOLDED (fold 1: the parent stands for a position and its mirror
    image) and the child's pair is SELF, also the node of the child's mirror image (the child
    of the parent's mirror image, a node of its own)."""
    kind = PAIR_CLASS[pair]
    out[count] = _node_key(board, hands, ix, pair, 1 if kind == MIRRORED else 0)
    count += 1
    if fold == 1 and kind == SELF:
        out[count] = _node_key(board, hands, ix, pair, 1)
        count += 1
    return count


@jit_inline
def _parent_nodes(board, hands, ix, out, count, fold, pair):
    """Append the nodes that have a move to a child node for this predecessor position q,
    each once per such move (the retrograde step counts moves): q's own node if its pair is
    kept (q is a node's position); and, if the child's pair is FOLDED (fold 1: the child node
    also stands for its mirror image), the node of q's mirror image when that is kept (its
    mirrored move reaches the child's mirror image)."""
    kind = PAIR_CLASS[pair]
    if kind != MIRRORED:
        out[count] = _node_key(board, hands, ix, pair, 0)
        count += 1
    if fold == 1 and kind != FOLDED:
        out[count] = _node_key(board, hands, ix, pair, 1)
        count += 1
    return count


# Move and unmove generation work on `turned`: the position turned to the other side's frame
# (rotated, colours and hands swapped) once, then changed by one move, emitted and changed
# back, so a child or predecessor costs a few writes instead of a copy and a turn. Square sq
# of our frame is 11 - sq there; our hand slot k is its slot 3 + k and theirs (3 + k) its k.


@jit
def children(
    board,
    hands,
    ix,
    out,
    turned,
    turned_hands,
    skip_lion_capture,
    far_rank_kodama_drops=True,
    nodes=False,
    flag_catches=False,
):
    """Indices of the positions after each legal move (in the opponent's frame) into out;
    returns their number, or -1 if a move captures the other Koropokkuru (a win in 1) and
    skip_lion_capture is false (if true, such moves are left out: they end the game).
    nodes=True gives the nodes of the folded index instead (the board is a node's position;
    see _child_nodes). far_rank_kodama_drops=False leaves out Kodama drops on the far rank
    (not a kernel rule: only for comparing counts with solvers that forbid them).
    flag_catches=True adds CATCH to each child where the opponent can take our Koropokkuru
    (the walk does not unpack those: they are over). turned and turned_hands are work space."""
    fold = _fold_of(board, nodes)
    _normalise_into(board, hands, turned, turned_hands)
    ours, theirs = _lion_squares(board)
    threats = _attack_mask(board, 1) if flag_catches else 0
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
            turned[11 - frm] = 0
            turned[11 - to] = (H if code == C and to >= 9 else code) ^ THEM
            slot = -1
            if target != 0:  # the captured piece goes to our hand, unpromoted
                kind = target & 7
                slot = 3 + (0 if kind == C or kind == H else (1 if kind == E else 2))
                turned_hands[slot] += 1
            before = count
            count = _emit_child(
                turned, turned_hands, ix, out, count, fold, 11 - theirs, 11 - (to if code == L else ours)
            )
            if flag_catches:
                after = threats
                if target != 0:  # the captured piece no longer attacks
                    board[to] = 0
                    after = _attack_mask(board, 1)
                    board[to] = target
                if (after >> (to if code == L else ours)) & 1:
                    for c in range(before, count):
                        out[c] |= CATCH
            turned[11 - frm] = code ^ THEM
            turned[11 - to] = _swap(target)
            if slot >= 0:
                turned_hands[slot] -= 1
    for k in range(3):
        if hands[k] == 0:
            continue
        kind = C if k == 0 else (E if k == 1 else G)
        for to in range(SQUARES):
            if board[to] != 0 or (kind == C and to >= 9 and not far_rank_kodama_drops):
                continue
            turned[11 - to] = kind ^ THEM
            turned_hands[3 + k] -= 1
            before = count
            count = _emit_child(turned, turned_hands, ix, out, count, fold, 11 - theirs, 11 - ours)
            if flag_catches and (threats >> ours) & 1:
                for c in range(before, count):
                    out[c] |= CATCH
            turned[11 - to] = 0
            turned_hands[3 + k] += 1
    return count


@jit_inline
def _emit_child(turned, turned_hands, ix, out, count, fold, ours, theirs):
    """Append the index (fold -1) or node(s) of a child; ours, theirs: its Koropokkuru."""
    pair = _pair_at(ours, theirs)
    if fold < 0:
        out[count] = pair * ix[IX_REST] + _rank_rest(turned, turned_hands, ix, 0)
        return count + 1
    return _child_nodes(turned, turned_hands, ix, out, count, fold, pair)


@jit_inline
def _emit_predecessor(turned, turned_hands, ix, out, count, fold, ours, theirs):
    """Keep a predecessor (in its mover's frame; ours, theirs: its Koropokkuru) if the game
    was not over there (terminal positions have no moves): its index (fold -1) or the nodes
    it stands for (_parent_nodes)."""
    if _try_status_at(turned, ours, theirs) != 0:
        return count
    pair = _pair_at(ours, theirs)
    if fold < 0:
        out[count] = pair * ix[IX_REST] + _rank_rest(turned, turned_hands, ix, 0)
        return count + 1
    return _parent_nodes(turned, turned_hands, ix, out, count, fold, pair)


@jit
def predecessors(board, hands, ix, out, turned, turned_hands, nodes=False):
    """Indices of every position from which one legal move of theirs leads here; each
    (position, move) pair once. Their last move was a step (maybe a capture, maybe a
    promotion) or a drop. nodes=True: the board is a node's position and the nodes with a
    move to that node come out instead, each once per move (see _parent_nodes).
    turned and turned_hands are work space."""
    fold = _fold_of(board, nodes)
    _normalise_into(board, hands, turned, turned_hands)
    ours, theirs = _lion_squares(board)
    count = 0
    for to in range(SQUARES):
        code = board[to]
        if code < THEM:
            continue
        kind = code - THEM
        if kind != H and kind != L:  # an unpromoted piece may have been dropped
            slot = 0 if kind == C else (1 if kind == E else 2)
            turned[11 - to] = 0
            turned_hands[slot] += 1
            count = _emit_predecessor(turned, turned_hands, ix, out, count, fold, 11 - theirs, 11 - ours)
            turned[11 - to] = kind
            turned_hands[slot] -= 1
        if not (kind == C and to <= 2):  # a Kodama reaching rank 1 by a step has promoted
            count = _unsteps(
                board, hands, ix, out, count, to, code, code, turned, turned_hands, fold, ours, theirs
            )
        if kind == H and to <= 2:  # a Kodama that promoted on arrival
            count = _unsteps(
                board, hands, ix, out, count, to, code, C + THEM, turned, turned_hands, fold, ours, theirs
            )
    return count


@jit
def _unsteps(board, hands, ix, out, count, to, code, before, turned, turned_hands, fold, ours, theirs):
    """Their piece `code` on `to` came from an empty origin as `before`; optionally it
    captured one of our pieces there (taken back from their hand; a Kodama maybe promoted)."""
    for i in range(NORIGINS[before, to]):
        frm = ORIGINS[before, to, i]
        if board[frm] != 0:
            continue
        lion = frm if code == L + THEM else theirs
        for captured in range(5):  # nothing, C, H, E, G
            slot = 0 if captured <= 2 else captured - 2  # their hand: slot 3 + slot of hands
            if captured > 0 and hands[3 + slot] == 0:
                continue
            turned[11 - frm] = before ^ THEM
            turned[11 - to] = _swap(captured)
            if captured > 0:
                turned_hands[slot] -= 1
            count = _emit_predecessor(turned, turned_hands, ix, out, count, fold, 11 - lion, 11 - ours)
            turned[11 - frm] = 0
            turned[11 - to] = code ^ THEM
            if captured > 0:
                turned_hands[slot] += 1
    return count


# --- the passes -----------------------------------------------------------------------------
#
# All passes work on nodes of the folded index. While building, a position not decided yet
# keeps its move counter in its value entry (UNDECIDED | HANGS? | moves left), so that the
# retrograde step reads and writes one entry per predecessor; flags say which nodes the walk
# reached (REACHED), visited (VISITED) and expanded (EXPANDED: play goes on there).

HANGS = 0x80  # counter flag: some move leaves our Koropokkuru en prise
UNDECIDED = 0x8000  # value entries UNDECIDED .. UNDECIDED + 0xFF: a counter, not a value
REACHED, VISITED, EXPANDED = 1, 2, 4


@jit
def is_undecided(value):
    return value >> 8 == UNDECIDED >> 8


@jit
def count_moves(board, hands):
    """(moves, moves that leave our Koropokkuru en prise, whether one takes theirs)."""
    ours, theirs = _lion_squares(board)
    if (_attack_mask(board, 0) >> theirs) & 1:
        return 0, 0, True
    moves, hanging = _count_moves_at(board, hands, ours, _attack_mask(board, 1))
    return moves, hanging, False


@jit_inline
def _count_moves_at(board, hands, ours, threats):
    """count_moves' (moves, hanging) where no move takes their Koropokkuru; ours: our
    Koropokkuru's square, threats: the squares they attack."""
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
    return moves, hanging


@jit
def classify(board, hands):
    """(value entry, expanded) of a position when the walk first visits it: a try is over
    (win or loss in 0, both at once a draw) and a Koropokkuru to take is a win in 1 (not
    expanded); otherwise its counter: the moves that do not leave our Koropokkuru en prise
    (those children are wins in 1 by capture and never pass a value back: flag HANGS
    instead). A position whose every move hangs it is lost in 2; one with no move at all
    (0) stays undecided: a draw. (try_status and count_moves in one: each side's attacks
    worked out once; steps do not slide, so a move takes their Koropokkuru exactly when our
    attacks reach its square.)"""
    ours, theirs = _lion_squares(board)
    threats = _attack_mask(board, 1)
    attacks = _attack_mask(board, 0)
    status = 0
    if ours >= 9 and not (threats >> ours) & 1:
        status |= 1
    if theirs <= 2 and not (attacks >> theirs) & 1:
        status |= 2
    if status == 1:
        return 1, False
    if status == 2:
        return 2, False
    if status == 3:
        return DRAW_TERMINAL, False
    if (attacks >> theirs) & 1:
        return 3, False
    moves, hanging = _count_moves_at(board, hands, ours, threats)
    if moves == 0:
        return 0, True
    if moves == hanging:
        return 6, True
    return UNDECIDED | (moves - hanging) | (HANGS if hanging else 0), True


@jit
def visit_all(ix, values, flags, start, stop):
    """A sub-game (no start position): every node is in the table; classify each."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    for node in range(start, stop):
        unrank_node(node, ix, board, hands)
        value, expanded = classify(board, hands)
        values[node] = value
        flags[node] = REACHED | VISITED | (EXPANDED if expanded else 0)


@jit
def expand(ix, values, flags, frontier, start, stop, out, far_rank_kodama_drops=True):
    """One step of the walk from the start: classify each node of frontier[start:stop] and
    append the nodes its moves reach for the first time to out. Stops early when out could
    overflow: returns (where to resume, the number of nodes in out). Threads may expand
    disjoint parts of a frontier at once: a node reached by both can come out twice (then
    its second visit is skipped or repeats the same writes)."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    kids = np.zeros(256, np.int64)
    turned = np.zeros(SQUARES, np.int64)
    turned_hands = np.zeros(6, np.int64)
    count = 0
    for i in range(start, stop):
        if count + kids.size > out.size:
            return i, count
        node = np.int64(frontier[i])
        if flags[node] & VISITED:
            continue
        unrank_node(node, ix, board, hands)
        value, expanded = classify(board, hands)
        values[node] = value
        if not expanded:
            flags[node] = REACHED | VISITED
            continue
        flags[node] = REACHED | VISITED | EXPANDED
        # called as walk_words calls it (no Koropokkuru can be taken here, so nothing is
        # skipped; the CATCH flags are dropped): literal flags make a compiled specialization
        # of their own (30-60 s on a new machine), so both builds share this one
        n = children(board, hands, ix, kids, turned, turned_hands, False, far_rank_kodama_drops, True, True)
        for k in range(n):
            child = kids[k] & (CATCH - 1)
            if flags[child] == 0:
                flags[child] = REACHED
                out[count] = child
                count += 1
    return stop, count


@jit
def collect_decided(values, start, stop, out):
    """Nodes in [start, stop) decided before the retrograde step that pass a value back:
    tries (1, 2) and the losses in 2 where every move hangs the Koropokkuru (6); the wins in 1
    by capture (3) never do. Returns their number."""
    count = 0
    for node in range(start, stop):
        value = values[node]
        if value == 1 or value == 2 or value == 6:
            out[count] = node
            count += 1
    return count


@jit
def gather(ix, values, nodes, start, stop, level, buffer):
    """Retrograde step, read-only half: for the nodes decided in `level` plies in
    nodes[start:stop], append 2 * predecessor + (1 if the node is lost) for every predecessor
    not decided yet (once per move). Stops early when the buffer could overflow: returns
    (where to resume, the number of entries). Threads may gather at once."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    preds = np.zeros(1024, np.int64)
    turned = np.zeros(SQUARES, np.int64)
    turned_hands = np.zeros(6, np.int64)
    loss_code = 2 * level + 2
    count = 0
    for i in range(start, stop):
        if count + preds.size > buffer.size:
            return i, count
        node = np.int64(nodes[i])
        lost = 1 if values[node] == loss_code else 0
        unrank_node(node, ix, board, hands)
        n = predecessors(board, hands, ix, preds, turned, turned_hands, True)
        for k in range(n):
            p = preds[k]
            if is_undecided(values[p]):
                buffer[count] = 2 * p + lost
                count += 1
    return stop, count


@jit
def apply(values, buffer, count, level, decided):
    """Retrograde step, writing half (one thread): a lost child makes a win in level + 1;
    the last won child makes a loss in level + 1 (the longest loss). Appends the nodes
    decided to `decided`; returns their number."""
    n = 0
    for i in range(count):
        p = buffer[i] >> 1
        value = values[p]
        if not is_undecided(value):
            continue
        if buffer[i] & 1:
            values[p] = 2 * level + 3
        else:
            value -= 1
            if value & 0x7F != 0:
                values[p] = value
                continue
            # the longest loss: a HANGS move is itself a loss in 2
            values[p] = 2 * level + 4 if (level >= 1 or value & HANGS == 0) else 6
        decided[n] = p
        n += 1
    return n


@jit
def _weight(node, rest_size):
    """Positions a node stands for: 2 in a FOLDED pair (it and its mirror image), else 1."""
    return 2 if PAIR_CLASS[SLOT_PAIR[node // rest_size]] == FOLDED else 1


@jit
def finish(ix, values, flags, start, stop):
    """What no level decided is a draw (play can go round for ever; a position without a move
    too). Returns the number of positions without a move."""
    stuck = 0
    rest_size = ix[IX_REST]
    for node in range(start, stop):
        value = values[node]
        if is_undecided(value) or (value == 0 and flags[node] & REACHED):
            values[node] = DRAW
            if value == 0:
                stuck += _weight(node, rest_size)
    return stuck


@jit
def tally(ix, values, flags, start, stop, out):
    """Counts of the positions whose flags include REACHED (out[0]) and EXPANDED (out[1]):
    out[m, 0, field] positions (a FOLDED node counts 2), out[m, 1, field] those that are
    their own mirror image (in Tanaka's convention a position and its mirror image count once:
    (positions + symmetric) / 2). Fields: 0 positions, 1 terminal wins, 2 terminal losses,
    3 terminal draws, 4 wins, 5 draws, 6 losses among the others, 7 wins in 1, 8 largest
    value code (out[m, 0, 8])."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    rest_size = ix[IX_REST]
    for node in range(start, stop):
        flag = flags[node]
        if flag & REACHED == 0:
            continue
        value = values[node]
        field = 5
        if value == 1:
            field = 1
        elif value == 2:
            field = 2
        elif value == DRAW_TERMINAL:
            field = 3
        elif value < DRAW:
            field = 4 if value & 1 else 6
        weight = _weight(node, rest_size)
        symmetric = 0
        if weight == 1:
            unrank_node(node, ix, board, hands)
            symmetric = 1 if _is_symmetric(board) else 0
        for m in range(2):
            if m == 1 and flag & EXPANDED == 0:
                continue
            out[m, 0, 0] += weight
            out[m, 1, 0] += symmetric
            out[m, 0, field] += weight
            out[m, 1, field] += symmetric
            if value == 3:
                out[m, 0, 7] += weight
                out[m, 1, 7] += symmetric
            if value < DRAW and value > out[m, 0, 8]:
                out[m, 0, 8] = value


# --- the compact build: a bitset of the nodes reached and dense values --------------------------
#
# The passes above keep a uint16 value and a flags byte for every node of the folded index
# (855 million for the whole game: 2.6 GB), though the walk reaches about one node in seven.
# The compact build keeps one *bit* per node (REACHED), a running count of the bits before
# each 64-bit word (`prefix`), and the values of the reached nodes only, in node order: the
# value of node n is values[prefix[n >> 6] + (bits set in its word below n)] (dense_of).
# Threads update the bitset and the values with atomic instructions, so each node is reached,
# and each undecided one decided, by exactly one thread, in any order: the same values as the
# passes above (a node at one level gets every message from the level before; a lost child
# and the last won child cannot both come, as a lost child is a counted move).

if HAVE_NUMBA:
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic

    @intrinsic
    def _atomic_or(typingctx, array, index, mask):
        """array[index] |= mask atomically; returns the word before."""
        sig = array.dtype(array, index, mask)

        def codegen(context, builder, signature, args):
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]])
            value = context.cast(builder, args[2], signature.args[2], aryty.dtype)
            return builder.atomic_rmw("or", ptr, value, "monotonic")

        return sig, codegen

    @intrinsic
    def _compare_and_swap(typingctx, array, index, expected, new):
        """array[index] = new if it still holds `expected` (atomically); whether it did."""
        sig = types.boolean(array, index, expected, new)

        def codegen(context, builder, signature, args):
            aryty = signature.args[0]
            ary = context.make_array(aryty)(context, builder, args[0])
            ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]])
            old = context.cast(builder, args[2], signature.args[2], aryty.dtype)
            value = context.cast(builder, args[3], signature.args[3], aryty.dtype)
            swapped = builder.cmpxchg(ptr, old, value, "monotonic", "monotonic")
            return builder.extract_value(swapped, 1)

        return sig, codegen

    @intrinsic
    def _popcount(typingctx, word):
        """The number of bits set in a uint64 (one instruction)."""
        sig = types.int64(word)

        def codegen(context, builder, signature, args):
            value = context.cast(builder, args[0], signature.args[0], types.uint64)
            return builder.ctpop(value)

        return sig, codegen

else:  # pure Python: the build runs one thread, so plain operations are atomic enough

    def _atomic_or(array, index, mask):
        old = array[index]
        array[index] = old | mask
        return old

    def _compare_and_swap(array, index, expected, new):
        if array[index] != expected:
            return False
        array[index] = new
        return True

    def _popcount(word):
        return bin(int(word)).count("1")


ONE = np.uint64(1)


def bitset_words(size: int) -> int:
    """64-bit words of a bitset of `size` nodes."""
    return (size + 63) // 64


@jit_inline
def _mark(bits, node):
    """Set node's bit; True for the one caller that set it (a plain read first: most nodes
    met are marked already, and the atomic instruction costs more than the read)."""
    word = node >> 6
    mask = ONE << np.uint64(node & 63)
    if bits[word] & mask:
        return False
    return (_atomic_or(bits, word, mask) & mask) == 0


@jit_inline
def dense_of(bits, prefix, node):
    """The dense index of a node, -1 when its bit is not set."""
    word = node >> 6
    mask = ONE << np.uint64(node & 63)
    bitword = bits[word]
    if bitword & mask == 0:
        return -1
    return np.int64(prefix[word]) + _popcount(bitword & (mask - ONE))


@jit
def mark_all(bits, size):
    """Every node of [0, size) (a sub-game without a start position)."""
    for node in range(size):
        _mark(bits, node)


@jit
def count_prefix(bits, prefix):
    """prefix[w] = the bits set in the words before w; returns the total."""
    total = 0
    for word in range(bits.size):
        prefix[word] = total
        total += _popcount(bits[word])
    return total


@jit_inline
def _lowest_bit(word):
    """The index of the lowest bit set in a nonzero uint64."""
    return _popcount((word & (~word + ONE)) - ONE)


@jit
def walk_words(ix, marks, first_word, stop_word, far_rank_kodama_drops=True):
    """One pass of the walk from the start over the words [first_word, stop_word) of the
    bitsets in `marks` (word w's reached bits at 2w, its taken bits at 2w + 1: one cache
    line): every node reached and not yet taken is taken, and where play goes on there (no
    try made, no Koropokkuru to take) its children are marked reached. A child where the
    Koropokkuru can be taken is over: it is marked taken as well (first), so it is never
    unpacked (more than half the positions reached). A child marked in a word of this task
    that comes later, or in this word, is taken in this pass; one in an earlier word or
    another task's, in the next. The nodes are taken in node order, slab by slab, so their
    children's bits lie close together (cache). Returns the number of nodes taken and of
    catches marked here first (each node once, but for the rare catch that its word's
    owner read as reached before it read it taken: taken twice, harmlessly)."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    kids = np.zeros(256, np.int64)
    turned = np.zeros(SQUARES, np.int64)
    turned_hands = np.zeros(6, np.int64)
    count = 0
    for word in range(first_word, stop_word):
        while True:
            todo = marks[2 * word] & ~marks[2 * word + 1]
            if todo == 0:
                break
            _atomic_or(marks, 2 * word + 1, todo)  # other threads mark catches taken here
            while todo:
                bit = _lowest_bit(todo)
                todo &= todo - ONE
                count += 1
                unrank_node(word * 64 + bit, ix, board, hands)
                if try_status(board) != 0:
                    continue
                n = children(
                    board, hands, ix, kids, turned, turned_hands, False, far_rank_kodama_drops, True, True
                )
                for k in range(n):  # n is -1 when a move takes the Koropokkuru: a win in 1, not expanded
                    child = kids[k] & (CATCH - 1)
                    at = 2 * (child >> 6)
                    mask = ONE << np.uint64(child & 63)
                    if kids[k] & CATCH and marks[at + 1] & mask == 0:
                        _atomic_or(marks, at + 1, mask)
                    if marks[at] & mask == 0 and (_atomic_or(marks, at, mask) & mask) == 0:
                        count += kids[k] >= CATCH
    return count


@jit
def classify_dense(ix, bits, prefix, values, first_word, stop_word, catches):
    """The value entry of every reached node in words [first_word, stop_word) (classify);
    adds to catches[0] the positions where a Koropokkuru can be taken (a node's weight) and to
    catches[1] those of them that are their own mirror image (tally_dense leaves them out of
    the expanded counts with these, instead of unpacking every value 3 again)."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    rest_size = ix[IX_REST]
    dense = np.int64(prefix[first_word])
    for word in range(first_word, stop_word):
        bitword = bits[word]
        while bitword:
            node = word * 64 + _lowest_bit(bitword)
            bitword &= bitword - ONE
            unrank_node(node, ix, board, hands)
            value, expanded = classify(board, hands)
            values[dense] = value
            dense += 1
            if value == 3 and not expanded:
                weight = _weight(node, rest_size)
                catches[0] += weight
                if weight == 1 and _is_symmetric(board):
                    catches[1] += 1


@jit
def collect_dense(bits, prefix, values, first_word, stop_word, codes, out):
    """The nodes in words [first_word, stop_word) whose value is one of `codes`, in order;
    returns their number (out must hold them all)."""
    dense = np.int64(prefix[first_word])
    count = 0
    for word in range(first_word, stop_word):
        bitword = bits[word]
        for bit in range(64):
            if (bitword >> np.uint64(bit)) & ONE:
                value = values[dense]
                for code in codes:
                    if value == code:
                        out[count] = word * 64 + bit
                        count += 1
                dense += 1
    return count


@jit
def retrograde_nodes(ix, bits, prefix, values, nodes, start, stop, level, out):
    """Retrograde step for the nodes decided in `level` plies in nodes[start:stop]: every
    predecessor not decided yet gets the message (atomically: threads may run at once) — a
    lost node makes it a win in level + 1; the last won child a loss in level + 1 (in 2 at
    level 0 when its other moves hang the Koropokkuru). Appends node | (its level << 32) to
    out for each node decided here. Stops early when out could overflow: returns (where to
    resume, the number of entries)."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    preds = np.zeros(1024, np.int64)
    turned = np.zeros(SQUARES, np.int64)
    turned_hands = np.zeros(6, np.int64)
    loss_code = 2 * level + 2
    count = 0
    for i in range(start, stop):
        if count + preds.size > out.size:
            return i, count
        node = np.int64(nodes[i])
        lost = values[dense_of(bits, prefix, node)] == loss_code
        unrank_node(node, ix, board, hands)
        n = predecessors(board, hands, ix, preds, turned, turned_hands, True)
        for k in range(n):
            p = preds[k]
            dense = dense_of(bits, prefix, p)
            if dense < 0:
                continue  # not reached from the start
            while True:
                value = values[dense]
                if not is_undecided(value):
                    break
                decided = True
                if lost:
                    new = 2 * level + 3
                else:
                    new = value - 1
                    if new & 0x7F != 0:
                        decided = False
                    elif level >= 1 or new & HANGS == 0:
                        new = 2 * level + 4
                    else:
                        new = 6  # every other move hangs the Koropokkuru: a loss in 2
                if _compare_and_swap(values, dense, value, new):
                    if decided:
                        out[count] = p | (((new - 1) >> 1) << 32)
                        count += 1
                    break
    return stop, count


@jit
def finish_dense(ix, bits, prefix, values, first_word, stop_word):
    """finish, on the dense values: what no level decided is a draw. Returns the number of
    positions without a move."""
    stuck = 0
    rest_size = ix[IX_REST]
    dense = np.int64(prefix[first_word])
    for word in range(first_word, stop_word):
        bitword = bits[word]
        for bit in range(64):
            if (bitword >> np.uint64(bit)) & ONE:
                value = values[dense]
                if is_undecided(value) or value == 0:
                    values[dense] = DRAW
                    if value == 0:
                        stuck += _weight(word * 64 + bit, rest_size)
                dense += 1
    return stuck


@jit
def tally_dense(ix, bits, prefix, values, first_word, stop_word, out):
    """tally, on the dense values: every node is reached; one is expanded unless a try was
    made there (values 1, 2, DRAW_TERMINAL) or its player can take the Koropokkuru, which
    this counts as expanded: the caller takes those out with classify_dense's catches.
    Unpacks only the nodes of self-mirror pairs (weight 1), to tell a symmetric one."""
    board = np.zeros(SQUARES, np.int64)
    hands = np.zeros(6, np.int64)
    rest_size = ix[IX_REST]
    dense = np.int64(prefix[first_word])
    for word in range(first_word, stop_word):
        bitword = bits[word]
        while bitword:
            node = word * 64 + _lowest_bit(bitword)
            bitword &= bitword - ONE
            value = values[dense]
            dense += 1
            field = 5
            if value == 1:
                field = 1
            elif value == 2:
                field = 2
            elif value == DRAW_TERMINAL:
                field = 3
            elif value < DRAW:
                field = 4 if value & 1 else 6
            weight = _weight(node, rest_size)
            symmetric = 0
            if weight == 1:
                unrank_node(node, ix, board, hands)
                symmetric = 1 if _is_symmetric(board) else 0
            expanded = field != 1 and field != 2 and field != 3
            for m in range(2):
                if m == 1 and not expanded:
                    continue
                out[m, 0, 0] += weight
                out[m, 1, 0] += symmetric
                out[m, 0, field] += weight
                out[m, 1, field] += symmetric
                if value == 3:
                    out[m, 0, 7] += weight
                    out[m, 1, 7] += symmetric
                if value < DRAW and value > out[m, 0, 8]:
                    out[m, 0, 8] = value


@jit
def scatter_dense(bits, prefix, values, start, out):
    """The file's layout of nodes [start, start + out.size) (start a multiple of 64): each
    reached node's value, 0 for the rest."""
    out[:] = 0
    dense = np.int64(prefix[start >> 6])
    for i in range(out.size):
        node = start + i
        if (bits[node >> 6] >> np.uint64(node & 63)) & ONE:
            out[i] = values[dense]
            dense += 1
