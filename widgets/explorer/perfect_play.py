"""A move's value on the explorer's board: by the solved table where the game declares one
and "Perfect play" is on (Yōkai 3x4), else by the analysis (every game: the best engine this
machine has for it, widgets/analysis_panel.py). The switch, the table's readiness asked again
while the server prepares it, the status's words and the marks on the targets.

One route to a move's value: perfect play asks the analysis protocol's table engine
(`rules_kernel.analysis.get_engine(game, "table")`, opened once per game and shared with the
analysis panel) for its quick answers (`TableEngine.value`, `TableEngine.move_values`), and
its readiness (`rules_kernel.analysis.table.availability`); it never opens the table itself."""

from __future__ import annotations

import threading
from collections.abc import Callable

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import analysis
from rules_kernel.analysis import table
from rules_kernel.analysis.table import TableEngine
from widgets import runtime
from widgets.analysis_panel import AnalysisPanel, Subject
from widgets.board import Board
from widgets.controller import ClickController
from widgets.explorer.common import AGENTS, PERFECT_AGENT, Page, Part
from widgets.explorer.curtain import HandOver
from widgets.presentation import Presentation, has_secrets
from widgets.runtime import SHOWN

#: perfect play's words on the board: a target's value for the player who moves there
VALUE_MARKS = {
    "win": ("#009E73", "W"),
    "draw": ("#0072B2", "D"),
    "loss": ("#D55E00", "L"),
    "unknown": ("#777777", "?"),
}  # a move off the solved set (the table says so)
#: what the switch says when ticked while the table engine cannot serve (the analysis panel
#: does not ask it then either: a table refused by get_engine stays refused until
#: close_engines(), which would keep the table from the analysis once it is ready)
NOT_READY = {
    "preparing": "the solved table is being prepared: try again in a few minutes",
    "absent": "the solved table is not available here",
}
#: how often (seconds) a page whose perfect play is "being prepared" asks again whether the
#: solved table is ready (a few file checks: rules_kernel.tablebase.availability)
PERFECT_POLL_SECONDS = 5.0


def post(work: Callable[[], None]) -> None:
    """Run `work` where the page's handlers run: on the kernel's own loop (ipykernel's, which
    also handles the browser's messages one at a time), called from another thread. Without a
    kernel (a script, a test) there is no browser to talk to: `work` runs here and now."""
    loop = _kernel_loop()
    if loop is None:
        work()
    else:
        loop.add_callback(work)


def _kernel_loop():  # -> tornado.ioloop.IOLoop | None (no import of tornado for a type)
    try:
        from IPython import get_ipython
    except ImportError:  # no IPython: no kernel
        return None
    kernel = getattr(get_ipython(), "kernel", None)
    return getattr(kernel, "io_loop", None)


