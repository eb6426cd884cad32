"""Replay a recorded game: Play button and slider (linked in the browser), move list, jump.

A replay in a player's view (`perspective=p`) shows the board and the move list as that
player saw them (widgets/presentation.py). Uploaded records are untrusted data: they are
read from the upload's bytes through `records.read_upload` (size, line and nesting limits,
no paths), and any problem is one escaped line on the page.

A long game is not held state by state (a 100,000-action upload once took the kernel to
852 MiB): loading replays and checks the whole record once (an upload: while
`records.read_upload` checks it) and keeps a checkpoint every `CHECKPOINT_EVERY` plies; a
ply on show is replayed forward from the nearest checkpoint (at most 63 actions), and the
last few blocks of plies are kept, so Play steps without replaying. The move list holds the
plies around the one on show (up to three blocks) and follows the slider; the whole game is
always on the slider. `benchmarks/bench_uploads.py` measures an upload at the limits.
"""

from __future__ import annotations

import dataclasses
import io
import operator
import os
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import ipywidgets as w

from rules_kernel import records
from rules_kernel.core import Action, RulesError, State
from widgets.board import Board
from widgets.presentation import move_lines
from widgets.safe import error_line, guarded, html, message_html

#: a checkpoint state is kept every this many plies; showing a ply replays at most this many - 1
CHECKPOINT_EVERY = 64
#: blocks of plies (states, actions, move lines) kept after use: Play and nearby jumps are free
KEEP_BLOCKS = 4
#: scenes kept after drawing (stepping back and forth redraws nothing)
KEEP_SCENES = 16


