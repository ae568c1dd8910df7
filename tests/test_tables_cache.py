"""Issue 30, item 7: PIMC's inference tables and the bots' win table kept in the user's cache
directory (``rust/cache.rs``, ``rust/cribbage/tables_cache.rs``, ``rust/eval/winprob.rs``). Each check runs fresh processes with ``CRIBPIQUET_CACHE_DIR``
set to a directory of the test's own: the first computes and saves the tables, the next read
them back, and every process decides exactly as one that computed them (``off``: no cache). A
damaged, truncated, forged or misplaced file, a pipe in its place, a directory that cannot be
made: the decision is the same, nothing crashes or hangs, and a bad file is replaced by a good
one. The fuzz cases use fixed seeds."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

# A fresh process: the inference's values at a first pegging decision (the opponent's discard
# seen, so every world is weighed by the tables), to the bit, and the first decision's seconds.
CHILD = r"""
import json, sys, time
from cribpiquet import bots, cribbage
s = cribbage.Game(sys.argv[1]).new_initial_state()
k = 0
while s.phase != "play" or s.is_chance_node():
    legal = s.legal_actions()
    s.apply_action(legal[k % len(legal)])
    k += 7
t = time.perf_counter()
values = bots.PIMC(seed=1, worlds=20).action_values(s)
first = time.perf_counter() - t
print(json.dumps({"values": {str(a): v.hex() for a, v in values.items()}, "first": first}))
"""


def decide(variant: str, cache) -> dict:
    env = dict(os.environ, CRIBPIQUET_CACHE_DIR=str(cache))
    r = subprocess.run([sys.executable, "-c", CHILD, variant], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""  # a bad cache is never reported as an error or a warning
    return json.loads(r.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def computed() -> dict:
    """The values of a process that computes the tables (no cache), per variant."""
    return {variant: decide(variant, "off")["values"] for variant in ("five-card", "six-card")}


def cache_file(cache: Path, variant: str, what: str = "inference-tables") -> Path:
    (found,) = cache.glob(f"{what}-{variant}-*.bin")
    assert len(found.name.rsplit("-", 1)[1]) == 16 + 4  # the build's key
    return found


def win_table(cache: Path, variant: str) -> Path:
    return cache_file(cache, f"{variant}-{ {'five-card': 61, 'six-card': 121}[variant]}", "win-table")


@pytest.mark.parametrize("variant", ["five-card", "six-card"])
def test_a_saved_file_is_read_back_and_decides_as_the_computation(tmp_path, computed, variant):
    cache = tmp_path / "cache"
    assert decide(variant, cache)["values"] == computed[variant]  # computes, saves
    saved, win = cache_file(cache, variant), win_table(cache, variant)
    size = saved.stat().st_size
    assert sorted(cache.iterdir()) == sorted([saved, win])  # no temporary file left behind
    again = decide(variant, cache)  # reads
    assert again["values"] == computed[variant]
    assert saved.stat().st_size == size and sorted(cache.iterdir()) == sorted([saved, win])


def test_off_or_empty_keeps_no_file(tmp_path, computed):
    for value in ("off", ""):
        env = dict(os.environ, CRIBPIQUET_CACHE_DIR=value)
        r = subprocess.run([sys.executable, "-c", CHILD, "five-card"], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=600)  # fmt: skip
        assert r.returncode == 0, r.stderr
        assert json.loads(r.stdout.splitlines()[-1])["values"] == computed["five-card"]
    assert list(tmp_path.iterdir()) == []  # not even "off" or "" made into a directory


def damaged(good: bytes, rng: random.Random, case: int) -> bytes:
    """The saved bytes, damaged one of several ways (by `case`), at `rng`'s places."""
    kind = case % 6
    at = rng.randrange(len(good))
    if kind == 0:  # a flipped bit
        return good[:at] + bytes([good[at] ^ (1 << rng.randrange(8))]) + good[at + 1:]
    if kind == 1:  # cut short
        return good[:at]
    if kind == 2:  # junk spliced in
        return good[:at] + rng.randbytes(rng.randrange(1, 64)) + good[at:]
    if kind == 3:  # random bytes of the same length
        return rng.randbytes(len(good))
    if kind == 4:  # the same file twice
        return good + good
    return b""  # empty


@pytest.mark.parametrize("case", range(12))
def test_fuzz_a_damaged_file_is_recomputed_and_replaced(tmp_path, computed, case):
    rng = random.Random(3070 + case)
    cache = tmp_path / "cache"
    decide("five-card", cache)
    saved = cache_file(cache, "five-card") if case < 6 else win_table(cache, "five-card")
    good = saved.read_bytes()
    bad = damaged(good, rng, case)
    assert bad != good
    saved.write_bytes(bad)
    out = decide("five-card", cache)
    assert out["values"] == computed["five-card"]
    assert saved.read_bytes() == good  # recomputed, saved whole over the bad file


def test_another_variants_file_under_this_name_is_refused(tmp_path, computed):
    cache = tmp_path / "cache"
    decide("six-card", cache)
    six = cache_file(cache, "six-card")
    five = cache / six.name.replace("six-card", "five-card")
    five.write_bytes(six.read_bytes())
    assert decide("five-card", cache)["values"] == computed["five-card"]
    assert five.read_bytes() != six.read_bytes()  # replaced by the five-card tables


def test_a_cache_that_cannot_be_made_or_written_costs_only_the_computation(tmp_path, computed):
    plain = tmp_path / "plain"
    plain.write_text("a file, not a directory")
    # a directory that cannot be created (under a file), twice: computed each time, no error
    for _ in range(2):
        assert decide("five-card", plain / "cache")["values"] == computed["five-card"]
    assert plain.read_text() == "a file, not a directory"
    # a file where the cache directory should be
    assert decide("five-card", plain)["values"] == computed["five-card"]
    # a directory where the file should be: not read, not removed
    cache = tmp_path / "cache"
    decide("five-card", cache)
    saved = cache_file(cache, "five-card")
    saved.unlink()
    saved.mkdir()
    assert decide("five-card", cache)["values"] == computed["five-card"]
    assert saved.is_dir()
    if os.name == "posix" and os.geteuid() != 0:  # (root writes through permissions)
        ro = tmp_path / "read-only"
        ro.mkdir()
        ro.chmod(0o555)
        try:
            assert decide("five-card", ro)["values"] == computed["five-card"]
            assert list(ro.iterdir()) == []
        finally:
            ro.chmod(0o755)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_pipe_in_place_of_the_file_does_not_hang_the_decision(tmp_path, computed):
    cache = tmp_path / "cache"
    decide("five-card", cache)
    saved = cache_file(cache, "five-card")
    good = saved.read_bytes()
    saved.unlink()
    os.mkfifo(saved)
    assert decide("five-card", cache)["values"] == computed["five-card"]  # timeout=600 if it hung
    assert saved.read_bytes() == good  # the pipe replaced by the file
