"""The Export menu's pictures: the position shown as PNG or SVG, the game so far as an
animated GIF or SVG, offered as a download link (nothing is written on the server).

The page gives the states and the viewer: a picture is drawn in the page's own view, so it
never shows what the page hides (`widgets.picture`).
"""

from __future__ import annotations

from base64 import b64encode
from collections.abc import Callable, Sequence

import ipywidgets as w

from rules_kernel.core import State
from widgets import picture, runtime
from widgets.safe import guarded, html, message_html

KINDS = (
    ("Position (PNG)", "png"),
    ("Position (SVG)", "svg"),
    ("Game so far (animated GIF)", "gif"),
    ("Game so far (animated SVG)", "animated-svg"),
)
#: a game picture holds at most this many positions (the last ones): a GIF frame costs
#: ~0.05-0.2 s to draw here and ~10-60 KB
MAX_FRAMES = 200
#: PNG and GIF are Pillow's; where it is absent (the static site's browser Python) the menu
#: offers the SVG pictures only
RASTER = ("png", "gif")


def kinds_here() -> tuple[tuple[str, str], ...]:
    if runtime.importable("PIL"):
        return KINDS
    return tuple((label, kind) for label, kind in KINDS if kind not in RASTER)


#: the download link's words for each kind
LINK_WORDS = {
    "png": "the position as a picture (PNG)",
    "svg": "the position as a picture (SVG)",
    "gif": "the game so far, animated (GIF)",
    "animated-svg": "the game so far, animated (SVG)",
}
MIME = {"png": "image/png", "svg": "image/svg+xml", "gif": "image/gif", "animated-svg": "image/svg+xml"}
SUFFIX = {"png": "png", "svg": "svg", "gif": "gif", "animated-svg": "svg"}


class PictureExport:
    """A kind menu, a button and the link. `source()` returns (the states of the line up to
    the position shown, the viewer, a name for the file) or a reason why nothing may be
    drawn now (the hand-over curtain is down)."""

    def __init__(self, source: Callable[[], tuple[Sequence[State], int | None, str] | str]) -> None:
        self.source = source
        offered = kinds_here()
        self.kind = w.Dropdown(
            options=offered,
            value=offered[0][1],
            description="Picture",
            style={"description_width": "initial"},
            layout=w.Layout(width="auto", max_width="300px"),
        )
        self.button = w.Button(description="Make picture", layout=w.Layout(width="auto"))
        self.link = w.HTML()
        row = w.HBox([self.kind, self.button], layout=w.Layout(flex_flow="row wrap"))
        self.box = w.VBox([row, self.link])
        # a disabled button does nothing, even pressed by a script (the hand-over curtain)
        self.button.on_click(guarded(self._error)(lambda _: None if self.button.disabled else self.make()))
        self.kind.observe(lambda _: setattr(self.link, "value", ""), names="value")

    def _error(self, text: str) -> None:
        self.link.value = message_html(text, error=True)

    def make(self) -> str:
        """Draw the chosen picture and show its download link; returns the link's markup."""
        found = self.source()
        if isinstance(found, str):
            self.link.value = message_html(found)
            return self.link.value
        states, viewer, name = found
        kind = self.kind.value
        note = ""
        if kind in ("gif", "animated-svg") and len(states) > MAX_FRAMES:
            states, note = states[-MAX_FRAMES:], f" (its last {MAX_FRAMES} positions)"
        data = self._draw(kind, list(states), viewer)
        filename = f"{name}.{SUFFIX[kind]}"
        # the words name the picture as the menu does; the file's name (the game's id and the
        # ply) is only the download's
        self.link.value = html(
            '<a download="{filename}" href="data:{mime};base64,{data}">Download: {what}</a> '
            "<small>{size} KB{note}</small>",
            filename=filename,
            what=LINK_WORDS[kind],
            mime=MIME[kind],
            data=b64encode(data).decode(),
            size=f"{len(data) / 1024:,.0f}",
            note=note,
        )
        return self.link.value

    @staticmethod
    def _draw(kind: str, states: list[State], viewer: int | None) -> bytes:
        last = states[-1]
        if kind == "png":
            return picture.png(last, viewer, scale=2)
        if kind == "svg":
            return picture.svg(last, viewer).encode()
        if kind == "gif":
            return picture.gif(states, viewer)
        return picture.animated_svg(states, viewer).encode()
