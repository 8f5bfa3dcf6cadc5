"""trace(): the steps `nqueens trace 6 --json` prints, for every engine
that reports its steps (the teaching engines), field for field and text
for text."""
import json
import subprocess

import pytest

import nqueens

TEACHING = [e.name for e in nqueens.engines() if e.steps]


def test_teaching_engines_listed():
    assert set(TEACHING) >= {"brute", "backtrack", "flags", "bitmap",
                             "mirror", "symmetry"}


@pytest.mark.parametrize("engine", TEACHING)
def test_steps_as_the_cli_prints_them(cli, engine):
    out = subprocess.run([cli, "trace", "6", "--engine", engine, "--json",
                          "--limit", "10000000"], capture_output=True,
                         text=True, check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    steps = [s for s in lines if s["type"] == "step"]
    summary = lines[-1]
    ours = list(nqueens.trace(6, engine=engine))
    assert len(ours) == len(steps) == summary["steps"]
    for a, b in zip(steps, ours):
        assert (a["step"], a["event"], a["row"], a["col"], tuple(a["queens"]),
                a["text"]) == (b.step, b.event, b.row, b.col, b.queens,
                               b.text)
    assert sum(s.event == "solution" for s in ours) == summary["solutions"]


def test_limit_and_fields():
    steps = list(nqueens.trace(4, limit=3))
    assert [s.event for s in steps] == ["place", "reject", "reject"]
    assert steps[1].reason == ("column",) and steps[1].by_row == 0
    flags = next(nqueens.trace(4, engine="flags"))
    assert flags.flags == ("1000", "0001000", "1000000")
    bits = next(nqueens.trace(4, engine="bitmap"))
    assert bits.masks.free == 0b1111 and bits.masks.to_try == 0b1111


def test_one_based():
    s = next(nqueens.trace(4, one_based=True))
    assert (s.row, s.col, s.queens) == (1, 1, (1,))
    assert s.text == "     1  place     row 1 col 1  queens 1"


def test_step_svg():
    s = list(nqueens.trace(4, limit=2))[1]
    svg = s._repr_svg_()
    assert svg.startswith("<svg") and "#d22" in svg
