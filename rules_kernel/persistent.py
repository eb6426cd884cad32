"""A persistent multiset: how often each position occurred, shared between states.

`Counts.add(key)` returns a NEW multiset and leaves the old one untouched, so every state of
a game can hold the counts of its own history while sharing almost all of the structure with
its parent: a hash array mapped trie (HAMT, Bagwell 2001) of 32-way nodes, where an insertion
copies only the path to the key (a few small tuples; depth log32 n, 3 for 10,000 positions).

Why not a window that forgets old positions: in the shogi family a capture or a drop is not
irreversible (a captured piece can be dropped, recaptured and dropped back), so any earlier
position can recur and an exact repetition rule has to remember every position seen. What
this structure avoids is the old cost: a walk over the whole history at every ply, and a
chain of parent positions kept alive by the newest state.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator

_BITS = 5
_MASK = (1 << _BITS) - 1
_HASH_BITS = 64
_HASH_MASK = (1 << _HASH_BITS) - 1


class _Node:
    """`children` holds, in bit order, one item per set bit of `bitmap`: a `_Node` one level
    down, or an entry `(key, count)`. Below the last hash bit, `bitmap` is 0 and `children`
    is a plain list of entries whose keys share the full hash."""

    __slots__ = ("bitmap", "children")

    def __init__(self, bitmap: int, children: tuple) -> None:
        self.bitmap = bitmap
        self.children = children


_EMPTY = _Node(0, ())


def _hash(key: Hashable) -> int:
    return hash(key) & _HASH_MASK


def _get(node: _Node, h: int, key: Hashable) -> int:
    shift = 0
    while shift < _HASH_BITS:
        bit = 1 << ((h >> shift) & _MASK)
        if not node.bitmap & bit:
            return 0
        child = node.children[(node.bitmap & (bit - 1)).bit_count()]
        if type(child) is not _Node:
            return child[1] if child[0] == key else 0
        node, shift = child, shift + _BITS
    return next((count for k, count in node.children if k == key), 0)


def _add(node: _Node, h: int, key: Hashable, shift: int) -> tuple[_Node, int]:
    """`node` with `key` counted once more, and the key's new count."""
    if shift >= _HASH_BITS:  # every hash bit used: a short list of full-hash collisions
        items = node.children
        for i, (k, count) in enumerate(items):
            if k == key:
                return _Node(0, items[:i] + ((k, count + 1),) + items[i + 1 :]), count + 1
        return _Node(0, items + ((key, 1),)), 1
    bit = 1 << ((h >> shift) & _MASK)
    index = (node.bitmap & (bit - 1)).bit_count()
    children = node.children
    if not node.bitmap & bit:
        return _Node(node.bitmap | bit, children[:index] + ((key, 1),) + children[index:]), 1
    child = children[index]
    if type(child) is _Node:
        new_child, count = _add(child, h, key, shift + _BITS)
    elif child[0] == key:
        count = child[1] + 1
        new_child = (key, count)
    else:  # two keys meet in this slot: both move one level down
        new_child, count = _add(_holding(child, shift + _BITS), h, key, shift + _BITS)
    return _Node(node.bitmap, children[:index] + (new_child,) + children[index + 1 :]), count


def _holding(entry: tuple, shift: int) -> _Node:
    """A node at level `shift` holding one entry."""
    if shift >= _HASH_BITS:
        return _Node(0, (entry,))
    return _Node(1 << ((_hash(entry[0]) >> shift) & _MASK), (entry,))


class Counts:
    """An immutable multiset of hashable keys with O(log32 n) `add` and `get`."""

    __slots__ = ("_root", "_size")

    def __init__(self) -> None:
        self._root = _EMPTY
        self._size = 0

    def get(self, key: Hashable) -> int:
        """How many times `key` was added (0 if never)."""
        return _get(self._root, _hash(key), key)

    def add(self, key: Hashable) -> tuple[Counts, int]:
        """A new multiset with `key` added once more, and the key's count in it."""
        root, count = _add(self._root, _hash(key), key, 0)
        new = Counts.__new__(Counts)
        new._root = root
        new._size = self._size + (count == 1)
        return new, count

    def __len__(self) -> int:
        """The number of distinct keys."""
        return self._size

    def items(self) -> Iterator[tuple[Hashable, int]]:
        """Every key with its count, in no particular order."""
        stack = [self._root]
        while stack:
            for child in stack.pop().children:
                if type(child) is _Node:
                    stack.append(child)
                else:
                    yield child

    def __repr__(self) -> str:
        return f"<Counts of {self._size} distinct keys>"
