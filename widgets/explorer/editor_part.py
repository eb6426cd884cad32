"""The explorer's board editor: "Edit position" in the folded tools opens the editor
(widgets/editor.py) on the position shown, where the page may show its text; "Play from here"
and "Analyse" start the explorer from the position set up."""

from __future__ import annotations

from collections.abc import Callable

import ipywidgets as w

from rules_kernel.core import State
from widgets.editor import PositionEditor, has_editor
from widgets.explorer.common import OnFirstUse, Page, Part
from widgets.explorer.curtain import HandOver
from widgets.presentation import has_secrets
from widgets.runtime import SHOWN


class EditorPart(Part):
    """The editor's switch (`edit_toggle`, made with the folded tools: `build`) and its box
    (`editor_box`, above the board). `set_position` starts the explorer from a state;
    `analysis_switch` is the analysis panel's switch, turned on by "Analyse"."""

    edit_toggle = OnFirstUse("folded")

    def __init__(
        self,
        page: Page,
        eyes: HandOver,
        analysis_switch: w.ToggleButton,
        *,
        set_position: Callable[[State], None],
    ) -> None:
        super().__init__(page)
        self.eyes, self.analysis_switch, self.set_position = eyes, analysis_switch, set_position
        self.built = False
        #: makes the folded tools, this part's among them (the explorer's: all of them at once)
        self.folded: Callable[[], None] = self.build
        self.editor_box = w.Box(layout=w.Layout(display="none", width="100%"))

    def build(self) -> None:
        """The switch, once (with the folded tools)."""
        if self.built:
            return
        self.built = True
        #: the board editor (a game that names an "editor" part), opened on the position shown
        self.edit_toggle = w.ToggleButton(
            value=False,
            description="Edit position",
            tooltip="Set up a position by clicking: pieces, hands, side to move",
            layout=w.Layout(width="auto"),
        )
        self.edit_toggle.observe(self.page.acts(lambda _: self.switched()), names="value")

    def switched(self) -> None:
        """Open the editor on the position shown (only where the page may show its text: in
        a player's view of a game with hidden cards the editor would show every card)."""
        if not self.edit_toggle.value:
            self.editor_box.children, self.editor_box.layout.display = (), "none"
            return
        if (has_secrets(self.game) and self.eyes.viewer is not None) or self.eyes.curtain_for is not None:
            self.edit_toggle.value = False
            self.page.say("The editor shows every card: open it in the all-seeing view.", error=True)
            return
        editor = PositionEditor(self.session.state, self.play_edited, self.analyse_edited)
        self.editor_box.children, self.editor_box.layout.display = (editor,), SHOWN

    def play_edited(self, state: State) -> None:
        self.edit_toggle.value = False
        self.set_position(state)

    def analyse_edited(self, state: State) -> None:
        self.play_edited(state)
        self.analysis_switch.value = True

    def show_toggle(self) -> None:
        """The switch where the game has an editor (its "editor" part)."""
        self.edit_toggle.layout.display = SHOWN if has_editor(self.session.state) else "none"

    def close(self) -> None:
        """No editor open (a new game, the curtain down): its box emptied and its switch set
        back without its observer acting."""
        if self.editor_box.children:
            self.page.replace(self.editor_box, ())
            self.editor_box.layout.display = "none"
        if self.built:
            with self.page.quiet:
                self.edit_toggle.value = False
