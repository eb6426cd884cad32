"""The board widget: a scene drawn as SVG in the browser, clicked or played by keyboard.

The drawing is `widgets/draw.py`'s drawing list written as SVG by `widgets/svg.py`, so the
notebook picture and the live board are one drawing. SVG scales to its container (phones)
and stays crisp at any device pixel ratio; the browser side (`board.js`) only reports which
cell was clicked or chosen with the keyboard. A transparent hit layer on top names each cell
and zone item (`data-cell`, `aria-label` and a tooltip; `svg.hit_layer`), built from the
scene the viewer may see, so the page holds nothing the scene hides; a lit target's name says
what a click on it does (`words`: "e1: deploy a Cavalry").
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import anywidget
import traitlets

from rules_kernel.scene import Scene
from widgets.layout import Layout, layout_scene
from widgets.svg import highlight_body, hit_layer, scene_body

CSS = """
.re-board { outline: none; width: 100%; position: relative; }
.re-board:focus-visible { outline: 3px solid #0072B2; outline-offset: 2px; }
.re-board svg { width: 100%; height: auto; display: block; touch-action: manipulation;
                user-select: none; -webkit-user-select: none; }
.re-board .re-scene, .re-board .re-highlight, .re-board .re-cursor { pointer-events: none; }
.re-board .re-hits [data-cell] { cursor: pointer; fill: transparent; }
.re-board .re-cursor { fill: none; stroke: #0072B2; stroke-width: 4; stroke-dasharray: 7 4; }
.re-sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden;
              clip: rect(0 0 0 0); white-space: nowrap; }
"""


#: the keys that step through the game's history while the board has focus
HISTORY_KEYS = ("PageUp", "PageDown", "Home", "End")


class BoardView(anywidget.AnyWidget):
    """The browser side: SVG layers and what a click or a key chose."""

    _esm = Path(__file__).with_name("board.js")
    _css = CSS
    scene_svg = traitlets.Unicode("").tag(sync=True)
    highlight_svg = traitlets.Unicode("").tag(sync=True)
    hit_svg = traitlets.Unicode("").tag(sync=True)
    view_width = traitlets.Float(420).tag(sync=True)
    view_height = traitlets.Float(420).tag(sync=True)
    #: how much larger than its drawing units the board may be shown (a page with room for it)
    zoom = traitlets.Float(1.0).tag(sync=True)
    label = traitlets.Unicode("Game board").tag(sync=True)
    cursor_start = traitlets.Unicode("").tag(sync=True)
    #: the width the board has on the page, reported by the browser (0: not known yet)
    client_width = traitlets.Int(0).tag(sync=True)


class Board:
    """Draws scenes; reports clicks (mouse, touch or keyboard) as cell ids."""

    def __init__(self) -> None:
        self.widget = BoardView()
        self.widget.layout.width = "100%"
        self.layout: Layout | None = None
        self.scene: Scene | None = None
        self.highlight: dict = {}
        #: what a click on each lit target does, by cell (the hit layer's labels)
        self.words: dict[str, str] = {}
        self._click_handlers: list[Callable[[str], None]] = []
        self._escape_handlers: list[Callable[[], None]] = []
        self._history_handlers: list[Callable[[str], None]] = []
        self.widget.on_msg(self._on_message)
        self.widget.observe(lambda _: self._relayout(), names="client_width")
        self.flip: bool | None = None
        #: a square board's zones beside it (a wide page) rather than above and below
        self.zones_beside = False
        self.cursor = ""
        #: the size the drawing takes when nothing constrains it (a page lays out for it)
        self.natural_width = 420.0
        self.natural_height = 420.0
        #: highlight read when it is drawn, over what `show`/`set_highlight` were given: what
        #: another thread changes (the analysis' arrows and values, found by a search thread)
        self.live_highlight: Callable[[], dict] | None = None
        # one drawing at a time: a search thread's redraw landing inside a redraw of the page
        # left the arrows in `highlight` but not on the board (a fresh-machine test run)
        self._drawing = threading.RLock()

    def on_click(self, handler: Callable[[str], None]) -> None:
        self._click_handlers.append(handler)

    def on_escape(self, handler: Callable[[], None]) -> None:
        self._escape_handlers.append(handler)

    def on_history(self, handler: Callable[[str], None]) -> None:
        """`handler(key)` for the history keys pressed on the board: "PageUp", "PageDown",
        "Home" or "End" (the arrows move the board's cursor)."""
        self._history_handlers.append(handler)

    def show(
        self,
        scene: Scene,
        *,
        flip: bool | None = None,
        cursor: str = "",
        words: dict[str, str] | None = None,
        **highlight,
    ) -> None:
        """Draw `scene`; `words` names what a click on each lit target does (its tooltip and
        screen-reader label: "e1: deploy a Cavalry"); `highlight`: the highlight layer's."""
        with self._drawing:
            self.scene, self.flip, self.cursor = scene, flip, cursor
            if words is not None:
                self.words = dict(words)
            natural = layout_scene(scene, flip=flip, beside=self.zones_beside)
            self.natural_width, self.natural_height = natural.width, natural.height
            room = self.widget.client_width
            narrow = 0 < room < natural.width * 0.9  # shrunk by more than a tenth: lay out for it
            self.layout = layout_scene(scene, flip=flip, room=room) if narrow else natural
            view = self.widget
            with view.hold_sync():
                view.view_width, view.view_height = self.layout.width, self.layout.height
                view.scene_svg = scene_body(scene, self.layout)
                # the targets' words only while a selection has some (the plain layer otherwise)
                view.hit_svg = (
                    hit_layer(scene, self.layout, words=self.words)
                    if self.words
                    else hit_layer(scene, self.layout)
                )
                self._draw_highlight(highlight)
                view.label = f"Game board: {scene.status}" if scene.status else "Game board"
                view.cursor_start = cursor

    def _relayout(self) -> None:
        """The page changed the board's width: lay the scene out again if it matters."""
        if self.scene is not None:
            self.show(self.scene, flip=self.flip, cursor=self.cursor, **self.highlight)

    def set_target_words(self, words: dict[str, str]) -> None:
        """Name what a click on each lit target does (the hit layer's labels and tooltips)."""
        with self._drawing:
            if words == self.words:
                return
            self.words = dict(words)
            if self.scene is not None and self.layout is not None:
                self.widget.hit_svg = (
                    hit_layer(self.scene, self.layout, words=self.words)
                    if self.words
                    else hit_layer(self.scene, self.layout)
                )

    def set_highlight(self, **highlight) -> None:
        with self._drawing:
            self._draw_highlight(highlight)

    def redraw_highlight(self) -> None:
        """Draw the highlight again with what `live_highlight` says now (a search thread's news)."""
        with self._drawing:
            self._draw_highlight(self.highlight)

    def _draw_highlight(self, highlight: dict) -> None:
        """`highlight` with the live part read now, kept as `self.highlight` and drawn (under
        `_drawing`: the live part read and drawn in one step, whichever thread comes last)."""
        live = self.live_highlight() if self.live_highlight is not None else {}
        self.highlight = {**highlight, **live}
        if self.layout is not None:
            self.widget.highlight_svg = highlight_body(self.layout, **self.highlight)

    def press(self, cell: str) -> None:
        """A click on `cell` (what the browser sends; also used by headless tests)."""
        for handler in self._click_handlers:
            handler(cell)

    def click_at(self, x: float, y: float) -> str | None:
        """What a click at (x, y) in layout units hits; handlers are told."""
        if self.layout is None:
            return None
        cell = self.layout.hit(x, y)
        if cell is not None:
            self.press(cell)
        return cell

    def _on_message(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict):
            return
        if content.get("event") == "click" and isinstance(content.get("cell"), str):
            self.press(content["cell"])
        elif content.get("event") == "escape":
            for handler in self._escape_handlers:
                handler()
        elif content.get("event") == "history" and content.get("key") in HISTORY_KEYS:
            for handler in self._history_handlers:
                handler(content["key"])
