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
Presentation (and so one scene) per redraw. Each concern of the page is a part of its own
beside this module (docs/widgets.md, "The explorer's parts"): the Explorer makes them, gives
them the session and the game, wires them together and draws them in one `refresh`.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as w

import rules_kernel as rk
from rules_kernel.core import Action, State
from rules_kernel.session import Change, Session
from widgets.board import Board
from widgets.explorer import building
from widgets.explorer.building import PAGE_CSS, ROOM_HEIGHT, ROOM_WIDTH, board_zoom, fit_board
from widgets.explorer.clicks import Clicks
from widgets.explorer.common import FromPart, Page
from widgets.explorer.curtain import HandOver
from widgets.explorer.editor_part import EditorPart
from widgets.explorer.export import ExportPart
from widgets.explorer.from_here_part import FromHerePart
from widgets.explorer.game_options import GameOptions
from widgets.explorer.history import History
from widgets.explorer.links_part import LinksPart
from widgets.explorer.perfect_play import PerfectPlay
from widgets.explorer.position import PositionPart
from widgets.explorer.records_part import RecordsPart
from widgets.explorer.seats import Seats
from widgets.looks import Looks
from widgets.presentation import Presentation, has_secrets, present
from widgets.reference import reference_panel
from widgets.safe import html

#: what the explorer answers for with its parts' (scripts, tests and notebooks use them): the
#: parts' widgets and state, and the methods it hands on; `name=attribute` where the part's
#: name differs. The folded tools' widgets are made together on first use (`_build_folded_tools`).
ANSWERED = {
    "hand_over": "curtain curtain_text curtain_button done_box done_text done_button focus curtain_for "
    "viewer _handing_over=handing_over _shown_viewer=shown_viewer _build_hand_over=build",
    "history": "moves_heading move_list looking_back looking_back_text back_to_game lines_here "
    "undo_button redo_button reset_button at_the_end undo redo reset look_at back_to_the_game "
    "_build_looking_back=build",
    "perfect_play": "perfect tablebase analysis",
    "clicks": "controller choices announcer turn_board hex_names click clear_selection",
    "seats": "players perspective agent_plays agents_box agent_kind agent_seats manual_chance chance_box "
    "chance_button chance_select chance_apply all_moves play_button sample_chance",
    "game_options": "options_toggle options_form_box options_box form option_widgets _form "
    "_set_options=set _option_values=values",
    "positions": "study_status position_text position_load position_note position_switch set_position",
    "editor": "editor_box edit_toggle",
    "exporter": "export_button export_area pictures record export",
    "links": "address copy_link link_note open_link link_query=query _link_copied=copied",
}


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
        self.seed, self.compact, self.analysis_seconds = seed, compact, analysis_seconds
        self.start_position = position
        self.board = Board()
        self.board.zones_beside = not compact  # the explorer's page is wide: hands beside the board
        self._stop_observing = lambda: None
        self._view: Presentation | None = None  # the last presentation shown (export reads it)
        self._folded_built = False  # the folded tools, made on first opening
        self._zoom: float | None = None
        self.looks = Looks()
        self.message = self.looks.make(w.HTML)
        self.page = page = Page(self.looks, self.message)
        building.make_controls(self)
        self.game_options = GameOptions(page, self.game_select)
        self.seats = Seats(page, play=self.play)
        seats, redraw, refresh = self.seats, self._redraw, self.refresh
        eyes = self.hand_over = HandOver(
            page, self.board, seats.perspective, lambda: seats.agent_seats, redraw=redraw, refresh=refresh
        )
        self.history = History(page, eyes, compact=compact, redraw=redraw, refresh=refresh)
        self.perfect_play = PerfectPlay(
            page,
            eyes,
            self.board,
            seats.agent_kind,
            lambda: self.clicks.controller,
            seconds=analysis_seconds,
            compact=compact,
            refresh=refresh,
        )
        self.clicks = Clicks(
            page,
            eyes,
            self.board,
            self.perfect_play,
            play=self.play,
            shown=lambda: self._view,
            refresh=refresh,
        )
        self.positions = PositionPart(
            page, self.tools_toggle, compact=compact, start=self._start_from, switch_game=self._switch_game
        )
        self.editor = EditorPart(page, eyes, self.analysis.switch, set_position=self.set_position)
        self.exporter = ExportPart(page, eyes, lambda: self._view or self.presentation())
        self.links = LinksPart(
            page,
            eyes,
            open_game=self._open_game,
            start=self._start_line,
            seed=seed,
            agents=seats.agents,
            manual_chance=seats.manual_chance,
        )
        #: "Open a record": a shipped or uploaded game, its whole line in the history
        self.records = RecordsPart(
            page,
            seats.perspective,
            open_game=self._open_game,
            start=self._start_line,
            seed=seed,
            agents=seats.agents,
            manual_chance=seats.manual_chance,
            opened=self.links.address.clear,  # the address bar's link named the game before
        )
        #: "Games from here": the moves played from the position shown in a collection of games
        self.from_here = FromHerePart(page, play=self.play)
        folded = [self.positions, self.editor, self.exporter, self.links]
        for part in folded:
            part.folded = self._build_folded_tools  # the folded tools are made all at once
        #: the parts: each is given the session and the game
        self._parts = [eyes, self.history, self.perfect_play, self.clicks, seats, self.game_options]
        self._parts += [*folded, self.records]
        self.session: Session | None = None
        self._wire()
        super().__init__([self.looks.make(w.HTML, value=PAGE_CSS), *building.lay_out(self)])
        self.add_class("re-explorer")
        # the menu set quietly (its observer would start a game): this one starts below
        self.game_options.choose(game_id, dict(game.options) if isinstance(game, rk.Game) else options)
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

    def _wire(self) -> None:
        on = self.page.acts
        self.board.on_history(on(lambda key: self.history.history_key(key)))
        self.game_select.observe(on(lambda ch: self._game_chosen(ch["new"])), names="value")
        self.new_button.on_click(on(lambda _: self._new_game_pressed()))
        tools = self.tools_toggle, self.tools_box, self._build_folded_tools
        self.tools_toggle.observe(on(lambda _: building.show_folded_tools(*tools)), names="value")
        self.perspective.observe(on(lambda _: self.hand_over.view_changed()), names="value")

    # --- widgets made on first use ---------------------------------------------------------
    def _build_folded_tools(self) -> None:
        """The folded tools' widgets, once, showing the position on the page."""
        if self._folded_built:
            return
        self._folded_built = True
        building.build_folded_tools(self)
        if self._view is not None:
            self._show_position(self._view, self.curtain_for is not None)
            self.export(self._view)

    # --- the game ----------------------------------------------------------------------
    def _new_game_pressed(self) -> None:
        """New game from its button: a link in the address bar (opened, or copied) names the
        game before, so once the new game has started the address bar drops it and a reload
        opens a fresh page. Only here: opening a link also starts a new game, and keeps it."""
        before = self.session
        self.new_game()
        if self.session is not before:  # options the game refused keep the game, and its link
            self.address.clear()

    def _game_chosen(self, game_id: str) -> None:
        """Another game chosen in the menu is shown at once: a new game of it with its
        options' defaults (its options then apply on New game, as the options say). A link in
        the address bar named the game before: it is dropped, as New game drops it."""
        if self.page.quiet or self.game is not None and self.game.id == game_id:
            return
        self._set_options(game_id, {})
        self._new_game_pressed()

    def new_game(self) -> None:
        try:
            self.game = rk.load_game(self.game_select.value, **self._option_values())
        except rk.RulesError as exc:
            self.page.say(str(exc), error=True)
            return
        self.secrets = has_secrets(self.game)
        if not self.compact:
            self.page.replace(self.reference_box, (reference_panel(self.game),))
        with self.page.quiet:  # the menus' observers wait until every menu fits the new game
            self.seats.set_views(self.game, self.secrets)
            self.perfect_play.show_switch()
            self.seats.set_agents(self.game)
        self.page.say("")
        self.positions.note("")
        self._start(self.game.initial_state())

    def _start(self, state: State, session: Session | None = None) -> None:
        """A new session from `state` (chance and the agent act at once), observed by this page;
        or `session`, made already (a link's line)."""
        self._stop_observing()
        self.session = session or Session(
            state, seed=self.seed, agents=self.seats.agents(), manual_chance=self.manual_chance.value
        )
        self._stop_observing = self.session.observe(self._session_changed)
        self.hand_over.start()
        self._zoom = None
        self._forget_the_last_game()
        self._redraw()

    def _start_from(self, state: State) -> None:
        """Explore from `state` (a position loaded or set up): a new session, the game kept."""
        self.start_position = state.to_text()
        self._start(state)

    def _start_line(self, start: State, session: Session) -> None:
        """Explore a link's line: `session` holds it, from `start`."""
        self.start_position = start.to_text()
        self._start(start, session)

    def _open_game(self, game_id: str, options: dict[str, Any]) -> None:
        """A new game of `game_id` with `options` (a link's), its menu set quietly."""
        self.game_options.choose(game_id, options)
        self.new_game()

    def _switch_game(self, game_id: str) -> None:
        """A new game of `game_id` (its options' defaults), its menu set quietly."""
        self._open_game(game_id, {})

    def _forget_the_last_game(self) -> None:
        """Nothing of the game before stays on the page: the screen-reader line, the notes
        (looking back, the hand-over's, a link copied), the picture made, an open editor; the
        redraw then writes the status, the list, the record and the analysis of this one."""
        self.clicks.announce("")
        self.editor.close()
        self.exporter.forget()
        self.links.forget()
        self.history.forget()
        self.hand_over.forget()
        self.page.replace(self.choices, ())
        self.page.replace(self.lines_here, ())

    def _session_changed(self, change: Change) -> None:
        """The one place a change of the game is drawn: once per session call."""
        self._redraw()

    def _redraw(self) -> None:
        self.hand_over.maybe_curtain()
        self.refresh()

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
        self.clicks.start(view)
        self.hand_over.show(curtain)
        self.seats.show_players(view, curtain)
        status = "" if curtain else view.status + self.perfect_play.status()
        self.status.value = html('<div role="status" aria-live="polite"><b>{text}</b></div>', text=status)
        last = view.lines[-1] if view.lines and not curtain else None
        self.clicks.announce(f"{last.side}: {last.text}." if last else "")
        self.perfect_play.analyse(view, curtain)
        self.from_here.show(None if curtain else self.state, view.viewer)
        if not curtain:
            self._shown_viewer = view.viewer
            self.clicks.show(view)
            self._zoom = fit_board(self.board, self.board_column, self._zoom, compact=self.compact)
        self.history.show(view, curtain)
        self.seats.show_menus(view, curtain)
        self._show_position(view, curtain)
        if self._folded_built:
            self.export(view)  # the download link follows the game
        if curtain:
            self.hand_over.cover(self, self._forget_behind_curtain)

    def _show_position(self, view: Presentation, curtain: bool) -> None:
        self.positions.show(view, curtain)
        if self._folded_built:
            self.editor.show_toggle()

    def _forget_behind_curtain(self) -> None:
        """Nothing of the view shown before the curtain stays on the page: the screen-reader
        lines, the notes, the picture and link made in it, an open editor."""
        self.clicks.announce("")
        self.status.value = self.message.value = self.study_status.value = ""
        self.editor.close()
        self.exporter.forget()
        self.links.forget()
        self.positions.forget()
        self.history.forget()


for _part, _names in ANSWERED.items():
    for _name, _, _attribute in (answered.partition("=") for answered in _names.split()):
        setattr(Explorer, _name, FromPart(_part, _attribute or _name))

__all__ = ["Explorer", "ROOM_HEIGHT", "ROOM_WIDTH", "board_zoom"]
