"""The landing page: one card per notebook (title, one-line description, thumbnail, link).

The list is built from the notebooks present, so a new notebook appears without editing
anything. Titles and descriptions come from each notebook's first Markdown cell (or from
`metadata["rules_explorer"]["description"]` when a notebook sets one). Every text put into the
HTML goes through `html.escape`; thumbnails are SVG pictures of each game's start position,
drawn from the board's drawing list (`widgets/draw.py`) and embedded as `data:` images, so
nothing is fetched from anywhere.

Why SVG and not the canvas backend here: a card is one HTML link, and a canvas widget can
neither sit inside a link nor draw without a kernel round trip after the page loads (a
canvas keeps no drawing for a browser that connects later). The SVG images show at once, at
any pixel ratio, in the exported HTML and on a static site too; they cost the page's kernel
one drawing each while the page is made, no more than a canvas would.
"""

from __future__ import annotations

import base64
import html
import json
import os
import random
import re
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import rules_kernel as rk
from rules_kernel import parts as game_parts

LANDING_NAME = "index.ipynb"
SECTIONS = (
    ("Dashboards", lambda name: not name.startswith("rules-")),
    ("Rule explainers", lambda name: name.startswith("rules-")),
)


@dataclass(frozen=True)
class Card:
    file_name: str  # e.g. "explorer.ipynb"; the link is relative to the landing page
    title: str
    description: str
    game_id: str  # the game in the thumbnail

    @property
    def stem(self) -> str:
        return self.file_name.removesuffix(".ipynb")


def notebook_cards(directory: str | Path) -> list[Card]:
    """A card for every notebook in `directory` except the landing page itself, by name."""
    paths = sorted(Path(directory).glob("*.ipynb"))
    games = rk.list_games()
    return [
        card_for(path, fallback_game=games[i % len(games)])
        for i, path in enumerate(p for p in paths if p.name != LANDING_NAME)
    ]


def card_for(path: Path, fallback_game: str) -> Card:
    notebook = json.loads(path.read_text(encoding="utf-8"))  # JSON: no code runs on reading
    title, description = _title_and_description(notebook, path.stem)
    return Card(path.name, title, description, _game_for(notebook, path.stem, fallback_game))


def _game_for(notebook: dict, stem: str, fallback: str) -> str:
    """The game pictured on a card: the one a rule explainer's name says (rules-<game>), else
    the one the notebook's metadata names (`rules_explorer.thumbnail`), else `fallback`. The
    metadata is data: only a registered game's id is taken from it."""
    games = rk.list_games()
    named = stem.removeprefix("rules-")
    if named in games:
        return named
    declared = _explorer_metadata(notebook).get("thumbnail")
    return declared if isinstance(declared, str) and declared in games else fallback


def _explorer_metadata(notebook: dict) -> dict:
    metadata = notebook.get("metadata") if isinstance(notebook, dict) else None
    ours = metadata.get("rules_explorer") if isinstance(metadata, dict) else None
    return ours if isinstance(ours, dict) else {}


def _title_and_description(notebook: dict, stem: str) -> tuple[str, str]:
    markdown = next(
        (
            "".join(cell.get("source", ""))
            for cell in notebook.get("cells", [])
            if cell.get("cell_type") == "markdown"
        ),
        "",
    )
    lines = [line.strip() for line in markdown.splitlines()]
    heading = next((line.lstrip("#").strip() for line in lines if line.startswith("#")), "")
    paragraph = next((line for line in lines if line and not line.startswith("#")), "")
    explicit = _explorer_metadata(notebook).get("description")
    title = _plain(heading) or stem.replace("-", " ").capitalize()
    return title, _plain(explicit) if isinstance(explicit, str) else _first_sentence(_plain(paragraph))


def _plain(markdown: str) -> str:
    """Markdown emphasis, code marks and links reduced to their text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"[*`]+", "", text)
    return re.sub(r"(?<!\w)_+|_+(?!\w)", "", text).strip()  # _emphasis_, not snake_case


def _first_sentence(text: str) -> str:
    """The paragraph's first sentence, whole: a card never cuts a text with "…" (a page whose
    first sentence is long says what it is in its metadata's `description`)."""
    match = re.match(r"(.+?[.!?])(\s|$)", text)
    return match.group(1) if match else text


