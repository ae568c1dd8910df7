"""``cribpiquet play`` / ``cribpiquet replay`` (issue 9 items 3 and 4): the input parser, the
record and its replay, and whole scripted deals driven in a pseudo-terminal with pexpect.

Every scripted game uses a fixed ``--seed`` (chance events are the engine's draw,
``State.sample_chance(seed)``) and the ``first`` bot (the lowest legal action), so the cards below
are the same on every machine; each score in the comments is checked by hand."""

from __future__ import annotations

import io
import json
import os
import sys
from typing import Any

import pytest

from cribpiquet import cribbage, piquet, play
from cribpiquet.play import Command, InputError, parse_input

pexpect = pytest.importorskip("pexpect")


class FirstBot:
    """The lowest legal action; values favour lower actions (a stand-in with known values)."""

    name = "first"

    def step(self, state: Any) -> int:
        return state.legal_actions()[0]

    def action_values(self, state: Any) -> dict[int, float]:
        return {a: float(-i) for i, a in enumerate(state.legal_actions())}

    def restart(self) -> None:
        pass


# The CLI in a child process (the `first` bot is cribpiquet.bots.First).
WRAPPER = """
import sys
from cribpiquet import cli
sys.exit(cli.main(sys.argv[1:]))
"""


# ------------------------------------------------------------------------------- states


def ids(mod: Any, text: str) -> list[int]:
    return [c.id for c in mod.parse_cards(text)]


def cribbage_at_discard() -> Any:
    """Five-card: seat 0 cuts KC, seat 1 AD (the ace is lowest: seat 1 deals); the deal goes one
    card at a time from the dealer's left (seat 0 first)."""
    s = cribbage.Game("five-card").new_initial_state()
    for a in ids(cribbage, "KC AD 5H 2C TH 3C JC 4C 7D 6C QS 8C"):
        s.apply_action(a)
    assert s.phase == "discard" and s.current_player() == 0
    assert sorted(s.hand(0)) == sorted(ids(cribbage, "5H TH JC 7D QS"))
    return s


def cribbage_at_play() -> Any:
    s = cribbage_at_discard()
    s.apply_action(cribbage.pair_action(*ids(cribbage, "JC QS")))  # seat 0 keeps 5H TH 7D
    s.apply_action(cribbage.pair_action(*ids(cribbage, "2C 3C")))  # seat 1 keeps 4C 6C 8C
    s.apply_action(ids(cribbage, "KD")[0])  # the starter
    assert s.phase == "play" and s.current_player() == 0
    return s


def piquet_at_exchange() -> Any:
    """Russian deal: seat 0 cuts 8C, seat 1 AC (the lower card, 8C, deals: seat 1 is elder)."""
    s = piquet.Game("russian", scope="deal").new_initial_state()
    for a in ids(piquet, "8C AC"):
        s.apply_action(a)
    assert s.dealer == 0 and s.elder == 1
    rest = [c for c in range(32) if c not in ids(piquet, "8C AC")]
    while s.phase == "deal":
        s.apply_action(rest.pop(0))
    return s


# ------------------------------------------------------------------------- the parser


def test_commands_and_blank_lines() -> None:
    s = cribbage_at_discard()
    for text, kind in [("hint", "hint"), ("UNDO", "undo"), ("  quit ", "quit"), ("exit", "quit"),
                       ("help", "help"), ("?", "help"), ("", "show"), ("show", "show")]:  # fmt: skip
        assert parse_input(text, s) == Command(kind), text


def test_discard_as_cards_any_spelling() -> None:
    s = cribbage_at_discard()
    pair = cribbage.pair_action(*ids(cribbage, "5H JC"))
    for text in ["5H JC", "jc 5h", "5♥ J♣", "5H+JC", "  5h   jc "]:
        assert parse_input(text, s) == Command("move", [pair]), text
    ten = cribbage.pair_action(*ids(cribbage, "TH QS"))
    assert parse_input("10♥ QS", s).actions == [ten]
    assert parse_input("10h qs", s).actions == [ten]


def test_a_number_is_an_index_into_the_printed_legal_moves() -> None:
    s = cribbage_at_discard()
    legal = play.choices(s)  # issue 19 item 18: listed by rank then suit, not by action id
    assert sorted(legal) == sorted(s.legal_actions()) and len(legal) == 10  # five cards, C(5, 2) discards
    # the hand 5H 7D TH JC QS: the pairs by their lower card, then the higher
    assert [play.action_label(s, a) for a in legal[:4]] == ["5♥ 7♦", "5♥ 10♥", "5♥ J♣", "5♥ Q♠"]
    assert play.action_label(s, legal[-1]) == "J♣ Q♠"
    assert parse_input("1", s).actions == [legal[0]]
    assert parse_input("10", s).actions == [legal[9]]
    # issue 19 item 10: a digit that is not ASCII, or too many digits, is a reason, not a crash
    for text in ["0", "11", "99999999999999999999", "9" * 5000]:
        with pytest.raises(InputError, match=r"there is no move .*: choose 1 to 10"):
            parse_input(text, s)
    for text in ["²", "١", "1²"]:
        with pytest.raises(InputError, match="unknown card"):
            parse_input(text, s)
    # the printed list numbers the same moves
    listing = play.prompt_lines(s)[1]
    assert listing.split("  ")[1].startswith(f"1) {play.action_label(s, legal[0])}")


