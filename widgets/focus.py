"""Moving the keyboard focus from Python: when a page hides the control that had the focus
(the board under the hand-over curtain), the focus goes where the reader goes next (the
curtain's button), instead of dropping to the page's <body>.

    focus = FocusMover()                       # put it anywhere on the page (it draws nothing)
    button.add_class("re-curtain-button")
    focus.move_to("re-curtain-button")         # that control takes the focus

Only class names this code chose reach the browser (`move_to` refuses anything else), and the
browser looks them up inside the widget's own page.
"""

from __future__ import annotations

import re

import anywidget
import traitlets

ESM = """
function render({ model, el }) {
  el.style.display = "none";
  model.on("change:request", () => {
    const name = model.get("target"), request = model.get("request");
    // after the widgets' own redraw: the target may have just been shown, or just been made
    // (its view comes a little later then); a newer request takes over
    const attempt = (left) => {
      if (model.get("request") !== request) return;
      for (const candidate of document.getElementsByClassName(name)) {
        const control = candidate.matches("button, [tabindex]") ? candidate
          : candidate.querySelector("button, [tabindex]");
        if (control && control.offsetParent !== null) { control.focus(); return; }
      }
      if (left > 0) setTimeout(() => attempt(left - 1), 50);
    };
    requestAnimationFrame(() => setTimeout(() => attempt(40), 50));
  });
}
export default { render };
"""

CLASS_NAME = re.compile(r"re-[a-z0-9-]{1,40}")


class FocusMover(anywidget.AnyWidget):
    _esm = ESM
    target = traitlets.Unicode("").tag(sync=True)
    request = traitlets.Int(0).tag(sync=True)

    def move_to(self, class_name: str) -> None:
        """Focus the first visible control carrying `class_name` (one of the project's `re-` classes)."""
        if not CLASS_NAME.fullmatch(class_name):
            raise ValueError(f"not one of the page's class names: {class_name!r}")
        with self.hold_sync():
            self.target = class_name
            self.request += 1
