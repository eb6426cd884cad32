"""The Replay shows a record's comments beside the board and lets the reader step into its
other lines (issue #24 item 6): a record written by hand, as an explainer's author would."""

from __future__ import annotations

from rules_kernel import records
from widgets.replay import Replay

#: an annotated line as an explainer's author writes it: the main line, a comment per ply,
#: and another line from ply 1 with its own comment (docs/records.md, "Comments and lines")
AUTHORED = (
    '{"format": "rules-explorer/1", "game": "yokai-3x4", "options": {}, '
    '"actions": ["b2b3", "c4b3"], '
    '"meta": {"comments": {"0": "The Kodama faces the Kodama.", "2": "The Kitsune takes <back>."}, '
    '"variations": [{"ply": 1, "actions": ["a4a3", "b3b4+"], '
    '"comments": {"3": "Letting it through loses the Koropokkuru."}}]}}'
)


def test_comments_stand_beside_the_board_escaped():
    replay = Replay(records.Record.from_json(AUTHORED))
    assert "The Kodama faces the Kodama." in replay.comment.value
    replay.show(2)
    assert "The Kitsune takes &lt;back&gt;." in replay.comment.value and "<back>" not in replay.comment.value
    replay.show(1)
    assert replay.comment.value == ""


def test_the_reader_steps_into_another_line_and_back():
    replay = Replay(records.Record.from_json(AUTHORED))
    replay.show(1)
    (button,) = replay.lines_here.children
    assert button.description == "Line: Tanuki a4–a3"
    button.click()
    assert replay.session.ply == 2 and replay.slider.max == 3
    assert replay.main_line_button.layout.display == ""
    replay.show(3)
    assert replay.session.node.notation == "b3b4+"
    assert "loses the Koropokkuru" in replay.comment.value
    assert replay.states[3].is_terminal()
    replay.main_line_button.click()
    assert replay.slider.max == 2 and replay.session.node.notation == "c4b3"
    assert replay.main_line_button.layout.display == "none"
