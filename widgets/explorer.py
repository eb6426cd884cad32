"""The Explorer: play any game by clicking, see legal moves, undo/redo, views, an opponent
(an agent of `rules_kernel.agents`, which sees only its player's view)."""

from __future__ import annotations

import json
import random
from base64 import b64encode
from typing import Any

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.agents import make_agent
from rules_kernel.core import Action, Move, State
from widgets.canvas import BoardCanvas
from widgets.controller import ClickController

ALL_SEEING = -99
NOBODY = -98


def option_widget(name: str, option: rk.Option) -> w.Widget:
    """An input for one game option, chosen by what the option accepts."""
    description = name.replace("_", " ")
    style = {"description_width": "initial"}
    if option.choices is not None:
        return w.Dropdown(options=list(option.choices), value=option.default, description=description,
                          style=style, tooltip=option.doc)
    if isinstance(option.default, bool):
        return w.Checkbox(value=option.default, description=description, indent=False, tooltip=option.doc)
    if isinstance(option.default, int):
        return w.IntText(value=option.default, description=description, style=style,
                         layout=w.Layout(width="160px"), tooltip=option.doc)
    if isinstance(option.default, str):
        return w.Text(value=option.default, description=description, style=style, tooltip=option.doc)
    return w.Text(value=json.dumps(option.default), description=description, style=style,
                  tooltip=option.doc + " (JSON)")


def option_value(option: rk.Option, widget: w.Widget) -> Any:
    if isinstance(widget, w.Text) and not isinstance(option.default, str):
        try:
            return json.loads(widget.value)
        except json.JSONDecodeError as exc:
            raise rk.OptionError(f"{widget.description}: not JSON ({exc.msg})") from exc
    return widget.value


