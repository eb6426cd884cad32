"""Replay a recorded game: Play button and slider (linked in the browser), move list, jump.

A replay in a player's view (`perspective=p`) shows the board and the move list as that
player saw them (widgets/presentation.py). Uploaded records are untrusted data: they are
read from the upload's bytes through `records.read_upload` (size, line and nesting limits,
no paths), and any problem is one escaped line on the page.
"""

from __future__ import annotations

import io
import os

import ipywidgets as w

from rules_kernel import records
from rules_kernel.core import RulesError
from widgets.board import Board
from widgets.presentation import move_lines
from widgets.safe import error_line, guarded, html, message_html


class Replay(w.VBox):
    """Scrub through a record:

        from widgets import Replay
        Replay("data/yokai-3x4.jsonl", index=0)       # a path (JSON Lines or text form)
        Replay(record)                                 # or a records.Record
    The dashboard form has an upload button too (`Replay(upload=True)`).
    """

    def __init__(self, source: str | os.PathLike | records.Record | None = None, *, index: int = 0,
                 perspective: int | None = None, upload: bool = False, interval_ms: int = 600) -> None:
        self.board = Board()
        self.perspective = perspective
        self.player = w.Play(value=0, min=0, max=0, step=1, interval=interval_ms, description="Play")
        self.slider = w.IntSlider(value=0, min=0, max=0, description="Ply", continuous_update=True,
                                  layout=w.Layout(width="100%", max_width="420px"))
        w.jslink((self.player, "value"), (self.slider, "value"))  # moves in the browser, no round trip
        self.moves = w.Select(options=[], rows=16, layout=w.Layout(width="100%", max_width="330px"))
        self.info = w.HTML()
        self.upload = w.FileUpload(accept=".jsonl,.json,.txt", multiple=False, description="Load record")
        self.record_index = w.BoundedIntText(value=index, min=0, max=10**6, description="Game #",
                                             layout=w.Layout(width="160px"))
        on = guarded(error_line(self.info))
        self.slider.observe(on(lambda ch: self.show(ch["new"])), names="value")
        self.moves.observe(on(self._jump_from_list), names="index")
        self.upload.observe(on(self._uploaded), names="value")
        loader = w.HBox([self.upload, self.record_index], layout=w.Layout(flex_flow="row wrap"))
        top = [loader] if upload else []
        side = w.VBox([self.info, w.HTML("<b>Actions</b>"), self.moves],
                      layout=w.Layout(flex="0 1 330px", min_width="260px"))
        board = self.board_column = w.VBox([self.board.widget], layout=w.Layout(
            flex="1 1 480px", min_width="280px", max_width="820px", margin="0 16px 8px 0"))
        super().__init__(top + [w.HBox([self.player, self.slider], layout=w.Layout(flex_flow="row wrap")),
                                w.HBox([board, side], layout=w.Layout(flex_flow="row wrap", width="100%"))])
        self.states: list = []
        self.scenes: list = []
        if source is not None:
            self.load(source, index=index)

    def load(self, source: str | os.PathLike | records.Record | io.TextIOBase, *, index: int = 0) -> None:
        """Load one game (`index` picks a line of a JSON Lines file) and precompute every ply.
        A bad source leaves the game on show as it was and says why."""
        try:
            record = source if isinstance(source, records.Record) else self._read(source, index)
            self._show_record(record)
        except RulesError as exc:
            self.info.value = message_html(str(exc), error=True)

    def _show_record(self, record: records.Record) -> None:
        states = record.replay()
        p = self.perspective
        scenes = [(s if p is None else s.view(p)).scene(p) for s in states]  # stepping does no work
        played = _actions_of(states, record)
        lines = move_lines(states, played, p)
        self.record, self.states, self.scenes = record, states, scenes
        with self.moves.hold_trait_notifications():
            self.moves.options = ["start"] + [str(line) for line in lines]
        self.slider.max = self.player.max = len(states) - 1
        outcome = states[-1].outcome()
        result = outcome.reason if outcome else "unfinished"
        self.info.value = html("<b>{game}</b>: {n} actions<br>result: {result}",
                               game=record.game, n=len(record.actions), result=result)
        self.slider.value = 0
        self.show(0)

    @staticmethod
    def _read(source, index: int) -> records.Record:
        if isinstance(source, io.TextIOBase):
            found = list(records.read_records(source))
        else:
            found = records.load(source)
        if not 0 <= index < len(found):
            raise RulesError(f"{getattr(source, 'name', 'the source')} holds {len(found)} game(s); "
                             f"there is no game #{index}")
        return found[index]

    def show(self, ply: int) -> None:
        if not self.scenes:
            return
        ply = max(0, min(ply, len(self.scenes) - 1))
        scene = self.scenes[ply]
        self.board.show(scene, last=scene.last_cells)
        width = f"{self.board.natural_width:.0f}px"  # the board column fits its drawing
        self.board_column.layout.max_width, self.board_column.layout.flex = width, f"1 1 {width}"
        if self.moves.index != ply:
            self.moves.index = ply
        if self.slider.value != ply:
            self.slider.value = ply
        if self.player.value != ply:  # jslink copies Play -> slider when a browser connects
            self.player.value = ply

    def jump(self, ply: int) -> None:
        self.show(ply)

    def _jump_from_list(self, change) -> None:
        if change["new"] is not None:
            self.show(change["new"])

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        upload = files[0]
        found = records.read_upload(bytes(upload["content"]), str(upload["name"]))
        index = self.record_index.value
        if not 0 <= index < len(found):
            raise RulesError(f"the upload holds {len(found)} game(s); there is no game #{index} "
                             f"(games are numbered from 0)")
        self._show_record(found[index])


def _actions_of(states: list, record: records.Record) -> list:
    """The actions between the replayed states, as the kernel's objects (for move lists)."""
    actions = []
    for before, recorded in zip(states, record.actions, strict=False):
        actions.append(before.parse_chance(recorded.notation) if recorded.chance
                       else before._parse_move(recorded.notation))
    return actions
