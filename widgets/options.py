"""A game's options as a form: real inputs with plain-language labels and help text.

Each `rk.Option` becomes the input that fits what it accepts: a dropdown for choices, a
checkbox for yes/no, a number box for a whole number, "stop after N" for an optional cap,
one dropdown per player for a list of choices (To War!'s armies), and a file upload for a
data table (To War!'s unit table). Values are data: an uploaded table is read from the
upload's bytes, never from a server path.
"""

from __future__ import annotations

import json
from typing import Any

import ipywidgets as w

import rules_kernel as rk
from widgets.runtime import SHOWN
from widgets.safe import message_html
from widgets.upload import Upload

ORDINALS = ("First", "Second", "Third", "Fourth")
HELP_STYLE = "font-size:12px;color:#555;line-height:1.3;max-width:280px"


def label_of(name: str) -> str:
    return name.replace("_", " ").capitalize()


class Field:
    """One option's input, its label and help text; `value()` reads it back."""

    def __init__(self, name: str, option: rk.Option, inputs: list[w.Widget], help_text: str = "") -> None:
        from widgets.safe import html

        self.name, self.option = name, option
        doc = html('<div style="{style}">{doc}</div>', style=HELP_STYLE, doc=help_text or option.doc)
        self.widget = w.VBox(
            [*inputs, w.HTML(doc)], layout=w.Layout(margin="0 18px 6px 0", max_width="300px")
        )

    def value(self) -> Any:
        raise NotImplementedError


class ChoiceField(Field):
    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        self.input = w.Dropdown(
            options=[(str(c), c) for c in option.choices],
            value=value,
            description=label_of(name),
            style={"description_width": "initial"},
            layout=w.Layout(max_width="280px"),
        )
        super().__init__(name, option, [self.input])

    def value(self) -> Any:
        return self.input.value


class BoolField(Field):
    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        self.input = w.Checkbox(value=bool(value), description=label_of(name), indent=False)
        super().__init__(name, option, [self.input])

    def value(self) -> Any:
        return self.input.value


class IntField(Field):
    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        self.input = w.IntText(
            value=value,
            description=label_of(name),
            style={"description_width": "initial"},
            layout=w.Layout(width="200px"),
        )
        super().__init__(name, option, [self.input])

    def value(self) -> Any:
        return self.input.value


class TextField(Field):
    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        self.input = w.Text(
            value=str(value),
            description=label_of(name),
            style={"description_width": "initial"},
            layout=w.Layout(max_width="280px"),
        )
        super().__init__(name, option, [self.input])

    def value(self) -> Any:
        return self.input.value


class CapField(Field):
    """An optional positive whole number: 'Stop after [N]', off by default."""

    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        self.enabled = w.Checkbox(
            value=value is not None, description=label_of(name), indent=False, layout=w.Layout(width="auto")
        )
        self.number = w.BoundedIntText(
            value=value or 500, min=1, max=10**6, disabled=value is None, layout=w.Layout(width="110px")
        )
        self.enabled.observe(lambda ch: setattr(self.number, "disabled", not ch["new"]), names="value")
        super().__init__(name, option, [w.HBox([self.enabled, self.number])])

    def value(self) -> Any:
        return self.number.value if self.enabled.value else None


def singular(word: str) -> str:
    """'Armies' -> 'Army', 'Units' -> 'Unit': an option's plural name for one player's item."""
    if word.endswith("ies"):
        return word[:-3] + "y"
    return word[:-1] if word.endswith("s") and not word.endswith("ss") else word


class ItemsField(Field):
    """A list with one choice per player (To War!'s two armies)."""

    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        values = list(value)
        self.inputs = [
            w.Dropdown(
                options=[(str(c), c) for c in option.items],
                value=v,
                description=f"{ORDINALS[i]} player's {singular(label_of(name)).lower()}",
                style={"description_width": "initial"},
                layout=w.Layout(max_width="280px"),
            )
            for i, v in enumerate(values)
        ]
        super().__init__(name, option, list(self.inputs))

    def value(self) -> Any:
        return [d.value for d in self.inputs]


