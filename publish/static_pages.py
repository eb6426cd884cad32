"""The static site's plain pages (no kernel): the landing page, the statistics executed at
build time, and the pages that need the server mode saying so (publish/static_site.py).

A pre-rendered page is the notebook executed here with its widgets' state kept, then written
as HTML: Markdown cells as text, each output as what it shows. Widgets become their HTML
(an HTML widget's value, a box's children in a row or column, an output widget's outputs);
controls (buttons, menus) are left out with one line saying the server mode has them, and a
canvas is replaced by the picture its widget left for static pages (an HTML widget with the
class `re-static-only`, hidden in a live page). Only the project's own notebooks are
executed, at build time; nothing a reader sends reaches this code.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from pathlib import Path

from publish.landing import landing_html

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
STATIC_ONLY = "re-static-only"
CONTAINERS = {"VBoxModel": "column", "BoxModel": "row", "HBoxModel": "row", "GridBoxModel": "row"}
TEXT_WIDGETS = {"HTMLModel", "HTMLMathModel"}

PAGE_STYLE = """<style>
body { font-family: "DejaVu Sans", system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
main { max-width: 1100px; margin: 0 auto; padding: 16px; }
nav.home { margin-bottom: 12px; }
nav.home a { color: #0072B2; }
.note { background: #fff8d6; border: 1px solid #e6d68a; border-radius: 6px; padding: 8px 12px; }
.cell { margin: 12px 0; overflow-x: auto; }
.row { display: flex; flex-flow: row wrap; gap: 0 24px; }
.row > .column { max-width: 480px; }  /* figures side by side, as the live page lays them out */
.column { display: flex; flex-direction: column; }
pre { white-space: pre-wrap; }
img, svg { max-width: 100%; height: auto; }
</style>"""


def document(title: str, body: str, home: str | None = None) -> str:
    """A whole page: its title, the style, a link back to the landing page."""
    back = (
        f'<nav class="home"><a href="{html.escape(home, quote=True)}">← All pages</a></nav>' if home else ""
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title>{PAGE_STYLE}</head>"
        f"<body><main>{back}{body}</main></body></html>\n"
    )


# --- the landing page --------------------------------------------------------------------
def page_href(stem: str, kind: str) -> str:
    """Where a notebook's page is on the static site, by how it is published."""
    return f"voici/render/{stem}.html" if kind == "kernel" else f"pages/{stem}.html"


def landing_document(folder: Path, kinds: dict[str, str]) -> str:
    """The site's index.html: the landing page's cards (`publish.landing`), each linking to
    its page here (`kinds`: notebook stem -> how it is published)."""
    intro = "<h1>Rules Explorer</h1><p>Every page runs in your browser: nothing is sent anywhere.</p>"
    cards = landing_html(folder, href_of=lambda card: page_href(card.stem, kinds[card.stem]))
    return document("Rules Explorer", intro + cards)


# --- pages that need the server ----------------------------------------------------------
def write_server_only(notebook: Path, out: Path, home: str) -> None:
    import rules_kernel as rk
    from publish.landing import card_for

    card = card_for(notebook, fallback_game=rk.list_games()[0])
    metadata = json.loads(notebook.read_text(encoding="utf-8")).get("metadata", {})
    why = metadata.get("rules_explorer", {}).get("server_only", "it needs what only the server has")
    body = (
        f"<h1>{html.escape(card.title)}</h1><p>{html.escape(card.description)}</p>"
        # a reader's words: what the page needs and where it works, not how to start a server
        f'<p class="note">This page cannot run in your browser alone: {html.escape(why)}. It works '
        "on a Rules Explorer site that has a server behind it.</p>"
    )
    out.write_text(document(card.title, body, home), encoding="utf-8")


# --- pre-rendered pages ------------------------------------------------------------------
def execute(notebook_path: Path, timeout: int = 600):
    """The notebook executed in a kernel of this environment, its widgets' state kept."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(notebook_path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=timeout,
        kernel_name="python3",
        store_widget_state=True,
        resources={"metadata": {"path": str(notebook_path.parent)}},
    )
    client.execute()
    return notebook


def write_prerendered(notebook_path: Path, out: Path, home: str) -> None:
    notebook = execute(notebook_path)
    title = next(
        (
            line.lstrip("#").strip()
            for cell in notebook.cells
            if cell.cell_type == "markdown"
            for line in cell.source.splitlines()
            if line.startswith("#")
        ),
        notebook_path.stem,
    )
    out.write_text(document(title, notebook_html(notebook), home), encoding="utf-8")


def notebook_html(notebook) -> str:
    from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

    def markdown2html(source: str) -> str:  # nbconvert's, without the headings' "¶" links
        renderer = IPythonRenderer(escape=False, exclude_anchor_links=True)
        return MarkdownWithMath(renderer=renderer).render(source)

    state = notebook.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    renderer = WidgetRenderer(state)
    parts = []
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            parts.append(f'<div class="cell">{markdown2html(cell.source)}</div>')
        elif cell.cell_type == "code":
            shown = "".join(output_html(o, renderer.render) for o in cell.get("outputs", []))
            if shown:
                parts.append(f'<div class="cell">{shown}</div>')
    note = (
        '<p class="note">Computed when this site was built. A Rules Explorer site with a server '
        "behind it has the controls to choose games and play more of them.</p>"
        if renderer.left_out
        else ""
    )
    return note + "\n".join(parts)


def output_html(output: dict, render_widget: Callable[[str], str]) -> str:
    """One output as HTML: a widget as its HTML, else the richest form it carries."""
    kind = output.get("output_type")
    if kind == "stream":
        return f"<pre>{html.escape(output.get('text', ''))}</pre>"
    if kind == "error":
        failure = f"{output.get('ename')}: {output.get('evalue')}"
        raise RuntimeError(f"the notebook failed while building: {failure}")
    data = output.get("data", {})
    if WIDGET_VIEW in data:
        return render_widget(data[WIDGET_VIEW]["model_id"])
    if "text/html" in data:
        return _text(data["text/html"])
    if "image/svg+xml" in data:
        return _text(data["image/svg+xml"])
    if "image/png" in data:
        return f'<img src="data:image/png;base64,{_text(data["image/png"]).strip()}" alt="">'
    if "text/plain" in data:
        return f"<pre>{html.escape(_text(data['text/plain']))}</pre>"
    return ""


def _text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


class WidgetRenderer:
    """Widgets' kept state rendered as HTML (see the module's docstring)."""

    def __init__(self, state: dict) -> None:
        self.state = state
        self.left_out = 0  # controls and canvases without a static picture

    def render(self, model_id: str) -> str:
        model = self.state.get(model_id.removeprefix("IPY_MODEL_"))
        if model is None:
            return ""
        name, values = model.get("model_name", ""), model.get("state", {})
        shown_here = STATIC_ONLY in values.get("_dom_classes", [])
        if not shown_here and self._hidden(values):
            return ""
        if shown_here or name in TEXT_WIDGETS:
            # an HTML widget's value is HTML, made (and escaped) by the project's own widgets
            # in a notebook of the project's, executed here at build time: kept as it is
            return f"<div>{values.get('value', '')}</div>"
        if name == "LabelModel":
            return f"<div>{html.escape(str(values.get('value', '')))}</div>"
        if name in CONTAINERS:
            inner = "".join(self.render(child) for child in values.get("children", []))
            return f'<div class="{CONTAINERS[name]}">{inner}</div>' if inner else ""
        if name in ("TabModel", "AccordionModel", "StackModel"):
            titles = values.get("titles", [])
            return "".join(
                f"<h3>{html.escape(str(titles[i]) if i < len(titles) else '')}</h3>{self.render(child)}"
                for i, child in enumerate(values.get("children", []))
            )
        if name == "OutputModel":
            return "".join(output_html(o, self.render) for o in values.get("outputs", []))
        self.left_out += 1
        return ""

    def _hidden(self, values: dict) -> bool:
        layout = self.state.get(str(values.get("layout", "")).removeprefix("IPY_MODEL_"), {})
        return layout.get("state", {}).get("display") == "none"
