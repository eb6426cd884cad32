"""Pictures of positions and games for a blog or a rule sheet: SVG, PNG, animated GIF and
animated SVG.

    from widgets import picture
    picture.svg(state)                       # the position, last move tinted (as state._repr_svg_)
    picture.png(state, scale=2)              # PNG bytes (matplotlib's Agg renderer)
    picture.gif(record, seconds=0.8)         # one frame per ply and the start: plies + 1 frames
    picture.animated_svg(record)             # the same as one SVG that plays itself (SMIL)
    picture.save(record_or_state, "game.gif")   # by the file's suffix: .svg .png .gif

The drawing list (`widgets/draw.py`) is drawn once more by a third backend: Pillow's
ImageDraw paints the same operations the SVG and the canvas backends write (with matplotlib's
DejaVu Sans), so a PNG shows exactly what the board shows. A game's frames are drawn in one
view (`viewer`; None: all-seeing) so a picture never shows what that view hides.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence
from pathlib import Path

from rules_kernel import parts as game_parts
from rules_kernel.core import RulesError, State
from rules_kernel.records import Record
from widgets.draw import Circle, Line, Polygon, Rect, Text, draw_highlights, draw_scene
from widgets.layout import layout_scene
from widgets.svg import highlight_body, scene_body, svg_document

SUFFIXES = (".svg", ".png", ".gif")
SUPERSAMPLE = 2  # drawn at twice the size and scaled down: smooth edges without antialiasing


def frames_of(source: State | Record | Sequence[State]) -> list[State]:
    """The states to draw: a state alone, a record's start and the state after every ply
    (the record replayed and checked), or a list of states (a line of a session)."""
    if isinstance(source, State):
        return [source]
    if isinstance(source, (list, tuple)) and source and all(isinstance(s, State) for s in source):
        return list(source)
    if isinstance(source, Record):
        return source.replay()
    raise RulesError(f"a picture is drawn of a state or a record, not of {type(source).__name__}")


def scene_of(state: State, viewer: int | None):
    """The scene `viewer` sees (None: all-seeing), drawn from its view as the explorer does."""
    return game_parts.scene(state if viewer is None else state.view(viewer), viewer)


def svg(state: State, viewer: int | None = None) -> str:
    """The position as an SVG document, the last move tinted."""
    scene = scene_of(state, viewer)
    layout = layout_scene(scene)
    body = scene_body(scene, layout) + "\n" + highlight_body(layout, last=scene.last_cells)
    return svg_document(body, layout.width, layout.height)


def png(state: State, viewer: int | None = None, *, scale: float = 1.0) -> bytes:
    """The position as PNG bytes, one pixel a layout unit (`scale` 2 for a sharp picture on a
    high-density screen)."""
    out = io.BytesIO()
    _image(state, viewer, scale).save(out, format="PNG")
    return out.getvalue()


def gif(source, viewer: int | None = None, *, seconds: float = 0.8, scale: float = 1.0) -> bytes:
    """A game as an animated GIF: the start and one frame per ply, the last move tinted; the
    last frame stays twice as long. All frames share the largest frame's size."""

    images = [_image(state, viewer, scale) for state in frames_of(source)]
    width = max(image.width for image in images)
    height = max(image.height for image in images)
    frames = [_padded(image, width, height) for image in images]
    durations = [round(seconds * 1000)] * len(frames)
    durations[-1] *= 2
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return out.getvalue()


def animated_svg(source, viewer: int | None = None, *, seconds: float = 0.8) -> str:
    """A game as one SVG that plays itself, looping: frame i of n is visible from i/n to
    (i+1)/n of the cycle (SMIL `<animate>` with discrete steps, played by browsers without
    script). Where nothing plays SMIL, the last position is what shows."""
    states = frames_of(source)
    count, width, height, groups = len(states), 0.0, 0.0, []
    for number, state in enumerate(states):
        scene = scene_of(state, viewer)
        layout = layout_scene(scene)
        width, height = max(width, layout.width), max(height, layout.height)
        body = scene_body(scene, layout) + "\n" + highlight_body(layout, last=scene.last_cells)
        shown = "visible" if number == count - 1 else "hidden"
        groups.append(f'<g visibility="{shown}">{_frame_clock(number, count, seconds)}\n{body}\n</g>')
    return svg_document("\n".join(groups), width, height)


def _frame_clock(number: int, count: int, seconds: float) -> str:
    if count == 1:
        return ""
    at = [f"{k / count:.6f}" for k in (number, number + 1)]
    if number == 0:
        values, times = "visible;hidden", f"0;{at[1]}"
    elif number == count - 1:
        values, times = "hidden;visible", f"0;{at[0]}"
    else:
        values, times = "hidden;visible;hidden", f"0;{at[0]};{at[1]}"
    return (
        f'<animate attributeName="visibility" values="{values}" keyTimes="{times}" calcMode="discrete" '
        f'dur="{seconds * count:g}s" repeatCount="indefinite"/>'
    )


