"""`rules-explorer draw`: a picture of a position or a game, from the command line.

    rules-explorer draw games.jsonl -o game.gif            the first game, animated
    rules-explorer draw games.jsonl --game 3 -o game.svg   the third game as an animated SVG
    rules-explorer draw games.jsonl --ply 12 -o pos.png    the position after ply 12
    rules-explorer draw yokai-3x4 --position "gle/1c1/1C1/ELG[] w - - 0 1" -o pos.svg
    rules-explorer draw war-stories-games.jsonl --view 0 -o seen.gif   as player 0 saw it

The kind of picture follows the output's suffix (.png, .svg, .gif; `widgets.picture`). A
record file is read with the kernel's reader (every record checked, errors naming the file,
line and ply); a position text with the game's `from_text`. Registered with the kernel's
command line by an entry point (pyproject.toml), so the kernel imports nothing from here.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import rules_kernel as rk
from rules_kernel import records
from rules_kernel.core import RulesError, check_seat


def add(sub) -> None:
    """Add the `draw` command to the kernel CLI's subparsers."""
    draw = sub.add_parser(
        "draw",
        help="draw a position or a game as a picture (.png, .svg, .gif)",
        description="A record file's game (animated in .gif and .svg, its last position in "
        ".png), the position after --ply, or a game's --position text.",
    )
    draw.add_argument("source", help="a record file, or a game id with --position")
    draw.add_argument("-o", "--output", required=True, help="the picture to write: .png, .svg or .gif")
    draw.add_argument("--game", type=int, default=1, help="which game of the file (1: the first)")
    draw.add_argument("--ply", type=int, default=None, help="draw the position after this ply")
    draw.add_argument("--position", help="a position text of the game SOURCE names")
    draw.add_argument("--view", default="all", help="a seat number to draw that player's view (default: all)")
    draw.add_argument("--scale", type=float, default=1.0, help="pixels per board unit for .png/.gif (1-4)")
    draw.add_argument("--seconds", type=float, default=0.8, help="seconds a frame is shown when animated")
    draw.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from widgets import picture  # the drawing stack loads only for this command

    if not 0.25 <= args.scale <= 4:
        raise RulesError(f"--scale {args.scale:g}: give a scale from 0.25 to 4")
    if not 0.05 <= args.seconds <= 60:
        raise RulesError(f"--seconds {args.seconds:g}: give 0.05 to 60 seconds a frame")
    source, game = _source(args)
    viewer = None if args.view == "all" else _seat(game, args.view)
    path = picture.save(source, args.output, viewer, scale=args.scale, seconds=args.seconds)
    print(f"wrote {path} ({path.stat().st_size / 1024:,.0f} KB)")
    return 0


def _source(args: argparse.Namespace):
    """The state or the record to draw, and its game."""
    if args.position is not None:
        game = rk.load_game(args.source)
        return game.from_text(args.position), game
    if not Path(args.source).is_file():
        raise RulesError(f"{args.source}: no such record file (or give a game id and --position)")
    found = records.load(args.source)
    if not 1 <= args.game <= len(found):
        raise RulesError(f"--game {args.game}: {args.source} holds {len(found)} game(s)")
    record = found[args.game - 1]
    if args.ply is None:
        return record, record.load_game()
    states = record.replay()
    if not 0 <= args.ply < len(states):
        raise RulesError(f"--ply {args.ply}: the game has plies 0 to {len(states) - 1}")
    return states[args.ply], record.load_game()


def _seat(game: rk.Game, text: str) -> int:
    # ASCII digits, few: not "²" (int() refuses it), "١" (int() reads it) or 5,000 digits
    if not (text.isascii() and text.isdigit() and len(text) <= 9):
        raise RulesError(f"--view {text[:20]!r}: give a seat number (0 to {game.num_players - 1}) or 'all'")
    return check_seat(game, int(text))