class Explorer(w.VBox):
    """Explore a game in a notebook:

        from widgets import Explorer
        Explorer("yokai-3x4")
    """

    def __init__(self, game: str | rk.Game = "yokai-3x4", *, position: str | None = None,
                 seed: int | None = None, **options: Any) -> None:
        self.rng = random.Random(seed)
        self.board = BoardCanvas()
        self.board.on_click(self.click)
        self.game_select = w.Dropdown(options=rk.list_games(), description="Game")
        self.options_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.new_button = w.Button(description="New game", icon="refresh", button_style="primary")
        self.status = w.HTML()
        self.message = w.HTML()
        self.choices = w.HBox()
        self.move_list = w.Select(options=[], rows=14, layout=w.Layout(width="220px"))
        self.undo_button = w.Button(description="Undo", icon="undo", layout=w.Layout(width="105px"))
        self.redo_button = w.Button(description="Redo", icon="repeat", layout=w.Layout(width="105px"))
        self.perspective = w.Dropdown(description="View", style={"description_width": "initial"})
        self.opponent = w.Dropdown(description="Agent plays", style={"description_width": "initial"})
        self.agent_kind = w.Dropdown(options=["random", "greedy", "mcts:100"], value="random",
                                     description="Agent", layout=w.Layout(width="200px"))
        self.chance_button = w.Button(description="Sample chance", icon="random")
        self.chance_select = w.Dropdown(description="or pick", layout=w.Layout(width="260px"))
        self.chance_apply = w.Button(description="Apply", layout=w.Layout(width="70px"))
        self.all_moves = w.Dropdown(description="Any move", layout=w.Layout(width="220px"))
        self.play_button = w.Button(description="Play", layout=w.Layout(width="70px"))
        self.export_button = w.Button(description="Export record", icon="download")
        self.export_area = w.HTML()
        self._wire()
        side = w.VBox([self.status, self.message, self.choices, w.Label("Moves"), self.move_list,
                       w.HBox([self.undo_button, self.redo_button]), self.perspective, self.opponent,
                       self.agent_kind,
                       w.HBox([self.all_moves, self.play_button]),
                       w.HBox([self.chance_button]), w.HBox([self.chance_select, self.chance_apply]),
                       self.export_button, self.export_area],
                      layout=w.Layout(margin="0 0 0 16px"))
        header = w.HBox([self.game_select, self.new_button])
        super().__init__([header, self.options_box, w.HBox([self.board.widget, side])])
        game_id = game.id if isinstance(game, rk.Game) else game
        self.game_select.value = game_id
        self._build_options(game_id, dict(game.options) if isinstance(game, rk.Game) else options)
        self.new_game()
        if position is not None:
            self.set_position(position)

    # --- wiring ------------------------------------------------------------------------
    def _wire(self) -> None:
        self.game_select.observe(lambda ch: self._build_options(ch["new"], {}), names="value")
        self.new_button.on_click(lambda _: self.new_game())
        self.undo_button.on_click(lambda _: self.undo())
        self.redo_button.on_click(lambda _: self.redo())
        self.perspective.observe(lambda _: self.refresh(), names="value")
        self.opponent.observe(lambda _: self._agent_turns(), names="value")
        self.chance_button.on_click(lambda _: self.sample_chance())
        self.chance_apply.on_click(lambda _: self._apply_chosen_chance())
        self.play_button.on_click(lambda _: self._play_selected())
        self.export_button.on_click(lambda _: self.export())

    def _build_options(self, game_id: str, values: dict[str, Any]) -> None:
        cls = rk.game_class(game_id)
        self.option_widgets = {name: option_widget(name, opt) for name, opt in cls.OPTIONS.items()}
        for name, value in values.items():
            if name in self.option_widgets:
                widget = self.option_widgets[name]
                as_json = isinstance(widget, w.Text) and not isinstance(value, str)
                widget.value = json.dumps(value) if as_json else value
        self.options_box.children = tuple(self.option_widgets.values())

    # --- the game ----------------------------------------------------------------------
    def new_game(self) -> None:
        cls = rk.game_class(self.game_select.value)
        try:
            options = {n: option_value(cls.OPTIONS[n], wd) for n, wd in self.option_widgets.items()}
            self.game = rk.load_game(self.game_select.value, **options)
        except rk.RulesError as exc:
            self._say(str(exc), error=True)
            return
        self.states: list[State] = [self.game.initial_state()]
        self.actions: list[Action] = []
        self.redo_stack: list[Action] = []
        players = self.game.player_names
        self.perspective.options = [("All-seeing", ALL_SEEING)] + [(p, i) for i, p in enumerate(players)]
        self.perspective.value = ALL_SEEING
        self.opponent.options = [("nobody", NOBODY)] + [(p, i) for i, p in enumerate(players)]
        self.opponent.value = NOBODY
        self._say("")
        self.refresh()

    def set_position(self, position: str | State) -> None:
        """Start exploring from a position (its text, as `state.to_text()` gives it)."""
        try:
            state = self.game.from_text(position) if isinstance(position, str) else position
        except rk.RulesError as exc:
            self._say(str(exc), error=True)
            return
        self.states, self.actions, self.redo_stack = [state], [], []
        self.refresh()

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
        self.actions.append(action)
        self.states.append(new)
        self.redo_stack.clear()
        self._say("")
        self.refresh()
        self._agent_turns()
        return new

    def undo(self) -> None:
        if self.actions:
            self.redo_stack.append(self.actions.pop())
            self.states.pop()
            self.refresh()

    def redo(self) -> None:
        if self.redo_stack:
            action = self.redo_stack.pop()
            self.states.append(self.state.apply(action))
            self.actions.append(action)
            self.refresh()

    def sample_chance(self) -> None:
        if self.state.current_player == rk.CHANCE:
            self.play(self.state.sample_chance(self.rng))

    def _apply_chosen_chance(self) -> None:
        if self.chance_select.value is not None:
            self.play(self.chance_select.value)

    def _play_selected(self) -> None:
        if self.all_moves.value is not None:
            self.play(self.all_moves.value)

    def _agent_turns(self) -> None:
        """Let the agent move (and resolve chance) until it is a person's turn."""
        while not self.state.is_terminal() and self.opponent.value not in (None, NOBODY):
            player = self.state.current_player
            if player == rk.CHANCE:
                self.states.append(self.state.apply(action := self.state.sample_chance(self.rng)))
            elif player == self.opponent.value:
                agent = make_agent(self.agent_kind.value, seed=self.rng.randrange(2**31))
                self.states.append(self.state.apply(action := agent.choose(self.state.view(player))))
            else:
                break
            self.actions.append(action)
        self.refresh()

    # --- clicks ------------------------------------------------------------------------
    def click(self, cell: str) -> None:
        result = self.controller.click(cell)
        self.choices.children = ()
        if result.kind == "move":
            self.play(result.move)
            return
        if result.kind == "choose":
            self.choices.children = tuple(self._choice_button(m) for m in result.choices)
        self._show_highlight()

    def _choice_button(self, move: Move) -> w.Button:
        button = w.Button(description=str(move), button_style="success", layout=w.Layout(width="auto"))
        button.on_click(lambda _: self.play(move))
        return button

    # --- showing -----------------------------------------------------------------------
    def refresh(self) -> None:
        state = self.state
        self.controller = ClickController(state)
        perspective = None if self.perspective.value in (None, ALL_SEEING) else self.perspective.value
        scene = state.scene(perspective)
        self.board.show(scene, **self._highlight_cells(scene))
        self.status.value = f"<b>{scene.status}</b>"
        self.move_list.options = [f"{i + 1}. {a}" for i, a in enumerate(self.actions)]
        self.undo_button.disabled = not self.actions
        self.redo_button.disabled = not self.redo_stack
        moves = state.legal_moves()
        self.all_moves.options = [(str(m), m) for m in moves]
        self.all_moves.value = moves[0] if moves else None
        self.play_button.disabled = not moves
        at_chance = state.current_player == rk.CHANCE and not state.is_terminal()
        self.chance_button.disabled = not at_chance
        self.chance_select.options = self._chance_options() if at_chance else []
        self.chance_apply.disabled = not self.chance_select.options
        self.choices.children = ()

    def _chance_options(self) -> list[tuple[str, Action]]:
        try:
            return [(f"{o} ({p:.0%})", o) for o, p in self.state.chance_outcomes()][:200]
        except rk.ChanceNotEnumerableError:
            return []

    def _highlight_cells(self, scene) -> dict[str, tuple[str, ...]]:
        prefix = self.controller.prefix
        targets = self.controller.next_cells() if prefix else ()
        return {"last": scene.last_cells, "selected": prefix, "targets": targets}

    def _show_highlight(self) -> None:
        self.board.set_highlight(**self._highlight_cells(self.board.scene))

    def _say(self, text: str, error: bool = False) -> None:
        colour = "#B00020" if error else "#333333"
        self.message.value = f'<span style="color:{colour}">{text}</span>' if text else ""

    # --- records -----------------------------------------------------------------------
    def record(self) -> records.Record:
        """The game so far as a record (rules_kernel.records)."""
        return records.Record.from_actions(self.game, self.actions, players=self.game.player_names,
                                           meta={"source": "explorer"})

    def export(self) -> str:
        line = self.record().to_json()
        data = b64encode((line + "\n").encode()).decode()
        self.export_area.value = (f'<a download="{self.game.id}.jsonl" '
                                  f'href="data:application/x-ndjson;base64,{data}">'
                                  f"Download {self.game.id}.jsonl ({len(self.actions)} actions)</a>")
        return line