def save(
    source, path: str | Path, viewer: int | None = None, *, scale: float = 1.0, seconds: float = 0.8
) -> Path:
    """Write a picture of `source` (a state or a record) to `path`, by its suffix: .svg (a
    record: animated), .png (a record: its last position) or .gif (a record: animated)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise RulesError(f"{path.name}: a picture is .svg, .png or .gif, not {suffix or 'no suffix'}")
    frames = frames_of(source)  # a record replayed once, whatever is drawn of it
    if suffix == ".png":
        path.write_bytes(png(frames[-1], viewer, scale=scale))
    elif suffix == ".gif":
        path.write_bytes(gif(frames, viewer, seconds=seconds, scale=scale))
    elif isinstance(source, State):
        path.write_text(svg(source, viewer), encoding="utf-8")
    else:
        path.write_text(animated_svg(frames, viewer, seconds=seconds), encoding="utf-8")
    return path


# --- the raster backend: Pillow's ImageDraw, drawn at twice the size and scaled down -------------


def _image(state: State, viewer: int | None, scale: float):
    """The position as a Pillow image (RGB)."""
    from PIL import Image, ImageDraw

    scene = scene_of(state, viewer)
    layout = layout_scene(scene)
    size = SUPERSAMPLE * scale
    image = Image.new("RGB", (round(layout.width * size), round(layout.height * size)), "white")
    pen = ImageDraw.Draw(image, "RGBA")  # colours with alpha blend over what is drawn
    for op in [*draw_scene(scene, layout), *draw_highlights(layout, last=scene.last_cells)]:
        _paint(pen, op, size)
    return image.resize((round(layout.width * scale), round(layout.height * scale)), Image.LANCZOS)


def _paint(pen, op, k: float) -> None:
    """One drawing operation at `k` pixels per layout unit."""
    if isinstance(op, Rect):
        box = (op.x * k, op.y * k, (op.x + op.w) * k, (op.y + op.h) * k)
        pen.rectangle(box, **_colours(op, k))
    elif isinstance(op, Polygon):
        pen.polygon([(x * k, y * k) for x, y in op.points], **_colours(op, k))
    elif isinstance(op, Circle):
        box = ((op.x - op.r) * k, (op.y - op.r) * k, (op.x + op.r) * k, (op.y + op.r) * k)
        pen.ellipse(box, **_colours(op, k))
    elif isinstance(op, Line):
        colour = _rgba(op.stroke, op.alpha)
        if colour:
            pen.line([(op.x1 * k, op.y1 * k), (op.x2 * k, op.y2 * k)], fill=colour, width=_width(op.width, k))
    elif isinstance(op, Text):
        anchor = {"center": "ms", "left": "ls", "right": "rs"}[op.align]
        pen.text(
            (op.x * k, op.y * k),
            op.text,
            fill=_rgba(op.color, 1),
            font=_font(op.size * k, op.bold),
            anchor=anchor,
        )


def _colours(op, k: float) -> dict:
    outline = _rgba(op.stroke, op.alpha)
    return {
        "fill": _rgba(op.fill, op.alpha),
        "outline": outline,
        "width": _width(op.width, k) if outline else 0,
    }


def _rgba(colour: str | None, alpha: float) -> tuple[int, int, int, int] | None:
    """A colour of the drawing list as RGBA; None for none. A colour the list got from data
    (a user's unit table) that Pillow cannot read is drawn black rather than failing."""
    if not colour or colour == "none":
        return None
    from PIL import ImageColor

    try:
        red, green, blue = ImageColor.getrgb(colour)[:3]
    except ValueError:
        red = green = blue = 0
    return red, green, blue, round(255 * alpha)


def _width(width: float, k: float) -> int:
    return max(1, round(width * k))


@functools.lru_cache(maxsize=64)
def _font(pixels: float, bold: bool):
    """DejaVu Sans, the font matplotlib ships (so it is there wherever matplotlib is)."""
    from matplotlib import font_manager
    from PIL import ImageFont

    name = "DejaVu Sans:bold" if bold else "DejaVu Sans"
    return ImageFont.truetype(font_manager.findfont(name), size=max(1, round(pixels)))


def _padded(image, width: int, height: int):
    if image.size == (width, height):
        return image
    from PIL import Image

    canvas = Image.new("RGB", (width, height), "white")
    canvas.paste(image, (0, 0))
    return canvas
