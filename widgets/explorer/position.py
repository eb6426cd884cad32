"""The explorer's position box: the position shown as text (hidden in a player's view of a game
with hidden cards), a text pasted and loaded, a text that is not a position explained in a
note under the box (with an offer to switch to the game it belongs to), and what makes the
position shown a study position (`state.status()`)."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as w

import rules_kernel as rk
from rules_kernel.core import State
from widgets.explorer.common import AUTO, LABEL_FITS, ROW, WIDE, OnFirstUse, Page, Part
from widgets.presentation import Presentation
from widgets.safe import html


class PositionPart(Part):
    """The study status (`study_status`, always on the page) and the position box with its
    note (`position_text`, `position_load`, `position_note`, `position_switch`: made with the
    folded tools, `build`). `start` starts the explorer from a state; `switch_game` shows
    another game (a new game of it); an error opens the folded tools (`tools_toggle`) unless
    the page is a live diagram (`compact`)."""

    position_text = OnFirstUse("folded")
    position_load = OnFirstUse("folded")
    position_note = OnFirstUse("folded")
    position_switch = OnFirstUse("folded")

    def __init__(
        self,
        page: Page,
        tools_toggle: w.ToggleButton,
        *,
        compact: bool = False,
        start: Callable[[State], None],
        switch_game: Callable[[str], None],
    ) -> None:
        super().__init__(page)
        self.tools_toggle, self.compact, self.start, self.switch_game = (
            tools_toggle,
            compact,
            start,
            switch_game,
        )
        self.built = False
        #: makes the folded tools, this part's among them (the explorer's: all of them at once)
        self.folded: Callable[[], None] = self.build
        #: what `state.status()` reports of a study position (never an error: it is playable)
        self.study_status = page.looks.make(w.HTML)

    def build(self) -> None:
        """The position box, its button and notes, once (with the folded tools)."""
        if self.built:
            return
        self.built = True
        make = self.page.looks.make
        self.position_text = make(
            w.Text,
            description="Position",
            style=LABEL_FITS,
            layout=WIDE,
            placeholder="paste a position text here",
        )
        self.position_load = make(w.Button, description="Load position", layout=AUTO)
        self.position_note = make(w.HTML)
        self.position_switch = make(w.HBox, layout=ROW)
        self.position_load.on_click(self.page.acts(lambda _: self.set_position(self.position_text.value)))

    def set_position(self, position: str | State) -> None:
        """Start exploring from a position (its text, as `state.to_text()` gives it). A text
        that is not one is explained under the box (the game on show stays); a text of another
        game is offered to switch to it."""
        self.note("")
        if isinstance(position, str):
            text = position.strip()
            if not text:
                self.note("Paste a position text into the box first.", error=True)
                return
            try:
                state = self.game.from_text(text)
            except rk.RulesError as exc:
                self.refused(text, exc)
                return
        else:
            state = position
        self.page.say("")
        self.note("")
        self.start(state)

    def note(self, text: str, *, error: bool = False) -> None:
        """A note right under the position box: the whole sentence, wrapped, never cut (an
        error opens the folded tools, where it is; no note clears the offer to switch games)."""
        if not text and not self.built:
            return  # nothing to clear
        if error and not self.compact:
            self.tools_toggle.value = True
        if not text:
            self.page.replace(self.position_switch, ())
        colour = "#B00020" if error else "#333"
        box = (
            '<div role="alert" style="{style}">{text}</div>' if error else '<div style="{style}">{text}</div>'
        )
        style = f"color:{colour};line-height:1.4;max-width:32em"
        self.position_note.value = html(box, style=style, text=text) if text else ""

    def refused(self, text: str, error: rk.RulesError) -> None:
        """Why `text` is not a position of this game, an example, and an offer to switch to the
        game it is a position of (where one reads it)."""
        example = self.game.initial_state().to_text()
        field, why = getattr(error, "field", None), getattr(error, "why", None)
        reason = f"in its {field} part, {why}" if field and why else str(error)
        self.note(
            f"This is not a {self.game.title} position: {sentence(reason)} "
            f"For example, the start of the game reads: {example}",
            error=True,
        )
        other = game_of_position(text, self.game.id)
        if other is not None:
            switch = w.Button(
                description=f"Switch to {rk.game_class(other).title} and load it",
                layout=w.Layout(width="auto", max_width="100%"),
            )
            switch.on_click(self.page.acts(lambda _: self.switch_and_load(other, text)))
            self.page.replace(self.position_switch, (switch,))

    def switch_and_load(self, game_id: str, text: str) -> None:
        self.switch_game(game_id)
        self.position_text.value = text
        self.set_position(text)

    def forget(self) -> None:
        """No note about a position gone."""
        if self.built:
            self.position_note.value = ""

    def show(self, view: Presentation, curtain: bool) -> None:
        """The study status and, once the folded tools are made, the position's text (none in
        a player's view of a game with hidden cards, nor behind the curtain)."""
        self.show_study_status(view, curtain)
        if not self.built:
            return  # built showing it
        secret = not view.secrets_visible or curtain
        self.position_text.value = "" if secret else self.session.state.to_text()
        self.position_text.placeholder = (
            "hidden in a player's view (it names every card)" if secret else "paste a position text here"
        )

    def show_study_status(self, view: Presentation, curtain: bool) -> None:
        """What makes the position shown unusual for a real game (a study position: pieces out
        of the game, a side without its Koropokkuru, ...), as `state.status()` reports it,
        read from the viewer's own view; nothing for a position reached by play."""
        if curtain:
            self.study_status.value = ""
            return
        state = self.session.state
        state = state if view.viewer is None else state.view(view.viewer)
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


def sentence(text: str) -> str:
    """A kernel message as the end of a sentence: a full stop last, at most 600 characters."""
    text = " ".join(text.split())[:600]
    if not text:
        return ""
    return text if text.endswith((".", "!", "?")) else text + "."


def game_of_position(text: str, besides: str) -> str | None:
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
