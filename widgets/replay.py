"""Replay a recorded game: Play button and slider (linked in the browser), move list, jump.

A Replay is a view of a game session (rules_kernel.session, docs/session.md) built with
`Session.from_record`: the slider, Play, the move list and `jump` move the session along its
main line (`go_to`), and the widget redraws once per change of the session, as the Explorer
does. A replay in a player's view (`perspective=p`) shows the board and the move list as that
player saw them, from the caches widgets/presentation.py keeps beside the session. Uploaded
records are untrusted data: they are read from the upload's bytes through
`records.read_upload` (size, line and nesting limits, no paths), and any problem is one
escaped line on the page.

A long game is not held state by state (a 100,000-action upload once took the kernel to
852 MiB): loading replays and checks the whole record once (an upload: while
`records.read_upload` checks it, the check building the session) and the session keeps a
checkpoint state every `Session`'s `checkpoint_every` (64) plies and the 256 states last
computed; a ply on show is replayed forward from the nearest checkpoint (at most 63 actions),
so Play steps without replaying. The move list holds the plies around the one on show (up to
three blocks of 64) and follows the slider; the whole game is always on the slider.
`benchmarks/bench_uploads.py` measures an upload at the limits.
"""

from __future__ import annotations

import io
import operator
import os
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.core import RulesError, State
from rules_kernel.session import CHECKPOINT_EVERY, Change, Node, Session
from widgets.board import Board
from widgets.evalgraph import ReportPanel
from widgets.explorer.records_part import shipped
from widgets.export_menu import PictureExport
from widgets.links import PageAddress, copied_html, link_query, parse_link
from widgets.presentation import has_secrets, shown_to
from widgets.runtime import SHOWN, collections_readable, fold_title
from widgets.safe import error_line, guarded, html, message_html
from widgets.upload import Upload

#: the move list holds the block of plies on show and its neighbours, blocks of this many plies
LIST_BLOCK = CHECKPOINT_EVERY


