"""Shareable links: a page's query string says which game, options, position, moves, ply and
view to open; "Copy link" writes one.

    ?game=yokai-3x4&moves=b2b3;c4b3&ply=1
    ?game=war-chest&options={"players":4}&view=all&moves=...
    ?game=yokai-5x6&position=...&view=0

A link is untrusted text. `parse_link` reads only the fields below, each checked as a record's
are (`records.check_options`, `records.check_start`: a known game, the game's own options with
no file path, a position text read by `from_text` and nothing else, moves that are legal
where they are played), with bounds on the whole and on every part; any fault is one line
naming the field. Nothing else in the query is read. Numbers (`ply`, a seat's `view`) are
ASCII digits only, as in position texts: `str.isdigit()` is true of '²', '٣' and '３', and
`int()` reads the last two, so neither decides here.

`link_query` writes what a page may share: in a player's view of a game with hidden cards, a
link carries the game, its options and the view only: the position text, the moves and their
chance outcomes (the deal) would tell the reader what the player cannot see.

`PageAddress` is the page's side (an anywidget): when drawn it sends the page's query string
to the kernel once; asked to copy, it writes the link to the clipboard, puts it in the
address bar (history.replaceState, no reload) and sends the full address back to be shown;
asked to clear (New game), it takes the link's fields out of the address bar.
It works the same under Voilà and in a static site, where the kernel runs in the browser.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlencode

import anywidget
import traitlets

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.core import Action, RulesError, State
from widgets.safe import html

FIELDS = ("game", "options", "position", "moves", "ply", "view")
MAX_QUERY_CHARS = 32 * 1024  # a War Chest game of a few hundred actions fits
MAX_MOVES = 3000
MAX_OPTIONS_CHARS = 2048
VIEWS = ("all", "turn")
#: a link's numbers: ASCII digits only (never '²', '٣', '３', a sign or a space), and few
PLY_DIGITS = re.compile(r"[0-9]{1,6}")
SEAT_DIGIT = re.compile(r"[0-9]")
#: between the moves of `moves`: notations hold spaces (War Chest's "recruit marshall ensign")
#: and commas, never a semicolon
MOVE_SEPARATOR = ";"


class LinkError(RulesError):
    """A link that cannot be opened; its message is one line naming the field."""


@dataclass(frozen=True)
class Link:
    """What a link asks to open."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    position: str | None = None
    moves: tuple[str, ...] = ()
    ply: int | None = None
    view: str | None = None  # "all", "turn" or a seat's number

    def line(self) -> tuple[list[State], list[Action]]:
        """The start and the state after every move, and the moves as the kernel's actions
        (a chance outcome read by the game's own reader), each checked where it is played."""
        game = rk.load_game(self.game, **self.options)
        states = [game.initial_state() if self.position is None else _position(game, self.position)]
        actions = []
        for number, text in enumerate(self.moves, start=1):
            action, after = _played(states[-1], text, number)
            actions.append(action)
            states.append(after)
        if self.ply is not None and self.ply > len(self.moves):
            raise LinkError(f"link field 'ply': {self.ply} is past the last move ({len(self.moves)})")
        return states, actions

    def states(self) -> list[State]:
        return self.line()[0]

    def record(self) -> records.Record:
        """The link's line as a record (a start other than the game's own carried as `start`)."""
        states, actions = self.line()
        start = None if self.position is None else states[0]
        return records.Record.from_actions(states[0].game, actions, start=start)


def copied_html(address: str, copied: bool, note: str = "") -> str:
    """The link "Copy link" made, shown to copy by hand too (the clipboard may refuse)."""
    return html(
        '<div>{said}{note}<br><input class="re-link" readonly value="{address}" '
        'style="width:100%;max-width:420px"></div>',
        said="Copied:" if copied else "Copy this link:",
        note=note,
        address=address,
    )


