"""The explorer's Analysis switch: an evaluation bar, the best line in words and as arrows,
each target's value, searched in the background.

The panel analyses what the page shows and nothing more: in a player's view its input is
`state.view(viewer)` (the engine never receives the true state), and the line it draws is
walked on that same view. In a game with hidden cards a player's view shows only the best
move for the player itself: the moves after it are played in worlds the search imagined
(other cards, other hands), so writing them down as "the best line" would show guesses as
facts.

One search runs at a time per kernel (an engine may be one subprocess shared by every
page); a new position stops the running search and starts the next once it has ended. The
search runs in a thread: the page keeps answering clicks, the result is shown as it deepens
(at most four times a second), and Stop ends it with what it has.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import ipywidgets as w

import rules_kernel as rk
from rules_kernel import parts as game_parts
from rules_kernel.analysis import Analysis, DefaultEngine, EngineError, Estimate, Limit, analyse, get_engine
from rules_kernel.core import Move, State
from widgets import runtime
from widgets.draw import Arrow, owner_colour
from widgets.looks import Looks
from widgets.runtime import SHOWN
from widgets.safe import html, one_line

#: the engines an analysis asks for, in order: the first the game has and the machine can open
ENGINE_TITLES = {
    "table": "solved table (exact)",
    "fairy-stockfish": "Fairy-Stockfish",
    "ismcts": "tree search",
}
#: how many moves of the best line are drawn as arrows, and written in words
ARROWS, WORDS = 3, 8
REFRESH_SECONDS = 0.25  # the page is redrawn at most this often while the search deepens
RESULT_COLOURS = {"win": "#009E73", "draw": "#0072B2", "loss": "#D55E00"}
RESULT_LETTERS = {"win": "W", "draw": "D", "loss": "L"}
#: where the page's Python starts no threads (the static site), a search runs this long in
#: the click's own turn; switching Analysis off and on searches again
FOREGROUND_SECONDS = 2.0
_ONE_SEARCH = threading.Lock()  # an engine (a Fairy-Stockfish process) answers one search at a time


@dataclass(frozen=True)
class Subject:
    """What is analysed: the position as the viewer sees it (the true state when all-seeing),
    with the names and the secrecy the page needs to show the answer."""

    state: State
    viewer: int | None
    secrets: bool  # does the game hide anything from a player (cards, hands, bags)?

    @property
    def key(self) -> tuple[str, str, int | None]:
        return (self.state.game.id, self.state.to_text(), self.viewer)


class AnalysisPanel:
    """The switch, the Stop button, the bar, the line and the search's figures.

    `on_result()` is called (from the search's thread) after every shown update, so the page
    can redraw the arrows and the targets' values; outside the panel's lock, which the page's
    redraw takes when it reads `arrows()` and `marks()` (called under the lock, the search
    thread waited on the board's drawing while the drawing waited on the panel: a deadlock)."""

    def __init__(
        self,
        on_result: Callable[[], None] = lambda: None,
        *,
        seconds: float = 15.0,
        looks: Looks | None = None,
    ) -> None:
        """`looks`: the page's shared layouts and styles (widgets.looks), for the switch and its
        row, whose look never changes."""
        self.on_result = on_result
        self.seconds = seconds
        make = (looks or Looks()).make
        self.switch = make(
            w.ToggleButton,
            value=False,
            description="Analysis",
            tooltip="Evaluate the position shown and draw the best line (searches in the background)",
            layout={"width": "auto"},
        )
        self.switch.add_class("re-analysis-switch")
        self._row = make(w.HBox, children=[self.switch])
        self.box = make(w.VBox, children=[self._row])
        self.box.add_class("re-analysis")
        self._built = False  # Stop, the bar, the line and the figures: built when first switched on
        self.result: Analysis | None = None
        self.subject: Subject | None = None
        self.engine = ""
        self._lock = threading.RLock()
        self._generation = 0
        self._stop: threading.Event | None = None
        self._thread: threading.Thread | None = None
        self._shown_at = 0.0

    def _build(self) -> None:
        """What the switch shows: built the first time it is on, so a page starts with fewer
        widgets."""
        if self._built:
            return
        self._built = True
        self.stop_button = w.Button(description="Stop", disabled=True, layout=w.Layout(width="auto"))
        self.stop_button.on_click(lambda _: self.stop())
        self.bar = w.HTML()
        self.words = w.HTML()
        self.info = w.HTML()
        self.body = w.VBox([self.bar, self.words, self.info])
        self._row.children = (self.switch, self.stop_button)
        self.box.children = (self._row, self.body)

    # --- what the page asks ---------------------------------------------------------------
    @property
    def on(self) -> bool:
        return bool(self.switch.value)

    def analyse(self, subject: Subject | None, note: str = "") -> None:
        """Analyse `subject` (None: nothing to analyse now, `note` says why). The same
        position and viewer as the one shown keeps its search; anything else starts anew."""
        with self._lock:
            if not self.on:
                self._forget()
                if self._built:
                    self.body.layout.display = "none"
                return
            self._build()
            self.body.layout.display = SHOWN
            if subject is not None and self.subject is not None and subject.key == self.subject.key:
                return
            self._forget()
            self.subject = subject
            if subject is None or subject.state.is_terminal():
                self.bar.value = ""
                self.words.value = html("<i>{note}</i>", note=note) if note else ""
                return
            self._start(subject)

    def stop(self) -> None:
        """End the running search; what it found stays shown."""
        if self._stop is not None:
            self._stop.set()
        if self._built:
            self.stop_button.disabled = True

    def close(self) -> None:
        with self._lock:
            self._forget()

    def arrows(self) -> tuple[Arrow, ...]:
        """The best line's first moves as arrows, numbered; empty while nothing is known."""
        with self._lock:
            return tuple(arrow for arrow, _ in self._line_steps()[:ARROWS])

    def marks(self, candidates: list[Move], chosen: int) -> dict[str, tuple[str, str]]:
        """Each target of the selected piece (`chosen` cells clicked so far) labelled with the
        value of its move for the mover: "W 5", "D", "L 12", or an expected score "62%"."""
        with self._lock:
            result = self.result
            if result is None:
                return {}
            marks = {}
            for move in candidates:
                line = result.move(str(move))
                if line is not None and len(move.cells) == chosen + 1:
                    marks[move.cells[chosen]] = mark_of(line.value)
            return marks

    # --- the search ----------------------------------------------------------------------
    def _forget(self) -> None:
        """Stop the running search and forget its position (its last updates are dropped)."""
        self._generation += 1
        self.stop()
        self.result, self.subject = None, None
        if self._built:
            self.bar.value = self.words.value = self.info.value = ""

    def _start(self, subject: Subject) -> None:
        generation, stop, previous = self._generation, threading.Event(), self._thread
        self._stop = stop
        if not runtime.THREADS:  # the browser's Python: a short search now, the page waits
            self.stop_button.disabled = True
            self._search(generation, subject, stop, None, seconds=FOREGROUND_SECONDS)
            return
        self.stop_button.disabled = False
        self.info.value = html("<small>{text}</small>", text="Analysing…")
        self._thread = threading.Thread(
            target=self._search,
            args=(generation, subject, stop, previous),
            name="rules-explorer-analysis",
            daemon=True,
        )
        self._thread.start()

    def _search(
        self, generation: int, subject: Subject, stop: threading.Event, previous, seconds: float | None = None
    ) -> None:
        if previous is not None:
            previous.join()  # its stop flag is set: it ends within one progress interval
        if stop.is_set():
            return
        try:
            with _ONE_SEARCH:
                engine = self._engine_for(subject.state.game)
                result = analyse(
                    subject.state,
                    viewer=subject.viewer,
                    limit=Limit(seconds=self.seconds if seconds is None else seconds),
                    engine=engine,
                    progress=lambda found: self._post(generation, found, final=False),
                    stop=stop,
                )
            self._post(generation, result, final=True)
        except Exception as exc:  # shown as one line; the page never sees a traceback
            self._post_error(generation, exc)

    def _engine_for(self, game: rk.Game):
        """The game's best engine this machine has: its solved table when built and ready,
        Fairy-Stockfish where the game declares a variant and the engine is installed, else
        the tree search (what the game declares decides; nothing here names a game). Study
        positions go to the same engine: moves that end the game are valued by our rules
        (a side left without a move, a Koropokkuru taken), the rest are the engine's claims."""
        if rk.info(game).solved_table is not None and game_parts.solved_table_availability(game) == "ready":
            try:
                engine = get_engine(game, "table")
            except rk.RulesError:
                pass
            else:
                self.engine = "table"
                return engine
        if type(game).FAIRY_STOCKFISH_VARIANT is not None:
            # the default analysis, never Fairy-Stockfish named: an engine that is missing,
            # crashes, hangs or sends garbage gives way to the tree search (with a note), and
            # the next analysis asks the engine again (a fresh process). Made here, not by
            # get_engine(game): that would try the table too, and a table refused while it is
            # prepared stays refused until close_engines()
            self.engine = "fairy-stockfish"
            return DefaultEngine(game)
        self.engine = "ismcts"
        return get_engine(game, "ismcts")

    def _post(self, generation: int, result: Analysis, *, final: bool) -> None:
        now = time.monotonic()
        if not final and now - self._shown_at < REFRESH_SECONDS:
            return
        with self._lock:
            if generation != self._generation:
                return  # a search for a position no longer shown
            self._shown_at = now
            self.result = result
            try:
                self._show(result, final)
            except Exception as exc:
                self._show_error(exc)
                return
        try:
            self.on_result()
        except Exception as exc:
            with self._lock:
                self._show_error(exc)

    def _post_error(self, generation: int, exc: Exception) -> None:
        with self._lock:
            if generation == self._generation:
                self._show_error(exc)

    def _show_error(self, exc: Exception) -> None:
        # an engine's own message names its binary's path and may quote its output: a player
        # is told what happened in words of their own
        if isinstance(exc, EngineError):
            reason = f"{ENGINE_TITLES.get(self.engine, 'the engine')} {engine_trouble(str(exc))}"
        else:
            reason = str(exc) if isinstance(exc, rk.RulesError) else "the engine failed"
        self.info.value = html(
            '<span role="alert" style="color:#B00020">Analysis stopped: {why}</span>', why=one_line(reason)
        )
        self.stop_button.disabled = True

    # --- showing -------------------------------------------------------------------------
    def _show(self, result: Analysis, final: bool) -> None:
        subject = self.subject
        game = subject.state.game
        seat = subject.viewer if subject.viewer is not None else result.player
        self.bar.value = bar_html(result, seat, game.player_names)
        self.words.value = self._words_html(subject, result)
        self.info.value = html("<small>{text}</small>", text=search_words(result, self.engine, final)) + (
            fallback_html(result) if self.engine == "fairy-stockfish" else ""
        )
        self.stop_button.disabled = final

    def _words_html(self, subject: Subject, result: Analysis) -> str:
        names = subject.state.game.player_names
        steps = self._line_steps()
        if not steps:
            if subject.secrets and subject.viewer not in (None, subject.state.current_player):
                return html("<small>{text}</small>", text="The best line is shown on your own turn.")
            return ""
        items = "".join(
            html(
                '<li><span class="re-swatch" style="background:{colour}"></span>{side}: {text}</li>',
                colour=owner_colour(mover),
                side=names[mover],
                text=text,
            )
            for (_, (mover, text)) in steps[:WORDS]
        )
        return (
            '<div class="re-analysis-line"><b>Best line</b><ol style="margin:2px 0 2px 1.4em;padding:0">'
            + items
            + "</ol>"
            + html("<small>Best moves: {best}</small>", best=self._best_moves(subject, result))
            + html("<br><small>{legend}</small></div>", legend=marks_legend(result))
        )

    def _best_moves(self, subject: Subject, result: Analysis) -> str:
        """The first three ranked moves in words with their values for the mover."""
        legal = {str(move): move for move in subject.state.legal_moves()}
        shown = []
        for line in result.moves[:3]:
            move = legal.get(line.move)
            if move is not None:
                words = game_parts.action_text(subject.state, move, subject.viewer)
                shown.append(f"{words} ({move_value_words(line.value)})")
        return "; ".join(shown)

    def _line_steps(self) -> list[tuple[Arrow, tuple[int, str]]]:
        """The principal line walked on the analysed position: each move that is legal where
        it is played, with its arrow and its words, up to the first chance event; in a player's
        view of a game with secrets only the player's own next move (what follows it happens
        in imagined worlds)."""
        result, subject = self.result, self.subject
        if result is None or subject is None:
            return []
        state, steps = subject.state, []
        # the ranked first move's own line: the principal line, and the move the list puts first
        line = result.line
        if result.best is not None:
            best = result.best
            line = best.line if best.line[:1] == (best.move,) else (best.move,)
        for number, notation in enumerate(line[:WORDS], start=1):
            if state.is_terminal() or state.current_player == rk.CHANCE:
                break
            if subject.secrets and subject.viewer is not None and state.current_player != subject.viewer:
                break
            move = next((m for m in state.legal_moves() if str(m) == notation), None)
            if move is None:
                break
            mover = state.current_player
            arrow = Arrow(tuple(move.cells), owner_colour(mover), str(number))
            steps.append((arrow, (mover, game_parts.action_text(state, move, subject.viewer))))
            if subject.secrets and subject.viewer is not None:
                break  # what follows is played in the worlds the search imagined
            state = state.apply(move)
        return steps


def mark_of(value: Estimate) -> tuple[str, str]:
    """A target's colour and label: an exact result ("W 5", "D", "L 12") or a share ("62%")."""
    if value.result is not None:
        letter = RESULT_LETTERS.get(value.result, "?")
        label = letter if value.plies is None or value.result == "draw" else f"{letter} {value.plies}"
        return RESULT_COLOURS.get(value.result, "#777777"), label
    p = value.win_probability
    colour = RESULT_COLOURS["win"] if p >= 0.6 else RESULT_COLOURS["loss"] if p <= 0.4 else "#0072B2"
    return colour, f"{p:.0%}"


def value_words(value: Estimate) -> str:
    """A position's value for the player to move in words: "win in 5", "draw", "loss in 12"
    ("(engine)" where the engine claims what our rules do not prove), else the expected score
    with its margin. Never an engine's own unit (Fairy-Stockfish's centipawns): a player reads
    the expected score, the figure every engine here gives."""
    if value.result is not None:
        decided = value.plies is not None and value.result != "draw"
        claim = f"{value.result} in {value.plies}" if decided else value.result
        return claim if value.exact else f"{claim} (engine)"
    margin = f" ± {value.margin:.1%}" if value.margin else ""
    return f"{value.win_probability:.1%}{margin}"


def move_value_words(value: Estimate) -> str:
    """A move's value for its mover in words, as the best moves are listed: "wins in 5",
    "draws", "loses in 12", or its expected score ("62% expected")."""
    if value.result is not None:
        verb = {"win": "wins", "loss": "loses", "draw": "draws"}.get(value.result, value.result)
        return verb if value.plies is None or value.result == "draw" else f"{verb} in {value.plies}"
    return f"{value.win_probability:.0%} expected"


def marks_legend(result: Analysis) -> str:
    """What the labels on a selected piece's targets mean, said where they are used: the
    letters and plies of an exact engine, or the expected score of the others."""
    if any(line.value.result is not None for line in result.moves):
        return (
            "On the board, each target of a selected piece shows its move's value: W 5 wins in "
            "5 plies (a ply is one move of either side), D draws, L 12 loses in 12 plies."
        )
    return (
        "On the board, each target of a selected piece shows its move's expected score: "
        "a win counts 1, a draw ½."
    )


def seat_value(result: Analysis, seat: int, names: tuple[str, ...]) -> str:
    """The position's value for `seat` in words: its result where the engine claims one, else
    its expected score (with the margin the engine gives)."""
    value = result.value
    if seat == result.player:
        return value_words(value)
    if value.result is not None and len(names) == 2:
        other = {"win": "loss", "loss": "win"}.get(value.result, value.result)
        claim = other if value.plies is None or other == "draw" else f"{other} in {value.plies}"
        return claim if value.exact else f"{claim} (engine)"
    share = result.values[seat] if seat < len(result.values) else 1.0 - value.win_probability
    margin = f" ± {value.margin:.1%}" if value.margin else ""
    return f"{share:.1%}{margin}"


def bar_html(result: Analysis, seat: int, names: tuple[str, ...]) -> str:
    """The evaluation bar: `seat`'s expected score as a filled share in its colour, and the
    value in words beside every other side's score."""
    share = result.values[seat] if seat < len(result.values) else result.value.win_probability
    share = min(1.0, max(0.0, share))
    others = " · ".join(f"{names[s]} {result.values[s]:.0%}" for s in range(len(result.values)) if s != seat)
    return html(
        '<div class="re-eval" role="meter" aria-valuemin="0" aria-valuemax="100" aria-valuenow="{now}" '
        'aria-label="Expected score of {name}">'
        '<div style="display:flex;height:16px;max-width:320px;border:1px solid #555;border-radius:3px;'
        'overflow:hidden"><div class="re-eval-fill" style="width:{width};background:{colour}"></div>'
        '<div style="flex:1;background:#E4E4E4"></div></div>'
        "<div><b>{name}</b>: {value} <small>(expected score: a win 1, a draw ½)</small>"
        "<br><small>{others}</small></div></div>",
        now=f"{share * 100:.0f}",
        width=f"{share * 100:.1f}%",
        colour=owner_colour(seat),
        name=names[seat],
        value=seat_value(result, seat, names),
        others=others,
    )


#: the start of the note the default analysis adds when the tree search answered for
#: Fairy-Stockfish (rules_kernel.analysis.DefaultEngine); the rest is the EngineError's words
FALLBACK_NOTE = "Fairy-Stockfish could not answer, so the tree search did: "
#: what went wrong, in a player's words, from the EngineError's (rules_kernel/analysis/fsf.py):
#: the first that matches; the message itself names the binary's path and may quote the
#: engine's output, so it is never shown
TROUBLES = (
    (("not found at",), "is not installed on this machine"),
    (("does not know the variant", "counted ", "plays other rules"), "does not play this game's rules"),
    (("not a program", "is a directory", "not executable", "cannot be started"), "could not be started"),
    (("did not answer", "did not end", "did not stop", "stopped reading"), "did not answer in time"),
    (("killed by signal", "exited", "closed its output"), "stopped working (it crashed)"),
    (("sent ", "answered with"), "sent an answer that could not be read"),
)


def engine_trouble(message: str) -> str:
    """What an EngineError's message says went wrong, in plain words ("did not answer in
    time"), without the path or anything the engine sent."""
    return next(
        (words for keys, words in TROUBLES if any(key in message for key in keys)), "could not answer"
    )


def fallback_html(result: Analysis) -> str:
    """The note under the figures when the tree search answered for Fairy-Stockfish: what went
    wrong in plain words, and that the engine is asked again; empty when it answered itself."""
    if result.search.engine != "ismcts":
        return ""
    why = next((n[len(FALLBACK_NOTE) :] for n in result.search.notes if n.startswith(FALLBACK_NOTE)), None)
    if why is None:
        return ""
    trouble = engine_trouble(why)
    # a missing engine is looked for again too, but promising it would mislead where none is
    again = "" if trouble == TROUBLES[0][1] else " It will be tried again."
    return html(
        '<div class="re-analysis-note"><small>Fairy-Stockfish {trouble}, so these values come from '
        "the tree search instead.{again}</small></div>",
        trouble=trouble,
        again=again,
    )


def search_words(result: Analysis, engine: str, final: bool) -> str:
    """What was searched: the engine that answered (the tree search where it stood in for
    Fairy-Stockfish), its count, the time, and whether it is still going."""
    search = result.search
    parts = [ENGINE_TITLES.get(search.engine or engine, search.engine)]
    if search.playouts:
        parts.append(f"{search.playouts:,} random playouts")
    elif search.nodes:
        parts.append(f"{search.nodes:,} positions")
    if search.depth and not search.playouts:
        parts.append(f"depth {search.depth}")
    parts.append(f"{search.seconds:.1f} s")
    state = "stopped" if search.stopped else "done" if final else "searching…"
    if search.exact:
        state += ", exact"
    return " · ".join(parts) + f" — {state}"
