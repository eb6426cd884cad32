"""The Explorer: the table a player sits at, and an analysis board.

Play any game by clicking or by keyboard, see legal moves, undo/redo, let an agent take a
side (it sees only its player's view). What the page shows is decided by one
`Presentation` (widgets/presentation.py): in a player's view nothing on the page — board,
move list, menus, position text, export — reveals what that player cannot know. Games with
hidden information open in the view of the player to move; "All-seeing" is an explicit
analysis switch. Chance (deals, draws) resolves itself with a seeded generator unless the
teaching switch asks for it by hand.

The game itself is a `rules_kernel.session.Session` (`explorer.session`): the tree of
actions, undo/redo, automatic chance and the agent's seat, records out. The Explorer is a
view of it: it observes the session and redraws once per change, computing one
Presentation (and so one scene) per redraw.
"""

from __future__ import annotations

from base64 import b64encode
from typing import Any

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.core import Action, Move, State
from rules_kernel.session import Change, Session, SessionError
from widgets.board import Board
from widgets.controller import ClickController
from widgets.draw import OWNER_COLOURS, owner_colour
from widgets.editor import PositionEditor, has_editor
from widgets.explorer.common import (
    AGENTS,
    ALL_SEEING,
    AUTO,
    FOLLOW_TURN,
    LABEL_FITS,
    PERFECT_AGENT,
    ROW,
    WIDE,
    OnFirstUse,
    Page,
)
from widgets.explorer.curtain import HandOver
from widgets.explorer.history import History
from widgets.explorer.perfect_play import PerfectPlay
from widgets.export_menu import PictureExport
from widgets.links import PageAddress, copied_html, link_query, parse_link
from widgets.looks import Looks
from widgets.options import OptionsForm
from widgets.presentation import Presentation, has_secrets, name_at, present
from widgets.reference import reference_panel
from widgets.runtime import SHOWN
from widgets.safe import guarded, html

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


#: the title of the explorer's folded tools
FOLDED_TITLE = "Position, export and link"


class _FromPart:
    """An attribute of the explorer that is one of its parts' (a widget, a flag): read and set
    on the part. `build` names the explorer's method that makes it where it is made on first
    use: the folded tools ("Position, export and link") when the fold is first opened, the
    hand-over's curtain when a turn is first handed over, the looking-back note when a past
    position is first shown, or any of them when a script asks for one."""

    def __init__(self, part: str, name: str | None = None, build: str | None = None) -> None:
        self.part, self.attribute, self.build = part, name, build

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.attribute = self.attribute or name

    def __get__(self, explorer: Explorer | None, owner: type | None = None) -> Any:
        if explorer is None:
            return self
        if self.build is not None:
            getattr(explorer, self.build)()
        return getattr(getattr(explorer, self.part), self.attribute)

    def __set__(self, explorer: Explorer, value: Any) -> None:
        setattr(getattr(explorer, self.part), self.attribute, value)