def test_bad_input_gives_one_line_reasons() -> None:
    s = cribbage_at_discard()
    before = s.serialize()
    with pytest.raises(InputError, match="you don't hold A♠"):
        parse_input("AS JC", s)
    with pytest.raises(InputError, match="unknown card"):
        parse_input("banana", s)
    with pytest.raises(InputError, match=r"^5♥ is not a legal move now \(legal: "):
        parse_input("5H", s)  # one card where two are discarded
    with pytest.raises(InputError) as e:
        parse_input("x" * 500, s)
    assert "\n" not in str(e.value) and len(str(e.value)) < 120
    assert s.serialize() == before


def test_cards_in_the_play() -> None:
    s = cribbage_at_play()  # seat 0 holds 5H TH 7D
    assert parse_input("10♥", s).actions == ids(cribbage, "TH")
    assert parse_input("th", s).actions == ids(cribbage, "TH")
    assert parse_input("7d", s).actions == ids(cribbage, "7D")
    with pytest.raises(InputError, match="you don't hold 4♣"):
        parse_input("4C", s)  # the bot's card
    with pytest.raises(InputError, match=r"go is not a legal move now"):
        parse_input("go", s)  # cards fit: go is illegal
    # 5H, TH, then the bot: at count 25 (say) only what fits is legal
    s.apply_action(ids(cribbage, "TH")[0])  # count 10
    s.apply_action(ids(cribbage, "8C")[0])  # 18
    s.apply_action(ids(cribbage, "7D")[0])  # 25
    s.apply_action(ids(cribbage, "6C")[0])  # 31: the count ends, and with it the five-card play
    assert s.phase != "play"


def test_go_when_nothing_fits() -> None:
    s = cribbage_at_play()
    for card in ["TH", "8C", "5H", "6C"]:  # counts 10, 18, 23, 29
        s.apply_action(ids(cribbage, card)[0])
    assert s.count == 29 and s.legal_actions() == [cribbage.GO]  # 7D would pass 31
    assert parse_input("go", s).actions == [cribbage.GO]
    assert parse_input("GO", s).actions == [cribbage.GO]
    with pytest.raises(InputError, match=r"7♦ is not a legal move now \(legal: go\)"):
        parse_input("7D", s)


def test_piquet_exchange_typed_as_the_cards_laid_out() -> None:
    s = piquet_at_exchange()
    assert s.current_player() == 1  # elder exchanges first
    hand = s.hand(1)
    three = hand[-3:]  # any three of his cards, typed in any order
    text = " ".join(str(piquet.Card(c)) for c in reversed(three)).lower()
    assert parse_input(text, s).actions == [32 + 3] + sorted(three)
    assert parse_input("exchange 0", s).actions == [32]
    assert parse_input("2", s).actions == [32 + 3]  # the list: exchange 0, 3, 4, 5
    with pytest.raises(InputError, match=r"you can't exchange 1 card now \(you may exchange 0, 3, 4, 5\)"):
        parse_input(str(piquet.Card(hand[0])), s)
    other = s.hand(0)[0]
    with pytest.raises(InputError, match=f"you don't hold {piquet.Card(other).symbol()}"):
        parse_input(f"{piquet.Card(other)} {piquet.Card(hand[0])} {piquet.Card(hand[1])}", s)
    with pytest.raises(InputError, match="twice"):
        c = str(piquet.Card(hand[0]))
        parse_input(f"{c} {c} {piquet.Card(hand[1])}", s)
    # issue 19 item 16: after choosing the size by number, the cards are chosen in any order,
    # one or several at a time, set aside until all three are named, then laid out in the
    # engine's (ascending) order
    s.apply_action(32 + 3)
    first = parse_input(f"{piquet.Card(hand[2])} {piquet.Card(hand[0])}", s)
    assert first == Command("aside", [hand[2], hand[0]])
    assert parse_input(str(piquet.Card(hand[1])), s, first.actions) == Command("move", [hand[0], hand[1], hand[2]])
    top = parse_input(str(piquet.Card(hand[-1])), s)  # the highest card first: it used to be refused
    assert top == Command("aside", [hand[-1]])
    assert parse_input(f"{piquet.Card(hand[1])} {piquet.Card(hand[0])}", s, top.actions).actions == \
        sorted([hand[-1], hand[1], hand[0]])
    with pytest.raises(InputError, match="already set aside"):
        parse_input(str(piquet.Card(hand[-1])), s, top.actions)
    with pytest.raises(InputError, match="you have 3 more cards to lay out, not 4"):
        parse_input(" ".join(str(piquet.Card(c)) for c in hand[:4]), s)  # four of three
    # a number picks from the listed hand (not the engine's ascending-order legal cards)
    assert play.choices(s) == sorted(hand)
    assert parse_input("12", s) == Command("aside", [sorted(hand)[-1]])


# ------------------------------------------------------------------ record and replay