class TableField(Field):
    """A data table from an uploaded CSV or JSON file (its content, never a path)."""

    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        self.upload = Upload(
            f"{label_of(name)} file",
            accept=".csv,.json",
            limit=option.max_bytes or 512 * 1024,
            layout=w.Layout(width="auto"),
        )
        self.clear = w.Button(description="Use the default", layout=w.Layout(width="auto"))
        self.clear.on_click(lambda _: setattr(self.upload, "value", ()))
        self.given = value  # a table given from Python (rows or a DataFrame), kept as is
        #: what the chosen file holds, said as soon as it is chosen (not at New game); a file
        #: over the limit is refused in the browser and never sent
        self.note = w.HTML()
        self.upload.observe(lambda _: self._check_upload(), names="value")
        self.upload.on_refused(lambda line: setattr(self.note, "value", message_html(line, error=True)))
        super().__init__(
            name,
            option,
            [w.HBox([self.upload, self.clear]), self.note],
            help_text=option.doc.split(":")[0].split(";")[0]
            + ": upload a CSV or JSON file to replace the default.",
        )

    def value(self) -> Any:
        if not self.upload.value:
            return self.given
        upload = self.upload.value[0]
        return read_table(self.option, str(upload["name"]), bytes(upload["content"]))

    def _check_upload(self) -> None:
        """Read the chosen file at once: how many rows it holds, or what is wrong, in one line."""
        if not self.upload.value:
            self.note.value = ""
            return
        name = str(self.upload.value[0]["name"])
        try:
            rows = len(self.value())
        except (rk.RulesError, ValueError) as exc:
            self.note.value = message_html(str(exc), error=True)
            return
        self.note.value = message_html(f"{name}: {rows} rows read; New game plays with them.")


def read_table(option: rk.Option, name: str, data: bytes) -> Any:
    """An uploaded table's value, parsed by its option from the file's bytes (the content
    is never a path). Errors name the file, in one line."""
    if option.from_bytes is None:
        raise rk.OptionError(f"this option takes no file ({name!r})")
    return option.from_bytes(data, name)


class WordOrListsField(Field):
    """A word ('random', 'draft') or one list of items per player (War Chest armies): a
    dropdown of the words plus 'choose for each player', which opens one row of item
    dropdowns per player (rows and items left at '—' are left out)."""

    CHOOSE = "choose for each player"
    ROWS, PER_ROW = 4, 4

    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        lists = value if isinstance(value, (list, tuple)) else []
        word = value if isinstance(value, str) else self.CHOOSE
        self.mode = w.Dropdown(
            options=[*option.words, self.CHOOSE],
            value=word,
            description=label_of(name),
            style={"description_width": "initial"},
            layout=w.Layout(max_width="280px"),
        )
        items = [("—", None)] + [(str(i), i) for i in option.items]
        self.rows = [
            [
                w.Dropdown(options=items, value=_nth(lists, r, c), layout=w.Layout(width="auto"))
                for c in range(self.PER_ROW)
            ]
            for r in range(self.ROWS)
        ]
        self.lists = w.VBox(
            [
                w.HBox([w.Label(f"{ORDINALS[r]}:"), *row], layout=w.Layout(flex_flow="row wrap"))
                for r, row in enumerate(self.rows)
            ]
        )
        self.mode.observe(lambda _: self._show_lists(), names="value")
        self._show_lists()
        super().__init__(name, option, [self.mode, self.lists])

    def _show_lists(self) -> None:
        self.lists.layout.display = SHOWN if self.mode.value == self.CHOOSE else "none"

    def value(self) -> Any:
        if self.mode.value != self.CHOOSE:
            return self.mode.value
        lists = [[d.value for d in row if d.value is not None] for row in self.rows]
        return [items for items in lists if items]


def _nth(lists: list, row: int, column: int) -> Any:
    return lists[row][column] if row < len(lists) and column < len(lists[row]) else None


def make_field(name: str, option: rk.Option, value: Any) -> Field:
    if option.choices is not None:
        return ChoiceField(name, option, value)
    if option.words is not None and option.items is not None:
        return WordOrListsField(name, option, value)
    if option.items is not None:
        return ItemsField(name, option, value)
    if isinstance(option.default, bool):
        return BoolField(name, option, value)
    if isinstance(option.default, int):
        return IntField(name, option, value)
    if isinstance(option.default, str) and isinstance(value, str):
        return TextField(name, option, value)
    if option.from_bytes is not None:
        return TableField(name, option, value)
    if option.default is None:
        return CapField(name, option, value)
    return FixedField(name, option, value)


class FixedField(Field):
    """A value this form cannot edit (given from Python, e.g. War Chest armies as lists)."""

    def __init__(self, name: str, option: rk.Option, value: Any) -> None:
        from widgets.safe import html

        self.given = value
        shown = w.HTML(html("<b>{label}</b>: {value}", label=label_of(name), value=json.dumps(value)))
        super().__init__(name, option, [shown])

    def value(self) -> Any:
        return self.given


class OptionsForm:
    """Every option of a game as inputs; `values()` gives the keyword arguments for load_game."""

    def __init__(self, game_id: str, values: dict[str, Any] | None = None) -> None:
        cls = rk.game_class(game_id)
        values = dict(values or {})
        self.fields = {
            name: make_field(name, option, values.get(name, option.default))
            for name, option in cls.OPTIONS.items()
        }
        self.widget = w.HBox([f.widget for f in self.fields.values()], layout=w.Layout(flex_flow="row wrap"))

    def values(self) -> dict[str, Any]:
        return {name: field.value() for name, field in self.fields.items()}
