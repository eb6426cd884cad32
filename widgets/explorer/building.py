"""The explorer's page: its own controls (the game's menu and options, New game, the status,
the folded tools' toggle), where every part's widgets go (`lay_out`: the header, the board's
column, the side column), the folded tools opened, closed and assembled on first opening (the
board editor under its button, taking the focus when opened), and the board's size."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import ipywidgets as w

import rules_kernel as rk
from widgets.explorer.common import AUTO, ROW
from widgets.runtime import SHOWN, fold_title

if TYPE_CHECKING:  # the explorer imports this module: its type only for the hints
    from widgets.board import Board
    from widgets.explorer.editor_part import EditorPart
    from widgets.explorer.explorer import Explorer
    from widgets.focus import FocusMover

PAGE_CSS = """<style>
.re-explorer { width: 100%; max-width: 1240px; }
.re-explorer .widget-select select { font-family: inherit; }
.re-side > * { max-width: 100%; }
.re-players span.re-swatch { display:inline-block; width:14px; height:14px; border:1px solid #222;
  border-radius:3px; vertical-align:-2px; margin-right:4px; }
.re-analysis .widget-html-content { line-height: 1.35; }
.re-analysis .re-swatch { display:inline-block; width:12px; height:12px; border:1px solid #222;
  border-radius:3px; vertical-align:-1px; margin-right:4px; }