def thumbnail_svg(game_id: str, seed: str) -> str:
    """An SVG picture of `game_id`'s board at the start: what the first player faces, any
    chance before it (a deal, a first draw) resolved with `seed`. The board alone: side zones
    and the status line would be a few pixels high on a card."""
    from widgets.svg import board_svg  # drawing lives in widgets; imported here to keep this light

    rng = random.Random(seed)
    state = rk.load_game(game_id).initial_state()
    while not state.is_terminal() and state.current_player == rk.CHANCE:
        state = state.apply(state.sample_chance(rng))
    return board_svg(game_parts.scene(state))


def link_prefix() -> str:
    """Where the notebooks' pages are. Under Voilà (tree mode, as `./run publish` serves) the
    page of `x.ipynb` is `<base_url>voila/render/x.ipynb`: an absolute path, because the
    JupyterLab output renderer Voilà uses swallows clicks on *relative* links in outputs. The
    base URL comes from the server's own setting (VOILA_BASE_URL in the kernel's environment),
    never from a visitor. Elsewhere (JupyterLab, nbconvert) links stay relative."""
    base = os.environ.get("VOILA_BASE_URL")
    if not base:
        return ""
    return base.rstrip("/") + "/voila/render/"


def card_html(card: Card, prefix: str = "", href: str | None = None) -> str:
    """A card linking to `prefix` + the notebook's file name, or to `href` where the page
    lives elsewhere (the static site's pages)."""
    picture = base64.b64encode(thumbnail_svg(card.game_id, card.stem).encode()).decode("ascii")
    href = html.escape(href if href is not None else prefix + urllib.parse.quote(card.file_name), quote=True)
    alt = html.escape(f"The {rk.info(card.game_id).title} board at the start", quote=True)
    return (
        f'<a class="landing-card" href="{href}">'
        f'<img class="landing-thumb" src="data:image/svg+xml;base64,{picture}" alt="{alt}">'
        f'<span class="landing-title">{html.escape(card.title)}</span>'
        f'<span class="landing-text">{html.escape(card.description)}</span></a>'
    )


# Prefixed with .landing so that JupyterLab's output styles (links, images) do not win.
STYLE = """<style>
.landing .landing-section { font-size: 1.3em; margin: 1.2em 0 0.5em; }
.landing .landing-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));
                         gap: 16px; }
.landing a.landing-card { display: flex; flex-direction: column; gap: 6px; padding: 12px;
                          border: 1px solid #ccc; border-radius: 8px; background: #fff;
                          color: #222; text-decoration: none; }
.landing a.landing-card:hover, .landing a.landing-card:focus { border-color: #0072B2;
                          box-shadow: 0 2px 8px rgba(0,0,0,.15); text-decoration: none; }
.landing img.landing-thumb { width: 100%; height: 180px; max-height: 180px; object-fit: contain;
                             background: #f6f4ef; border-radius: 4px; }
.landing .landing-title { font-weight: 600; font-size: 1.1em; color: #0072B2; }
.landing .landing-text { font-size: 0.95em; line-height: 1.4; color: #222; }
</style>"""


def landing_html(directory: str | Path = ".", href_of: Callable[[Card], str] | None = None) -> str:
    """The landing page's HTML: a section of cards for dashboards, one for rule explainers.
    A card links to its notebook's page under Voilà, or to `href_of(card)` (the static site)."""
    cards, prefix = notebook_cards(directory), link_prefix()
    parts = [STYLE]
    for heading, belongs in SECTIONS:
        chosen = [card for card in cards if belongs(card.stem)]
        if chosen:
            parts.append(f'<h2 class="landing-section">{html.escape(heading)}</h2>')
            grid = "".join(card_html(card, prefix, href_of(card) if href_of else None) for card in chosen)
            parts.append(f'<div class="landing-grid">{grid}</div>')
    return '<div class="landing">' + "\n".join(parts) + "</div>"


def landing_page(directory: str | Path = "."):
    """The landing page as a displayable object (an IPython HTML output)."""
    from IPython.display import HTML

    return HTML(landing_html(directory))
