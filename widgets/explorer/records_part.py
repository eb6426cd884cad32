"""The explorer's "Open a record": a game the project ships (data/*.jsonl, wherever the page
runs: `records.shipped_records()`) or one from the reader's own file is opened in the explorer
with its whole line in the history, on its last position; ←/→ walk it, and play goes on from
any position. An uploaded file is data, never a path: its bytes go through
`records.read_upload` alone, and a bad one is one line saying what and where, the game on show
left as it was. A game with hidden information opens in the view the explorer opens that game
in (the player to move's), never all-seeing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.core import RulesError, State
from rules_kernel.session import Session
from widgets.explorer.common import AUTO, ROW, WIDE, Page, Part
from widgets.runtime import SHOWN, fold_title
from widgets.upload import Upload

TITLE = "Open a record"
#: the files an upload takes (records.read_upload reads each of these forms)
ACCEPTED = ".jsonl,.json,.ndjson,.txt,.pgn,.kif,.kifu,.ki2,.ki2u,.csa"


def kind_of_play(record: records.Record) -> str:
    """Who played, in words: "greedy against random", "greedy, random, greedy and random"."""
    agents = [str(p.get("agent") or "") for p in record.players]
    if not agents or not all(agents):
        return "a recorded game"
    if len(agents) == 2:
        return " against ".join(agents)
    return f"{', '.join(agents[:-1])} and {agents[-1]}"


def shipped() -> list[tuple[str, records.Record]]:
    """Every game of every shipped record file, named in words (the game, who played, which
    game of the file), in the games' order: never by its file's name or the game's id."""
    order = {game: i for i, game in enumerate(rk.list_games(ordered=True))}
    found = []
    for path in sorted(records.shipped_records().glob("*.jsonl")):
        games = records.load(path)
        for number, record in enumerate(games, 1):
            title = rk.game_class(record.game).title
            players = record.load_game().num_players
            seats = f" ({players} players)" if players != 2 else ""
            label = f"{title}{seats}: {kind_of_play(record)}, game {number} of {len(games)}"
            found.append((order.get(record.game, len(order)), label, record))
    found.sort(key=lambda entry: entry[0])  # stable: each file's games stay in their order
    return [(label, record) for _, label, record in found]


class RecordsPart(Part):
    """ "Open a record ▸" (`toggle`) folds `box`: the menu of records (`menu`: the shipped
    games, then those of the files uploaded), "Open" (`open_button`) and the upload
    (`upload`), made on first opening (`build`). Opening asks the explorer to `open_game` (the
    record's game and options, a new game) and to `start` from the record's start with a
    session holding its line; `seed`, `agents` and `manual_chance` are what a session of the
    page is made with; `opened` runs once a record is on show (the page's address is dropped)."""

    def __init__(
        self,
        page: Page,
        perspective: w.Dropdown,
        *,
        open_game: Callable[[str, dict[str, Any]], None],
        start: Callable[[State, Session], None],
        seed: int | None,
        agents: Callable[[], dict[int, str]],
        manual_chance: w.Checkbox,
        opened: Callable[[], None] = lambda: None,
    ) -> None:
        super().__init__(page)
        self.perspective, self.open_game, self.start = perspective, open_game, start
        self.seed, self.agents, self.manual_chance, self.opened = seed, agents, manual_chance, opened
        self.entries: list[tuple[str, records.Record]] = []
        self.uploads = 0
        self.toggle = page.looks.make(
            w.ToggleButton,
            value=False,
            description=fold_title(TITLE, False),
            tooltip="open a game the project ships, or a file of your own",
            layout=AUTO,
        )
        self.toggle.add_class("re-records-toggle")
        self.box = w.VBox(layout=w.Layout(display="none", width="100%"))  # its own: shown, hidden
        self.toggle.observe(page.acts(lambda _: self.show()), names="value")

    def show(self) -> None:
        opened = self.toggle.value
        if opened:
            self.build()
        self.toggle.description = fold_title(TITLE, opened)
        self.box.layout.display = SHOWN if opened else "none"

    def build(self) -> None:
        """The menu (the shipped files are read here, on first opening), "Open", the upload."""
        if self.box.children:
            return
        make = self.page.looks.make
        self.entries = shipped()
        self.menu = make(w.Dropdown, options=self._options(), description="Record", layout=WIDE)
        self.open_button = make(
            w.Button, description="Open", tooltip="Open this game, on its last position", layout=AUTO
        )
        self.upload = Upload("Upload a file", accept=ACCEPTED, limit=records.MAX_UPLOAD_BYTES)
        note = make(
            w.HTML,
            value='<div style="color:#555">A game opens on its last position; ← and → go '
            "through its moves, and play goes on from any of them.</div>",
        )
        self.open_button.on_click(self.page.acts(lambda _: self.open_entry(self.menu.value)))
        self.upload.observe(self.page.acts(self.uploaded), names="value")
        # a file over the limit is refused in the browser, before it is sent: one line
        self.upload.on_refused(self.page.unless_curtained(lambda line: self.page.say(line, error=True)))
        buttons = make(w.HBox, children=[self.open_button, self.upload], layout=ROW)
        self.box.children = (self.menu, buttons, note)

    def _options(self) -> list[tuple[str, int]]:
        return [(label, i) for i, (label, _) in enumerate(self.entries)]

    def open_entry(self, index: int) -> None:
        """Open the menu's game `index`."""
        label, record = self.entries[index]
        self.open_record(record, label)

    def open_record(self, record: records.Record, label: str) -> None:
        """Open `record` in the explorer on its last position. The whole record is replayed and
        checked before anything on the page changes: a bad one is one line, the game on show
        stays."""
        try:
            session = Session.from_record(record, seed=self.seed, agents={}, manual_chance=True)
        except RulesError as exc:
            self.page.say(f"This record cannot be opened: {exc}", error=True)
            return
        with session.batch():  # the page's settings for going on from the record's end
            session.agents = self.agents()
            session.manual_chance = self.manual_chance.value
        self.open_game(record.game, dict(record.options))
        if self.game is None or self.game.id != record.game:
            return  # the game refused its options: the page said why, and kept its game
        # the view the explorer opens this game in (with hidden cards: the player to move's)
        with self.page.quiet:
            self.perspective.value = self.perspective.options[0][1]
        self.start(session.root.state, session)
        self.opened()
        self.page.say(f"Opened {label}, on its last position.")

    def uploaded(self, change: dict[str, Any]) -> None:
        """A file uploaded: its games join the menu and the first opens. `read_upload` is the
        one reader of a visitor's bytes (the name is only a label); it raises RecordError,
        whose message says what and where."""
        files = change["new"]
        if not files:
            return
        self.upload.chosen = ""  # the button keeps its words: the menu and the message name the file
        try:
            found = records.read_upload(bytes(files[0]["content"]), str(files[0]["name"]))
        except RulesError as exc:
            self.page.say(f"This file cannot be opened: {exc}", error=True)
            return
        self.uploads += 1
        first = len(self.entries)
        for number, record in enumerate(found, 1):
            title = rk.game_class(record.game).title
            label = f"{title} from your file {self.uploads}, game {number} of {len(found)}"
            self.entries.append((label, record))
        with self.page.quiet:
            self.menu.options = self._options()
            self.menu.value = first
        self.open_entry(first)