.re-curtain { border: 2px dashed #8A7A5A; border-radius: 8px; padding: 24px; text-align: center;
  background: #F4EBD0; }
.re-explorer .re-behind-curtain { display: none !important; }
</style>"""

#: the editor's box: the focus goes to its first control when it opens (widgets/focus.py)
EDITOR_CLASS = "re-editor-box"
#: the title of the explorer's folded tools
FOLDED_TITLE = "Position, export and link"
#: a board is shown larger than its drawing units while it stays within this box (a 1280x800
#: screen beside the controls, under the page's header) and at most ZOOM_MOST times as large
ROOM_WIDTH, ROOM_HEIGHT, ZOOM_MOST = 880.0, 550.0, 1.4


def board_zoom(width: float, height: float) -> float:
    """How much larger than its drawing a board is shown on a wide page, from the drawing at the
    game's start, its zones beside it: the 3x4 board grows 1.4 times (its squares about 118
    px, the board 470 px tall), a hex map as wide as fits beside the controls."""
    return max(1.0, min(ZOOM_MOST, ROOM_WIDTH / width, ROOM_HEIGHT / height))


def fit_board(board: Board, column: w.Box, zoom: float | None, *, compact: bool) -> float:
    """Show the board at `zoom` and fit its column to the drawing; `zoom` None: the game has
    just started, and its zoom is set now from the board's drawing, once per game, so that the
    board never jumps in size (a live diagram, `compact`, keeps its drawing's size). Returns
    the zoom, for the next redraw."""
    if zoom is None:
        zoom = 1.0 if compact else board_zoom(board.natural_width, board.natural_height)
    board.widget.zoom = zoom
    width = f"{board.natural_width * zoom:.0f}px"  # the board column fits its drawing
    column.layout.max_width = width
    column.layout.flex = f"1 1 {width}"
    return zoom


def make_controls(ex: Explorer) -> None:
    """The explorer's own controls (the parts make theirs)."""
    # widgets.looks: a control that is hidden or shown later keeps a Layout of its own
    make = ex.looks.make
    ex.game_select = make(
        w.Dropdown,
        options=[(rk.game_class(g).title or g, g) for g in rk.list_games()],
        description="Game",
        layout={"max_width": "280px"},
    )
    ex.reference_box = make(w.Box, layout={"width": "100%"})  # the game's reference, folded
    ex.new_button = make(
        w.Button, description="New game", button_style="primary", tooltip="Start again with these options"
    )
    ex.status = make(w.HTML)
    #: the position's text, the board editor, the record, the picture and the link: folded,
    #: built on first opening (build_folded_tools)
    ex.tools_toggle = make(
        w.ToggleButton,
        value=False,
        description=fold_title(FOLDED_TITLE, False),
        tooltip="the position as text, a picture of the game, a link to it",
        layout=AUTO,
    )
    ex.tools_toggle.add_class("re-tools-toggle")
    ex.tools_box = w.VBox(layout=w.Layout(display="none", width="100%"))


def lay_out(ex: Explorer) -> list[w.Widget]:
    """The page's rows: the header (game, New game), the options, the editor, the board's
    column beside the side column, the reference; a live diagram (`compact`) has the board and
    its list only. Fills what the hand-over curtain hides."""
    make = ex.looks.make
    hand_over, history, seats = ex.hand_over, ex.history, ex.seats
    ex.board_column = w.VBox(
        [
            seats.players,
            hand_over.done_box,
            hand_over.curtain,
            ex.board.widget,
            ex.clicks.under_board,  # what a click does, and a choice's buttons: under the board
            hand_over.focus,
            ex.clicks.announcer,
        ],
        layout=w.Layout(flex="1 1 420px", min_width="280px", max_width="600px", margin="0 16px 8px 0"),
    )
    steps = [history.undo_button, history.redo_button, history.reset_button]
    side = [
        ex.status,
        ex.positions.study_status,
        ex.message,
        ex.perfect_play.perfect,
        *(() if ex.compact else (ex.perfect_play.analysis.box,)),
        history.moves_heading,
        history.move_list,
        history.looking_back,
        history.lines_here,
        make(w.HBox, children=[*steps, ex.clicks.turn_board, ex.clicks.hex_names], layout=ROW),
    ]
    if not ex.compact:
        side += [
            seats.perspective,
            seats.agents_box,
            seats.agent_kind,
            make(w.HBox, children=[seats.all_moves, seats.play_button]),
            seats.manual_chance,
            seats.chance_box,
            ex.records.toggle,  # "Open a record", folded, beside the folded tools
            ex.records.box,
            ex.from_here.toggle,  # "Games from here": its panel is put under it when first opened
            ex.tools_toggle,
            ex.tools_box,
            ex.links.address,
        ]
    side_column = make(
        w.VBox, children=side, layout={"flex": "0 1 330px", "min_width": "260px", "max_width": "100%"}
    )
    side_column.add_class("re-side")
    ex.from_here.column = side_column
    main = make(w.HBox, children=[ex.board_column, side_column], layout={**ROW, "width": "100%"})
    #: what the hand-over curtain hides besides the board: every control but its own button
    hand_over.covered = [side_column]
    if ex.compact:
        return [main]
    header = make(w.HBox, children=[ex.game_select, ex.new_button], layout=ROW)
    hand_over.covered += [header, ex.options_box, ex.reference_box]
    return [header, ex.options_box, main, ex.reference_box]


def show_folded_tools(toggle: w.ToggleButton, box: w.Box, build: Callable[[], None]) -> None:
    """The folded tools opened or closed by their toggle; `build` makes them on first opening."""
    opened = toggle.value
    if opened:
        build()
    toggle.description = fold_title(FOLDED_TITLE, opened)
    box.layout.display = SHOWN if opened else "none"


def build_folded_tools(ex: Explorer) -> None:
    """The folded tools' widgets (each part's `build`), once, in the folded box."""
    positions, editor, exporter, links = ex.positions, ex.editor, ex.exporter, ex.links
    for part in (positions, editor, exporter, links):
        part.build()
    # the editor opens right under its button, where the reader's eyes and focus are (on a
    # wide page the side column, on a phone under the board), not at the top of the page
    editor.editor_box.add_class(EDITOR_CLASS)
    ex.tools_box.children = (
        positions.position_text,
        ex.looks.make(w.HBox, children=[positions.position_load, editor.edit_toggle], layout=ROW),
        editor.editor_box,
        positions.position_note,
        positions.position_switch,
        exporter.export_button,
        exporter.export_area,
        exporter.pictures.box,
        links.copy_link,
        links.link_note,
    )
    # after the editor part's own observer (which opens it): the focus follows into it
    focus = ex.hand_over.focus
    editor.edit_toggle.observe(ex.page.acts(lambda ch: focus_editor(editor, focus, ch["new"])), names="value")


def focus_editor(editor: EditorPart, focus: FocusMover, opened: bool) -> None:
    """The editor, opened under its button, takes the keyboard focus (its first control)."""
    if opened and editor.editor_box.children:
        focus.move_to(EDITOR_CLASS)