class Explorer(w.VBox):
    """Explore a game in a notebook:

        from widgets import Explorer
        Explorer("yokai-3x4")
        Explorer("war-stories", seed=7)              # chance is seeded: the same deal again
        Explorer("yokai-5x6", position="...")        # from a position text
        Explorer("yokai-3x4", position="...", compact=True)   # a live diagram for explainers

    `compact=True` shows the board, the status, the move list and Undo/Reset only (no game
    picker, options or analysis controls): a diagram a reader can play on. Without a game:
    the first in the games' declared order (Yōkai no Mori 3x4).
    """

    position_text = OnFirstUse("_build_folded_tools")
    position_load = OnFirstUse("_build_folded_tools")
    position_note = OnFirstUse("_build_folded_tools")
    edit_toggle = OnFirstUse("_build_folded_tools")
    position_switch = OnFirstUse("_build_folded_tools")
    export_button = OnFirstUse("_build_folded_tools")
    export_area = OnFirstUse("_build_folded_tools")
    pictures = OnFirstUse("_build_folded_tools")
    copy_link = OnFirstUse("_build_folded_tools")
    link_note = OnFirstUse("_build_folded_tools")
    curtain_text = _FromPart("hand_over")
    curtain_button = _FromPart("hand_over")
    done_text = _FromPart("hand_over")
    done_button = _FromPart("hand_over")
    curtain = _FromPart("hand_over")
    done_box = _FromPart("hand_over")
    focus = _FromPart("hand_over")
    curtain_for = _FromPart("hand_over")
    viewer = _FromPart("hand_over")
    _handing_over = _FromPart("hand_over", "handing_over")
    _shown_viewer = _FromPart("hand_over", "shown_viewer")
    looking_back_text = _FromPart("history")
    back_to_game = _FromPart("history")
    moves_heading = _FromPart("history")
    move_list = _FromPart("history")
    looking_back = _FromPart("history")
    lines_here = _FromPart("history")
    undo_button = _FromPart("history")
    redo_button = _FromPart("history")
    reset_button = _FromPart("history")
    at_the_end = _FromPart("history")
    perfect = _FromPart("perfect_play")
    tablebase = _FromPart("perfect_play")
    analysis = _FromPart("perfect_play")
    chance_button = OnFirstUse("_build_chance_controls")
    chance_select = OnFirstUse("_build_chance_controls")
    chance_apply = OnFirstUse("_build_chance_controls")

    def __init__(
        self,
        game: str | rk.Game | None = None,
        *,
        position: str | None = None,
        seed: int | None = None,
        compact: bool = False,
        analysis_seconds: float = 15.0,
        **options: Any,
    ) -> None:
        if game is None:
            game = rk.list_games(ordered=True)[0]
        game_id = game.id if isinstance(game, rk.Game) else game
        rk.game_class(game_id)  # an unknown game raises the kernel's clear OptionError here
        self.seed = seed
        self.compact = compact
        self.analysis_seconds = analysis_seconds
        self.start_position = position
        self.board = Board()
        self.board.zones_beside = not compact  # the explorer's page is wide: hands beside the board
        self.controller: ClickController | None = None
        self._stop_observing = lambda: None
        self._view: Presentation | None = None  # the last presentation shown (export reads it)
        # widgets built on first use (_OnFirstUse): the folded tools', the chance controls
        self._folded_built = self._chance_built = False
        self.looks = Looks()
        self._form: OptionsForm | None = None  # made on first use (`form`)
        self.message = self.looks.make(w.HTML)
        self.page = Page(self.looks, self.message)
        self._make_controls()
        self.hand_over = HandOver(
            self.page,
            self.board,
            self.perspective,
            lambda: self.agent_seats,
            redraw=self._redraw,
            refresh=self.refresh,
        )
        self.history = History(
            self.page, self.hand_over, compact=compact, redraw=self._redraw, refresh=self.refresh
        )
        self.perfect_play = PerfectPlay(
            self.page,
            self.hand_over,
            self.board,
            self.agent_kind,
            lambda: self.controller,
            seconds=analysis_seconds,
            compact=compact,
            refresh=self.refresh,
        )
        #: the parts (widgets/explorer/*.py): each is given the session and the game
        self._parts = [self.hand_over, self.history, self.perfect_play]
        self.session: Session | None = None
        self._wire()
        body = self._layout()
        super().__init__([self.looks.make(w.HTML, value=PAGE_CSS), *body])
        self.add_class("re-explorer")
        self.game_select.value = game_id
        self._set_options(game_id, dict(game.options) if isinstance(game, rk.Game) else options)
        self.new_game()
        if position is not None:
            self.set_position(position)

    @property
    def session(self) -> Session | None:
        """The game explored (rules_kernel.session): its tree, undo/redo, chance, agents."""
        return self.__dict__.get("_session")

    @session.setter
    def session(self, session: Session | None) -> None:
        self.__dict__["_session"] = session
        for part in self._parts:
            part.session = session

    @property
    def game(self) -> rk.Game | None:
        """The game shown, as loaded with its options."""
        return self.__dict__.get("_game")

    @game.setter
    def game(self, game: rk.Game) -> None:
        self.__dict__["_game"] = game
        for part in self._parts:
            part.game = game

    def __repr__(self) -> str:
        # short: a notebook shows the widget, and ipywidgets' own repr lists every trait of
        # every widget inside (15 kB, a fifth of the explorer cell's time)
        game = getattr(self, "game", None)
        return f"Explorer({game.id if game is not None else ''!r})"

    # --- building ----------------------------------------------------------------------
    def _make_controls(self) -> None:
        # widgets.looks: a control that is hidden or shown later keeps a Layout of its own
        make = self.looks.make
        self.game_select = make(
            w.Dropdown,
            options=[(rk.game_class(g).title or g, g) for g in rk.list_games()],
            description="Game",
            layout={"max_width": "280px"},
        )
        # a real button (a Tab stop, Enter or Space opens it), not an accordion's title
        self.options_toggle = make(w.ToggleButton, value=False, description="Options ▸", layout=AUTO)
        self.options_toggle.add_class("re-options-toggle")
        self.options_form_box = w.Box(layout=w.Layout(display="none"))
        self.options_box = make(
            w.VBox,
            children=[self.options_toggle, self.options_form_box],
            layout={"align_items": "flex-start"},
        )
        self.reference_box = make(w.Box, layout={"width": "100%"})  # the game's reference, folded
        self.new_button = make(
            w.Button, description="New game", button_style="primary", tooltip="Start again with these options"
        )
        self.players = make(w.HTML)
        self.players.add_class("re-players")
        self.status = make(w.HTML)
        self.choices = make(w.HBox, layout=ROW)
        self.turn_board = w.ToggleButton(
            value=False,
            description="Turn the board",
            tooltip="See the board from the other side (a seat's view starts from its own side)",
            layout=w.Layout(width="auto"),
        )
        self.hex_names = w.ToggleButton(
            value=False,
            description="Hex names",
            tooltip="Write every hex's name on the map, over the coins (the move list names hexes so)",
            layout=w.Layout(width="auto"),
        )
        self.perspective = make(w.Dropdown, description="View", style=LABEL_FITS, layout=WIDE)
        #: one switch per seat: an agent plays that seat (any number of seats, all four in War Chest 4p)
        self.agent_plays: list[w.Checkbox] = []
        self.agents_box = make(w.HBox, layout={**ROW, "align_items": "center"})
        self.agents_box.add_class("re-agent-seats")
        self.agent_kind = make(
            w.Dropdown, options=AGENTS, value="random", description="Agent", style=LABEL_FITS, layout=WIDE
        )
        self.manual_chance = make(
            w.Checkbox, value=False, indent=False, description="Resolve chance by hand (teaching)"
        )
        self.chance_box = w.VBox(layout=w.Layout(display="none"))  # _build_chance_controls
        self.all_moves = make(
            w.Dropdown,
            description="Any move",
            style=LABEL_FITS,
            layout={"width": "100%", "max_width": "250px"},
        )
        self.play_button = make(w.Button, description="Play", layout={"width": "70px"})
        self.editor_box = w.Box(layout=w.Layout(display="none", width="100%"))
        #: what `state.status()` reports of a study position (never an error: it is playable)
        self.study_status = make(w.HTML)
        #: what a screen reader hears after a click or a move (visually hidden)
        self.announcer = make(w.HTML)
        #: shareable links: the page's query string opens a position; "Copy link" writes one
        self.address = PageAddress(layout=self.looks.shared(w.Layout, {}))  # it draws nothing
        #: the position's text, the board editor, the record, the picture and the link: folded,
        #: built on first opening (_build_folded_tools)
        self.tools_toggle = make(w.ToggleButton, value=False, description=f"{FOLDED_TITLE} ▸", layout=AUTO)
        self.tools_toggle.add_class("re-tools-toggle")
        self.tools_box = w.VBox(layout=w.Layout(display="none", width="100%"))

    def _layout(self) -> list[w.Widget]:
        make = self.looks.make
        self.board_column = w.VBox(
            [self.players, self.done_box, self.curtain, self.board.widget, self.focus, self.announcer],
            layout=w.Layout(flex="1 1 420px", min_width="280px", max_width="600px", margin="0 16px 8px 0"),
        )
        board_column = self.board_column
        steps = [self.undo_button, self.redo_button, self.reset_button]
        side = [
            self.status,
            self.study_status,
            self.message,
            self.choices,
            self.perfect,
            *(() if self.compact else (self.analysis.box,)),
            self.moves_heading,
            self.move_list,
            self.looking_back,
            self.lines_here,
            make(w.HBox, children=[*steps, self.turn_board, self.hex_names], layout=ROW),
        ]
        if not self.compact:
            side += [
                self.perspective,
                self.agents_box,
                self.agent_kind,
                make(w.HBox, children=[self.all_moves, self.play_button]),
                self.manual_chance,
                self.chance_box,
                self.tools_toggle,
                self.tools_box,
                self.address,
            ]
        side_column = make(
            w.VBox, children=side, layout={"flex": "0 1 330px", "min_width": "260px", "max_width": "100%"}
        )
        side_column.add_class("re-side")
        main = make(w.HBox, children=[board_column, side_column], layout={**ROW, "width": "100%"})
        #: what the hand-over curtain hides besides the board: every control but its own button
        self.hand_over.covered = [side_column]
        if self.compact:
            return [main]
        header = make(w.HBox, children=[self.game_select, self.new_button], layout=ROW)
        self.hand_over.covered += [header, self.options_box, self.editor_box, self.reference_box]
        return [header, self.options_box, self.editor_box, main, self.reference_box]

    def _wire(self) -> None:
        on = self._acts = self.page.acts
        self.board.on_click(on(self.click))
        self.board.on_escape(on(self.clear_selection))
        self.board.on_history(on(lambda key: self.history.history_key(key)))
        self.game_select.observe(on(lambda ch: self._set_options(ch["new"], {})), names="value")
        self.new_button.on_click(on(lambda _: self._new_game_pressed()))
        self.options_toggle.observe(on(lambda _: self._show_options()), names="value")
        self.tools_toggle.observe(on(lambda _: self._show_folded_tools()), names="value")
        self.perspective.observe(on(lambda _: self.hand_over.view_changed()), names="value")
        self.turn_board.observe(on(lambda _: self.refresh()), names="value")
        self.hex_names.observe(on(lambda _: self.refresh()), names="value")
        self.agent_kind.observe(on(lambda _: self._settings_changed()), names="value")
        self.manual_chance.observe(on(lambda _: self._settings_changed()), names="value")
        self.play_button.on_click(on(lambda _: self._play_selected()))
        self.address.on_opened(guarded(self._link_refused)(self.open_link))
        self.address.on_copied(on(self._link_copied))

    def _replace(self, box: w.Box, children: tuple[w.Widget, ...]) -> None:
        self.page.replace(box, children)

    def _set_options(self, game_id: str, values: dict[str, Any]) -> None:
        """The options the next New game starts with: their form is made when it is first shown
        or read (`form`); the form of the options replaced is closed."""
        self._replace(self.options_form_box, ())
        self._form, self._form_wanted = None, (game_id, dict(values))
        self._show_options()

    @property
    def form(self) -> OptionsForm:
        """The options' form, made on first use."""
        if self._form is None:
            self._form = OptionsForm(*self._form_wanted)
            self.options_form_box.children = (self._form.widget,)
        return self._form

    def _option_values(self) -> dict[str, Any]:
        """What the form holds, or before it is made what it would be made with."""
        if self._form is not None:
            return self._form.values()
        game_id, values = self._form_wanted
        options = rk.game_class(game_id).OPTIONS
        return {name: values.get(name, option.default) for name, option in options.items()}

    def _show_options(self) -> None:
        opened = self.options_toggle.value
        if opened:
            self.form  # noqa: B018 (made on first showing)
        title = rk.game_class(self.game_select.value).title
        self.options_toggle.description = f"Options of {title} {'▾' if opened else '▸'}"
        self.options_toggle.tooltip = ("Hide" if opened else "Show") + f" the options of {title}"
        self.options_form_box.layout.display = SHOWN if opened else "none"

    def _build_hand_over(self) -> None:
        self.hand_over.build()

    def _build_looking_back(self) -> None:
        self.history.build()

    def _build_chance_controls(self) -> None:
        """Sample chance, or pick an outcome and apply it: once, when chance is first resolved by
        hand (the box is shown while it is)."""
        if self._chance_built:
            return
        self._chance_built = True
        make = self.looks.make
        self.chance_button = make(
            w.Button, description="Sample chance", tooltip="Draw the pending chance event"
        )
        self.chance_select = make(w.Dropdown, description="or pick", layout=WIDE)
        self.chance_apply = make(w.Button, description="Apply", layout={"width": "70px"})
        on = self._acts
        self.chance_button.on_click(on(lambda _: self.sample_chance()))
        self.chance_apply.on_click(on(lambda _: self._apply_chosen_chance()))
        self.chance_box.children = (
            self.chance_button,
            make(w.HBox, children=[self.chance_select, self.chance_apply]),
        )

    def _show_folded_tools(self) -> None:
        opened = self.tools_toggle.value
        if opened:
            self._build_folded_tools()
        self.tools_toggle.description = f"{FOLDED_TITLE} {'▾' if opened else '▸'}"
        self.tools_box.layout.display = SHOWN if opened else "none"

    def _build_folded_tools(self) -> None:
        """The folded tools' widgets (the `_OnFirstUse` attributes), once, showing the position
        on the page."""
        if self._folded_built:
            return
        self._folded_built = True
        make = self.looks.make
        self.position_text = make(
            w.Text,
            description="Position",
            style=LABEL_FITS,
            layout=WIDE,
            placeholder="paste a position text here",
        )
        self.position_load = make(w.Button, description="Load position", layout=AUTO)
        self.position_note = make(w.HTML)
        #: the board editor (a game whose states have `edit` hooks), opened on the position shown
        self.edit_toggle = w.ToggleButton(
            value=False,
            description="Edit position",
            tooltip="Set up a position by clicking: pieces, hands, side to move",
            layout=w.Layout(width="auto"),
        )
        self.position_switch = make(w.HBox, layout=ROW)
        self.export_button = make(
            w.Button,
            description="Export record",
            layout=AUTO,
            tooltip="Rebuilt on every change; this re-renders the link",
        )
        self.export_area = make(w.HTML)
        #: the position shown or the game so far as a picture, in the page's view
        self.pictures = PictureExport(self._picture_source)
        self.copy_link = make(
            w.Button,
            description="Copy link",
            tooltip="A link to this position and its moves (in a player's view: the game and view only)",
            layout=AUTO,
        )
        self.link_note = make(w.HTML)
        on = self._acts
        self.edit_toggle.observe(on(lambda _: self._editing_switched()), names="value")
        self.position_load.on_click(on(lambda _: self.set_position(self.position_text.value)))
        self.export_button.on_click(on(lambda _: self.export()))
        self.copy_link.on_click(on(lambda _: self.address.copy(self.link_query())))
        self.tools_box.children = (
            self.position_text,
            make(w.HBox, children=[self.position_load, self.edit_toggle], layout=ROW),
            self.position_note,
            self.position_switch,
            self.export_button,
            self.export_area,
            self.pictures.box,
            self.copy_link,
            self.link_note,
        )
        if self._view is not None:
            self._show_position(self._view, self.curtain_for is not None)
            self.export(self._view)

    @property
    def option_widgets(self) -> dict[str, w.Widget]:
        """The main input of each option (for scripts and tests)."""
        return {
            name: getattr(f, "input", None) or getattr(f, "number", None) or f.widget
            for name, f in self.form.fields.items()
        }

    # --- the game ----------------------------------------------------------------------
    def _new_game_pressed(self) -> None:
        """New game from its button: a link in the address bar (opened, or copied) names the
        game before, so once the new game has started the address bar drops it and a reload
        opens a fresh page. Only here: opening a link also starts a new game, and keeps it."""
        before = self.session
        self.new_game()
        if self.session is not before:  # options the game refused keep the game, and its link
            self.address.clear()

    def new_game(self) -> None:
        try:
            self.game = rk.load_game(self.game_select.value, **self._option_values())
        except rk.RulesError as exc:
            self.page.say(str(exc), error=True)
            return
        self.secrets = has_secrets(self.game)
        if not self.compact:
            self._replace(self.reference_box, (reference_panel(self.game),))
        with self.page.quiet:  # the menus' observers wait until every menu fits the new game
            self._set_menus()
        self.page.say("")
        self._note_position("")
        self._start(self.game.initial_state())

    def _set_menus(self) -> None:
        players = self.game.player_names
        views = [(f"{p}'s view", i) for i, p in enumerate(players)]
        if self.secrets:
            views = [
                ("Player to move (hand over between turns)", FOLLOW_TURN),
                *views,
                ("All-seeing (analysis)", ALL_SEEING),
            ]
        else:
            views = [("Whole board", ALL_SEEING), *views]
        # the view sticks across New game of the same game; another game opens in its own
        # default (a game with secrets in the view of the player to move, never all-seeing)
        kept = self.perspective.value if getattr(self, "_menus_for", None) == self.game.id else None
        self._menus_for = self.game.id
        self.perspective.options = views
        self.perspective.value = kept if kept in [value for _, value in views] else views[0][1]
        self.perfect_play.show_switch()
        kind = self.agent_kind.value
        ready = self.game.SOLVED_TABLE is not None and self.game.solved_table_availability() == "ready"
        self.agent_kind.options = AGENTS + ((PERFECT_AGENT,) if ready else ())
        if kind in [value for _, value in self.agent_kind.options]:
            self.agent_kind.value = kind
        self._set_agent_seats(players)

    def _start(self, state: State, session: Session | None = None) -> None:
        """A new session from `state` (chance and the agent act at once), observed by this page;
        or `session`, made already (a link's line)."""
        self._stop_observing()
        self.session = session or Session(
            state, seed=self.seed, agents=self._agents(), manual_chance=self.manual_chance.value
        )
        self._stop_observing = self.session.observe(self._session_changed)
        self.hand_over.start()
        self._zoom: float | None = None
        self._forget_the_last_game()
        self._redraw()

    def _forget_the_last_game(self) -> None:
        """Nothing of the game before stays on the page: the screen-reader line, the notes
        (looking back, the hand-over's, a link copied), the picture made, an open editor; the
        redraw then writes the status, the list, the record and the analysis of this one."""
        self._announce("")
        if self.editor_box.children:
            self._replace(self.editor_box, ())
            self.editor_box.layout.display = "none"
        if self._folded_built:
            with self.page.quiet:
                self.edit_toggle.value = False
            self.pictures.link.value = self.link_note.value = ""
        self.history.forget()
        if self.curtain.children:
            self.curtain_text.value = self.done_text.value = self.curtain_button.description = ""
        self._replace(self.choices, ())
        self._replace(self.lines_here, ())

    def _agents(self) -> dict[int, str]:
        return {seat: self.agent_kind.value for seat in self.agent_seats}

    @property
    def agent_seats(self) -> list[int]:
        """The seats an agent plays."""
        return [seat for seat, switch in enumerate(self.agent_plays) if switch.value]

    def _set_agent_seats(self, players: tuple[str, ...]) -> None:
        """One switch per seat; a seat an agent played keeps its agent (settings stick)."""
        kept = set(self.agent_seats)
        self.agent_plays = [
            self.looks.make(w.Checkbox, value=seat in kept, indent=False, description=name, layout=AUTO)
            for seat, name in enumerate(players)
        ]
        for switch in self.agent_plays:
            switch.observe(self._acts(lambda _: self._settings_changed()), names="value")
        label = self.looks.make(w.HTML, value="Agent plays:&nbsp;")
        self._replace(self.agents_box, (label, *self.agent_plays))

    def _session_changed(self, change: Change) -> None:
        """The one place a change of the game is drawn: once per session call."""
        self._redraw()

    def _redraw(self) -> None:
        self.hand_over.maybe_curtain()
        self.refresh()

    def _settings_changed(self) -> None:
        """The agent's seat or kind, or chance by hand: the session takes them and, if it is now
        an agent's turn or chance is due, plays on (one change, one redraw)."""
        if self.page.quiet or self.session is None:
            return
        with self.session.batch():
            self.session.agents = self._agents()
            self.session.manual_chance = self.manual_chance.value
            self.session.run_automatic()

    def set_position(self, position: str | State) -> None:
        """Start exploring from a position (its text, as `state.to_text()` gives it). A text
        that is not one is explained under the box (the game on show stays); a text of another
        game is offered to switch to it."""
        self._note_position("")
        if isinstance(position, str):
            text = position.strip()
            if not text:
                self._note_position("Paste a position text into the box first.", error=True)
                return
            try:
                state = self.game.from_text(text)
            except rk.RulesError as exc:
                self._position_refused(text, exc)
                return
        else:
            state = position
        self.start_position = state.to_text()
        self.page.say("")
        self._note_position("")
        self._start(state)

    def _note_position(self, text: str, *, error: bool = False) -> None:
        """A note right under the position box: the whole sentence, wrapped, never cut (an
        error opens the folded tools, where it is; no note clears the offer to switch games)."""
        if not text and not self._folded_built:
            return  # nothing to clear
        if error and not self.compact:
            self.tools_toggle.value = True
        if not text:
            self._replace(self.position_switch, ())
        colour = "#B00020" if error else "#333"
        box = (
            '<div role="alert" style="{style}">{text}</div>' if error else '<div style="{style}">{text}</div>'
        )
        style = f"color:{colour};line-height:1.4;max-width:32em"
        self.position_note.value = html(box, style=style, text=text) if text else ""

    def _position_refused(self, text: str, error: rk.RulesError) -> None:
        example = self.game.initial_state().to_text()
        field, why = getattr(error, "field", None), getattr(error, "why", None)
        reason = f"in its {field} part, {why}" if field and why else str(error)
        self._note_position(
            f"This is not a {self.game.title} position: {_sentence(reason)} "
            f"For example, the start of the game reads: {example}",
            error=True,
        )
        other = _game_of_position(text, self.game.id)
        if other is not None:
            switch = w.Button(
                description=f"Switch to {rk.game_class(other).title} and load it",
                layout=w.Layout(width="auto", max_width="100%"),
            )
            switch.on_click(self._acts(lambda _: self._switch_and_load(other, text)))
            self._replace(self.position_switch, (switch,))

    def _switch_and_load(self, game_id: str, text: str) -> None:
        self.game_select.value = game_id
        self.new_game()
        self.position_text.value = text
        self.set_position(text)

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def actions(self) -> list[Action]:
        """The actions from the start to the current position (the session's current line)."""
        return [node.action for node in self.session.node.path()[1:]]

    @property
    def states(self) -> list[State]:
        """The states from the start to the current position, computed on each call (the
        session keeps only some; read `session` for long games)."""
        return list(self.session.states())

    def play(self, action: Action | str) -> State:
        """Play a move or chance outcome (or its notation); errors are shown, not raised."""
        try:
            self.hand_over.stop_looking()
            self.session.play(action)
        except rk.RulesError as exc:
            self.page.say(str(exc), error=True)
            return self.state
        self.page.say("")
        return self.state

    def undo(self) -> None:
        """Take back the last move; in the view of the player to move, the player at the
        screen's own whole turn (widgets/explorer/history.py)."""
        self.history.undo()

    def redo(self) -> None:
        """Walk the current line on again: what `undo` took back."""
        self.history.redo()

    def reset(self) -> None:
        """Back to the start; the moves stay in the session's tree (Redo walks them again)."""
        self.history.reset()

    def look_at(self, ply: int) -> None:
        """Show the position after `ply` of the current line (0: the start); nothing is undone."""
        self.history.look_at(ply)

    def back_to_the_game(self) -> None:
        """Back to the last position of the current line, where the game stands."""
        self.history.back_to_the_game()

    def sample_chance(self) -> None:
        if self.curtain_for is not None:
            return
        if self.state.current_player == rk.CHANCE and not self.state.is_terminal():
            with self.session.batch():
                self.session.sample_chance()
                self.session.run_automatic()

    def _apply_chosen_chance(self) -> None:
        if self.chance_select.value is not None:
            self.play(self.chance_select.value)

    def _play_selected(self) -> None:
        if self.all_moves.value is not None:
            self.play(self.all_moves.value)

    # --- clicks ------------------------------------------------------------------------
    def click(self, cell: str) -> None:
        if self.controller is None or self.curtain_for is not None:
            return
        result = self.controller.click(cell)
        self._replace(self.choices, ())
        if result.kind == "move":
            self.play(result.move)
            return
        if result.kind == "choose":
            self._replace(self.choices, tuple(self._choice_button(m) for m in result.choices))
        self._show_highlight()
        self._announce_selection()

    def _announce_selection(self) -> None:
        """For a screen reader: what is selected and how many places it may go."""
        prefix = self.controller.prefix if self.controller else ()
        if not prefix or self._view is None:
            self._announce("Selection cleared." if self.controller else "")
            return
        scene = self._view.scene
        where = prefix[-1]
        name = name_at(scene, where) or "a face-down item"
        targets = len(self.controller.next_cells())
        choices = len(self.choices.children)
        then = f"{targets} place{'s' if targets != 1 else ''} to go" if targets else f"{choices} choices"
        self._announce(f"{name} on {_cell_name(scene, where)} selected: {then}.")

    def _announce(self, text: str) -> None:
        self.announcer.value = html('<div class="re-sr-only" aria-live="polite">{text}</div>', text=text)

    def clear_selection(self) -> None:
        if self.controller is not None:
            self._announce("Selection cleared.")
            self.controller.prefix = ()
            self._replace(self.choices, ())
            self._show_highlight()

    def _choice_button(self, move: Move) -> w.Button:
        button = self.looks.make(
            w.Button, description=move.choice_label, button_style="success", tooltip=str(move), layout=AUTO
        )
        button.on_click(self._acts(lambda _: self.play(move)))
        return button

    # --- showing -----------------------------------------------------------------------
    def presentation(self) -> Presentation:
        return present(self.session, self.viewer)

    def refresh(self) -> None:
        """Draw the page from one presentation of the session (one scene)."""
        view = self._view = self.presentation()
        curtain = self.curtain_for is not None
        if not curtain:
            self.hand_over.uncover()
        self.perfect_play.show_switch()  # the solved table may have become ready meanwhile
        self.controller = _Controller(view.moves)
        self.hand_over.show(curtain)
        self._show_players(view)
        status = "" if curtain else view.status + self.perfect_play.status()
        self.status.value = html('<div role="status" aria-live="polite"><b>{text}</b></div>', text=status)
        last = view.lines[-1] if view.lines and not curtain else None
        self._announce(f"{last.side}: {last.text}." if last else "")
        self.perfect_play.analyse(view, curtain)
        if not curtain:
            self._shown_viewer = view.viewer
            first = self.controller.first_cells()
            self.board.show(
                view.scene,
                cursor=first[0] if first else "",
                flip=self._flip(view.scene),
                **self._highlight_cells(view),
            )
            if self._zoom is None:  # set once per game from its start: the board never jumps in size
                self._zoom = (
                    1.0 if self.compact else board_zoom(self.board.natural_width, self.board.natural_height)
                )
            zoom = self.board.widget.zoom = self._zoom
            width = f"{self.board.natural_width * zoom:.0f}px"  # the board column fits its drawing
            self.board_column.layout.max_width = width
            self.board_column.layout.flex = f"1 1 {width}"
        self.history.show(view, curtain)
        self._show_menus(view, curtain)
        self._show_position(view, curtain)
        if self._folded_built:
            self.export(view)  # the download link follows the game
        self._replace(self.choices, ())
        if curtain:
            self.hand_over.cover(self, self._forget_behind_curtain)

    def _forget_behind_curtain(self) -> None:
        """Nothing of the view shown before the curtain stays on the page: the screen-reader
        lines, the notes, the picture and link made in it, an open editor."""
        self._announce("")
        self.status.value = self.message.value = self.study_status.value = ""
        if self.editor_box.children:
            self._replace(self.editor_box, ())
            self.editor_box.layout.display = "none"
        if self._folded_built:
            with self.page.quiet:  # the editor's switch is set back without its observer acting
                self.edit_toggle.value = False
            self.pictures.link.value = self.link_note.value = self.position_note.value = ""
        self.history.forget()

    def _flip(self, scene) -> bool | None:
        """The board from its own side for a seat's view (the layout's default), turned round
        when the reader asks; only square boards turn (a hex map has no sides)."""
        if scene.layout != "square":
            self.turn_board.layout.display = "none"
            return None
        self.turn_board.layout.display = SHOWN
        own_side = scene.perspective == 1
        return (not own_side) if self.turn_board.value else own_side

    def _show_players(self, view: Presentation) -> None:
        names = self.game.player_names
        to_move = self.state.current_player
        parts = []
        for i, name in enumerate(names):
            marker = " ◀ to move" if i == to_move and not self.state.is_terminal() else ""
            agent = " (agent)" if i in self.agent_seats else ""
            # behind the curtain nobody is "you" yet: the one at the screen may be the last player
            you = " (you)" if view.viewer == i and self.curtain_for is None else ""
            parts.append(
                html(
                    '<span style="margin-right:14px;white-space:nowrap">'
                    '<span class="re-swatch" style="background:{colour}"></span>'
                    "{name}{you}{agent}{marker}</span>",
                    colour=owner_colour(i),
                    name=name,
                    you=you,
                    agent=agent,
                    marker=marker,
                )
            )
        self.players.value = '<div style="display:flex;flex-wrap:wrap">' + "".join(parts) + "</div>"

    def _show_menus(self, view: Presentation, curtain: bool) -> None:
        moves = () if curtain else view.moves
        self.all_moves.options = [(str(m), m) for m in moves]
        self.all_moves.value = moves[0] if moves else None
        self.all_moves.disabled = self.play_button.disabled = not moves
        pending = view.chance_pending and not curtain
        self.chance_box.layout.display = SHOWN if self.manual_chance.value else "none"
        if not self.manual_chance.value and not self._chance_built:
            return
        self.chance_button.disabled = not pending
        # the outcome list names every possibility with its odds: analysis only
        self.chance_select.options = self._chance_options() if pending and view.viewer is None else []
        self.chance_apply.disabled = not self.chance_select.options

    def _show_position(self, view: Presentation, curtain: bool) -> None:
        self._show_study_status(view, curtain)
        if not self._folded_built:
            return  # built showing it
        secret = not view.secrets_visible or curtain
        self.position_text.value = "" if secret else self.state.to_text()
        self._show_edit_toggle()
        self.position_text.placeholder = (
            "hidden in a player's view (it names every card)" if secret else "paste a position text here"
        )

    def _show_study_status(self, view: Presentation, curtain: bool) -> None:
        """What makes the position shown unusual for a real game (a study position: pieces out
        of the game, a side without its Koropokkuru, ...), as `state.status()` reports it,
        read from the viewer's own view; nothing for a position reached by play."""
        if curtain:
            self.study_status.value = ""
            return
        state = self.state if view.viewer is None else self.state.view(view.viewer)
        remarks = state.status()
        self.study_status.value = (
            html(
                '<div class="re-study" style="color:#5a4a00;line-height:1.4;max-width:32em">'
                "<b>Study position:</b> {remarks}</div>",
                remarks="; ".join(remarks),
            )
            if remarks
            else ""
        )

    def _chance_options(self) -> list[tuple[str, Action]]:
        try:
            return [(f"{o} ({p:.0%})", o) for o, p in self.state.chance_outcomes()][:200]
        except rk.ChanceNotEnumerableError:
            return []

    def _highlight_cells(self, view: Presentation) -> dict:
        prefix = self.controller.prefix if self.controller else ()
        targets = self.controller.next_cells() if prefix else ()
        return {
            "last": view.scene.last_cells,
            "selected": prefix,
            "targets": targets,
            "marks": self.perfect_play.marks(),
            "names": self._cell_names(view.scene),
            "arrows": self.analysis.arrows(),
        }

    def _cell_names(self, scene) -> dict[str, str]:
        """A hex map's names written over the coins, while 'Hex names' is on."""
        if scene.layout != "hex":
            self.hex_names.layout.display = "none"
            return {}
        self.hex_names.layout.display = SHOWN
        if not self.hex_names.value:
            return {}
        # an empty hex shows its name already (at its foot): only those under a coin need it
        return {c.id: c.label for c in scene.cells if c.label and scene.token_at(c.id) is not None}

    def _show_highlight(self) -> None:
        prefix = self.controller.prefix
        self.board.set_highlight(
            last=self.board.highlight.get("last", ()),
            selected=prefix,
            targets=self.controller.next_cells() if prefix else (),
            marks=self.perfect_play.marks(),
            names=self.board.highlight.get("names", {}),
            arrows=self.analysis.arrows(),
        )

    # --- the board editor ---------------------------------------------------------------
    def _editing_switched(self) -> None:
        """Open the editor on the position shown (only where the page may show its text: in
        a player's view of a game with hidden cards the editor would show every card)."""
        if not self.edit_toggle.value:
            self.editor_box.children, self.editor_box.layout.display = (), "none"
            return
        if (self.secrets and self.viewer is not None) or self.curtain_for is not None:
            self.edit_toggle.value = False
            self.page.say("The editor shows every card: open it in the all-seeing view.", error=True)
            return
        editor = PositionEditor(self.state, self._play_edited, self._analyse_edited)
        self.editor_box.children, self.editor_box.layout.display = (editor,), SHOWN

    def _play_edited(self, state: State) -> None:
        self.edit_toggle.value = False
        self.set_position(state)

    def _analyse_edited(self, state: State) -> None:
        self._play_edited(state)
        self.analysis.switch.value = True

    def _show_edit_toggle(self) -> None:
        self.edit_toggle.layout.display = SHOWN if has_editor(self.state) else "none"

    # --- links ---------------------------------------------------------------------------
    def open_link(self, query: str) -> None:
        """Open what a page's query string links to (widgets/links.py); a page without a link
        keeps its game. A bad link is refused whole, in one line, and nothing changes."""
        link = parse_link(query)
        if link is None:
            return
        states, actions = link.line()
        with self.page.quiet:
            self.game_select.value = link.game
        self._set_options(link.game, link.options)
        self.new_game()
        views = [value for _, value in self.perspective.options]
        wanted = {"all": ALL_SEEING, "turn": FOLLOW_TURN}.get(link.view or "", link.view)
        wanted = int(wanted) if isinstance(wanted, str) and wanted.isdigit() else wanted
        if wanted in views:
            self.perspective.value = wanted
        if link.position is not None or link.moves:
            self.start_position = states[0].to_text()
            self._start(states[0], self._session_of(states[0], actions, link.ply))
        self.page.say("Opened from the link.")

    def _session_of(self, start: State, actions: list[Action], ply: int | None) -> Session:
        """A session holding the link's line, its chance outcomes as written, at `ply`."""
        session = Session(start, seed=self.seed, agents={}, manual_chance=True)
        with session.batch():
            for action in actions:
                session.play(action, auto=False)
            session.go_to(len(actions) if ply is None else ply)
            session.agents = self._agents()
            session.manual_chance = self.manual_chance.value
        return session

    def _link_refused(self, text: str) -> None:
        self.page.say(f"This link cannot be opened: {text}", error=True)

    def link_query(self) -> str:
        """The query string of a link to the position shown and its line; in a player's view of
        a game with hidden cards, the game, its options and the view only."""
        line = self.session.line()
        mode = self.perspective.value
        view = {ALL_SEEING: "all", FOLLOW_TURN: "turn"}.get(mode, str(mode))
        return link_query(
            self.game,
            [node.state for node in line],
            [node.notation for node in line[1:]],
            self.session.ply,
            view,
            secrets_hidden=self.secrets and self.viewer is not None,
        )

    def _link_copied(self, address: str, copied: bool) -> None:
        players_view = self.secrets and self.viewer is not None
        note = " (a player's view: the game and the view only)" if players_view else ""
        self.link_note.value = copied_html(address, copied, note)

    # --- records -----------------------------------------------------------------------
    def record(self) -> records.Record:
        """The game so far as a record (rules_kernel.records); from a loaded position the record
        carries that position as its start."""
        return self.session.to_record(
            self.session.node, players=self.game.player_names, meta={"source": "explorer"}
        )

    def export(self, view: Presentation | None = None) -> str:
        """The game as a record line; the page's download link is rebuilt from it. In a
        player's view the record (it names every card) is offered only after the end."""
        view = view or self._view or self.presentation()
        try:
            line = self.record().to_json() if view.secrets_visible else ""
        except SessionError:
            line, why = "", "this start has no position text to record it from"
        else:
            why = "the record names every hidden card: it is offered after the game or in the all-seeing view"
        if not line:
            self.export_area.value = html('<span style="color:#555">Export: {why}</span>', why=why)
            return ""
        data = b64encode((line + "\n").encode()).decode()
        self.export_area.value = html(
            '<a download="{name}.jsonl" href="data:application/x-ndjson;base64,'
            '{data}">Download {name}.jsonl ({n} actions)</a>',
            name=self.game.id,
            data=data,
            n=len(self.actions),
        )
        return line

    def _picture_source(self) -> tuple[list[State], int | None, str] | str:
        """The line up to the position shown and the page's viewer, for a picture."""
        if self.curtain_for is not None:
            return "Nothing to draw while the board is hidden for the hand-over."
        states = [node.state for node in self.session.node.path()]
        return states, self.viewer, f"{self.game.id}-ply-{self.session.ply}"


