"""count(), estimate() and engines() against the facts: OEIS A000170
(total solutions, N = 1..16) and A002562 (unique solutions, classes
under the 8 symmetries of the square)."""
import os

import pytest

import nqueens

# OEIS A000170: 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712,
# 365596, 2279184, 14772512 (N = 1..16).
TOTAL = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
         2279184, 14772512]
# OEIS A002562: 1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752,
# 285053, 1846955 (N = 1..16).
UNIQUE = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053,
          1846955]


@pytest.mark.parametrize("n", range(1, 17))
def test_fast_against_oeis(n):
    c = nqueens.count(n)
    assert (c.total, c.unique) == (TOTAL[n - 1], UNIQUE[n - 1])
    assert type(c.total) is int and c.seconds >= 0 and c.engine == "fast"


# Each engine up to the N its whole run takes well under a second here.
SMALL = {"brute": 7, "backtrack": 9, "flags": 9, "bitmap": 11, "mirror": 11,
         "symmetry": 11, "carry": 11, "subunits": 12}


@pytest.mark.parametrize("engine", sorted(SMALL))
def test_every_engine_against_oeis(engine):
    for n in range(1, SMALL[engine] + 1):
        c = nqueens.count(n, engine=engine)
        assert (c.total, c.unique) == (TOTAL[n - 1], UNIQUE[n - 1]), (engine,
                                                                      n)


def test_threads_and_kernel():
    assert nqueens.count(12, threads=1).threads == 1
    assert nqueens.count(12, threads=3).total == 14200
    assert nqueens.count(12, kernel="scalar").total == 14200


def test_count_result():
    c = nqueens.count(8, engine="bitmap")
    assert c.complete and c.n == 8 and c.nodes > 0
    assert "total=92" in repr(c) and "<table>" in c._repr_html_()
    assert c == nqueens.count(8)


def test_engines():
    es = nqueens.engines()
    names = [e.name for e in es]
    assert names[:6] == ["brute", "backtrack", "flags", "bitmap", "mirror",
                         "symmetry"]
    assert "fast" in names
    fast = es[names.index("fast")]
    assert fast.units and not fast.lists and fast.max_n == 32
    assert all(e.summary for e in es)


def test_estimate():
    e = nqueens.estimate(18, seconds=1)
    assert e.method == "sampled" and e.low <= e.seconds <= e.high
    assert "count 18 with engine fast" in str(e)
    t = nqueens.estimate(11, engine="bitmap")
    assert t.method == "timed" and t.seconds >= 0 and t.threads == 1


def test_refused_unless_forced():
    with pytest.raises(nqueens.TooLongError, match=r"count 26 with engine "
                       r"brute would take about .* years on 1 thread; "
                       r"engine='fast', or force=True"):
        nqueens.count(26, engine="brute")
    with pytest.raises(ValueError):  # TooLongError is one
        nqueens.count(30)


def test_checkpoint_resumes(tmp_path):
    path = tmp_path / "n14.ckpt"
    first = nqueens.count(14, checkpoint=path, max_units=3)
    assert not first.complete and first.ran == 3 and first.total is None
    whole = nqueens.count(14, checkpoint=str(path))
    assert whole.complete and whole.total == 365596 and whole.unique == 45752
    assert whole.recorded == whole.units and whole.ran == whole.units - 3


def test_parts(tmp_path):
    shares = [nqueens.count(12, part=(k, 2), checkpoint=tmp_path / str(k))
              for k in (1, 2)]
    assert all(s.complete and s.total is None for s in shares)
    assert sum(s.units for s in shares) > 0
    assert os.path.getsize(tmp_path / "1") > 0


def test_gil_released():
    """A count on another thread leaves this one running Python."""
    import threading
    done = []
    t = threading.Thread(target=lambda: done.append(nqueens.count(16)))
    t.start()
    ticks = 0
    while t.is_alive():
        ticks += 1
    t.join()
    assert done[0].total == 14772512 and ticks > 1000
