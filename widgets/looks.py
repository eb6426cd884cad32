"""One layout and one style widget for all the controls of a page that look alike.

Each ipywidgets control makes a `Layout` and (most of them) a style of its own, and each of
those is a widget too: a message from the kernel and a model in the page. The explorer made
103 of them for 67 controls, and making widgets is most of what its cell costs in a reader's
browser (the static site, docs/publishing.md). A layout or style shared is set once for all
the controls that hold it, so `Looks` is only for controls whose layout and style nothing
changes later: a control that is hidden or shown, resized or recoloured keeps its own.
"""

from __future__ import annotations

from typing import Any, TypeVar

import ipywidgets as w

Control = TypeVar("Control", bound=w.DOMWidget)


class Looks:
    """The shared layouts and styles of one page (never of two: closing one page's widgets
    must not close another's)."""

    def __init__(self) -> None:
        self._made: dict[tuple, w.Widget] = {}

    def make(
        self,
        kind: type[Control],
        *,
        layout: dict[str, str] | None = None,
        style: dict[str, str] | None = None,
        **traits: Any,
    ) -> Control:
        """`kind(**traits)` with the page's layout of these `layout` traits and its style of
        these `style` traits (the defaults when not given)."""
        traits["layout"] = self.shared(w.Layout, layout or {})
        style_trait = kind.class_traits().get("style")
        if style_trait is not None:
            traits["style"] = self.shared(style_trait.klass, style or {})
        elif style:
            raise TypeError(f"{kind.__name__} has no style to set {sorted(style)}")
        return kind(**traits)

    def shared(self, kind: type[w.Widget], traits: dict[str, str]) -> w.Widget:
        """The page's one `kind` widget with these `traits`."""
        key = (kind, tuple(sorted(traits.items())))
        if key not in self._made:
            self._made[key] = kind(**traits)
        return self._made[key]

    def __len__(self) -> int:
        return len(self._made)

    def close(self, widget: w.Widget) -> None:
        """Close `widget` and everything it holds (its children, theirs, their own layouts and
        styles) but the looks shared here, which the rest of the page still wears: for a part of
        the page that is replaced (another game's options, its reference)."""
        shared = {id(look) for look in self._made.values()}
        stack, seen = [widget], set()
        while stack:
            part = stack.pop()
            if id(part) in seen or id(part) in shared:
                continue
            seen.add(id(part))
            for name in part.keys:
                value = getattr(part, name, None)
                held = value if isinstance(value, (list, tuple)) else (value,)
                stack.extend(v for v in held if isinstance(v, w.Widget))
            part.close()
