"""The explorer's game options: "Options of <game>" folds the game's options form
(widgets/options.py) under the header; the form is made when first shown or read, and a new
game starts with what it holds (or, before it is made, with what it would be made with)."""

from __future__ import annotations

from typing import Any

import ipywidgets as w

import rules_kernel as rk
from widgets.explorer.common import AUTO, Page, Part
from widgets.options import OptionsForm
from widgets.runtime import SHOWN, fold_title

#: when the options apply (the page says it above the form): a game chosen in the Game menu
#: starts at once with its options' defaults; the options' own changes wait for New game, so a
#: game under way is never restarted by a click on one of them
WHEN = (
    "These options apply when you press New game. Choosing another game in the Game menu "
    "starts it at once, with its usual options."
)


class GameOptions(Part):
    """The options' toggle and box (`options_toggle`, `options_form_box`, `options_box`) and
    the form (`form`, made on first use) of the game `game_select` (the Game menu) names;
    `choose` sets both for a game the page opens."""

    def __init__(self, page: Page, game_select: w.Dropdown) -> None:
        super().__init__(page)
        self.game_select = game_select
        make = page.looks.make
        # a real button (a Tab stop, Enter or Space opens it), not an accordion's title
        self.options_toggle = make(
            w.ToggleButton, value=False, description=fold_title("Options", False), layout=AUTO
        )
        self.options_toggle.add_class("re-options-toggle")
        self.options_form_box = w.Box(layout=w.Layout(display="none"))
        self.options_box = make(
            w.VBox,
            children=[self.options_toggle, self.options_form_box],
            layout={"align_items": "flex-start"},
        )
        self._form: OptionsForm | None = None  # made on first use (`form`)
        #: when the options apply (`WHEN`), above the form: made with the first form
        self.options_note: w.HTML | None = None
        self._wanted: tuple[str, dict[str, Any]] = (game_select.value, {})
        self.options_toggle.observe(page.acts(lambda _: self.show()), names="value")

    def choose(self, game_id: str, values: dict[str, Any]) -> None:
        """`game_id` in the Game menu, set quietly (its observer starts no game: the caller
        starts one), and `values` the options its next game starts with."""
        with self.page.quiet:
            self.game_select.value = game_id
        self.set(game_id, values)

    def set(self, game_id: str, values: dict[str, Any]) -> None:
        """The options the next New game starts with: their form is made when it is first shown
        or read (`form`); the form of the options replaced is closed."""
        self.page.replace(self.options_form_box, ())
        self._form, self._wanted = None, (game_id, dict(values))
        self.show()

    @property
    def form(self) -> OptionsForm:
        """The options' form, made on first use, under the note that says when they apply."""
        if self._form is None:
            self._form = OptionsForm(*self._wanted)
            self.options_form_box.children = (self._form.widget,)
            if self.options_note is None:  # made once, with the first form, shown with it
                self.options_note = w.HTML(  # a Layout of its own: it is shown and hidden
                    value=f'<div style="color:#555;margin:2px 0">{WHEN}</div>',
                    layout=w.Layout(display=self.options_form_box.layout.display),
                )
                self.options_box.children = (self.options_toggle, self.options_note, self.options_form_box)
        return self._form

    def values(self) -> dict[str, Any]:
        """What the form holds, or before it is made what it would be made with."""
        if self._form is not None:
            return self._form.values()
        game_id, values = self._wanted
        options = rk.game_class(game_id).OPTIONS
        return {name: values.get(name, option.default) for name, option in options.items()}

    def show(self) -> None:
        opened = self.options_toggle.value
        if opened:
            self.form  # noqa: B018 (made on first showing)
        title = rk.game_class(self.game_select.value).title
        self.options_toggle.description = fold_title(f"Options of {title}", opened)
        self.options_toggle.tooltip = ("Hide" if opened else "Show") + f" the options of {title}"
        self.options_form_box.layout.display = SHOWN if opened else "none"
        if self.options_note is not None:
            self.options_note.layout.display = self.options_form_box.layout.display

    @property
    def option_widgets(self) -> dict[str, w.Widget]:
        """The main input of each option (for scripts and tests)."""
        return {
            name: getattr(f, "input", None) or getattr(f, "number", None) or f.widget
            for name, f in self.form.fields.items()
        }