class Replay(w.VBox):
    """Scrub through a record:

        from widgets import Replay
        Replay("data/yokai-3x4.jsonl", index=0)       # a path (JSON Lines or text form)
        Replay(record)                                 # or a records.Record
    The dashboard form has an upload button too (`Replay(upload=True)`). `replay.session` is
    the game's Session (None before a game); its current ply is the one on show.
    """

    def __init__(
        self,
        source: str | os.PathLike | records.Record | None = None,
        *,
        index: int = 0,
        perspective: int | None = None,
        upload: bool = False,
        interval_ms: int = 600,
    ) -> None:
        self.board = Board()
        self.perspective = perspective
        self.player = w.Play(value=0, min=0, max=0, step=1, interval=interval_ms, description="Play")
        self.slider = w.IntSlider(
            value=0,
            min=0,
            max=0,
            description="Ply",
            tooltip="the position after this many actions of the game",
            continuous_update=True,
            layout=w.Layout(width="100%", max_width="420px"),
        )
        w.jslink((self.player, "value"), (self.slider, "value"))  # moves in the browser, no round trip
        self.moves = w.Select(options=[], rows=16, layout=w.Layout(width="100%", max_width="330px"))
        self.window_note = w.HTML()
        self.info = w.HTML()
        self.upload = Upload(
            "Load record",
            accept=".jsonl,.json,.txt,.pgn,.kif,.kifu,.ki2,.ki2u,.csa",
            limit=records.MAX_UPLOAD_BYTES,
        )
        self.record_index = w.BoundedIntText(
            value=index,
            min=0,
            max=10**6,
            description="Game #",
            tooltip="which game of the file to show (the first is 0)",
            layout=w.Layout(width="160px"),
        )
        #: every game the project ships and every game of the files uploaded, named in words
        #: (the dashboard form, `upload=True`); choosing one shows it
        self.record_menu = w.Dropdown(
            options=[], description="Game", layout=w.Layout(width="100%", max_width="560px")
        )
        self._entries: list[tuple[str, records.Record]] = []
        self._quiet = False  # the menu is set to the game on show: not a choice
        on = guarded(error_line(self.info))
        self.slider.observe(on(lambda ch: self.show(ch["new"])), names="value")
        self.moves.observe(on(self._jump_from_list), names="index")
        self.upload.observe(on(self._uploaded), names="value")
        # a file over the upload limit is refused in the browser, before it is sent
        self.upload.on_refused(lambda line: setattr(self.info, "value", message_html(line, error=True)))
        self.record_menu.observe(on(self._chosen), names="value")
        loader = w.HBox([self.upload, self.record_index], layout=w.Layout(flex_flow="row wrap"))
        top = [self.record_menu, loader] if upload else []
        if upload:
            self._list(shipped())
        #: the position shown or the game up to it, as a picture in the replay's perspective
        self.pictures = PictureExport(self._picture_source)
        #: shareable links (widgets/links.py): the page's query string opens a game at a ply
        self.address = PageAddress()
        self.copy_link = w.Button(description="Copy link", layout=w.Layout(width="auto"))
        self.link_note = w.HTML()
        self.address.on_opened(guarded(self._link_refused)(self.open_link))
        self.copy_link.on_click(on(lambda _: self._copy_link()))
        self.address.on_copied(on(self._link_copied))
        sharing = [self.pictures.box, self.copy_link, self.link_note, self.address]
        #: the moves played from the position on show in a collection of real games (issue 47)
        self.games_from_here = FoldedGamesFromHere(self.play_from_here)
        #: the comment on the position shown, and the other lines from it (a record's tree)
        self.comment = w.HTML()
        self.comment.add_class("re-comment")
        self.lines_here = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.main_line_button = w.Button(
            description="Back to the main line", layout=w.Layout(width="auto", display="none")
        )
        self.main_line_button.on_click(on(lambda _: self.enter_line(None)))
        annotations = [self.comment, self.lines_here, self.main_line_button]
        side = w.VBox(
            [
                self.info,
                *annotations,
                w.HTML("<b>Moves</b>"),
                self.moves,
                self.window_note,
                *sharing,
                self.games_from_here,
            ],
            layout=w.Layout(flex="0 1 330px", min_width="260px"),
        )
        #: Analyse, then the evaluation graph and the table per player, under the board and the list
        self.report = ReportPanel(go=self.show)
        self.graph = self.report.graph
        board = self.board_column = w.VBox(
            [self.board.widget],
            layout=w.Layout(flex="1 1 480px", min_width="280px", max_width="820px", margin="0 16px 8px 0"),
        )
        super().__init__(
            top
            + [
                w.HBox([self.player, self.slider], layout=w.Layout(flex_flow="row wrap")),
                w.HBox([board, side], layout=w.Layout(flex_flow="row wrap", width="100%")),
                self.report,  # under the board and the move list: the graph as wide as both
            ]
        )
        #: the game on show as a session; None before a game
        self.session: Session | None = None
        #: the game's states by ply (read from the session's nodes; [] before a game)
        self.states: Sequence[State] = []
        #: what the board shows at each ply, in the replay's perspective
        self.scenes: Sequence[Any] = []
        self._nodes: list[Node] = []  # the session's main line: node p is ply p
        self._stop: Callable[[], None] | None = None  # stops observing the session
        self._window: tuple[int, int] = (0, -1)  # the plies the move list holds
        self._listing = False  # the move list is being refilled: its index changes are not jumps
        self._playing = False  # a move of Games from here is being played: drawn after
        if source is not None:
            self.load(source, index=index)

    def load(self, source: str | os.PathLike | records.Record | io.TextIOBase, *, index: int = 0) -> None:
        """Load one game (`index` picks a line of a JSON Lines file); the whole record is
        replayed and checked first. A bad source leaves the game on show as it was and says why."""
        try:
            record = source if isinstance(source, records.Record) else self._read(source, index)
            self._show_record(record)
        except RulesError as exc:
            self.info.value = message_html(str(exc), error=True)

    def _show_record(self, record: records.Record, session: Session | None = None) -> None:
        """Show a record; `session`: `Session.from_record(record)` when the record was checked
        so already (an upload), else it is replayed and checked now."""
        session = Session.from_record(record) if session is None else session
        nodes = session.main_line()
        outcome = nodes[-1].state.outcome()
        if self._stop is not None:
            self._stop()
        self.record, self.session = record, session
        self._mark_in_menu(record)
        self._follow(nodes)
        self._stop = session.observe(self._session_changed)
        result = outcome.reason if outcome else "the game was not finished"
        game = nodes[0].state.game
        seats = f", {game.num_players} players" if game.num_players != 2 else ""
        # the game by its title (the record's id is for files and links), the result in words
        self.info.value = html(
            "<b>{title}</b>{seats}<br>Result: {result}", title=game.title, seats=seats, result=result
        )
        self.report.set_game(
            record, nodes[0].state.game, self._report_viewer(), _has_secrets(nodes[-1].state)
        )
        if session.ply == 0:
            self._draw()
        else:
            session.go_to(0)  # the session tells this view, which draws ply 0

    def _report_viewer(self) -> int | str:
        """Whose view the report analyses each ply in. A replay that shows everything
        (perspective None) may show any player's knowledge: each ply is judged as its mover knew
        it ("mover"), the fair measure of a move and the command line's default. A replay in
        player p's view analyses every ply in p's view: analysed in the mover's view, an
        opponent's values and best moves would come from the cards in its hand, and the graph
        would show p what p cannot see. (The replay has no view selector: the perspective is
        fixed when it is made.)"""
        return "mover" if self.perspective is None else self.perspective

    def analyse(self, *, engine=None, limit=None, wait: bool = False):
        """What the Analyse button does: the game's report (`rules_kernel.analysis.report`),
        in a thread unless `wait`; then the graph under the board. Returns the thread."""
        return self.report.analyse(engine=engine, limit=limit, wait=wait)

    @staticmethod
    def _read(source, index: int) -> records.Record:
        if isinstance(source, io.TextIOBase):
            found = list(records.read_records(source))
        else:
            found = records.load(source)
        if not 0 <= index < len(found):
            raise RulesError(
                f"{getattr(source, 'name', 'the source')} holds {len(found)} game(s); "
                f"there is no game #{index}"
            )
        return found[index]

    def show(self, ply: int) -> None:
        """Show ply `ply` (clamped to the game): the session goes there and this view follows."""
        if self.session is None:
            return
        ply = max(0, min(ply, len(self._nodes) - 1))
        if self.session.ply != ply:
            self.session.go_to(ply)  # the session tells this view (`_session_changed`)
        else:
            self._draw()

    def jump(self, ply: int) -> None:
        self.show(ply)

    def open_link(self, query: str) -> None:
        """Show the game a page's query string links to, at its ply (the replay's own view
        stays: it is fixed when the replay is made). A bad link is refused whole in one line."""
        link = parse_link(query)
        if link is None:
            return
        self._show_record(link.record())
        self.show(len(link.moves) if link.ply is None else link.ply)

    def _link_refused(self, text: str) -> None:
        self.info.value = message_html(f"This link cannot be opened: {text}", error=True)

    def link_query(self) -> str | None:
        """A link to the ply shown of the game on show; None in a player's view of a game with
        hidden cards (a link carrying the moves would show its reader the hidden cards)."""
        if self.session is None:
            return None
        if self.perspective is not None and has_secrets(self._nodes[0].state.game):
            return None
        moves = [node.notation for node in self._nodes[1:]]
        view = "all" if self.perspective is None else str(self.perspective)
        return link_query(
            self._nodes[0].state.game, self.states, moves, self.session.ply, view, secrets_hidden=False
        )

    def _copy_link(self) -> None:
        query = self.link_query()
        if query is None:
            self.link_note.value = message_html(
                "No link in a player's view: its moves would show the cards that player cannot see."
            )
            return
        self.address.copy(query)

    def _link_copied(self, address: str, copied: bool) -> None:
        self.link_note.value = copied_html(address, copied)

    def _picture_source(self) -> tuple[list[State], int | None, str] | str:
        if self.session is None:
            return "Load a game first."
        ply = self.session.ply
        return list(self.states[: ply + 1]), self.perspective, f"{self.session.game.id}-ply-{ply}"

    def enter_line(self, node: Node | None) -> None:
        """Follow the line through `node` (a variation of the record's tree) from the start to
        its end, and show `node`; None: back to the main line, at the same ply where it exists."""
        if self.session is None:
            return
        ply = self.session.ply
        if node is None:
            nodes = self.session.main_line()
            target = nodes[min(ply, len(nodes) - 1)]
        else:
            nodes = node.path()
            while nodes[-1].children:
                nodes.append(nodes[-1].children[0])
            target = node
        self._follow(nodes)
        self.session.go(target)

    def play_from_here(self, notation: str) -> None:
        """A move of the Games from here panel, played from the ply on show: the record's own
        next move walks on along the game; another is a line of its own in the game's tree,
        which the replay then follows ("Back to the main line" returns)."""
        if self.session is None:
            return
        self._playing = True  # drawn once, below, on the line of the move played
        try:
            node = self.session.play(notation, auto=False)
        finally:
            self._playing = False
        if not (node.ply < len(self._nodes) and self._nodes[node.ply] is node):
            self.enter_line(node)  # a move the game did not play here: its own line
        self._draw()

    def _follow(self, nodes: list[Node]) -> None:
        self._nodes = nodes
        self.states, self.scenes = States(nodes), Scenes(self.session, nodes, self.perspective)
        self._window = (0, -1)
        self.slider.max = self.player.max = len(nodes) - 1
        on_main = all(n.parent is None or n.parent.children[0] is n for n in nodes)
        self.main_line_button.layout.display = "none" if on_main else SHOWN

    def _show_annotations(self, ply: int) -> None:
        """The comment on the position shown; a button for each other line from it."""
        node = self._nodes[ply]
        self.comment.value = (
            html('<div class="re-comment-text">{text}</div>', text=node.comment) if node.comment else ""
        )
        onward = self._nodes[ply + 1] if ply + 1 < len(self._nodes) else None
        others = [child for child in node.children if child is not onward]
        shown = shown_to(self.session)
        now = shown.now(node, self.perspective)  # a move not played here yet: as the board shows it
        buttons = []
        for child in others:
            words = shown.line(child, self.perspective, now).text
            button = w.Button(description=f"Line: {words}"[:60], tooltip=words, layout=w.Layout(width="auto"))
            button.on_click(guarded(error_line(self.info))(lambda _, c=child: self.enter_line(c)))
            buttons.append(button)
        self.lines_here.children = tuple(buttons)

    def _session_changed(self, change: Change) -> None:
        if change.session is self.session and not self._playing:
            self._draw()

    def _draw(self) -> None:
        """Draw the session's current ply: the board, the move list around it, the slider."""
        ply = self.session.ply
        self._list_moves_around(ply)
        scene = self.scenes[ply]
        self.board.show(scene, last=scene.last_cells)
        width = f"{self.board.natural_width:.0f}px"  # the board column fits its drawing
        self.board_column.layout.max_width, self.board_column.layout.flex = width, f"1 1 {width}"
        if self.moves.index != ply - self._window[0]:
            self.moves.index = ply - self._window[0]
        if self.slider.value != ply:
            self.slider.value = ply
        if self.player.value != ply:  # jslink copies Play -> slider when a browser connects
            self.player.value = ply
        self._show_annotations(ply)
        self.graph.current = ply
        # a replay in a player's view matches what that player sees
        self.games_from_here.show(self._nodes[ply].state, self.perspective)

    def _list_moves_around(self, ply: int) -> None:
        """Fill the move list with the plies of the block on show and its two neighbours
        (the whole game when it is short); entry i is ply `first + i`. In a view that forgets
        (War Stories' player's view) each entry is written as that view tells of it at the
        ply shown, so the entries are looked at again at every ply (each one's two forms are
        kept beside the session: a look-up each) and the list is sent again only if one of
        them changed."""
        nodes, every = self._nodes, LIST_BLOCK
        block = ply // every
        low = max(0, block - 1) * every
        high = min(len(nodes) - 1, (block + 2) * every)
        first = low + 1 if low else 0  # ply `low` belongs to the block before: not listed
        shown = shown_to(self.session)  # each node's entry, kept beside the session
        now = shown.now(nodes[ply], self.perspective)
        if (first, high) == self._window and now is None:
            return
        entries = [] if first else ["start"]
        entries += [str(shown.line(node, self.perspective, now)) for node in nodes[max(first, 1) : high + 1]]
        if (first, high) == self._window and tuple(entries) == tuple(self.moves.options):
            return
        self._listing = True
        try:
            self.moves.options = entries  # selects entry 0 by itself: not a jump
            self.moves.index = ply - first
        finally:
            self._listing = False
        self._window = (first, high)
        whole = first == 0 and high == len(nodes) - 1
        self.window_note.value = (
            ""
            if whole
            else html(
                '<span style="font-size:12px;color:#555">moves {a}–{b} of {n}; the list follows '
                "the slider</span>",
                a=f"{max(first, 1):,}",
                b=f"{high:,}",
                n=f"{len(nodes) - 1:,}",
            )
        )

    def _jump_from_list(self, change) -> None:
        if change["new"] is not None and not self._listing:
            self.show(self._window[0] + change["new"])

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        upload = files[0]
        index = self.record_index.value
        kept: list[Session] = []

        def check(i: int, record: records.Record) -> None:  # the game to show is replayed once
            if i == index:
                kept.append(Session.from_record(record))  # checks it whole, as record.check()
            else:
                record.check()

        found = records.read_upload(bytes(upload["content"]), str(upload["name"]), check=check)
        if not 0 <= index < len(found):
            raise RulesError(
                f"the upload holds {len(found)} game(s); there is no game #{index} "
                f"(games are numbered from 0)"
            )
        self._list(
            (f"Your file: {rk.game_class(r.game).title}, game {k} of {len(found)}", r)
            for k, r in enumerate(found, 1)
        )
        self._show_record(found[index], kept[0])

    # --- the menu of games -------------------------------------------------------------------
    def _list(self, entries) -> None:
        """Add games to the menu (the shipped ones, then each upload's), keeping the one shown."""
        self._entries += list(entries)
        self._quiet = True
        try:
            self.record_menu.options = [(label, i) for i, (label, _) in enumerate(self._entries)]
        finally:
            self._quiet = False
        self._mark_in_menu(getattr(self, "record", None))

    def _mark_in_menu(self, record: records.Record | None) -> None:
        """The menu shows the game on show (none where it is not one of the menu's)."""
        found = next((i for i, (_, r) in enumerate(self._entries) if r == record), None)
        self._quiet = True
        try:
            self.record_menu.value = found
        finally:
            self._quiet = False

    def _chosen(self, change) -> None:
        if self._quiet or change["new"] is None:
            return
        self._show_record(self._entries[change["new"]][1])


