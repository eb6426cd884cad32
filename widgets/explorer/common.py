"""What the explorer's parts share: the page's services (`Page`: the message line, the guard
every control's handler goes through, the quiet flag, the shared looks) and the page's words
and layouts. Each part (widgets/explorer/*.py) takes a `Page` and the session; none takes the
`Explorer` itself."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from rules_kernel.session import Session
from widgets.looks import Looks
from widgets.safe import error_line, guarded, message_html

ALL_SEEING = "all"
FOLLOW_TURN = "turn"
AGENTS = (("random", "random"), ("greedy (one move ahead)", "greedy"), ("tree search", "mcts:100"))
PERFECT_AGENT = ("perfect (the solved game's table)", "perfect")

#: the layout of a menu or a text box in the side column
WIDE = {"width": "96%", "max_width": "330px"}
AUTO = {"width": "auto"}
FITS = {"width": "auto", "max_width": "100%"}  # a button with a long text
STEP = {"width": "90px"}  # Undo, Redo, Reset
ROW = {"flex_flow": "row wrap"}
LABEL_FITS = {"description_width": "initial"}


class Quiet:
    """On while the explorer sets its own controls (a new game's menus, a switch set back):
    their observers wait. `with page.quiet:` nests, and restores what it found."""

    def __init__(self) -> None:
        self.on = False
        self._before: list[bool] = []

    def __bool__(self) -> bool:
        return self.on

    def __enter__(self) -> Quiet:
        self._before.append(self.on)
        self.on = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.on = self._before.pop()


class Page:
    """The services of one explorer page that its parts share."""

    def __init__(self, looks: Looks, message: w.HTML) -> None:
        self.looks = looks
        self.message = message
        self.quiet = Quiet()
        #: a callback's error becomes the red message line, never a traceback
        self.guarded = guarded(error_line(message))
        #: is the hand-over curtain down? (the curtain's part answers once it is made)
        self.curtain_down: Callable[[], bool] = lambda: False
        self._reverting = False  # True while a control changed behind the curtain is set back

    def say(self, text: str, error: bool = False) -> None:
        """The message line under the status."""
        self.message.value = message_html(text, error=error)

    def acts(self, handler: Callable[..., Any]) -> Callable[..., Any]:
        """Every control's handler but the curtain's: guarded, and nothing acts while the
        curtain is down."""
        return self.guarded(self.unless_curtained(handler))

    def unless_curtained(self, handler: Callable[..., Any]) -> Callable[..., Any]:
        """`handler`, run only while the hand-over curtain is up. Behind it a control does
        nothing (the page disables them all; a script or a stale browser message may still
        press one): a click is dropped, and a value changed (a menu, a switch) is set back, so
        that nothing on the page changes until the next player lifts the curtain."""

        def run(*args: Any) -> Any:
            if not self.curtain_down() or self.quiet:
                return handler(*args)
            change = args[0] if len(args) == 1 and isinstance(args[0], dict) else None
            if change is not None and change.get("type") == "change" and not self._reverting:
                self._reverting = True
                try:
                    change["owner"].set_trait(change["name"], change["old"])
                finally:
                    self._reverting = False
            return None

        return run

    def replace(self, box: w.Box, children: tuple[w.Widget, ...]) -> None:
        """Set a box's children and close the ones it had that it holds no more: otherwise the
        page would keep every form, button and switch ever made in it."""
        kept = {id(child) for child in children}
        old, box.children = box.children, children
        for child in old:
            if id(child) not in kept:
                self.looks.close(child)


class OnFirstUse:
    """A widget built on first use by its owner's method `build` (with the others it builds),
    so that a page starts with fewer widgets: the hand-over's curtain when a turn is first
    handed over, the looking-back note when a past position is first shown, the folded tools
    when they are first opened, or any of them when a script asks for one. Once built it is a
    plain attribute."""

    def __init__(self, build: str) -> None:
        self.build = build

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, owner_object: object | None, owner: type | None = None) -> Any:
        if owner_object is None:
            return self
        getattr(owner_object, self.build)()
        return owner_object.__dict__[self.name]


class FromPart:
    """An attribute of the explorer that is one of its parts' (a widget, a flag, a method):
    read and set on the part `part` as `attribute` (a widget the part makes on first use is
    made when read)."""

    def __init__(self, part: str, attribute: str) -> None:
        self.part, self.attribute = part, attribute

    def __get__(self, explorer: object | None, owner: type | None = None) -> Any:
        if explorer is None:
            return self
        return getattr(getattr(explorer, self.part), self.attribute)

    def __set__(self, explorer: object, value: Any) -> None:
        setattr(getattr(explorer, self.part), self.attribute, value)


class Part:
    """A part of the explorer: its own widgets and handlers over the explorer's session and
    game (the explorer sets both on every part when it starts a game)."""

    session: Session | None = None
    game: Any = None  # the rk.Game shown (its names, its tables)

    def __init__(self, page: Page) -> None:
        self.page = page
