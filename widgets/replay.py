"""Replay a recorded game: Play button and slider (linked in the browser), move list, jump."""

from __future__ import annotations

import io
import os

import ipywidgets as w

from rules_kernel import records
from rules_kernel.core import RulesError
from widgets.canvas import BoardCanvas


class Replay(w.VBox):
    """Scrub through a record:

        from widgets import Replay
        Replay("data/yokai-3x4.jsonl", index=0)       # a path (JSON Lines or text form)
        Replay(record)                                 # or a records.Record
    The dashboard form has an upload button too (`Replay(upload=True)`).
    """

    def __init__(self, source: str | os.PathLike | records.Record | None = None, *, index: int = 0,
                 perspective: int | None = None, upload: bool = False, interval_ms: int = 600) -> None:
        self.board = BoardCanvas()
        self.perspective = perspective
        self.player = w.Play(value=0, min=0, max=0, step=1, interval=interval_ms, description="Play")
        self.slider = w.IntSlider(value=0, min=0, max=0, description="Ply", continuous_update=True,
                                  layout=w.Layout(width="420px"))
        w.jslink((self.player, "value"), (self.slider, "value"))  # moves in the browser, no round trip
        self.slider.observe(lambda ch: self.show(ch["new"]), names="value")
        self.moves = w.Select(options=[], rows=16, layout=w.Layout(width="220px"))
        self.moves.observe(self._jump_from_list, names="index")
        self.info = w.HTML()
        self.upload = w.FileUpload(accept=".jsonl,.json,.txt", multiple=False, description="Load record")
        self.upload.observe(self._uploaded, names="value")
        self.record_index = w.IntText(value=index, description="Game #", layout=w.Layout(width="160px"))
        top = [self.upload] if upload else []
        side = w.VBox([self.info, w.Label("Actions"), self.moves], layout=w.Layout(margin="0 0 0 16px"))
        super().__init__(top + [w.HBox([self.player, self.slider]), w.HBox([self.board.widget, side])])
        self.states: list = []
        self.scenes: list = []
        if source is not None:
            self.load(source, index=index)

    def load(self, source: str | os.PathLike | records.Record | io.TextIOBase, *, index: int = 0) -> None:
        """Load one game (`index` picks a line of a JSON Lines file) and precompute every ply."""
        try:
            record = source if isinstance(source, records.Record) else self._read(source, index)
            states = record.replay()
        except RulesError as exc:
            self.info.value = f'<span style="color:#B00020">{exc}</span>'
            return
        self.record = record
        self.states = states
        self.scenes = [s.scene(self.perspective) for s in states]  # smooth stepping: no work later
        names = [a.notation if not a.chance else f"({a.notation[:24]})" for a in record.actions]
        self.moves.options = ["start"] + [f"{i + 1}. {n}" for i, n in enumerate(names)]
        self.slider.max = self.player.max = len(states) - 1
        outcome = record.outcome or states[-1].outcome()
        result = outcome.reason if outcome else "unfinished"
        self.info.value = (f"<b>{record.game}</b>: {len(record.actions)} actions<br>"
                           f"result: {result}")
        self.slider.value = 0
        self.show(0)

    @staticmethod
    def _read(source, index: int) -> records.Record:
        if isinstance(source, io.TextIOBase):
            return list(records.read_records(source))[index]
        found = records.load(source)
        if not 0 <= index < len(found):
            raise RulesError(f"{source} holds {len(found)} game(s); there is no game #{index}")
        return found[index]

    def show(self, ply: int) -> None:
        if not self.scenes:
            return
        ply = max(0, min(ply, len(self.scenes) - 1))
        scene = self.scenes[ply]
        self.board.show(scene, last=scene.last_cells)
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
        content = bytes(files[0]["content"]).decode("utf-8", errors="replace")
        name = files[0]["name"]
        if name.endswith((".jsonl", ".json")):
            self.load(io.StringIO(content), index=self.record_index.value)
        else:
            try:
                self.load(records.read_text_game(io.StringIO(content)))
            except RulesError as exc:
                self.info.value = f'<span style="color:#B00020">{exc}</span>'
