"""A file upload that refuses a too-large file in the browser, before anything is sent
(issue #22 item 9).

ipywidgets' FileUpload sends a chosen file's whole content to the kernel whatever its size.
`Upload` looks at the file's size first: over `limit` it sends only the file's name and size
(the page says so in one line: "huge.csv is 586 KB; the limit is 512 KB. Nothing was sent."),
otherwise the content as one binary buffer. Its `value` has FileUpload's shape, so code that
read a FileUpload reads this the same way; the kernel side checks the size again (a browser is
never trusted).

    upload = Upload("Units file", accept=".csv,.json", limit=512 * 1024)
    upload.observe(lambda _: read(upload.value[0]["content"]), names="value")
    upload.on_refused(lambda line: show(line))
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

import anywidget
import traitlets

ESM = """
function render({ model, el }) {
  const input = document.createElement("input");
  input.type = "file";
  input.style.display = "none";
  const button = document.createElement("button");
  button.type = "button";
  button.className = "jupyter-button widget-button re-upload-button";
  const label = () => {
    const chosen = model.get("chosen");
    button.textContent = model.get("description") + (chosen ? ` (${chosen})` : "");
    input.accept = model.get("accept");
  };
  button.addEventListener("click", () => input.click());
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    input.value = "";
    if (!file) return;
    const name = String(file.name).slice(0, 200);
    if (file.size > model.get("limit")) {
      model.send({ event: "too-large", name: name, size: file.size });
      return;
    }
    const content = await file.arrayBuffer();
    // ipywidgets' send(content, callbacks, buffers): the file's bytes travel as one buffer
    model.send({ event: "file", name: name, size: file.size, type: String(file.type).slice(0, 100),
                 last_modified: file.lastModified }, undefined, [content]);
  });
  model.on("change:chosen", label);
  model.on("change:description", label);
  label();
  el.append(button, input);
}
export default { render };
"""


def size_words(size: int) -> str:
    """Bytes for people: '586 KB', '5.2 MB'."""
    if size < 1024 * 1024:
        return f"{size / 1024:,.0f} KB"
    return f"{size / (1024 * 1024):,.1f} MB"


class Upload(anywidget.AnyWidget):
    _esm = ESM
    description = traitlets.Unicode("Upload").tag(sync=True)
    accept = traitlets.Unicode("").tag(sync=True)
    limit = traitlets.Int(0).tag(sync=True)
    #: the name of the file taken, shown on the button ("" when none)
    chosen = traitlets.Unicode("").tag(sync=True)
    #: FileUpload's shape: () or ({"name", "type", "size", "content", "last_modified"},)
    value = traitlets.Tuple()

    def __init__(self, description: str, *, accept: str = "", limit: int, **kwargs) -> None:
        super().__init__(description=description, accept=accept, limit=limit, **kwargs)
        self._refused: list[Callable[[str], None]] = []
        self.observe(
            lambda _: setattr(self, "chosen", str(self.value[0]["name"]) if self.value else ""), "value"
        )
        self.on_msg(self._on_message)

    def on_refused(self, handler: Callable[[str], None]) -> None:
        """`handler(line)` when the browser refused a file as too large."""
        self._refused.append(handler)

    def refusal(self, name: str, size: int) -> str:
        return f"{name} is {size_words(size)}; the limit is {size_words(self.limit)}. Nothing was sent."

    def _on_message(self, _widget, content, buffers) -> None:
        if not isinstance(content, dict):
            return
        name, size = content.get("name"), content.get("size")
        if not isinstance(name, str) or not isinstance(size, int) or isinstance(size, bool) or size < 0:
            return
        if content.get("event") == "too-large" and size > self.limit:
            for handler in self._refused:
                handler(self.refusal(name[:200], size))
        elif content.get("event") == "file" and len(buffers or ()) == 1:
            data = bytes(buffers[0])
            if len(data) > self.limit:  # the browser said otherwise: never trust it
                for handler in self._refused:
                    handler(self.refusal(name[:200], len(data)))
                return
            stamp = content.get("last_modified")
            when = datetime.datetime.fromtimestamp(
                stamp / 1000 if isinstance(stamp, (int, float)) and 0 <= stamp < 1e14 else 0,
                tz=datetime.timezone.utc,
            )
            kind = content.get("type") if isinstance(content.get("type"), str) else ""
            self.value = (
                {
                    "name": name[:200],
                    "type": kind,
                    "size": len(data),
                    "content": memoryview(data),
                    "last_modified": when,
                },
            )
