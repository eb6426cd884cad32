"""The Explorer: the table a player sits at, and an analysis board.

Play any game by clicking or by keyboard, see legal moves, undo/redo, let an agent take a
side (it sees only its player's view). What the page shows is decided by one
`Presentation` (widgets/presentation.py): in a player's view nothing on the page — board,
move list, menus, position text, export — reveals what that player cannot know. Games with
hidden information open in the view of the player to move; "All-seeing" is an explicit
analysis switch. Chance (deals, draws) resolves itself with a seeded generator unless the
teaching switch asks for it by hand.
"""

from __future__ import annotations

import random
from base64 import b64encode
from typing import Any

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.agents import make_agent
from rules_kernel.core import Action, Move, State
from widgets.board import Board
from widgets.controller import ClickController
from widgets.draw import OWNER_COLOURS, owner_colour
from widgets.options import OptionsForm
from widgets.presentation import Presentation, present
from widgets.safe import error_line, guarded, html, message_html

ALL_SEEING = "all"
FOLLOW_TURN = "turn"
NOBODY = -1
AGENTS = (("random", "random"), ("greedy (one ply)", "greedy"), ("search (MCTS, 100 playouts)", "mcts:100"))
PERFECT_AGENT = ("perfect (the solved game's table)", "perfect")
#: perfect play's words on the board: a target's value for the player who moves there
VALUE_MARKS = {"win": ("#009E73", "W"), "draw": ("#0072B2", "D"), "loss": ("#D55E00", "L"),
               "unknown": ("#777777", "?")}  # a move off the solved set (the table says so)

PAGE_CSS = """<style>
.re-explorer { width: 100%; max-width: 1240px; }
.re-explorer .widget-select select { font-family: inherit; }
.re-side > * { max-width: 100%; }
.re-players span.re-swatch { display:inline-block; width:14px; height:14px; border:1px solid #222;
  border-radius:3px; vertical-align:-2px; margin-right:4px; }
.re-curtain { border: 2px dashed #8A7A5A; border-radius: 8px; padding: 24px; text-align: center;
  background: #F4EBD0; }
</style>"""