#: a board is shown larger than its drawing units while it stays within this box (a 1280x800
#: screen beside the controls, under the page's header) and at most ZOOM_MOST times as large
ROOM_WIDTH, ROOM_HEIGHT, ZOOM_MOST = 880.0, 550.0, 1.4


def board_zoom(width: float, height: float) -> float:
    """How much larger than its drawing a board is shown on a wide page, from the drawing at the
    game's start, its zones beside it: the 3x4 board grows 1.4 times (its squares about 118
    px, the board 470 px tall), a hex map as wide as fits beside the controls."""
    return max(1.0, min(ZOOM_MOST, ROOM_WIDTH / width, ROOM_HEIGHT / height))


def _cell_name(scene, cell: str) -> str:
    """A cell as the board names it (a War Chest hex's label), a zone item as 'the hand'."""
    for board_cell in scene.cells:
        if board_cell.id == cell:
            return board_cell.label or cell
    return "the side of the board"


def _sentence(text: str) -> str:
    """A kernel message as the end of a sentence: a full stop last, at most 600 characters."""
    text = " ".join(text.split())[:600]
    if not text:
        return ""
    return text if text.endswith((".", "!", "?")) else text + "."


def _game_of_position(text: str, besides: str) -> str | None:
    """The first other game (in the games' order) whose default options read `text`."""
    for game_id in rk.list_games(ordered=True):
        if game_id == besides:
            continue
        try:
            rk.load_game(game_id).from_text(text)
        except rk.RulesError:
            continue
        return game_id
    return None


class _Controller(ClickController):
    """Clicks -> moves over the moves the viewer may make (none when it is not their turn)."""

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = list(moves)
        self.prefix = ()


__all__ = ["ALL_SEEING", "FOLLOW_TURN", "Explorer", "OWNER_COLOURS"]