def parse_link(query: str) -> Link | None:
    """The link in a page's query string (with or without its '?'); None when the query names
    no game (a page opened without a link). Raises LinkError (one line) for a bad link."""
    query = query[1:] if query.startswith("?") else query
    if len(query) > MAX_QUERY_CHARS:
        raise LinkError(f"the link is {len(query):,} characters long; at most {MAX_QUERY_CHARS:,} are read")
    try:
        fields = parse_qs(query, keep_blank_values=True, max_num_fields=32)
    except ValueError:
        raise LinkError("the link has too many fields") from None
    ours = {name: values for name, values in fields.items() if name in FIELDS}
    if "game" not in ours:
        return None
    for name, values in ours.items():
        if len(values) > 1:
            raise LinkError(f"link field {name!r} is given {len(values)} times")
    value = {name: values[0] for name, values in ours.items()}
    game = value["game"]
    options = _options(game, value.get("options"))
    moves = tuple(move.strip() for move in value.get("moves", "").split(MOVE_SEPARATOR) if move.strip())
    if len(moves) > MAX_MOVES:
        raise LinkError(f"link field 'moves' holds {len(moves):,} moves; at most {MAX_MOVES:,} are read")
    link = Link(game, options, value.get("position") or None, moves, _ply(value.get("ply")), _view(value))
    states = link.states()  # every move checked now: a bad link is refused whole, before anything shows
    seats = states[0].game.num_players
    if link.view is not None and SEAT_DIGIT.fullmatch(link.view) and int(link.view) >= seats:
        raise LinkError(f"link field 'view': the game has seats 0 to {seats - 1}, not {link.view}")
    return link


def link_query(
    game: rk.Game,
    states: Sequence[State],
    moves: Sequence[str],
    ply: int,
    view: str,
    *,
    secrets_hidden: bool,
) -> str:
    """The query string of a link to `states[ply]` of the line `moves` (from `states[0]`).
    `secrets_hidden`: the page shows a player's view of a game with hidden cards, so the link
    carries no position and no moves."""
    query: dict[str, str] = {"game": game.id}
    options = _plain_options(game)
    if options:
        query["options"] = json.dumps(options, separators=(",", ":"), sort_keys=True)
    if not secrets_hidden:
        start = states[0]
        if start != game.initial_state():
            query["position"] = start.to_text()
        if moves:
            if any(MOVE_SEPARATOR in move for move in moves):
                raise LinkError(f"a move's notation holds {MOVE_SEPARATOR!r}: this line cannot be linked")
            query["moves"] = MOVE_SEPARATOR.join(moves)
            query["ply"] = str(ply)
    query["view"] = view
    return urlencode(query, safe=":,/[];@")


def _plain_options(game: rk.Game) -> dict[str, Any]:
    """The game's options that differ from their defaults (a table option is left out: a
    link carries no uploaded file)."""
    known = type(game).OPTIONS
    return {
        name: value
        for name, value in game.options.items()
        if name in known and known[name].from_bytes is None and value != known[name].default
    }


def _options(game: str, text: str | None) -> dict[str, Any]:
    if game not in rk.list_games():
        raise LinkError(f"link field 'game': unknown game {_echo(game)}")
    if not text:
        return {}
    if len(text) > MAX_OPTIONS_CHARS:
        raise LinkError(
            f"link field 'options' is {len(text):,} characters long; at most {MAX_OPTIONS_CHARS:,}"
        )
    try:
        options = records.parse_json(text)
        checked = records.check_options(game, options)
        if any(rk.game_class(game).OPTIONS[name].from_bytes is not None for name in checked):
            raise LinkError("link field 'options': a link carries no uploaded table")
        rk.load_game(game, **checked)
    except LinkError:
        raise
    except RulesError as exc:
        raise LinkError(f"link field 'options': {records.one_line(str(exc), limit=200)}") from None
    return checked


def _ply(text: str | None) -> int | None:
    if text is None or text == "":
        return None
    if not PLY_DIGITS.fullmatch(text):
        raise LinkError(f"link field 'ply' must be a whole number of at most 6 digits, not {_echo(text)}")
    return int(text)


def _view(value: dict[str, str]) -> str | None:
    view = value.get("view")
    if view is None or view == "":
        return None
    if view in VIEWS or SEAT_DIGIT.fullmatch(view):
        return view
    raise LinkError(f"link field 'view' must be 'all', 'turn' or a seat's number, not {_echo(view)}")


