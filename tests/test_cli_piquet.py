"""The ``cribpiquet piquet declare`` / ``piquet compare`` commands (issue 3 item 8), run both as
``python -m cribpiquet`` in a subprocess and through ``cribpiquet.cli.main`` in-process.

Every expected output is counted by hand from docs/rules/piquet.md §3–§4 (comments below); bad input
prints one line to stderr and exits with status 2 (the cli module's docstring).
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from cribpiquet.cli import main

DOC_E = "AH KH QH JH TH 7H AC AD AS 7C 8C 7D".split()
DOC_D = "9H 8H 9C TC JC QC KD QD JD 8S 9S TS".split()

# Elder: point of six 7H T J Q K A (7 + 10 × 4 + 11 = 58), quint major T-A (15), fourteen aces (14):
# 35; the dealer's quart 9-Q of clubs and tierces lose, no set → repique (rules §4): 95.
DECLARE_DOC = [
    "hand: 7C 8C AC 7D AD 7H TH JH QH KH AH AS",
    "point of six: 6 cards, value 58 (7H TH JH QH KH AH)",
    "quint major: 15 (TH JH QH KH AH)",
    "fourteen aces: 14 (AC AD AH AS)",
]
COMPARE_DOC = [
    "Point of six — good, 6 (elder); quint major — good, 15 (elder); fourteen aces — good, 14 (elder); "
    "repique, 60 (elder). Elder 95, dealer 0.",
    "carte blanche: nobody (elder 0, dealer 0)",
    "point: elder (elder 6, dealer 0)",
    "sequences: elder (elder 15, dealer 0)",
    "sets: elder (elder 14, dealer 0)",
    "repique: elder",
    "totals: elder 95, dealer 0",
]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cribpiquet", *args], capture_output=True, text=True, timeout=120, encoding="utf-8"
    )


def assert_one_line_error(stderr: str, *needles: str) -> None:
    lines = stderr.strip("\n").split("\n")
    assert len(lines) == 1, stderr
    assert lines[0].startswith("cribpiquet: error: "), stderr
    assert "Traceback" not in stderr
    for needle in needles:
        assert needle in lines[0], (needle, stderr)


# ------------------------------------------------------------------------------------ declare


def test_declare_subprocess():
    p = run("piquet", "declare", *DOC_E)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == DECLARE_DOC
    assert p.stderr == ""


def test_declare_main(capsys):
    assert main(["piquet", "declare", *DOC_E]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == DECLARE_DOC
    assert err == ""


def test_declare_any_spelling(capsys):
    # rules §1 text forms: symbols, 10, lower case — the same hand.
    assert main(["piquet", "declare", *"a♥ k♥ q♥ j♥ 10♥ 7♥ ac ad as 7c 8c 7d".split()]) == 0
    assert capsys.readouterr().out.splitlines() == DECLARE_DOC


def test_declare_carte_blanche_and_two_equal_sequences(capsys):
    # 7 8 9 10 A of hearts and of clubs, 7D 8D: no K, Q, J → carte blanche 10. Points 5 cards, 45
    # each: the lower suit (clubs) is named (declare.rs decision). Two quarts to the ten (14 each),
    # clubs first; no set (two aces, two tens).
    assert main(["piquet", "declare", *"7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D".split()]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "hand: 7C 8C 9C TC AC 7D 8D 7H 8H 9H TH AH",
        "point of five: 5 cards, value 45 (7C 8C 9C TC AC)",
        "quart to the ten: 14 (7C 8C 9C TC)",
        "quart to the ten: 14 (7H 8H 9H TH)",
        "no set",
        "carte blanche: 10",
    ]


def test_declare_rubicon(capsys):
    # rules §3.3 table: a rubicon quart is 4.
    assert main(["piquet", "declare", *"7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D".split(), "--rules", "rubicon"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:4] == ["quart to the ten: 4 (7C 8C 9C TC)", "quart to the ten: 4 (7H 8H 9H TH)"]


def test_declare_carte_blanche_judged_on_dealt(capsys):
    # rules §3.1: after taking KD QD JD (for AC 7D 8D) the hand has courts, but the dealt hand had none.
    after = "7H 8H 9H TH AH 7C 8C 9C TC KD QD JD".split()
    dealt = "7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D".split()
    assert main(["piquet", "declare", *after]) == 0
    assert "carte blanche: 10" not in capsys.readouterr().out
    assert main(["piquet", "declare", *after, "--dealt", *dealt]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "carte blanche: 10"


def test_declare_nothing(capsys):
    # 7 9 J K of clubs, 7 9 J of diamonds, 7 9 of hearts and 7 9 A of spades: no run of 3 and only
    # pairs from the ten up. The point: clubs 7 + 9 + 10 + 10 = 36.
    assert main(["piquet", "declare", *"7C 9C JC KC 7D 9D JD 7H 9H 7S 9S AS".split()]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "hand: 7C 9C JC KC 7D 9D JD 7H 9H 7S 9S AS",
        "point of four: 4 cards, value 36 (7C 9C JC KC)",
        "no sequence",
        "no set",
    ]


# ------------------------------------------------------------------------------------ compare


def test_compare_subprocess():
    p = run("piquet", "compare", "--elder", *DOC_E, "--dealer", *DOC_D)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == COMPARE_DOC
    assert p.stderr == ""


def test_compare_main(capsys):
    assert main(["piquet", "compare", "--elder", *DOC_E, "--dealer", *DOC_D]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines() == COMPARE_DOC
    assert err == ""


QUART_E = "QH KH AH 7C 9C JC 7D 9D JD 7S 9S KS".split()
QUART_D = "8H 9H TH JH 8C TC QC 8D TD TS JS QS".split()


def test_compare_quart_from_the_jack_russian(capsys):
    # Source: a tierce major loses to a quart even from the jack. The dealer: point 8 9 T J of
    # hearts (4), quart to the jack 14 + tierce to the queen 13, fourteen tens 14 = 45, elder
    # nothing → repique 105.
    assert main(["piquet", "compare", "--elder", *QUART_E, "--dealer", *QUART_D]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Point of four — good, 4 (dealer); quart to the jack — good, 14 (dealer); tierce to the queen, 13 (dealer); "
        "fourteen tens — good, 14 (dealer); repique, 60 (dealer). Elder 0, dealer 105.",
        "carte blanche: nobody (elder 0, dealer 0)",
        "point: dealer (elder 0, dealer 4)",
        "sequences: dealer (elder 0, dealer 27)",
        "sets: dealer (elder 0, dealer 14)",
        "repique: dealer",
        "totals: elder 0, dealer 105",
    ]


def test_compare_quart_from_the_jack_rubicon_subprocess():
    # rubicon: quart 4 + tierce 3 → 4 + 7 + 14 = 25 < 30: no repique.
    p = run("piquet", "compare", "--elder", *QUART_E, "--dealer", *QUART_D, "--rules", "rubicon")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "Point of four — good, 4 (dealer); quart to the jack — good, 4 (dealer); tierce to the queen, 3 (dealer); "
        "fourteen tens — good, 14 (dealer). Elder 0, dealer 25.",
        "carte blanche: nobody (elder 0, dealer 0)",
        "point: dealer (elder 0, dealer 4)",
        "sequences: dealer (elder 0, dealer 7)",
        "sets: dealer (elder 0, dealer 14)",
        "repique: none",
        "totals: elder 0, dealer 25",
    ]


def test_compare_repique_blocked_by_carte_blanche(capsys):
    # rules §4: elder 7 + 17 + 17 = 41, but the dealer's carte blanche (10) blocks the repique.
    e = "AH KH QH JH TH 9H AC AD AS KC KD 8H".split()
    d = "7C 8C 9C TC 7D 8D 9D TD 7S 8S 9S TS".split()
    assert main(["piquet", "compare", "--elder", *e, "--dealer", *d]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Carte blanche — 10 (dealer); point of seven — good, 7 (elder); septième major — good, 17 (elder); "
        "fourteen aces — good, 14 (elder); three kings, 3 (elder). Elder 41, dealer 10.",
        "carte blanche: dealer (elder 0, dealer 10)",
        "point: elder (elder 7, dealer 0)",
        "sequences: elder (elder 17, dealer 0)",
        "sets: elder (elder 17, dealer 0)",
        "repique: none",
        "totals: elder 41, dealer 10",
    ]


def test_compare_rubicon_reckoning_order_repique(capsys):
    # rules §4 rubicon: 8 + 18 + 4 = 30 at the end of the sequences, before the dealer's sets (9).
    e = "7H 8H 9H TH JH QH KH AH 7C 8C 9C TC".split()
    d = "AC KC QC AD KD QD AS KS QS JC 7D 7S".split()
    assert main(["piquet", "compare", "--elder", *e, "--dealer", *d, "--rules", "rubicon"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["repique: elder", "totals: elder 90, dealer 9"]
    assert main(["piquet", "compare", "--elder", *e, "--dealer", *d]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2:] == ["repique: none", "totals: elder 40, dealer 9"]


# ---------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "args,needles",
    [
        (["piquet", "declare", "AH", "KH", "5H"], ['unknown card "5H"']),
        (["piquet", "declare", "AH", "KH", "QH"], ["a hand must have 12 cards, got 3"]),
        (["piquet", "declare", *DOC_E[:11], "AH"], ["duplicate card AH"]),
        (["piquet", "declare", *DOC_E, "--dealt", "AH"], ["a dealt hand must have 12 cards, got 1"]),
        # issue 8.5: a dealt hand that cannot have produced the hand (2 cards exchanged; 12)
        (["piquet", "declare", *"7H 8H 9H TH AH 7C 8C 9C TC AC KD QD".split(), "--dealt",
          *"7H 8H 9H TH AH 7C 8C 9C TC AC 7D 8D".split()],
         ["the hand cannot come from the dealt hand", "2 cards that were not dealt"]),
        (["piquet", "declare", *DOC_E, "--dealt", *DOC_D], ["12 cards that were not dealt"]),
        (["piquet", "compare", "--elder", *DOC_E, "--dealer", "AH", *DOC_D[1:]], ["duplicate card AH"]),
        (["piquet", "compare", "--elder", *DOC_E, "--dealer", *DOC_D[:11]], ["got 11"]),
        (["piquet", "compare", "--elder", *DOC_E, "--dealer", "1H", *DOC_D[1:]], ['unknown card "1H"']),
    ],
    ids=["unknown-card", "three-cards", "duplicate", "dealt-size", "dealt-two-exchanged", "dealt-disjoint",
         "shared-card", "eleven", "one-of-hearts"],
)
def test_bad_cards_one_line_exit_2_subprocess(args, needles):
    p = run(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert_one_line_error(p.stderr, *needles)


@pytest.mark.parametrize(
    "args,needles",
    [
        (["piquet", "compare", "--elder", *DOC_E, "--dealer", *DOC_D, "--rules", "whist"], ["--rules", "whist"]),
        (["piquet", "compare", "--elder", *DOC_E], ["--dealer"]),
        (["piquet", "declare"], ["cards"]),
        (["piquet"], []),
        (["piquet", "shuffle"], ["shuffle"]),
    ],
    ids=["bad-rules", "no-dealer", "no-cards", "no-subcommand", "unknown-subcommand"],
)
def test_bad_usage_one_line_exit_2_subprocess(args, needles):
    p = run(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert_one_line_error(p.stderr, *needles)


def test_bad_card_main_returns_2(capsys):
    assert main(["piquet", "declare", *DOC_E[:11], "6H"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert_one_line_error(err, 'unknown card "6H"')


def test_bad_usage_main_exits_2(capsys):
    with pytest.raises(SystemExit) as e:
        main(["piquet", "declare", *DOC_E, "--rules", "bogus"])
    assert e.value.code == 2
    assert_one_line_error(capsys.readouterr().err, "bogus")
