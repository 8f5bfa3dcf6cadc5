"""Bad input raises ValueError or TypeError in the command line's words,
and nothing crashes on any argument."""
import itertools

import pytest

import nqueens


@pytest.mark.parametrize("call, error, words", [
    (lambda: nqueens.count(0), ValueError,
     "N must be a whole number from 1 to 32, not '0'"),
    (lambda: nqueens.count(33), ValueError, "from 1 to 32, not '33'"),
    (lambda: nqueens.count(8, engine="foo"), ValueError,
     "unknown engine 'foo' (engines: brute, backtrack"),
    (lambda: nqueens.count(27, engine="brute"), ValueError,
     "engine 'brute' takes N from 1 to 26, not 27"),
    (lambda: nqueens.count(8, threads=0), ValueError,
     "threads takes a whole number from 1 to 1024, not 0"),
    (lambda: nqueens.count(8, part="1/2"), ValueError,
     "part needs checkpoint=FILE"),
    (lambda: nqueens.count(8, part="3/2", checkpoint="x"), ValueError,
     "part takes K/M with 1 <= K <= M"),
    (lambda: nqueens.count(8, engine="bitmap", checkpoint="x"), ValueError,
     "engine 'bitmap' does not split the board into units"),
    (lambda: nqueens.count(8, kernel="mmx"), ValueError, "unknown kernel"),
    (lambda: list(nqueens.solutions(8, engine="fast")), ValueError,
     "engine 'fast' cannot list solutions (engines that can: brute, "
     "backtrack, flags, bitmap)"),
    (lambda: list(nqueens.trace(6, engine="fast")), ValueError,
     "engine 'fast' cannot show its search step by step (engines that "
     "can: brute, backtrack, flags, bitmap, mirror, symmetry)"),
    (lambda: nqueens.trace(6, limit=0), ValueError, "limit takes"),
    (lambda: nqueens.count("8"), TypeError, "N must be a whole number"),
    (lambda: nqueens.count(8.0), TypeError, "N must be a whole number"),
    (lambda: nqueens.count(True), TypeError, "N must be a whole number"),
    (lambda: nqueens.count(8, engine=None), TypeError, "engine must be"),
    (lambda: nqueens.count(8, threads=1.5), TypeError, "threads must be"),
    (lambda: nqueens.count(8, part=[1, 2], checkpoint="x"), TypeError,
     "part must be"),
    (lambda: nqueens.count(8, checkpoint=""), ValueError, "checkpoint"),
    (lambda: nqueens.estimate(8, seconds=-1), ValueError, "seconds takes"),
])
def test_words(call, error, words):
    with pytest.raises(error) as e:
        call()
    assert words in str(e.value)


def test_unreadable_checkpoint(tmp_path):
    with pytest.raises(OSError):
        nqueens.count(10, checkpoint=tmp_path / "no" / "such" / "dir")
    bad = tmp_path / "bad.ckpt"
    bad.write_text("not a journal\n")
    with pytest.raises(ValueError):
        nqueens.count(10, checkpoint=bad)


ODD = [None, -1, 0, 1, 2 ** 70, -2 ** 70, 1.5, float("nan"), "", "fast",
       "1/0", "a\0b", b"x", (1,), (0, 0), [], object()]


def test_nothing_crashes(tmp_path, monkeypatch):
    """Every function with odd values in every place: an exception of the
    documented kinds, or a result (checkpoints named by the odd values
    land in a folder of the test's own)."""
    monkeypatch.chdir(tmp_path)
    calls = [
        lambda a, b: nqueens.count(a, engine=b) if b is not None else
        nqueens.count(a),
        lambda a, b: nqueens.count(5, threads=a, part=b),
        lambda a, b: nqueens.count(5, checkpoint=a, max_units=b),
        lambda a, b: nqueens.estimate(a, part=b),
        lambda a, b: list(nqueens.solutions(a, engine=b)) if b else
        list(nqueens.solutions(min(a, 6) if isinstance(a, int) else a)),
        lambda a, b: list(nqueens.trace(a, limit=b)),
        lambda a, b: nqueens.count(5, kernel=a, force=b),
    ]
    for call, (a, b) in itertools.product(calls, itertools.product(ODD,
                                                                   ODD)):
        try:
            call(a, b)
        except (ValueError, TypeError, OSError):
            pass