def run_session(tmp_path: Any, kind: str, options: dict[str, Any], lines: list[str], seed: int = 3) -> tuple:
    path = str(tmp_path / "game.jsonl")
    game = play.make_game(kind, options)
    header = {"cribpiquet": "play", "game": kind, "options": options, "seed": seed, "bot": "first", "you": 0}
    out: list[str] = []
    feed = iter(lines)

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    session = play.Session(game, FirstBot(), FirstBot(), seed, play.Recorder(path, header), read, out.append)
    assert session.run() == 0
    return session, path, out


def test_record_is_the_header_then_every_action(tmp_path: Any) -> None:
    session, path, _ = run_session(tmp_path, "cribbage", {"variant": "five-card"}, ["1"] * 400)
    rows = [json.loads(x) for x in open(path, encoding="utf-8")]
    assert rows[0] == {"cribpiquet": "play", "game": "cribbage", "options": {"variant": "five-card"},
                       "seed": 3, "bot": "first", "you": 0}  # fmt: skip
    assert session.state.is_terminal()
    assert [r["action"] for r in rows[1:]] == session.state.history()
    s = cribbage.Game("five-card").new_initial_state()
    for r in rows[1:]:
        assert r["seat"] == (s.current_player() if not s.is_chance_node() else -1)
        assert r["who"] == {-1: "chance", 0: "you", 1: "bot"}[r["seat"]]
        assert r["text"] == s.action_to_string(r["action"])
        s.apply_action(r["action"])
    out = io.StringIO()
    final = play.replay(path, out)
    assert final == session.state
    assert out.getvalue().rstrip().endswith(play._result(session.state))


def test_undo_removes_the_moves_from_the_record(tmp_path: Any) -> None:
    # discard 1, play 1, undo (the card and the bot's reply), then leave (seed 193: the bot deals)
    session, path, out = run_session(tmp_path, "cribbage", {"variant": "five-card"}, ["1", "1", "undo", "quit", "y"],
                                     seed=193)
    rows = [json.loads(x) for x in open(path, encoding="utf-8")]
    assert [r["action"] for r in rows[1:]] == session.state.history()
    assert session.state.phase == "play" and session.state.current_player() == 0
    assert session.state.plays() == []  # the play was taken back, even if the bot had answered
    assert "Took back your last move" in " ".join(out)
    assert "nothing to undo" not in " ".join(out)
    # undo before any move of yours says so and changes nothing
    s2, _, out2 = run_session(tmp_path, "cribbage", {"variant": "five-card"}, ["undo"])
    assert "? nothing to undo: you have not moved yet" in out2


def test_chance_does_not_change_on_undo(tmp_path: Any) -> None:
    """Taking a discard back and making another keeps the starter: chance depends on the seed and
    the move number only."""
    a, _, _ = run_session(tmp_path, "cribbage", {"variant": "five-card"}, ["1", "quit", "y"])
    b, _, _ = run_session(tmp_path, "cribbage", {"variant": "five-card"}, ["1", "undo", "2", "quit", "y"])
    assert a.state.starter is not None and a.state.starter == b.state.starter
    assert a.state.discards(0) != b.state.discards(0)


def test_piquet_record_round_trip(tmp_path: Any) -> None:
    session, path, _ = run_session(tmp_path, "piquet", {"rules": "rubicon", "scope": "deal"}, ["1"] * 200)
    assert session.state.is_terminal()
    out = io.StringIO()
    assert play.replay(path, out) == session.state
    assert "Declarations:" in out.getvalue()


