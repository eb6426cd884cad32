"""The explorer's table: who sits where and how the game is played on — the view's menu (a
seat's eyes, the player to move's, all-seeing), an agent's switch for each seat and the agents'
kind, chance by hand (sample it, or pick an outcome), any legal move from a menu, and the
players' line above the board."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import parts as game_parts
from rules_kernel.analysis import table
from rules_kernel.core import Action
from widgets.draw import owner_colour
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
    Part,
)
from widgets.presentation import Presentation
from widgets.runtime import SHOWN
from widgets.safe import html


class Seats(Part):
    """The view's menu (`perspective`), the agents (`agent_plays`, `agent_kind`), chance by
    hand (`manual_chance`, `chance_box`; its controls made when first shown: `build_chance`),
    any move (`all_moves`, `play_button`) and the players' line (`players`). `play` plays an
    action (the explorer's)."""

    chance_button = OnFirstUse("build_chance")
    chance_select = OnFirstUse("build_chance")
    chance_apply = OnFirstUse("build_chance")

    def __init__(self, page: Page, *, play: Callable[[Action], Any]) -> None:
        super().__init__(page)
        self.play = play
        make = page.looks.make
        self.players = make(w.HTML)
        self.players.add_class("re-players")
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
        self.chance_box = w.VBox(layout=w.Layout(display="none"))  # build_chance
        self.chance_built = False
        self.all_moves = make(
            w.Dropdown,
            description="Any move",
            style=LABEL_FITS,
            layout={"width": "100%", "max_width": "250px"},
        )
        self.play_button = make(w.Button, description="Play", layout={"width": "70px"})
        self._menus_for: tuple[str, bool] | None = None  # the game (and its secrets) the menu is for
        on = page.acts
        self.agent_kind.observe(on(lambda _: self.settings_changed()), names="value")
        self.manual_chance.observe(on(lambda _: self.settings_changed()), names="value")
        self.play_button.on_click(on(lambda _: self._play_selected()))

    def build_chance(self) -> None:
        """Sample chance, or pick an outcome and apply it: once, when chance is first resolved by
        hand (the box is shown while it is)."""
        if self.chance_built:
            return
        self.chance_built = True
        make = self.page.looks.make
        self.chance_button = make(
            w.Button, description="Sample chance", tooltip="Draw the pending chance event"
        )
        self.chance_select = make(w.Dropdown, description="or pick", layout=WIDE)
        self.chance_apply = make(w.Button, description="Apply", layout={"width": "70px"})
        on = self.page.acts
        self.chance_button.on_click(on(lambda _: self.sample_chance()))
        self.chance_apply.on_click(on(lambda _: self._apply_chosen_chance()))
        self.chance_box.children = (
            self.chance_button,
            make(w.HBox, children=[self.chance_select, self.chance_apply]),
        )

    # --- a new game's menus ---------------------------------------------------------------
    def set_views(self, game: rk.Game, secrets: bool) -> None:
        """The view's menu for `game`: a game with secrets offers the player to move's view
        (people handing the screen over) first and all-seeing last; one without, the whole
        board first."""
        views = [(f"{p}'s view", i) for i, p in enumerate(game.player_names)]
        if secrets:
            views = [
                ("Player to move (hand over between turns)", FOLLOW_TURN),
                *views,
                ("All-seeing (analysis)", ALL_SEEING),
            ]
        else:
            views = [("Whole board", ALL_SEEING), *views]
        # the view sticks across New game of the same game with the same secrets; another game,
        # or the same with other secrets (plain To War!, then its strategic variant's hidden
        # hands), opens in its own default: with secrets, the view of the player to move
        kept = self.perspective.value if self._menus_for == (game.id, secrets) else None
        self._menus_for = (game.id, secrets)
        self.perspective.options = views
        self.perspective.value = kept if kept in [value for _, value in views] else views[0][1]

    def set_agents(self, game: rk.Game) -> None:
        """The agents' kinds (the perfect agent where the game's solved table is ready) and one
        switch per seat; a seat an agent played keeps its agent (settings stick)."""
        kind = self.agent_kind.value
        ready = table.availability(game) == "ready"  # the table engine's readiness, as perfect play asks it
        self.agent_kind.options = AGENTS + ((PERFECT_AGENT,) if ready else ())
        if kind in [value for _, value in self.agent_kind.options]:
            self.agent_kind.value = kind
        kept = set(self.agent_seats)
        self.agent_plays = [
            self.page.looks.make(w.Checkbox, value=seat in kept, indent=False, description=name, layout=AUTO)
            for seat, name in enumerate(game.player_names)
        ]
        for switch in self.agent_plays:
            switch.observe(self.page.acts(lambda _: self.settings_changed()), names="value")
        label = self.page.looks.make(w.HTML, value="Agent plays:&nbsp;")
        self.page.replace(self.agents_box, (label, *self.agent_plays))

    @property
    def agent_seats(self) -> list[int]:
        """The seats an agent plays."""
        return [seat for seat, switch in enumerate(self.agent_plays) if switch.value]

    def agents(self) -> dict[int, str]:
        """The agents of a session: the kind chosen at each seat an agent plays."""
        return {seat: self.agent_kind.value for seat in self.agent_seats}

    def settings_changed(self) -> None:
        """The agent's seat or kind, or chance by hand: the session takes them and, if it is now
        an agent's turn or chance is due, plays on (one change, one redraw)."""
        if self.page.quiet or self.session is None:
            return
        with self.session.batch():
            self.session.agents = self.agents()
            self.session.manual_chance = self.manual_chance.value
            self.session.run_automatic()

    # --- chance by hand, any move ------------------------------------------------------------
    def sample_chance(self) -> None:
        if self.page.curtain_down():
            return
        state = self.session.state
        if state.current_player == rk.CHANCE and not state.is_terminal():
            with self.session.batch():
                self.session.sample_chance()
                self.session.run_automatic()

    def _apply_chosen_chance(self) -> None:
        if self.chance_select.value is not None:
            self.play(self.chance_select.value)

    def _play_selected(self) -> None:
        if self.all_moves.value is not None:
            self.play(self.all_moves.value)

    def _chance_options(self) -> list[tuple[str, Action]]:
        try:
            state = self.session.state  # the outcomes in words ("draws Mamluk"), not "draw:MAM"
            outcomes = state.chance_outcomes()
            return [(f"{game_parts.action_text(state, o)} ({p:.0%})", o) for o, p in outcomes][:200]
        except rk.ChanceNotEnumerableError:
            return []

    # --- showing -----------------------------------------------------------------------
    def show_players(self, view: Presentation, curtain: bool) -> None:
        """Each seat in its colour: who is "you", who is an agent, who is to move."""
        state = self.session.state
        to_move = state.current_player
        parts = []
        for i, name in enumerate(self.game.player_names):
            marker = " ◀ to move" if i == to_move and not state.is_terminal() else ""
            agent = " (agent)" if i in self.agent_seats else ""
            # behind the curtain nobody is "you" yet: the one at the screen may be the last player
            you = " (you)" if view.viewer == i and not curtain else ""
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

    def show_menus(self, view: Presentation, curtain: bool) -> None:
        """Any move's menu (each move in the game's words), and chance by hand where it is on
        (the outcomes with their odds only in the all-seeing view)."""
        moves = () if curtain else view.moves
        labels = move_words(self.session.state, moves, view.viewer)
        self.all_moves.options = list(zip(labels, moves, strict=True))
        self.all_moves.value = moves[0] if moves else None
        self.all_moves.disabled = self.play_button.disabled = not moves
        pending = view.chance_pending and not curtain
        self.chance_box.layout.display = SHOWN if self.manual_chance.value else "none"
        if not self.manual_chance.value and not self.chance_built:
            return
        self.chance_button.disabled = not pending
        # the outcome list names every possibility with its odds: analysis only
        self.chance_select.options = self._chance_options() if pending and view.viewer is None else []
        self.chance_apply.disabled = not self.chance_select.options


def move_words(state: rk.State, moves: tuple[Action, ...] | list[Action], viewer: int | None) -> list[str]:
    """The moves of `state` in the game's words, as the menu lists them: what each move does,
    never its notation ("places Krieger on b3", "turns over a1", "Kitsune b1–c2"). Worded on
    the position `viewer` sees (`state.view(viewer)`), so a move never tells beforehand what a
    hidden card will show (a War Stories flip is "turns over a1" until it is turned). Two moves
    the words cannot tell apart are numbered, so each entry stays one move."""
    seen = state if viewer is None else state.view(viewer)
    words = [game_parts.action_text(seen, move, viewer) for move in moves]
    counts: dict[str, int] = {}
    for text in words:
        counts[text] = counts.get(text, 0) + 1
    numbered: dict[str, int] = {}
    labels = []
    for text in words:
        if counts[text] > 1:
            numbered[text] = numbered.get(text, 0) + 1
            text = f"{text} (way {numbered[text]} of {counts[text]})"
        labels.append(text)
    return labels