def has_secrets(game: rk.Game) -> bool:
    """Does the game hide anything from a player (cards, hands, bags)?"""
    return type(game.initial_state()).view is not State.view


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

    def __init__(self, game: str | rk.Game | None = None, *, position: str | None = None,
                 seed: int | None = None, compact: bool = False, **options: Any) -> None:
        if game is None:
            game = rk.list_games(ordered=True)[0]
        game_id = game.id if isinstance(game, rk.Game) else game
        rk.game_class(game_id)  # an unknown game raises the kernel's clear OptionError here
        self.seed = seed
        self.rng = random.Random(seed)
        self.compact = compact
        self.start_position = position
        self.board = Board()
        self.controller: ClickController | None = None
        self.curtain_for: int | None = None
        self._make_controls()
        self._wire()
        body = self._layout()
        super().__init__([w.HTML(PAGE_CSS), *body])
        self.add_class("re-explorer")
        self.game_select.value = game_id
        self._build_options(game_id, dict(game.options) if isinstance(game, rk.Game) else options)
        self.new_game()
        if position is not None:
            self.set_position(position)

    # --- building ----------------------------------------------------------------------
    def _make_controls(self) -> None:
        wide = w.Layout(width="96%", max_width="330px")
        self.game_select = w.Dropdown(options=[(rk.game_class(g).title or g, g) for g in rk.list_games()],
                                      description="Game", layout=w.Layout(max_width="280px"))
        self.options_box = w.Accordion(children=[w.Box()], titles=("Options",), selected_index=None)
        self.new_button = w.Button(description="New game", button_style="primary",
                                   tooltip="Start again with these options")
        self.players = w.HTML()
        self.players.add_class("re-players")
        self.status = w.HTML()
        self.message = w.HTML()
        self.choices = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.move_list = w.Select(options=[], rows=10, layout=wide, style={"description_width": "0px"})
        self.undo_button = w.Button(description="Undo", layout=w.Layout(width="90px"))
        self.redo_button = w.Button(description="Redo", layout=w.Layout(width="90px"))
        self.reset_button = w.Button(description="Reset", layout=w.Layout(width="90px"),
                                     tooltip="Back to the starting position")
        self.perspective = w.Dropdown(description="View", style={"description_width": "initial"},
                                      layout=wide)
        self.opponent = w.Dropdown(description="Agent plays", style={"description_width": "initial"},
                                   layout=wide)
        self.agent_kind = w.Dropdown(options=AGENTS, value="random", description="Agent",
                                     style={"description_width": "initial"}, layout=wide)
        self.perfect = w.Checkbox(value=False, indent=False, description="Perfect play (solved table)",
                                  tooltip="Colour each target by its value: win, draw or loss, in plies")
        self.tablebase = None  # opened on first use (rules_kernel.tablebase)
        self.manual_chance = w.Checkbox(value=False, indent=False,
                                        description="Resolve chance by hand (teaching)")
        self.chance_button = w.Button(description="Sample chance", tooltip="Draw the pending chance event")
        self.chance_select = w.Dropdown(description="or pick", layout=wide)
        self.chance_apply = w.Button(description="Apply", layout=w.Layout(width="70px"))
        self.chance_box = w.VBox([self.chance_button, w.HBox([self.chance_select, self.chance_apply])])
        self.all_moves = w.Dropdown(description="Any move", style={"description_width": "initial"},
                                    layout=w.Layout(width="100%", max_width="250px"))
        self.play_button = w.Button(description="Play", layout=w.Layout(width="70px"))
        self.position_text = w.Text(description="Position", style={"description_width": "initial"},
                                    layout=wide, placeholder="paste a position text here")
        self.position_load = w.Button(description="Load position", layout=w.Layout(width="auto"))
        self.position_note = w.HTML()
        self.export_area = w.HTML()
        self.export_button = w.Button(description="Export record", layout=w.Layout(width="auto"),
                                      tooltip="Rebuilt on every change; this re-renders the link")
        self.curtain = w.VBox(layout=w.Layout(display="none"))
        self.curtain.add_class("re-curtain")
        self.curtain_text = w.HTML()
        self.curtain_button = w.Button(button_style="primary", layout=w.Layout(width="auto"))
        self.curtain.children = (self.curtain_text, self.curtain_button)

    def _layout(self) -> list[w.Widget]:
        self.board_column = w.VBox([self.players, self.curtain, self.board.widget],
                                   layout=w.Layout(flex="1 1 420px", min_width="280px", max_width="420px",
                                                   margin="0 16px 8px 0"))
        board_column = self.board_column
        side = [self.status, self.message, self.choices, self.perfect, w.HTML("<b>Moves</b>"), self.move_list,
                w.HBox([self.undo_button, self.redo_button, self.reset_button],
                       layout=w.Layout(flex_flow="row wrap"))]
        if not self.compact:
            side += [self.perspective, self.opponent, self.agent_kind,
                     w.HBox([self.all_moves, self.play_button]), self.manual_chance, self.chance_box,
                     self.position_text, w.HBox([self.position_load], layout=w.Layout(flex_flow="row wrap")),
                     self.position_note, self.export_button, self.export_area]
        side_column = w.VBox(side, layout=w.Layout(flex="0 1 330px", min_width="260px", max_width="100%"))
        side_column.add_class("re-side")
        main = w.HBox([board_column, side_column], layout=w.Layout(flex_flow="row wrap", width="100%"))
        if self.compact:
            return [main]
        header = w.HBox([self.game_select, self.new_button], layout=w.Layout(flex_flow="row wrap"))
        return [header, self.options_box, main]

    def _wire(self) -> None:
        show = error_line(self.message)
        on = guarded(show)
        self.board.on_click(on(self.click))
        self.board.on_escape(on(self.clear_selection))
        self.game_select.observe(on(lambda ch: self._build_options(ch["new"], {})), names="value")
        self.new_button.on_click(on(lambda _: self.new_game()))
        self.undo_button.on_click(on(lambda _: self.undo()))
        self.redo_button.on_click(on(lambda _: self.redo()))
        self.reset_button.on_click(on(lambda _: self.reset()))
        self.perspective.observe(on(lambda _: self._view_changed()), names="value")
        self.opponent.observe(on(lambda _: self._after_change()), names="value")
        self.manual_chance.observe(on(lambda _: self._after_change()), names="value")
        self.perfect.observe(on(lambda _: self._perfect_switched()), names="value")
        self.chance_button.on_click(on(lambda _: self.sample_chance()))
        self.chance_apply.on_click(on(lambda _: self._apply_chosen_chance()))
        self.play_button.on_click(on(lambda _: self._play_selected()))
        self.position_load.on_click(on(lambda _: self.set_position(self.position_text.value)))
        self.export_button.on_click(on(lambda _: self.export()))
        self.curtain_button.on_click(on(lambda _: self._lift_curtain()))

    def _build_options(self, game_id: str, values: dict[str, Any]) -> None:
        self.form = OptionsForm(game_id, values)
        self.options_box.children = (self.form.widget,)
        self.options_box.set_title(0, f"Options of {rk.game_class(game_id).title}")

    @property
    def option_widgets(self) -> dict[str, w.Widget]:
        """The main input of each option (for scripts and tests)."""
        return {name: getattr(f, "input", None) or getattr(f, "number", None) or f.widget
                for name, f in self.form.fields.items()}

    # --- the game ----------------------------------------------------------------------
    def new_game(self) -> None:
        try:
            self.game = rk.load_game(self.game_select.value, **self.form.values())
        except rk.RulesError as exc:
            self._say(str(exc), error=True)
            return
        self.rng = random.Random(self.seed)
        self.secrets = has_secrets(self.game)
        self._start(self.game.initial_state())
        players = self.game.player_names
        views = [(f"{p}'s view", i) for i, p in enumerate(players)]
        if self.secrets:
            views = [("Player to move (hand over between turns)", FOLLOW_TURN), *views,
                     ("All-seeing (analysis)", ALL_SEEING)]
        else:
            views = [("Whole board", ALL_SEEING), *views]
        self._quiet = True  # the view's observer waits until the new options are in place
        try:
            self.perspective.options = views
            self.perspective.value = views[0][1]
        finally:
            self._quiet = False
        solvable = self._solvable()
        self.perfect.layout.display = None if solvable else "none"
        if not solvable:
            self.perfect.value = False
        self.agent_kind.options = AGENTS + ((PERFECT_AGENT,) if solvable else ())
        self.opponent.options = [("nobody", NOBODY)] + [(p, i) for i, p in enumerate(players)]
        self.opponent.value = NOBODY
        self._say("")
        self._after_change()

    def _start(self, state: State) -> None:
        self.states: list[State] = [state]
        self.actions: list[Action] = []
        self.redo_stack: list[Action] = []
        self.curtain_for = None

    def set_position(self, position: str | State) -> None:
        """Start exploring from a position (its text, as `state.to_text()` gives it)."""
        if isinstance(position, str):
            text = position.strip()
            if not text:
                self._say("paste a position text first", error=True)
                return
            try:
                state = self.game.from_text(text)
            except rk.RulesError as exc:
                self._say(f"not a {self.game.title} position: {exc}", error=True)
                return
        else:
            state = position
        self.start_position = state.to_text()
        self._start(state)
        self._say("")
        self._after_change()

    @property
    def state(self) -> State:
        return self.states[-1]

    def play(self, action: Action | str) -> State:
        """Play a move or chance outcome (or its notation); errors are shown, not raised."""
        state = self.state
        try:
            if isinstance(action, str):  # keep the action itself in the history, not its text
                action = (state.parse_chance(action) if state.current_player == rk.CHANCE
                          else state._parse_move(action))
            new = state.apply(action)
        except rk.RulesError as exc:
            self._say(str(exc), error=True)
            return state
        self._push(action, new)
        self.redo_stack.clear()
        self._say("")
        self._after_change()
        return self.state

    def _push(self, action: Action, state: State) -> None:
        self.actions.append(action)
        self.states.append(state)

    def undo(self) -> None:
        """Take back the last move (and the chance and agent actions after it)."""
        while self.actions:
            self.redo_stack.append(self.actions.pop())
            self.states.pop()
            if self._is_persons_turn():
                break
        self.curtain_for = None
        self._after_change(automatic=False)

    def redo(self) -> None:
        if self.redo_stack:
            action = self.redo_stack.pop()
            self._push(action, self.state.apply(action))
            self._after_change(automatic=False)

    def reset(self) -> None:
        """Back to the start (the initial state, or the position the explorer was given)."""
        self.rng = random.Random(self.seed)
        start = self.game.initial_state() if self.start_position is None else \
            self.game.from_text(self.start_position)
        self._start(start)
        self._say("")
        self._after_change()

    def sample_chance(self) -> None:
        if self.state.current_player == rk.CHANCE and not self.state.is_terminal():
            self.play(self.state.sample_chance(self.rng))

    def _apply_chosen_chance(self) -> None:
        if self.chance_select.value is not None:
            self.play(self.chance_select.value)

    def _play_selected(self) -> None:
        if self.all_moves.value is not None:
            self.play(self.all_moves.value)

    def _is_persons_turn(self) -> bool:
        player = self.state.current_player
        return player != rk.CHANCE and player != self.opponent.value

    def _run_automatic(self) -> None:
        """Resolve chance (unless by hand) and let the agent move, until a person's turn."""
        for _ in range(10_000):  # a guard: agents and chance always reach a person or the end
            state = self.state
            if state.is_terminal():
                return
            player = state.current_player
            if player == rk.CHANCE and not self.manual_chance.value:
                action: Action = state.sample_chance(self.rng)
            elif player != rk.CHANCE and player == self.opponent.value:
                agent = make_agent(self.agent_kind.value, seed=self.rng.randrange(2**31))
                action = agent.choose(state.view(player))
            else:
                return
            self._push(action, state.apply(action))

    def _after_change(self, automatic: bool = True) -> None:
        if automatic:
            self._run_automatic()
        self._maybe_curtain()
        self.refresh()

    # --- whose eyes ----------------------------------------------------------------------
    @property
    def viewer(self) -> int | None:
        """The seat whose view the page shows; None for all-seeing."""
        mode = self.perspective.value
        if mode in (None, ALL_SEEING):
            return None
        if mode == FOLLOW_TURN:
            return self._turn_viewer()
        return mode

    def _turn_viewer(self) -> int:
        humans = [p for p in range(self.game.num_players) if p != self.opponent.value]
        player = self.state.current_player
        if player in humans:
            return player
        for state in reversed(self.states):  # at chance or the agent's turn: the last person
            if state.current_player in humans:
                return state.current_player
        return humans[0]

    def _maybe_curtain(self) -> None:
        """Two people at one screen: between their turns, hide the board until the next
        player says they are sitting there."""
        if self.perspective.value != FOLLOW_TURN or self.state.is_terminal():
            self.curtain_for = None
            return
        viewer = self._turn_viewer()
        shown = getattr(self, "_shown_viewer", None)
        if shown is not None and viewer != shown:
            self.curtain_for = viewer

    def _lift_curtain(self) -> None:
        self.curtain_for = None
        self.refresh()

    def _view_changed(self) -> None:
        if getattr(self, "_quiet", False):
            return
        self.curtain_for = None
        self._shown_viewer = None
        self.refresh()

    # --- clicks ------------------------------------------------------------------------
    def click(self, cell: str) -> None:
        if self.controller is None or self.curtain_for is not None:
            return
        result = self.controller.click(cell)
        self.choices.children = ()
        if result.kind == "move":
            self.play(result.move)
            return
        if result.kind == "choose":
            self.choices.children = tuple(self._choice_button(m) for m in result.choices)
        self._show_highlight()

    def clear_selection(self) -> None:
        if self.controller is not None:
            self.controller.prefix = ()
            self.choices.children = ()
            self._show_highlight()

    def _choice_button(self, move: Move) -> w.Button:
        button = w.Button(description=move.choice_label, button_style="success",
                          tooltip=str(move), layout=w.Layout(width="auto"))
        button.on_click(guarded(error_line(self.message))(lambda _: self.play(move)))
        return button

    # --- showing -----------------------------------------------------------------------
    def presentation(self) -> Presentation:
        return present(self.states, self.actions, self.viewer)

    def refresh(self) -> None:
        view = self.presentation()
        curtain = self.curtain_for is not None
        self.controller = _Controller(view.moves)
        self._show_curtain(curtain)
        self._show_players(view)
        status = "" if curtain else view.status + self._perfect_status()
        self.status.value = html('<div role="status" aria-live="polite"><b>{text}</b></div>', text=status)
        if not curtain:
            self._shown_viewer = view.viewer
            first = self.controller.first_cells()
            self.board.show(view.scene, cursor=first[0] if first else "", **self._highlight_cells(view))
            width = f"{self.board.natural_width:.0f}px"  # the board column fits its drawing
            self.board_column.layout.max_width = width
            self.board_column.layout.flex = f"1 1 {width}"
        lines = [] if curtain else [str(line) for line in view.lines]
        self.move_list.options = lines
        self.move_list.value = lines[-1] if lines else None  # keeps the last move in sight
        self.undo_button.disabled = not self.actions
        self.redo_button.disabled = not self.redo_stack
        self._show_menus(view, curtain)
        self._show_position(view, curtain)
        self.export()
        self.choices.children = ()

    def _show_curtain(self, curtain: bool) -> None:
        self.board.widget.layout.display = "none" if curtain else None
        self.curtain.layout.display = "flex" if curtain else "none"
        if curtain:
            name = self.game.player_names[self.curtain_for]
            self.curtain_text.value = html(
                "<p><b>{name} to play.</b> Pass the screen to {name}; the board stays hidden "
                "until {name} is ready.</p>", name=name)
            self.curtain_button.description = f"Show {name}'s view"

    def _show_players(self, view: Presentation) -> None:
        names = self.game.player_names
        to_move = self.state.current_player
        parts = []
        for i, name in enumerate(names):
            marker = " ◀ to move" if i == to_move and not self.state.is_terminal() else ""
            agent = " (agent)" if i == self.opponent.value else ""
            you = " (you)" if view.viewer == i else ""
            parts.append(html('<span style="margin-right:14px;white-space:nowrap">'
                              '<span class="re-swatch" style="background:{colour}"></span>'
                              "{name}{you}{agent}{marker}</span>",
                              colour=owner_colour(i), name=name, you=you, agent=agent, marker=marker))
        self.players.value = '<div style="display:flex;flex-wrap:wrap">' + "".join(parts) + "</div>"

    def _show_menus(self, view: Presentation, curtain: bool) -> None:
        moves = () if curtain else view.moves
        self.all_moves.options = [(str(m), m) for m in moves]
        self.all_moves.value = moves[0] if moves else None
        self.all_moves.disabled = self.play_button.disabled = not moves
        pending = view.chance_pending and not curtain
        self.chance_box.layout.display = None if self.manual_chance.value else "none"
        self.chance_button.disabled = not pending
        # the outcome list names every possibility with its odds: analysis only
        self.chance_select.options = self._chance_options() if pending and view.viewer is None else []
        self.chance_apply.disabled = not self.chance_select.options

    def _show_position(self, view: Presentation, curtain: bool) -> None:
        secret = not view.secrets_visible or curtain
        self.position_text.value = "" if secret else self.state.to_text()
        self.position_text.placeholder = ("hidden in a player's view (it names every card)" if secret
                                          else "paste a position text here")
        self.position_note.value = ""

    def _chance_options(self) -> list[tuple[str, Action]]:
        try:
            return [(f"{o} ({p:.0%})", o) for o, p in self.state.chance_outcomes()][:200]
        except rk.ChanceNotEnumerableError:
            return []

    def _highlight_cells(self, view: Presentation) -> dict:
        prefix = self.controller.prefix if self.controller else ()
        targets = self.controller.next_cells() if prefix else ()
        return {"last": view.scene.last_cells, "selected": prefix, "targets": targets,
                "marks": self._value_marks()}

    def _show_highlight(self) -> None:
        prefix = self.controller.prefix
        self.board.set_highlight(last=self.board.highlight.get("last", ()), selected=prefix,
                                 targets=self.controller.next_cells() if prefix else (),
                                 marks=self._value_marks())

    # --- perfect play (a game that declares a solved table: Yōkai 3x4) -------------------------
    def _solvable(self) -> bool:
        return self.game.SOLVED_TABLE is not None

    def _perfect_switched(self) -> None:
        if self.perfect.value and self.tablebase is None:
            try:
                self.tablebase = self.game.open_solved_table()
            except rk.RulesError as exc:
                self._say(str(exc), error=True)
                self.perfect.value = False
                return
        self.refresh()

    def _perfect_on(self) -> bool:
        return self.perfect.value and self.tablebase is not None and self._solvable()

    def _perfect_status(self) -> str:
        if not self._perfect_on() or self.state.is_terminal():
            return ""
        try:
            value = self.tablebase.value(self.state)
        except rk.RulesError:
            return " — perfect play: this position is outside the solved table"
        name = self.game.player_names[self.state.current_player]
        if value.result == "draw":
            return " — perfect play: a draw"
        winner = name if value.result == "win" else self.game.player_names[1 - self.state.current_player]
        return f" — perfect play: {winner} wins in {value.plies} plies"

    def _value_marks(self) -> dict[str, tuple[str, str]]:
        """Each target of the selected piece labelled with its move's value, for the mover."""
        if not self._perfect_on() or not self.controller or not self.controller.prefix:
            return {}
        n = len(self.controller.prefix)
        values = {str(mv.move): mv.value for mv in self.tablebase.best_moves(self.state)}
        marks = {}
        for move in self.controller.candidates():
            if len(move.cells) == n + 1 and str(move) in values:
                value = values[str(move)]
                colour, letter = VALUE_MARKS.get(value.result, VALUE_MARKS["unknown"])
                marks[move.cells[n]] = (colour, letter if value.plies is None else f"{letter} {value.plies}")
        return marks

    def _say(self, text: str, error: bool = False) -> None:
        self.message.value = message_html(text, error=error)

    # --- records -----------------------------------------------------------------------
    def record(self) -> records.Record:
        """The game so far as a record (rules_kernel.records)."""
        return records.Record.from_actions(self.game, self.actions, players=self.game.player_names,
                                           meta={"source": "explorer"})

    def export(self) -> str:
        """The game as a record line; the page's download link is rebuilt from it. In a
        player's view the record (it names every card) is offered only after the end."""
        if not self.presentation().secrets_visible or self.start_position is not None:
            why = ("a record starts from the initial position" if self.start_position is not None
                   else "the record names every hidden card: it is offered after the game or in "
                        "the all-seeing view")
            self.export_area.value = html('<span style="color:#555">Export: {why}</span>', why=why)
            return ""
        line = self.record().to_json()
        data = b64encode((line + "\n").encode()).decode()
        self.export_area.value = html('<a download="{name}.jsonl" href="data:application/x-ndjson;base64,'
                                      '{data}">Download {name}.jsonl ({n} actions)</a>',
                                      name=self.game.id, data=data, n=len(self.actions))
        return line


class _Controller(ClickController):
    """Clicks -> moves over the moves the viewer may make (none when it is not their turn)."""

    def __init__(self, moves: tuple[Move, ...]) -> None:
        self.moves = list(moves)
        self.prefix = ()


__all__ = ["ALL_SEEING", "FOLLOW_TURN", "NOBODY", "Explorer", "OWNER_COLOURS"]