def _echo(text: str) -> str:
    return repr(records.one_line(text, limit=40))


def _position(game: rk.Game, text: str) -> State:
    try:
        return records.check_start(game, text)
    except RulesError as exc:  # its words name the field 'start', a record's
        why = str(exc).removeprefix("field 'start' ")
        raise LinkError(f"link field 'position' {records.one_line(why, limit=200)}") from None


def _played(state: State, text: str, number: int) -> tuple[Action, State]:
    try:
        if state.is_terminal():
            raise RulesError("the game is over")
        action = state.parse_chance(text) if state.current_player == rk.CHANCE else state.parse_move(text)
        return action, state.apply(action)
    except RulesError as exc:
        raise LinkError(
            f"link field 'moves': move {number} {_echo(text)}: {records.one_line(str(exc), limit=160)}"
        ) from None


# --- the page's side ------------------------------------------------------------------------

ESM = """
function render({ model, el }) {
  el.style.display = "none";
  // the query string of the page the reader opened (Voilà's page, or a static site's)
  model.send({ event: "address", search: String(window.location.search || "").slice(0, 40000) });
  model.on("msg:custom", async (msg) => {
    if (msg && msg.event === "clear") {
      // New game: the address bar drops the link's fields (a reload then opens a fresh page,
      // not the old game); any other field of the page's own (a Voila setting) and the hash stay
      try {
        const kept = new URLSearchParams(window.location.search);
        for (const name of __FIELDS__) kept.delete(name);
        const rest = kept.toString();
        window.history.replaceState(null, "",
          window.location.pathname + (rest ? "?" + rest : "") + window.location.hash);
      } catch (e) { /* a sandboxed page */ }
      return;
    }
    if (!msg || msg.event !== "copy" || typeof msg.query !== "string") return;
    const url = window.location.origin + window.location.pathname + "?" + msg.query;
    let copied = false;
    try { await navigator.clipboard.writeText(url); copied = true; } catch (e) { copied = false; }
    try { window.history.replaceState(null, "", url); } catch (e) { /* a sandboxed page */ }
    model.send({ event: "copied", url: url, copied: copied });
  });
}
export default { render };
""".replace("__FIELDS__", json.dumps(FIELDS))


class PageAddress(anywidget.AnyWidget):
    """The page's address: its query string once drawn, and the link "Copy link" made."""

    _esm = ESM
    #: the full address of the last link made (shown to the reader to copy by hand too)
    address = traitlets.Unicode("")

    def __init__(self, **traits: Any) -> None:
        super().__init__(**traits)
        self._opened: list[Callable[[str], None]] = []
        self._copied: list[Callable[[str, bool], None]] = []
        self._seen = False
        self.on_msg(self._message)

    def on_opened(self, handler: Callable[[str], None]) -> None:
        """`handler(query)` once, when the page first shows this widget."""
        self._opened.append(handler)

    def on_copied(self, handler: Callable[[str, bool], None]) -> None:
        self._copied.append(handler)

    def copy(self, query: str) -> None:
        self.send({"event": "copy", "query": query})

    def clear(self) -> None:
        """Forget the link: the address bar loses the link's fields (history.replaceState, no
        reload; the page's other fields and its hash stay), and `address` is emptied. New game
        calls it, so a reload opens a fresh page, not the game before."""
        self.address = ""
        self.send({"event": "clear"})

    def _message(self, _widget, content, _buffers) -> None:
        if not isinstance(content, dict):
            return
        if content.get("event") == "address" and isinstance(content.get("search"), str) and not self._seen:
            self._seen = True  # a second view of the same widget does not reopen the link
            for handler in self._opened:
                # cut, but still over the bound if it was: parse_link refuses it as too long
                handler(content["search"][: MAX_QUERY_CHARS + 2])
        elif content.get("event") == "copied" and isinstance(content.get("url"), str):
            self.address = content["url"][: MAX_QUERY_CHARS + 200]
            for handler in self._copied:
                handler(self.address, bool(content.get("copied")))
