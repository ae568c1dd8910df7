"""Issue 32 item 5's front-end papercuts: the terminal move list breaks only between items, and a
state's HTML table centres its labels on the card row (a label never runs into the first card)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from cribpiquet import cribbage, piquet
from cribpiquet._play_table import wrap_items

ANSI = re.compile("\x1b\\[[0-9;]*m")

#: Move labels as the terminal writes them (digits, cards, colour codes), without a double space.
LABEL = st.text(alphabet=st.sampled_from("0123456789) ♠♥♦♣JQKA\x1b[31m"), min_size=1, max_size=14)
items = st.lists(LABEL.map(str.strip).filter(lambda s: s and "  " not in s), max_size=40)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(items, st.integers(min_value=4, max_value=100))
def test_move_list_breaks_only_between_items(moves, width):
    text = wrap_items(moves, width)
    lines = text.split("\n")
    # Every line starts with the indent; splitting each line on the gap gives back the items in
    # order: no item is ever cut across two lines.
    assert all(line.startswith("  ") for line in lines)
    rebuilt = [part for line in lines if line.strip() for part in line[2:].split("  ")]
    assert rebuilt == moves
    for line in lines:
        visible = len(ANSI.sub("", line))
        on_line = line[2:].split("  ")
        # A line is wider than the width only when it holds one item that alone is wider.
        assert visible <= width or len(on_line) == 1


def test_move_list_of_a_real_turn_keeps_each_numbered_move_whole():
    moves = [f"{i}) {c}" for i, c in enumerate(["4♠ J♥", "5♦ 5♥", "J♣ Q♠", "10♣ K♦"] * 4, 1)]
    for width in range(10, 60):
        for line in wrap_items(moves, width).split("\n"):
            for part in line.strip().split("  "):
                assert re.fullmatch(r"\d+\) \S+ \S+", part), (width, line)


def _label_cells(html: str) -> list[str]:
    return re.findall(r"<(?:th|td) (style=\"[^\"]*\")", html)


def test_state_html_labels_are_centred_on_the_card_row():
    for game in (cribbage.Game(), piquet.Game()):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        html = state._repr_html_()
        cells = _label_cells(html)
        assert cells, html
        for style in cells:
            assert "vertical-align:middle" in style
            # room after a label: it never touches the cards in the next cell
            assert re.search(r"padding:\S+ [1-9]\d*px", style), style
        for pile in re.findall(r'<div (style="[^"]*")><span>[^<]*:</span>', html):
            assert "align-items:center" in pile and "gap:" in pile
