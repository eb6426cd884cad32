"""The Explorer (widgets/explorer/explorer.py) and the names other modules take from it.

The explorer is a package: `Explorer` is the view and its wiring; each concern of the page is a
part of its own module beside it (docs/widgets.md, "The explorer's parts").
"""

from widgets.draw import OWNER_COLOURS
from widgets.explorer.common import ALL_SEEING, FOLLOW_TURN, PERFECT_AGENT
from widgets.explorer.curtain import BEHIND_CURTAIN
from widgets.explorer.explorer import ROOM_HEIGHT, ROOM_WIDTH, Explorer, board_zoom

__all__ = [
    "ALL_SEEING",
    "BEHIND_CURTAIN",
    "FOLLOW_TURN",
    "OWNER_COLOURS",
    "PERFECT_AGENT",
    "ROOM_HEIGHT",
    "ROOM_WIDTH",
    "Explorer",
    "board_zoom",
]