def test_replay_rejects_a_bad_record(tmp_path: Any) -> None:
    session, path, _ = run_session(tmp_path, "cribbage", {"variant": "five-card"}, ["1", "quit", "y"])
    lines = open(path, encoding="utf-8").read().splitlines()
    bad = tmp_path / "bad.jsonl"
    row = json.loads(lines[3])
    row["action"] = 99  # not a chance outcome of the cut
    bad.write_text("\n".join(lines[:3] + [json.dumps(row)] + lines[4:]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 4: action 99 is not legal here"):
        play.replay(str(bad), io.StringIO())
    row = json.loads(lines[1])
    row["text"] = "QQ"
    bad.write_text("\n".join([lines[0], json.dumps(row)]) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"line 2: action \d+ is .*, the record says QQ"):
        play.replay(str(bad), io.StringIO())
    bad.write_text("not json\n", encoding="utf-8")
    with pytest.raises(ValueError, match="line 1: not JSON"):
        play.replay(str(bad), io.StringIO())
    bad.write_text('{"game": "cribbage"}\n', encoding="utf-8")
    with pytest.raises(ValueError, match="not a cribpiquet game record"):
        play.replay(str(bad), io.StringIO())


def test_hint_lists_the_bots_values_best_first(tmp_path: Any) -> None:
    class Values(FirstBot):
        def action_values(self, state: Any) -> dict[int, float]:
            return {a: (0.25 if i == 3 else -0.0 if i == 0 else -1.5 * i) for i, a in enumerate(state.legal_actions())}

    path = str(tmp_path / "h.jsonl")
    header = {"cribpiquet": "play", "game": "cribbage", "options": {}, "seed": 3, "bot": "v", "you": 0}
    out: list[str] = []
    feed = iter(["hint", "hint all"])
    session = play.Session(cribbage.Game("five-card"), FirstBot(), Values(), 3, play.Recorder(path, header),
                           lambda p: next(feed), out.append, bot_name="v")  # fmt: skip
    with pytest.raises(StopIteration):
        session.run()
    s = session.state
    legal = s.legal_actions()
    listed = play.choices(s)  # the numbers of the printed list (by rank)
    # issue 19 item 17: the unit, the hand/crib split of each discard (as `cribpiquet discard`
    # prints it), and every move on request
    i = out.index("Hint (the v bot's values, best first; hint all: all 10):")
    assert out[i + 1] == "  value = the v bot's own scale (higher is better)"
    label = lambda k: play.action_label(s, legal[k])  # noqa: E731
    analysis = cribbage.analyze_discard(s.hand(0), dealer=s.dealer == 0, variant="five-card")
    whose = "yours" if s.dealer == 0 else "the bot's"
    split = {cribbage.pair_action(*(int(c) for c in r.thrown)):
             f"hand {r.hand:.3f}, crib {r.crib:.3f} ({whose}), net {r.net:+.3f}" for r in analysis.rows}
    top = [(3, "+0.250"), (0, "+0.000"), (1, "-1.500"), (2, "-3.000"), (4, "-6.000")]
    assert out[i + 2 : i + 7] == [f"  {listed.index(legal[k]) + 1}) {label(k)}  {v}   {split[legal[k]]}"
                                  for k, v in top]
    j = out.index("Hint (the v bot's values, best first):")
    assert len(out[j + 2 :]) == 10 and out[j + 2 : j + 7] == out[i + 2 : i + 7]


def test_bot_names() -> None:
    with pytest.raises(ValueError, match="unknown bot 'zzz': choose greedy, ismcts, random, first"):
        play.make_bot("zzz", 0)
    bots = pytest.importorskip("cribpiquet.bots")
    assert play.default_bot() == "greedy"
    assert repr(play.make_bot("random", 5)) == repr(bots.Random(seed=5))
    assert isinstance(play.make_bot("first", 5), bots.First)
    # The registry's names, with their arguments (tests/test_bot_registry.py has the rest).
    assert repr(play.make_bot("ismcts:50", 5)) == repr(bots.ISMCTS(iterations=50, seed=5))
    assert repr(play.make_bot("pimc", 5)) == repr(bots.PIMC(seed=5))


@pytest.mark.parametrize("name", ["greedy", "ismcts"])
@pytest.mark.parametrize("kind,options", [("cribbage", {"variant": "five-card"}), ("piquet", {"rules": "russian", "scope": "deal"})])
def test_whole_games_against_the_real_bots(tmp_path: Any, name: str, kind: str, options: dict[str, Any]) -> None:
    path = str(tmp_path / "g.jsonl")
    header = {"cribpiquet": "play", "game": kind, "options": options, "seed": 1, "bot": name, "you": 0}
    out: list[str] = []
    feed = iter(["hint", "1"] * 300)
    session = play.Session(play.make_game(kind, options), play.make_bot(name, 1), play.make_bot(name, 2), 1,
                           play.Recorder(path, header), lambda p: next(feed), out.append, bot_name=name)  # fmt: skip
    assert session.run() == 0
    assert session.state.is_terminal()
    assert sum(x == f"Hint (the {name} bot's values, best first):" for x in out) > 3
    assert play.replay(path, io.StringIO()) == session.state


# ---------------------------------------------------------------- the pseudo-terminal


def spawn(*args: str) -> Any:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", TERM="dumb", COLUMNS="200")
    child = pexpect.spawn(sys.executable, ["-c", WRAPPER, *args], env=env, encoding="utf-8", timeout=30,
                          dimensions=(50, 200))  # fmt: skip
    return child


def step(child: Any, send: str, *expect: str) -> None:
    child.sendline(send)
    for e in expect:
        child.expect_exact(e)


def test_terminal_five_card_deal(tmp_path: Any) -> None:
    record = str(tmp_path / "crib.jsonl")
    c = spawn("play", "cribbage", "--variant", "five-card", "--bot", "first", "--seed", "193", "--record", record)
    c.expect_exact("against the first bot, seed 193")
    # issue 19 item 19: whose card is whose in the cut for deal
    c.expect_exact("You cut J♥.")
    c.expect_exact("The bot cuts 9♠.")
    c.expect_exact("The bot deals first: 9♠ is lower than J♥ (the lowest card deals).")
    c.expect_exact("You peg three for last.")
    c.expect_exact("Your hand: 5♥ 7♥ 9♥ 10♣ K♦")
    c.expect_exact("Your turn — discard two cards to the bot's crib (e.g. 5H JC), or a number:")
    c.expect_exact("1) 5♥ 7♥  2) 5♥ 9♥  3) 5♥ 10♣  4) 5♥ K♦  5) 7♥ 9♥")  # issue 19 item 18: by rank
    c.expect_exact("> ")
    step(c, "banana", '? unknown card "banana" (type help)', "> ")
    step(c, "AS JC", "? you don't hold A♠ J♣", "> ")
    step(c, "help", "hint ", "undo ", "> ")
    step(c, "tc kd", "You discard 10♣ K♦ to the bot's crib.", "The bot discards 2 cards to its crib.",
         "Starter: Q♥", "Your hand: 5♥ 7♥ 9♥", "> ")  # fmt: skip
    step(c, "10♥", "? you don't hold 10♥", "> ")
    step(c, "5h", "You play 5♥ — count 5.", "The bot plays 7♣ — count 12.", "Count 12: 5♥ 7♣", "> ")
    step(c, "hint", "Hint (the first bot's values, best first):",
         "  value = 1 for the first legal move, 0 for the others")
    c.expect(r"  [12]\) (7♥|9♥)  [+-]\d+\.\d{3}\r\n  [12]\) (7♥|9♥)  [+-]\d+\.\d{3}\r\n> ")
    step(c, "2", "You play 9♥ — count 21.", "The bot plays J♣ — count 31: thirty-one for two.",
         "The play ends: five-card cribbage has a single count (to 31, or until neither can lay a card); "
         "cards still held are not played, only shown.")  # issue 19 item 19
    c.expect_exact("> ")
    step(c, "undo", "Took back your last move and the bot's replies.", "Count 12: 5♥ 7♣", "> ")
    step(c, "7♥", "You play 7♥ — count 19: a pair for two.", "The bot plays J♣ — count 29.", "> ")
    step(c, "9♥", "? 9♥ is not a legal move now (legal: go)", "> ")
    step(c, "go", "You say go.", "The bot says go.", "The bot pegs 1 for the last card.")
    # the show, pone first: 5♥ 7♥ 9♥ + Q♥ is fifteen two and a flush of four; the bot's 7♣ 8♠
    # J♣ + Q♥ fifteen two (7 + 8); its crib 5♣ 6♣ 10♣ K♦ + Q♥ three fifteens (5 with each ten)
    c.expect_exact("Show, your hand: 5♥ 7♥ 9♥ + Q♥: fifteen two, and a flush of four is 6")
    c.expect_exact("Show, the bot's hand: 7♣ 8♠ J♣ + Q♥: fifteen two: 2")  # issue 32: not "fifteen 2"
    c.expect_exact("Show, the bot's crib: 5♣ 6♣ 10♣ K♦ + Q♥: fifteen two, fifteen four, fifteen six: 6")
    c.expect_exact("Score: you 11, the bot 9 (to 61).")  # 3 + 2 + 6; 1 + 2 + 6
    c.expect_exact("── deal 2 · your crib · you 11, the bot 9 (to 61)")
    c.expect_exact("> ")
    step(c, "quit", "Leave the game? [y/N] ")
    step(c, "n", "Playing on.", "> ")
    step(c, "quit", "Leave the game? [y/N] ")
    step(c, "y", "Bye.")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0
    assert "Traceback" not in c.before

    r = spawn("replay", record)
    r.expect_exact("cribbage (variant five-card), seed 193, you against the bot 'first'")
    r.expect_exact("You discard 10♣ K♦ to the bot's crib.")
    r.expect_exact("The bot discards 5♣ 6♣ to its crib.")  # a replay shows every card
    r.expect_exact("You play 5♥ — count 5.")
    r.expect_exact("You play 7♥ — count 19: a pair for two.")  # the 9♥ taken back is not there
    r.expect_exact("Show, the bot's crib: 5♣ 6♣ 10♣ K♦ + Q♥: fifteen two, fifteen four, fifteen six: 6")
    r.expect_exact("(the record ends before the game does)")
    r.expect(pexpect.EOF)
    r.close()
    assert r.exitstatus == 0
    assert "9♥ — count 21" not in r.before


def test_terminal_piquet_deal(tmp_path: Any) -> None:
    record = str(tmp_path / "piquet.jsonl")
    c = spawn("play", "piquet", "--rules", "russian", "--scope", "deal", "--bot", "first", "--seed", "3",
              "--record", record)  # fmt: skip
    c.expect_exact("The bot deals (the lower card); you are elder.")  # draws J♦ (you), 9♦ (the bot)
    c.expect_exact("Your hand: 7♣ 9♣ Q♣   8♦ 9♦ 10♦ A♦   8♥ 9♥ 10♥   7♠ 8♠")
    c.expect_exact("1) exchange 0  2) exchange 3  3) exchange 4  4) exchange 5")
    c.expect_exact("> ")
    step(c, "7D 8H JS", "? you don't hold 7♦ J♠", "> ")
    step(c, "8h", "? you can't exchange 1 card now (you may exchange 0, 3, 4, 5)", "> ")
    step(c, "8s 7c 7s", "You exchange 3 cards.", "You lay out 7♣.", "You lay out 7♠.", "You lay out 8♠.",
         "You take 7♦ from the talon.", "You take K♦ from the talon.", "You take Q♠ from the talon.",
         "The bot keeps the hand (no exchange).")  # fmt: skip
    # 9♣ Q♣ · 7♦ 8♦ 9♦ 10♦ K♦ A♦ · 8♥ 9♥ 10♥ · Q♠: six diamonds (the point, 6), 7-8-9-10 of
    # diamonds (a quart, 14 in the russian game) and 8-9-10 of hearts (a tierce, 13); three nines
    # are no set, and the bot's three jacks are good: 33 to 3
    c.expect_exact("Declarations:")
    for line in ["You: point of six — good, 6.", "You: quart to the ten — good, 14.",
                 "You: tierce to the ten — good, 13.", "The bot: three jacks — good, 3.",
                 "Declared: you 33, the bot 3."]:  # fmt: skip
        c.expect_exact(line)
    c.expect_exact("1) announce capot  2) pass")
    c.expect_exact("> ")
    step(c, "hint", "Hint (the first bot's values, best first):", "  value = ")
    c.expect(r"  [12]\) (announce capot|pass)  [+-]\d+\.\d{3}\r\n  [12]\) (announce capot|pass)  [+-]\d+\.\d{3}\r\n> ")
    step(c, "pass", "You pass.", "The bot announces an open capot!", "Your turn — lead a card:", "> ")
    step(c, "9S", "? you don't hold 9♠", "> ")
    step(c, "A♦", "You lead A♦.", "The bot plays J♦ — you win the trick.", "> ")
    step(c, "undo", "Took back your last move and the bot's replies.", "Tricks: you 0, the bot 0", "> ")
    step(c, "a♦", "You lead A♦.", "> ")
    for _ in range(30):
        c.sendline("1")
        if c.expect_exact(["> ", "Game over: "]) == 1:
            break
    c.expect_exact("the bot")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0
    assert "Traceback" not in c.before

    rows = [json.loads(x) for x in open(record, encoding="utf-8")]
    assert rows[0] == {"cribpiquet": "record", "version": 1, "game": "piquet", "source": "play", "seed": 3,
                       "options": {"rules": "russian", "scope": "deal", "first_dealer": None},
                       "players": ["you", "first"]}  # fmt: skip
    r = spawn("replay", record)
    r.expect_exact("piquet (rules russian, scope deal), seed 3, you against the bot 'first'")
    r.expect_exact("You lay out 8♠.")
    r.expect_exact("You: quart to the ten — good, 14.")
    r.expect_exact("You lead A♦.")
    r.expect_exact("Game over: ")
    r.expect(pexpect.EOF)
    r.close()
    assert r.exitstatus == 0


def test_terminal_end_of_input_and_interrupt() -> None:
    c = spawn("play", "cribbage", "--bot", "first", "--seed", "3")
    c.expect_exact("> ")
    c.sendeof()
    c.expect_exact("Bye (end of input).")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0 and "Traceback" not in c.before
    c = spawn("play", "piquet", "--bot", "first", "--seed", "3")
    c.expect_exact("> ")
    c.sendintr()
    c.expect_exact("Bye (interrupted).")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 130 and "Traceback" not in c.before


def test_cli_errors_are_one_line(tmp_path: Any) -> None:
    c = spawn("play", "cribbage", "--bot", "nope")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 2
    assert c.before.strip() == "cribpiquet: error: unknown bot 'nope': choose greedy, ismcts, random, first, pimc"
    c = spawn("replay", str(tmp_path / "missing.jsonl"))
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 2 and c.before.strip().startswith("cribpiquet: error: cannot read")


# ------------------------------------------------------------------------ narration


GAMES = [
    (cribbage.Game("five-card"), 40),
    (cribbage.Game("six-card"), 8),
    (piquet.Game("russian", scope="deal"), 40),
    (piquet.Game("rubicon", scope="deal"), 40),
    (piquet.Game("russian", scope="partiya"), 2),
]


@pytest.mark.parametrize("game,n", GAMES, ids=lambda g: repr(g) if not isinstance(g, int) else str(g))
def test_narration_agrees_with_the_engine(game: Any, n: int) -> None:
    """Random games: every action narrates without error (both views), the table and the prompt
    print at every decision, the show read aloud is what the engine pegged, and the declarations
    named add up to the points the engine credited."""
    import random

    rng = random.Random(0)
    live, full = play.Narrator(reveal=False), play.Narrator(reveal=True)
    shows = declared = 0
    for _ in range(n):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.current_player() == 0:
                assert play.table(s) and len(play.prompt_lines(s)) == 2
            a = rng.choice(s.legal_actions())
            before = s.clone()
            s.apply_action(a)
            lines = full.lines(before, a, s)
            hidden = live.lines(before, a, s)
            assert all(isinstance(x, str) and "\n" not in x for x in lines + hidden)
            bots_card = before.phase == "discard" and before.current_player() == 1
            if isinstance(s, piquet.State) and before.phase == "draw":
                bots_card = len(s.drawn(1)) > len(before.drawn(1))
            if bots_card:  # the bot's discards and talon cards stay hidden in live play
                assert not any(play.action_label(before, a) in x for x in hidden)
                assert any(play.action_label(before, a) in x for x in lines)  # a replay shows them
            if isinstance(s, cribbage.State) and before.phase == "play" and s.phase != "play" and not s.is_terminal():
                d = play._delta(before, s)
                pone, dealer = 1 - before.dealer, before.dealer
                st = before.starter
                assert d["hand"][pone] == cribbage.score_hand(before.kept(pone), st)
                assert d["hand"][dealer] == cribbage.score_hand(before.kept(dealer), st)
                assert d["crib"][dealer] == cribbage.score_hand(before.crib(), st, crib=True)
                assert sum(x.startswith("Show, ") for x in lines) == 3
                shows += 1
            if isinstance(s, piquet.State) and before.declarations() is None and s.declarations() is not None:
                e, heard = s.elder, s.declarations()
                assert e is not None and heard is not None
                sc = piquet.score_declarations(s.hand(e), s.hand(1 - e), rules=game.rules,
                                               elder_dealt=s.dealt_hand(e), dealer_dealt=s.dealt_hand(1 - e))  # fmt: skip
                for role, seat in (("elder", e), ("dealer", 1 - e)):
                    named = sum(p for r, cat, _, p, _ in sc.items if r == role and cat != "repique")
                    assert named == sum(heard[seat])
                assert "Declarations:" in lines
                declared += 1
    assert shows or declared


def test_record_and_game_errors(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="cannot write the record"):
        play.Recorder(str(tmp_path / "no" / "such" / "dir.jsonl"), {})
    with pytest.raises(ValueError, match="two-player games"):
        play.make_game("cribbage", {"variant": "four-player"})
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        play.make_game("chess", {})


def test_declarations_read_with_equal_categories() -> None:
    """Elder (the bot, seat 1) and the dealer (you) hold equal points (four cards worth 34) and
    equal sequences (tierces to the nine): neither scores them; three jacks beat three tens."""
    s = piquet.Game("russian", scope="deal").new_initial_state()
    for a in ids(piquet, "8C AC"):  # 8C is lower: seat 0 deals, seat 1 is elder
        s.apply_action(a)
    elder = ids(piquet, "7H 8H 9H JH 7C 9C JC 7D 9D JD TS KS")
    dealer = ids(piquet, "7S 8S 9S JS 8C TC QC 8D TD QD TH KH")
    for e, d in zip(elder, dealer):  # one card at a time, elder first
        s.apply_action(e)
        s.apply_action(d)
    assert sorted(s.hand(1)) == sorted(elder) and sorted(s.hand(0)) == sorted(dealer)
    s.apply_action(32)  # elder keeps his hand
    before = s.clone()
    s.apply_action(32)  # so does the dealer: the declarations follow
    lines = play.Narrator(reveal=False).lines(before, 32, s)
    assert lines == [
        "You keep the hand (no exchange).",
        "Declarations:",
        "  The bot: three jacks — good, 3.",
        "  Point: equal, nobody scores.",
        "  Sequences: equal, nobody scores.",
        "  Declared: you 0, the bot 3.",
    ]


# ------------------------------------------------------------------- issue 19 (play side)


def test_terminal_piquet_exchange_one_card_at_a_time_and_the_hint_names_the_cards() -> None:
    # items 16 and 19: the draw for deal says whose card is whose; after 'exchange 3' the cards
    # are chosen one or more at a time, in any order (9♠ before 8♥ 8♠), and laid out in the
    # engine's order; the hint names the cards (of the 3-card exchanges, the best exact expected
    # declarations: Q♣ 7♠ 8♠, as `cribpiquet piquet exchange` ranks them)
    a = piquet.analyze_exchange("7C 9C QC 8D 9D TD AD 8H 9H TH 7S 8S", samples=0)
    assert next(r for r in a.rows if len(r.discard) == 3).discard_text() == "QC 7S 8S"
    c = spawn("play", "piquet", "--bot", "first", "--seed", "3")
    c.expect_exact("You draw J♦.")
    c.expect_exact("The bot draws 9♦.")
    c.expect_exact("The bot deals (the lower card); you are elder.")
    c.expect_exact("> ")
    step(c, "hint", "Hint (the first bot's values, best first):", "  value = 1 for the first legal move, 0 for the others",
         "  1) exchange 0  +1.000", "  2) exchange 3  +0.000   lay out Q♣ 7♠ 8♠", "> ")
    step(c, "exchange 3", "You exchange 3 cards.", "choose the cards to lay out, in any order, one or more at a time",
         "1) 7♣  2) 9♣  3) Q♣", "> ")
    step(c, "hint", "Hint: lay out Q♣ 7♠ 8♠ (of the 3-card exchanges", "> ")
    step(c, "8S", "Set aside 8♠: 2 more to choose.", "Set aside to lay out: 8♠ (2 more to choose)",
         "Your hand: 7♣ 9♣ Q♣   8♦ 9♦ 10♦ A♦   8♥ 9♥ 10♥   7♠", "> ")
    step(c, "8s", "? 8♠ is already set aside (undo takes the cards set aside back)", "> ")
    step(c, "qc 7s", "You lay out Q♣.", "You lay out 7♠.", "You lay out 8♠.", "You take 7♦ from the talon.")
    c.expect_exact("> ")
    c.sendline("quit")
    step(c, "y", "Bye.")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0 and "Traceback" not in c.before


def test_show_lists_the_tricks_so_far(tmp_path: Any) -> None:
    # item 19: the same deal as above (seed 3, the first bot); after two tricks 'show' lists them
    lines = ["exchange 3", "8S", "qc 7s", "2", "1", "1", "show"]
    _, _, out = run_session(tmp_path, "piquet", {"rules": "russian", "scope": "deal"}, lines)
    i = out.index("Tricks so far:")
    assert out[i + 1 : i + 4] == ["   1. you led 7♣, the bot played 8♣: the bot won",
                                  "   2. the bot led 10♣, you played 9♣: the bot won", "Tricks: you 0, the bot 2"]
    assert out.count("Tricks so far:") == 1  # only on request


def test_the_last_trick_is_told_as_the_rules_count_it() -> None:
    # item 19: russian counts the last trick 4 instead of 1; the narration says 3 more, and why
    narrator = play.Narrator(reveal=True)
    found = []
    for seed in range(40):
        s = piquet.Game("russian", scope="deal").new_initial_state()
        rng = __import__("random").Random(seed)
        while not s.is_terminal():
            before = s.clone()
            a = rng.choice(s.legal_actions())
            s.apply_action(a)
            found += [ln for ln in narrator.lines(before, a, s) if "for the last trick" in ln]
        if found:
            break
    assert found and found[0].endswith(" 3 more for the last trick (the last trick counts 4 instead of 1).")


def test_a_partiya_draws_again_with_the_right_seats() -> None:
    # the draw before the second korolik comes after an odd number of actions as often as not:
    # whose card it is comes from the engine's cut_cards (seat 0 draws first), not the history
    narrator = play.Narrator(reveal=True)
    rng = __import__("random").Random(0)
    checked = 0
    while checked < 20:
        s = piquet.Game("russian", scope="partiya").new_initial_state()
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            before = s.clone()
            s.apply_action(a)
            if before.phase == "cut" and before.deals:
                seat = before.cut_cards().index(None)
                first = narrator.lines(before, a, s)[0]
                assert first.startswith("You draw" if seat == 0 else "The bot draws"), first
                checked += len(before.history()) % 2


def test_the_largest_seed_plays_and_a_strange_line_reprompts(tmp_path: Any) -> None:
    # items 10 and 11: seed 2**64 - 1 (the hint bot's is seed + 1 wrapped, not an error); '²' and
    # a 5,000-digit line re-prompt instead of ending the game
    c = spawn("play", "cribbage", "--bot", "random", "--seed", str(2**64 - 1))
    c.expect_exact(f"seed {2**64 - 1}. Type help")
    c.expect_exact("> ")
    step(c, "²", '? unknown card "²" (type help)', "> ")
    step(c, "hint", "Hint (the random bot's values, best first; hint all: all 15):",
         "  value = 1/n for each of the n moves (the random bot prefers none)", "> ")
    step(c, "quit", "Leave the game? [y/N] ")
    step(c, "y", "Bye.")
    c.expect(pexpect.EOF)
    c.close()
    assert c.exitstatus == 0 and "Traceback" not in c.before
    _, _, out = run_session(tmp_path, "cribbage", {"variant": "five-card"}, ["9" * 5000, "quit", "y"])
    assert "? there is no move 999999999999999999999999999999…: choose 1 to 10" in out


def spawn_env(extra: dict[str, str], *args: str) -> Any:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update({"PYTHONIOENCODING": "utf-8", "COLUMNS": "200", "TERM": "xterm-256color", **extra})
    return pexpect.spawn(sys.executable, ["-c", WRAPPER, *args], env=env, encoding="utf-8", timeout=30,
                         dimensions=(50, 200))


def test_red_suits_in_colour_unless_no_color_and_ascii_without_symbols() -> None:
    # item 18: J♥ is red on a colour terminal, plain with NO_COLOR, ASCII on an ASCII terminal
    args = ("play", "cribbage", "--variant", "five-card", "--bot", "first", "--seed", "193")
    c = spawn_env({}, *args)
    c.expect_exact("You cut \x1b[31mJ♥\x1b[0m.")
    c.expect_exact("Your hand: \x1b[31m5♥\x1b[0m \x1b[31m7♥\x1b[0m \x1b[31m9♥\x1b[0m 10♣ \x1b[31mK♦\x1b[0m")
    c.close(force=True)
    c = spawn_env({"NO_COLOR": "1"}, *args)
    c.expect_exact("Your hand: 5♥ 7♥ 9♥ 10♣ K♦")
    assert "\x1b[31m" not in c.before
    c.close(force=True)
    c = spawn_env({"NO_COLOR": "1", "PYTHONIOENCODING": "ascii"}, *args)
    c.expect_exact("Your hand: 5H 7H 9H TC KD")
    c.expect_exact("1) 5H 7H  2) 5H 9H")
    c.close(force=True)


def test_a_line_that_is_not_text_reprompts(tmp_path: Any) -> None:
    # item 10's sibling: input() of bytes the terminal's encoding cannot decode asks again
    feed = iter(["\udcff", "quit", "y"])

    def read(prompt: str) -> str:
        text = next(feed)
        if text == "\udcff":
            raise UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")
        return text

    out: list[str] = []
    header = {"cribpiquet": "play", "game": "cribbage", "options": {}, "seed": 3, "bot": "first", "you": 0}
    session = play.Session(cribbage.Game("five-card"), FirstBot(), FirstBot(), 3,
                           play.Recorder(str(tmp_path / "r.jsonl"), header), read, out.append)
    assert session.run() == 0
    assert "? that line is not text in the terminal's encoding (type help)" in out and out[-1] == "Bye."
