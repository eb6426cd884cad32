"""The explorer's shareable links: the page's query string opens a game, a position and its
line in a view (widgets/links.py reads it; a bad link is refused whole, in one line), and
"Copy link" writes one for the position shown (in a player's view of a game with hidden cards:
the game, its options and the view only)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as w

from rules_kernel.core import Action, State
from rules_kernel.session import Session
from widgets.explorer.common import ALL_SEEING, AUTO, FOLLOW_TURN, OnFirstUse, Page, Part
from widgets.explorer.curtain import HandOver
from widgets.links import PageAddress, copied_html, link_query, parse_link
from widgets.presentation import has_secrets
from widgets.safe import guarded


class LinksPart(Part):
    """The page's address (`address`: it draws nothing) and "Copy link" with its note
    (`copy_link`, `link_note`, made with the folded tools: `build`). Opening a link asks the
    explorer to `open_game` (the game and options, a new game) and to `start` from a state
    with a session holding the link's line; `seed`, `agents` and `manual_chance` are what a
    session of the page is made with."""

    copy_link = OnFirstUse("folded")
    link_note = OnFirstUse("folded")

    def __init__(
        self,
        page: Page,
        eyes: HandOver,
        *,
        open_game: Callable[[str, dict[str, Any]], None],
        start: Callable[[State, Session], None],
        seed: int | None,
        agents: Callable[[], dict[int, str]],
        manual_chance: w.Checkbox,
    ) -> None:
        super().__init__(page)
        self.eyes, self.open_game, self.start = eyes, open_game, start
        self.seed, self.agents, self.manual_chance = seed, agents, manual_chance
        self.built = False
        #: makes the folded tools, this part's among them (the explorer's: all of them at once)
        self.folded: Callable[[], None] = self.build
        #: shareable links: the page's query string opens a position; "Copy link" writes one
        self.address = PageAddress(layout=page.looks.shared(w.Layout, {}))  # it draws nothing
        self.address.on_opened(guarded(self.refused)(self.open_link))  # a bad link: one line
        self.address.on_copied(page.acts(self.copied))

    def build(self) -> None:
        """ "Copy link" and its note, once (with the folded tools)."""
        if self.built:
            return
        self.built = True
        make = self.page.looks.make
        self.copy_link = make(
            w.Button,
            description="Copy link",
            tooltip="A link to this position and its moves (in a player's view: the game and view only)",
            layout=AUTO,
        )
        self.link_note = make(w.HTML)
        self.copy_link.on_click(self.page.acts(lambda _: self.address.copy(self.query())))

    def forget(self) -> None:
        """No note of a link copied in a view gone."""
        if self.built:
            self.link_note.value = ""

    def open_link(self, query: str) -> None:
        """Open what a page's query string links to (widgets/links.py); a page without a link
        keeps its game. A bad link is refused whole, in one line, and nothing changes."""
        link = parse_link(query)
        if link is None:
            return
        states, actions = link.line()
        self.open_game(link.game, link.options)
        perspective = self.eyes.perspective
        views = [value for _, value in perspective.options]
        wanted = {"all": ALL_SEEING, "turn": FOLLOW_TURN}.get(link.view or "", link.view)
        wanted = int(wanted) if isinstance(wanted, str) and wanted.isdigit() else wanted
        if wanted in views:
            perspective.value = wanted
        if link.position is not None or link.moves:
            self.start(states[0], self.session_of(states[0], actions, link.ply))
        self.page.say("Opened from the link.")

    def session_of(self, start: State, actions: list[Action], ply: int | None) -> Session:
        """A session holding the link's line, its chance outcomes as written, at `ply`."""
        session = Session(start, seed=self.seed, agents={}, manual_chance=True)
        with session.batch():
            for action in actions:
                session.play(action, auto=False)
            session.go_to(len(actions) if ply is None else ply)
            session.agents = self.agents()
            session.manual_chance = self.manual_chance.value
        return session

    def refused(self, text: str) -> None:
        self.page.say(f"This link cannot be opened: {text}", error=True)

    def _players_view(self) -> bool:
        """In a player's view of a game with hidden cards a link names the game and view only."""
        return has_secrets(self.game) and self.eyes.viewer is not None

    def query(self) -> str:
        """The query string of a link to the position shown and its line; in a player's view of
        a game with hidden cards, the game, its options and the view only."""
        line = self.session.line()
        mode = self.eyes.perspective.value
        view = {ALL_SEEING: "all", FOLLOW_TURN: "turn"}.get(mode, str(mode))
        return link_query(
            self.game,
            [node.state for node in line],
            [node.notation for node in line[1:]],
            self.session.ply,
            view,
            secrets_hidden=self._players_view(),
        )

    def copied(self, address: str, copied: bool) -> None:
        """The page says the link is written (or could not be: then it shows it to copy)."""
        note = " (a player's view: the game and the view only)" if self._players_view() else ""
        self.link_note.value = copied_html(address, copied, note)
