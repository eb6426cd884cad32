"""The board's hit layer reads each zone item once (issue 46 item 5: "Initiative: Initiative:
Side A" was read aloud for War Chest's initiative marker): its name is the zone's title and
the item, and says neither twice, in every game's scenes, all-seeing and in a player's view."""

from __future__ import annotations

import html
import re
from collections import Counter

import pytest
from playing import SETTINGS, random_game

import rules_kernel as rk
from widgets.draw import item_words
from widgets.layout import layout_scene
from widgets.svg import hit_layer, zone_item_name

HIT = re.compile(r'data-cell="([^"]*)" aria-label="([^"]*)"')


def scenes(game_id: str, options: dict) -> list:
    """The start, and the middle and end of two random games, all-seeing and the mover's view."""
    game = rk.load_game(game_id, **options)
    out = [game.initial_state().scene()]
    for seed in (1, 2):
        states, _ = random_game(game, seed, cap=60)
        for state in (states[len(states) // 2], states[-1]):
            out.append(state.scene())
            if state.current_player >= 0:
                out.append(state.scene(state.current_player))
    return out


def head_of(title: str) -> str:
    """A zone title's leading words: before a bracket, a colon or a semicolon."""
    return re.split(r" \(|: |; ", title)[0].strip().lower()


@pytest.mark.parametrize("game_id, options", SETTINGS, ids=lambda v: str(v))
def test_no_zone_item_name_says_its_zone_title_or_a_word_twice(game_id, options):
    checked = 0
    for scene in scenes(game_id, options):
        layout = layout_scene(scene)
        names = {cell: html.unescape(name) for cell, name in HIT.findall(hit_layer(scene, layout))}
        for zone in layout.zones:
            for item in zone.zone.items:
                name, low = names[item.cell], names[item.cell].lower()
                head = head_of(zone.zone.title)
                assert low.count(head) == 1, f"{game_id}: {name!r} says {head!r} twice"
                twice = [w for w, n in Counter(re.findall(r"[^\W\d_]{4,}", low)).items() if n > 1]
                assert not twice, f"{game_id}: {name!r} says {twice} twice"
                said = item_words(item).rpartition(": ")[2].lower()
                assert said in low, f"{game_id}: {name!r} does not name {said!r}"
                checked += 1
    assert checked or game_id in ("war-stories",), "no zone item was checked"


def test_the_initiative_marker_is_read_once():
    assert zone_item_name("Initiative", "Initiative: Side A") == "Initiative: Side A"
    assert (
        zone_item_name("Initiative (claimed this round)", "Initiative: Side B")
        == "Initiative (claimed this round): Side B"
    )
    assert (
        zone_item_name("Side A: supply (Archer, Light Cavalry); markers left: 4", "Light Cavalry", " ×2")
        == "Side A: supply: Light Cavalry ×2; markers left: 4"
    )
    assert zone_item_name("Side A: hand (hidden)", "hidden coin") == "Side A: hand: hidden coin"
    assert zone_item_name("Side A: hand", "Archer") == "Side A: hand: Archer"  # nothing said twice: as it was