class Replay(w.VBox):
    """Scrub through a record:

        from widgets import Replay
        Replay("data/yokai-3x4.jsonl", index=0)       # a path (JSON Lines or text form)
        Replay(record)                                 # or a records.Record
    The dashboard form has an upload button too (`Replay(upload=True)`).
    """

    def __init__(
        self,
        source: str | os.PathLike | records.Record | None = None,
        *,
        index: int = 0,
        perspective: int | None = None,
        upload: bool = False,
        interval_ms: int = 600,
    ) -> None:
        self.board = Board()
        self.perspective = perspective
        self.player = w.Play(value=0, min=0, max=0, step=1, interval=interval_ms, description="Play")
        self.slider = w.IntSlider(
            value=0,
            min=0,
            max=0,
            description="Ply",
            continuous_update=True,
            layout=w.Layout(width="100%", max_width="420px"),
        )
        w.jslink((self.player, "value"), (self.slider, "value"))  # moves in the browser, no round trip
        self.moves = w.Select(options=[], rows=16, layout=w.Layout(width="100%", max_width="330px"))
        self.window_note = w.HTML()
        self.info = w.HTML()
        self.upload = w.FileUpload(accept=".jsonl,.json,.txt", multiple=False, description="Load record")
        self.record_index = w.BoundedIntText(
            value=index, min=0, max=10**6, description="Game #", layout=w.Layout(width="160px")
        )
        on = guarded(error_line(self.info))
        self.slider.observe(on(lambda ch: self.show(ch["new"])), names="value")
        self.moves.observe(on(self._jump_from_list), names="index")
        self.upload.observe(on(self._uploaded), names="value")
        loader = w.HBox([self.upload, self.record_index], layout=w.Layout(flex_flow="row wrap"))
        top = [loader] if upload else []
        side = w.VBox(
            [self.info, w.HTML("<b>Actions</b>"), self.moves, self.window_note],
            layout=w.Layout(flex="0 1 330px", min_width="260px"),
        )
        board = self.board_column = w.VBox(
            [self.board.widget],
            layout=w.Layout(flex="1 1 480px", min_width="280px", max_width="820px", margin="0 16px 8px 0"),
        )
        super().__init__(
            top
            + [
                w.HBox([self.player, self.slider], layout=w.Layout(flex_flow="row wrap")),
                w.HBox([board, side], layout=w.Layout(flex_flow="row wrap", width="100%")),
            ]
        )
        #: the game's states by ply (a sequence replayed from checkpoints; [] before a game)
        self.states: Sequence[State] = []
        #: what the board shows at each ply, in the replay's perspective
        self.scenes: Sequence[Any] = []
        self._window: tuple[int, int] = (0, -1)  # the plies the move list holds
        self._listing = False  # the move list is being refilled: its index changes are not jumps
        if source is not None:
            self.load(source, index=index)

    def load(self, source: str | os.PathLike | records.Record | io.TextIOBase, *, index: int = 0) -> None:
        """Load one game (`index` picks a line of a JSON Lines file); the whole record is
        replayed and checked first. A bad source leaves the game on show as it was and says why."""
        try:
            record = source if isinstance(source, records.Record) else self._read(source, index)
            self._show_record(record)
        except RulesError as exc:
            self.info.value = message_html(str(exc), error=True)

    def _show_record(self, record: records.Record, checkpoints: list[State] | None = None) -> None:
        """Show a record; `checkpoints`: those of `record.checkpoints(CHECKPOINT_EVERY)` when
        the record was checked so already (an upload), else it is checked now."""
        checkpoints = record.checkpoints(CHECKPOINT_EVERY) if checkpoints is None else checkpoints
        plies = Plies(record, checkpoints, perspective=self.perspective)
        outcome = plies[-1].outcome()
        self.record, self.states, self.scenes = record, plies, Scenes(plies, self.perspective)
        self._window = (0, -1)
        self.slider.max = self.player.max = len(plies) - 1
        result = outcome.reason if outcome else "unfinished"
        self.info.value = html(
            "<b>{game}</b>: {n} actions<br>result: {result}",
            game=record.game,
            n=len(record.actions),
            result=result,
        )
        self.slider.value = 0
        self.show(0)

    @staticmethod
    def _read(source, index: int) -> records.Record:
        if isinstance(source, io.TextIOBase):
            found = list(records.read_records(source))
        else:
            found = records.load(source)
        if not 0 <= index < len(found):
            raise RulesError(
                f"{getattr(source, 'name', 'the source')} holds {len(found)} game(s); "
                f"there is no game #{index}"
            )
        return found[index]

    def show(self, ply: int) -> None:
        if not self.scenes:
            return
        ply = max(0, min(ply, len(self.scenes) - 1))
        self._list_moves_around(ply)
        scene = self.scenes[ply]
        self.board.show(scene, last=scene.last_cells)
        width = f"{self.board.natural_width:.0f}px"  # the board column fits its drawing
        self.board_column.layout.max_width, self.board_column.layout.flex = width, f"1 1 {width}"
        if self.moves.index != ply - self._window[0]:
            self.moves.index = ply - self._window[0]
        if self.slider.value != ply:
            self.slider.value = ply
        if self.player.value != ply:  # jslink copies Play -> slider when a browser connects
            self.player.value = ply

    def jump(self, ply: int) -> None:
        self.show(ply)

    def _list_moves_around(self, ply: int) -> None:
        """Fill the move list with the plies of the block on show and its two neighbours
        (the whole game when it is short); entry i is ply `first + i`."""
        plies, every = self.states, CHECKPOINT_EVERY
        block = ply // every
        low = max(0, block - 1) * every
        high = min(len(plies) - 1, (block + 2) * every)
        first = low + 1 if low else 0  # ply `low` belongs to the block before: not listed
        if (first, high) == self._window:
            return
        entries = [] if first else ["start"]
        for b in range((max(first, 1) - 1) // every, (high - 1) // every + 1):  # ply k: block (k-1)//every
            entries += [str(line) for line in plies.lines(b)]
        self._listing = True
        try:
            self.moves.options = entries  # selects entry 0 by itself: not a jump
            self.moves.index = ply - first
        finally:
            self._listing = False
        self._window = (first, high)
        whole = first == 0 and high == len(plies) - 1
        self.window_note.value = (
            ""
            if whole
            else html(
                '<span style="font-size:12px;color:#555">moves {a}–{b} of {n}; the list follows '
                "the slider</span>",
                a=f"{max(first, 1):,}",
                b=f"{high:,}",
                n=f"{len(plies) - 1:,}",
            )
        )

    def _jump_from_list(self, change) -> None:
        if change["new"] is not None and not self._listing:
            self.show(self._window[0] + change["new"])

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        upload = files[0]
        index = self.record_index.value
        kept: list[list[State]] = []

        def check(i: int, record: records.Record) -> None:  # the game to show is replayed once
            if i == index:
                kept.append(record.checkpoints(CHECKPOINT_EVERY))
            else:
                record.check()

        found = records.read_upload(bytes(upload["content"]), str(upload["name"]), check=check)
        if not 0 <= index < len(found):
            raise RulesError(
                f"the upload holds {len(found)} game(s); there is no game #{index} "
                f"(games are numbered from 0)"
            )
        self._show_record(found[index], kept[0])


class Plies(Sequence):
    """A checked record's states by ply, replayed on demand from its checkpoints (the states
    at plies 0, every, 2*every, ...); the last `KEEP_BLOCKS` blocks replayed are kept."""

    def __init__(
        self,
        record: records.Record,
        checkpoints: list[State],
        *,
        every: int = CHECKPOINT_EVERY,
        perspective: int | None = None,
    ) -> None:
        self.record, self.checkpoints, self.every = record, checkpoints, every
        self.perspective = perspective
        self._blocks: OrderedDict[int, tuple[list[State], list[Action]]] = OrderedDict()
        self._lines: OrderedDict[int, list] = OrderedDict()

    def __len__(self) -> int:
        return len(self.record.actions) + 1

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        ply = operator.index(index)
        ply += len(self) if ply < 0 else 0
        if not 0 <= ply < len(self):
            raise IndexError(f"ply {index} is outside 0..{len(self) - 1}")
        return self.block(ply // self.every)[0][ply % self.every]

    def block(self, number: int) -> tuple[list[State], list[Action]]:
        """The states at plies number*every .. (number+1)*every (fewer at the end) and the
        actions between them, replayed from the block's checkpoint."""
        kept = self._blocks.get(number)
        if kept is not None:
            self._blocks.move_to_end(number)
            return kept
        start = number * self.every
        state = self.checkpoints[number]
        states, actions = [state], []
        for recorded in self.record.actions[start : start + self.every]:
            action = _action_of(state, recorded)
            state = state.apply(action)
            states.append(state)
            actions.append(action)
        self._blocks[number] = states, actions
        while len(self._blocks) > KEEP_BLOCKS:
            self._blocks.popitem(last=False)
        return states, actions

    def lines(self, number: int) -> list:
        """The move-list entries of the actions in block `number`, as the perspective saw them."""
        kept = self._lines.get(number)
        if kept is None:
            states, actions = self.block(number)
            start = number * self.every
            kept = [
                dataclasses.replace(line, number=start + line.number)
                for line in move_lines(states, actions, self.perspective)
            ]
            self._lines[number] = kept
            while len(self._lines) > 3 * KEEP_BLOCKS:
                self._lines.popitem(last=False)
        self._lines.move_to_end(number)
        return kept


class Scenes(Sequence):
    """What the board shows at each ply (drawn on demand; the last few are kept)."""

    def __init__(self, plies: Plies, perspective: int | None) -> None:
        self.plies, self.perspective = plies, perspective
        self._kept: OrderedDict[int, Any] = OrderedDict()

    def __len__(self) -> int:
        return len(self.plies)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        ply = operator.index(index)
        ply += len(self) if ply < 0 else 0
        scene = self._kept.get(ply)
        if scene is None:
            state, p = self.plies[ply], self.perspective
            scene = (state if p is None else state.view(p)).scene(p)
            self._kept[ply] = scene
            while len(self._kept) > KEEP_SCENES:
                self._kept.popitem(last=False)
        self._kept.move_to_end(ply)
        return scene


def _action_of(before: State, recorded: records.RecordedAction) -> Action:
    """A recorded action as the kernel's object (for move lists), parsed in its position."""
    if recorded.chance:
        return before.parse_chance(recorded.notation)
    return before.parse_move(recorded.notation)