class FoldedGamesFromHere(w.VBox):
    """The Games from here panel behind its toggle, made on first opening: a replay that
    never opens it imports neither pandas nor DuckDB (the static site's browser Python has
    neither: there the toggle is hidden). `show` is the panel's, kept until it exists."""

    def __init__(self, play: Callable[[str], object]) -> None:
        self.play, self.panel = play, None
        self._shown: tuple[State | None, int | None] = (None, None)
        self.toggle = w.ToggleButton(
            value=False,
            description=fold_title("Games from here", False),
            tooltip="the moves played from this position in a collection of real games",
            layout=w.Layout(width="auto"),
        )
        self.message = w.HTML()  # a failure to open it, in one line
        self.toggle.observe(guarded(error_line(self.message))(lambda _: self._opened()), names="value")
        super().__init__([self.toggle, self.message])
        if not collections_readable():
            self.layout.display = "none"

    def _opened(self) -> None:
        opened = self.toggle.value
        self.toggle.description = fold_title("Games from here", opened)
        if opened and self.panel is None:
            from widgets.games_from_here import GamesFromHere

            self.panel = GamesFromHere(on_move=self.play, opened=True)
            self.panel.toggle.layout.display = "none"  # this toggle stands for it
            self.children = (self.toggle, self.panel, self.message)
        if self.panel is not None:
            self.panel.layout.display = SHOWN if opened else "none"
            if opened:
                self.panel.show(*self._shown)

    def show(self, state: State, viewer: int | None) -> None:
        self._shown = (state, viewer)
        if self.panel is not None and self.toggle.value:
            self.panel.show(state, viewer)


def _has_secrets(state: State) -> bool:
    """Whether a player's view of the position hides something (the cards of a hand, a bag)."""
    return any(state.view(seat).to_text() != state.to_text() for seat in range(state.game.num_players))


class _ByPly(Sequence):
    """A sequence indexed by ply over a session's main line (negative indices and slices too)."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes

    def __len__(self) -> int:
        return len(self.nodes)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        ply = operator.index(index)
        ply += len(self) if ply < 0 else 0
        if not 0 <= ply < len(self):
            raise IndexError(f"ply {index} is outside 0..{len(self) - 1}")
        return self.at(self.nodes[ply])

    def at(self, node: Node) -> Any:
        raise NotImplementedError


class States(_ByPly):
    """The game's states by ply: the session's (checkpoints, recent states, replay between)."""

    def at(self, node: Node) -> State:
        return node.state


class Scenes(_ByPly):
    """What the board shows at each ply, in the perspective: the scenes kept beside the session
    (widgets/presentation.py), drawn on demand."""

    def __init__(self, session: Session, nodes: list[Node], perspective: int | None) -> None:
        super().__init__(nodes)
        self.session, self.perspective = session, perspective

    def at(self, node: Node):
        return shown_to(self.session).scene(node, self.perspective)