class PerfectPlay(Part):
    """The "Perfect play" switch (`perfect`; the analysis protocol's table engine, asked for on
    first use: `engine`) and the analysis panel (`analysis`). `controller` gives the page's
    clicks (the piece selected, its targets); `agent_kind` is the agents' menu, which offers
    the perfect agent once the table is ready; `refresh` draws the page again."""

    def __init__(
        self,
        page: Page,
        eyes: HandOver,
        board: Board,
        agent_kind: w.Dropdown,
        controller: Callable[[], ClickController | None],
        *,
        seconds: float = 15.0,
        compact: bool = False,
        refresh: Callable[[], None],
    ) -> None:
        super().__init__(page)
        self.eyes, self.board, self.agent_kind, self.controller = eyes, board, agent_kind, controller
        self.compact, self.refresh = compact, refresh
        self.perfect = w.Checkbox(
            value=False,
            indent=False,
            description="Perfect play (solved table)",
            tooltip="Colour each target by its value: win, draw or loss, in plies",
            layout=w.Layout(width="auto"),
        )
        #: the game's table engine (rules_kernel.analysis.get_engine(game, "table")): asked
        #: for when the switch is first ticked, the same object the analysis panel gets
        self.engine: TableEngine | None = None
        #: the Analysis switch: bar, best line, targets' values, searched in a thread
        self.analysis = AnalysisPanel(self.analysis_updated, seconds=seconds, looks=page.looks)
        board.live_highlight = self.live_highlight  # its arrows and values: drawn as they come
        #: perfect play "being prepared": a thread asks again until the table is ready
        self._lock = threading.Lock()
        self._poll: tuple[threading.Event, rk.Game] | None = None
        self.perfect.observe(page.acts(lambda _: self.switched()), names="value")
        self.analysis.switch.observe(page.acts(lambda _: self._analysis_switched()), names="value")

    # --- perfect play (a game that declares a solved table: Yōkai 3x4) -------------------------
    def show_switch(self) -> None:
        """Offered where the game has a solved table on this machine: "being prepared" (and
        off) while the server still unpacks or builds it; not offered where there is none.
        Asked on every redraw (a few file checks) and, while the table is being prepared, every
        PERFECT_POLL_SECONDS by a thread: the switch becomes usable (and the perfect agent
        offered) once the table is ready, without a new game or a reload."""
        game = self.game
        with self._lock:
            availability = table.availability(game)
            self.perfect.layout.display = SHOWN if availability != "absent" else "none"
            preparing = availability == "preparing"
            description = "Perfect play: being prepared" if preparing else "Perfect play (solved table)"
            if self.perfect.description != description:
                self.perfect.description = description
            if availability != "ready":
                # quiet: the switch turned off here asks no redraw (this one is under way, and
                # its redraw would come back here while the lock is held: a hang)
                with self.page.quiet:
                    self.perfect.value = False
            if self.eyes.curtain_for is None:
                self.perfect.disabled = preparing
            elif not preparing:
                self.eyes.freeze(self.perfect)  # behind the curtain: usable once it lifts
            if availability == "ready":
                self._offer_agent()
            if preparing:
                self._ask_again(game)

    def _offer_agent(self) -> None:
        """The perfect agent joins the agents' menu once the table is ready."""
        if PERFECT_AGENT in self.agent_kind.options:
            return
        kind = self.agent_kind.value
        with self.page.quiet:
            self.agent_kind.options = AGENTS + (PERFECT_AGENT,)
            self.agent_kind.value = kind

    def _ask_again(self, game: rk.Game) -> None:
        """Ask again, in a thread, until `game`'s table is no longer being prepared (the
        browser's Python has no threads: there the next redraw asks)."""
        running = self._poll
        if not runtime.THREADS or (running is not None and running[1] is game):
            return
        if running is not None:
            running[0].set()  # it asked for another game
        stop = threading.Event()
        self._poll = (stop, game)

        def poll() -> None:
            # the thread only asks (a few file checks); what the page shows changes where the
            # page's own handlers run (`post`): never a widget touched beside a click's handler
            while not stop.wait(PERFECT_POLL_SECONDS):
                if self.game is not game:
                    break  # another game is shown: its own redraws ask
                try:
                    if table.availability(game) == "preparing":
                        continue
                except Exception:  # noqa: BLE001 (a thread's error has no page line; the redraw asks again)
                    pass
                post(self.page.guarded(lambda: self.table_ready(game)))
                break
            with self._lock:
                if self._poll is not None and self._poll[0] is stop:
                    self._poll = None

        threading.Thread(target=poll, name="rules-explorer-perfect-play", daemon=True).start()

    def table_ready(self, game: rk.Game) -> None:
        """The table is no longer being prepared (the poll's news, run where the page's handlers
        run): the switch is offered as it is now, usable at once, and the page says so."""
        if self.game is not game:
            return  # another game is shown meanwhile: it asked for itself
        self.show_switch()
        if not self.perfect.disabled and self.perfect.layout.display != "none":
            self.page.say("Perfect play is ready: tick the switch to see each move's value.")

    def switched(self) -> None:
        if self.perfect.value and self.engine is None:
            try:
                self.engine = self._table_engine(self.game)
            except rk.RulesError as exc:  # its words hold no path or command (TablebaseError.detail does)
                self.page.say(str(exc), error=True)
                self.perfect.value = False
                self.show_switch()
                return
        if not self.page.quiet and self.session is not None:  # a new game draws itself once its menus are set
            self.refresh()

    @staticmethod
    def _table_engine(game: rk.Game) -> TableEngine:
        """The game's table engine as the analysis panel gets it (one object per game, opened
        once by the protocol); asked only once it is ready (NOT_READY's comment says why)."""
        availability = table.availability(game)
        if availability != "ready":
            raise rk.RulesError(NOT_READY.get(availability, NOT_READY["absent"]))
        return analysis.get_engine(game, "table")

    @property
    def tablebase(self):  # -> the table the engine reads (rules_kernel.tablebase.Tablebase) | None
        """The solved table perfect play reads through its engine (None before it is asked
        for). Setting a table (a test's stand-in, one built elsewhere) puts a table engine over
        it: what is shown still comes through the engine's questions."""
        return None if self.engine is None else self.engine.tablebase

    @tablebase.setter
    def tablebase(self, tablebase) -> None:
        self.engine = None if tablebase is None else TableEngine(tablebase)

    @property
    def on(self) -> bool:
        return self.perfect.value and self.engine is not None

    def status(self) -> str:
        """The position's value in the status line's words, while perfect play is on."""
        state = self.session.state
        if not self.on or state.is_terminal():
            return ""
        try:
            value = self.engine.value(state)
        except rk.RulesError:
            return " — perfect play: this position is outside the solved table"
        name = self.game.player_names[state.current_player]
        if value.result == "draw":
            return " — perfect play: a draw"
        winner = name if value.result == "win" else self.game.player_names[1 - state.current_player]
        return f" — perfect play: {winner} wins in {value.plies} plies"

    def marks(self) -> dict[str, tuple[str, str]]:
        """Each target of the selected piece labelled with its move's value, for the mover:
        by the solved table where perfect play is on, else by the analysis."""
        controller = self.controller()
        if not controller or not controller.prefix:
            return {}
        if not self.on:
            return self.analysis.marks(controller.candidates(), len(controller.prefix))
        n = len(controller.prefix)
        values = {str(mv.move): mv.value for mv in self.engine.move_values(self.session.state)}
        marks = {}
        for move in controller.candidates():
            if len(move.cells) == n + 1 and str(move) in values:
                value = values[str(move)]
                colour, letter = VALUE_MARKS.get(value.result, VALUE_MARKS["unknown"])
                marks[move.cells[n]] = (colour, letter if value.plies is None else f"{letter} {value.plies}")
        return marks

    # --- analysis (every game: the best engine this machine has for it) -----------------------
    def _analysis_switched(self) -> None:
        if not self.page.quiet and self.session is not None:
            self.refresh()

    def analyse(self, view: Presentation, curtain: bool) -> None:
        """Analyse the position shown, as the page's viewer knows it: the engine is given the
        viewer's view, never the true state (all-seeing: the true state)."""
        if self.compact:
            return
        state = self.session.node.state
        if curtain:
            self.analysis.analyse(None, "Hidden until the next player sits down.")
        elif state.current_player == rk.CHANCE and not state.is_terminal():
            self.analysis.analyse(None, "Chance is due: draw it, then the analysis goes on.")
        elif state.is_terminal():
            self.analysis.analyse(None, "The game is over.")
        else:
            seen = state if view.viewer is None else state.view(view.viewer)
            self.analysis.analyse(Subject(seen, view.viewer, has_secrets(self.game)))

    def live_highlight(self) -> dict:
        """What a search thread changes on the board, read each time the board is drawn (the
        board's `live_highlight`): the best line's arrows and the targets' values."""
        if self.eyes.curtain_for is not None or self.controller() is None:
            return {}
        return {"arrows": self.analysis.arrows(), "marks": self.marks()}

    def analysis_updated(self) -> None:
        """The search found more (called from its thread): the board draws its highlight again,
        reading the arrows and values then (one drawing at a time: a redraw of the page under
        way finishes first, or draws them itself)."""
        if self.board.layout is None or self.eyes.curtain_for is not None or self.controller() is None:
            return
        self.board.redraw_highlight()
