"""Ctrl-C: KeyboardInterrupt within a second, through the library's stop
flag, in a process of its own (SIGINT sent as a terminal sends it)."""
import os
import signal
import subprocess
import sys
import time

import pytest

import nqueens

CHILD = r"""
import sys, time, nqueens
print("ready", flush=True)
try:
    %s
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def interrupt(body, after=1.0):
    """Run body in a child, SIGINT it `after` seconds in; the seconds from
    the signal to its word, and the word."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(sys.path)
    p = subprocess.Popen([sys.executable, "-c", CHILD % body], env=env,
                         stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "ready"
        time.sleep(after)
        t0 = time.monotonic()
        p.send_signal(signal.SIGINT)
        word = p.stdout.readline().strip()
        took = time.monotonic() - t0
        p.wait(timeout=30)
    finally:
        p.kill()
    return took, word


@pytest.mark.parametrize("body", [
    "nqueens.count(21, force=True)",                  # fast's units
    "nqueens.count(20, engine='carry', force=True)",  # carry's plan
    "nqueens.estimate(24, seconds=60)",               # the sampling
    "nqueens.count(17, engine='backtrack', force=True)",  # no stop flag
    "list(nqueens.solutions(20))",                    # a listing
    "list(nqueens.trace(16, engine='brute'))",        # a walk
])
def test_ctrl_c(body):
    took, word = interrupt(body)
    assert word == "interrupted"
    assert took < 1.0, "KeyboardInterrupt came %.2f s after SIGINT" % took


def test_checkpoint_keeps_units(tmp_path):
    path = tmp_path / "n21.ckpt"
    took, word = interrupt("nqueens.count(21, checkpoint=%r, force=True)"
                           % str(path), after=2.0)
    assert word == "interrupted" and took < 1.0
    c = nqueens.count(21, checkpoint=path, max_units=1, force=True)
    assert c.recorded >= 1 and not c.complete
