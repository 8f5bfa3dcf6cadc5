"""nqueens - the N-Queens engines of libnqueens, from Python.

Count, list and watch the solutions of the N-Queens problem (N queens on
an N x N board, no two on a row, a column or a diagonal) with the engines
of the nqueens project, from the brute force of the first lesson to the
vectorised, symmetry-reduced counter that the command line runs.  The
work is done by the C library; this module is a thin layer over it.

Counting
    count(n, engine="fast", threads=None, part=None, force=False,
          checkpoint=None, max_units=None, kernel=None) -> Count
        Every solution of the board: .total, .unique (classes under the
        8 rotations and reflections), .nodes, .seconds.  Totals are exact
        Python ints (they pass 2**64 from N = 29).  A count estimated to
        take more than a week (a century with a checkpoint) is refused
        with TooLongError, as `nqueens count` refuses it, unless
        force=True.  checkpoint=FILE makes it resumable: each finished
        unit is recorded, and the same call again resumes it; part="K/M"
        counts share K of M (each part its own checkpoint; merge them
        with `nqueens merge`).

    estimate(n, engine="fast", threads=None, part=None) -> Estimate
        How long the count would take on this machine, before it runs.

Listing and watching
    solutions(n, engine=None, one_based=False, unique=False)
        A lazy iterator of boards in lexicographic order: tuples of
        columns, row 0 first (Board, a tuple that draws itself in a
        notebook).
    trace(n, engine="backtrack", limit=None, one_based=False)
        A lazy iterator of the steps `nqueens trace` prints (Step, a
        named tuple with the same text).

The engines
    engines() -> [Engine]   each engine's name, summary, largest N and
                            what it can do (list, trace, units).

In a notebook
    Board and Step draw themselves as SVG pictures (rows and columns
    numbered from 1, as the lesson page numbers them); lesson() shows
    the lesson page, the whole course in one file, inside a cell
    (Jupyter and Colab).

Stopping
    Counts run with the GIL released, so other Python threads go on.
    Ctrl-C raises KeyboardInterrupt within a second: the count is
    stopped through the library's stop flag (a checkpointed count keeps
    every unit it finished).

Errors
    A wrong argument raises ValueError or TypeError in the command
    line's words; a file that cannot be read or written, OSError.

Example
    >>> import nqueens
    >>> c = nqueens.count(8)
    >>> c.total, c.unique
    (92, 12)
    >>> next(nqueens.solutions(8))
    (0, 4, 7, 5, 2, 6, 1, 3)
"""
import collections
import math
import os

from . import _nqueens as _c

__version__ = _c.version
__all__ = ["count", "estimate", "solutions", "trace", "engines", "lesson",
           "Count", "Estimate", "Board", "Step", "Engine", "TooLongError",
           "MAX_N"]

#: The largest board any engine takes (columns are bits of a 32-bit word).
MAX_N = _c.MAX_N

# What the command line allows a count before refusing it (programs/cli.h:
# CLI_FEASIBLE_SECONDS, CLI_FEASIBLE_JOURNALED).
_FEASIBLE = 7 * 86400.0
_FEASIBLE_CHECKPOINTED = 100 * 365.25 * 86400.0
# From here a sampling engine's count is estimated by sampling its plan.
_ESTIMATE_FROM = 20
_MAX_THREADS = 1024
_MAX_PARTS = 1000000


class TooLongError(ValueError):
    """A count refused because it is estimated to take too long.

    .estimate holds the Estimate; count(..., force=True) runs it all the
    same."""

    def __init__(self, message, estimate):
        super().__init__(message)
        self.estimate = estimate


# ---- the engines ----

Engine = collections.namedtuple(
    "Engine", "name summary max_n lists steps units gpu")
Engine.__doc__ = """An engine of the library.

name     what count(engine=...) takes
summary  what it does, in a line
max_n    the largest board it takes
lists    whether solutions() can list with it
steps    whether trace() can watch it
units    whether it splits the board into units (threads, checkpoints,
         parts, Ctrl-C while it counts)
gpu      whether it counts on a GPU"""


def engines():
    """The engines of this library, in the order `nqueens engines` lists
    them: a list of Engine named tuples."""
    return [Engine(name, summary, max_n, bool(caps & _c.CAP_ENUMERATE),
                   bool(caps & _c.CAP_EVENTS), bool(caps & _c.CAP_UNITS),
                   bool(caps & _c.CAP_GPU))
            for name, summary, max_n, caps in _c.engines()]


def _caps():
    return {name: caps for name, _, _, caps in _c.engines()}


_CANNOT = ((_c.CAP_FLAG_ARRAYS, "keeps no flag arrays to show"),
           (_c.CAP_EVENTS, "cannot show its search step by step"),
           (_c.CAP_UNITS, "does not split the board into units"),
           (_c.CAP_ENUMERATE, "cannot list solutions"))


def _check_n(n):
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError("N must be a whole number (int), not %s"
                        % type(n).__name__)
    if not 1 <= n <= MAX_N:
        raise ValueError("N must be a whole number from 1 to %d, not '%d'"
                         % (MAX_N, n))


def _check_engine(engine, n, need=0):
    """The command line's checks of an engine for board n (cli_check_engine,
    in its words)."""
    if not isinstance(engine, str):
        raise TypeError("engine must be a str, not %s"
                        % type(engine).__name__)
    _check_n(n)
    caps = _caps()
    names = ", ".join(e for e, c in caps.items() if c & need == need)
    if engine not in caps:
        raise ValueError("unknown engine '%s' (engines: %s)"
                         % (engine, names))
    if caps[engine] & need != need:
        words = next(w for bit, w in _CANNOT if need & bit)
        raise ValueError("engine '%s' %s (engines that can: %s)"
                         % (engine, words, names))
    max_n = next(e.max_n for e in engines() if e.name == engine)
    if n > max_n:
        raise ValueError("engine '%s' takes N from 1 to %d, not %d"
                         % (engine, max_n, n))


def _whole(name, value, lo, hi):
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError("%s must be a whole number (int), not %s"
                        % (name, type(value).__name__))
    if not lo <= value <= hi:
        raise ValueError("%s takes a whole number from %d to %d, not %d"
                         % (name, lo, hi, value))
    return value


def _threads(threads):
    """0 (one per online core) for None, else 1..1024."""
    return 0 if threads is None else _whole("threads", threads, 1,
                                            _MAX_THREADS)


def _part(part):
    """(0, 0) for None; "K/M" or (K, M) with 1 <= K <= M <= 1000000."""
    if part is None:
        return 0, 0
    words = "part takes K/M with 1 <= K <= M <= %d, not %r" % (_MAX_PARTS,
                                                              part)
    if isinstance(part, str):
        k, slash, m = part.partition("/")
        if not (slash and k.isdigit() and m.isdigit()):
            raise ValueError(words)
        part = int(k), int(m)
    if not isinstance(part, tuple) or len(part) != 2 or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in part):
        raise TypeError("part must be 'K/M' or a tuple (K, M), not %r"
                        % (part,))
    k, m = part
    if not 1 <= k <= m <= _MAX_PARTS:
        raise ValueError(words)
    return k, m


def _kernel(kernel):
    if kernel is None:
        return None
    names = [k for k, _ in _c.kernels()]
    if not isinstance(kernel, str):
        raise TypeError("kernel must be a str, not %s"
                        % type(kernel).__name__)
    if kernel not in names:
        raise ValueError("unknown kernel '%s' (kernels: %s)"
                         % (kernel, ", ".join(names)))
    return kernel


def _samples(engine):
    """Whether the engine's count is estimated by sampling its own plan
    (the library's nq_estimate_count): units on the CPU, fast's kernels."""
    caps = _caps()[engine]
    return bool(caps & _c.CAP_UNITS and caps & _c.CAP_KERNEL
                and not caps & _c.CAP_GPU)


# ---- estimates ----

class Estimate(collections.namedtuple(
        "Estimate", "n engine seconds low high threads method samples")):
    """How long a count would take on this machine.

    seconds    the wall time estimated
    low, high  an 80% interval of it (None for method "timed")
    threads    the threads it was estimated for
    method     "sampled": units of the count's own plan timed at random
               (the library's estimate); "timed": smaller boards counted
               and their growth carried to N (the teaching engines')
    samples    units or pieces timed, or boards counted"""

    __slots__ = ()

    def __str__(self):
        span = "" if self.low is None else " (%s to %s)" % (
            _duration(self.low), _duration(self.high))
        return "count %d with engine %s: about %s%s on %d thread%s" % (
            self.n, self.engine, _duration(self.seconds), span, self.threads,
            "" if self.threads == 1 else "s")


def _duration(s):
    """Seconds in words: '3.2 seconds', '4.1 days', '2.3e+05 years'."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400),
                       ("hours", 3600), ("minutes", 60)):
        if s >= size:
            v = s / size
            return ("%.3g %s" if v < 1e5 else "%.2g %s") % (v, unit)
    return "%.3g seconds" % s


def _timed_estimate(n, engine, threads, kernel, enough):
    """The teaching engines' estimate: boards of 4 to n-1 counted until
    one takes a noticeable time (50 ms from N = 8), their node counts'
    growth carrying that time to n.  While the bound of the time (twice
    the growth each size) is still under `enough`, it is returned at
    once: a count surely under the limit needs no better figure."""
    nodes, growth, t, m = [0.0, 0.0], 0.0, 0.0, 4
    while m < n:
        c = _c.count(m, engine, threads, kernel)
        t = c[3]
        growth = c[2] / nodes[1] if nodes[1] > 0 else 0.0
        nodes = [nodes[1], float(c[2])]
        if m >= 8 and t > 0.05:
            break
        most = max(t, 1e-3) * (2 * growth) ** (n - m)
        if m >= 8 and growth > 0 and most <= enough:
            return most, m - 3
        m += 1
    return (t if m >= n else t * growth ** (n - m)), m - 3


def estimate(n, engine="fast", threads=None, part=None, seconds=None):
    """How long count(n, engine, threads) would take on this machine,
    before it runs: an Estimate.

    The fast engine's count (and any engine that counts units on the CPU
    with fast's kernels) is estimated by the library: units of the
    count's own plan drawn at random and timed, on every thread, for a
    few seconds at most (`seconds`, default 10), the estimate's 80%
    interval in low..high.  The teaching engines' counts are estimated
    by counting smaller boards and carrying the time by the growth of
    their search trees.  part="K/M" estimates one share of M."""
    _check_engine(engine, n)
    t = _threads(threads)
    k, m = _part(part)
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(
            seconds, (int, float)) or not 0 < seconds <= 3600):
        raise ValueError("seconds takes a number above 0 and up to 3600, "
                         "not %r" % (seconds,))
    used = _c.threads(t)
    if _samples(engine):
        e = _c.estimate(n, engine, t, None, k, m, float(seconds or 0), 0.0)
        return Estimate(n, engine, e["seconds"], e["seconds_low"],
                        e["seconds_high"], e["threads"], "sampled",
                        e["samples"])
    if not _caps()[engine] & _c.CAP_UNITS:
        used = 1
    est, boards = _timed_estimate(n, engine, t, None, math.inf)
    return Estimate(n, engine, est / (m or 1), None, None, used, "timed",
                    boards)


def _refuse_if_too_long(n, engine, t, kernel, k, m, checkpoint):
    """What `nqueens count` does before it counts: a count that could not
    end in a week (a century with a checkpoint) is refused up front."""
    limit = _FEASIBLE_CHECKPOINTED if checkpoint else _FEASIBLE
    samples = _samples(engine)
    if n >= _ESTIMATE_FROM and samples and not m:
        e = _c.estimate(n, engine, t, kernel, 0, 0, 0.0, limit)
        est = Estimate(n, engine, e["seconds"], e["seconds_low"],
                       e["seconds_high"], e["threads"], "sampled",
                       e["samples"])
    elif n >= (_ESTIMATE_FROM if samples else 14):
        share = m or 1
        secs, boards = _timed_estimate(n, engine, t, kernel, limit * share)
        used = _c.threads(t) if _caps()[engine] & _c.CAP_UNITS else 1
        est = Estimate(n, engine, secs / share, None, None, used, "timed",
                       boards)
    else:
        return
    if est.seconds <= limit:
        return
    if engine != "fast":
        advice = "engine='fast', or force=True to run"
    elif not checkpoint and est.seconds <= _FEASIBLE_CHECKPOINTED:
        advice = ("force=True to run, checkpoint=FILE to make it "
                  "resumable")
    else:
        advice = ("a cluster (nqueens-mpi, or part='K/M' with a checkpoint "
                  "on many machines), or force=True to run")
    what = "count %d" % n + (" part %d/%d" % (k, m) if m else "")
    raise TooLongError("%s with engine %s would take about %s on %d "
                       "thread%s; %s" % (what, engine, _duration(est.seconds),
                                         est.threads,
                                         "" if est.threads == 1 else "s",
                                         advice), est)


# ---- counts ----

class Count:
    """What count() found.

    n, engine   the board and the engine that counted it
    total       every solution (an exact int; None for one part of a
                split count, whose share is in its checkpoint)
    unique      the solutions up to the 8 rotations and reflections
    nodes       search nodes the engine visited
    seconds     the count's time (with a checkpoint: every run's, summed)
    threads     threads that counted
    complete    False for a checkpointed count stopped by max_units (run
                it again to resume)
    units, recorded, ran
                with a checkpoint: the plan's units (of the share), those
                recorded so far, those this call counted (else None)"""

    __slots__ = ("n", "engine", "total", "unique", "nodes", "seconds",
                 "threads", "complete", "units", "recorded", "ran")

    def __init__(self, n, engine, total, unique, nodes, seconds, threads,
                 complete=True, units=None, recorded=None, ran=None):
        self.n, self.engine = n, engine
        self.total, self.unique, self.nodes = total, unique, nodes
        self.seconds, self.threads = seconds, threads
        self.complete = complete
        self.units, self.recorded, self.ran = units, recorded, ran

    def __repr__(self):
        return ("Count(n=%d, engine=%r, total=%r, unique=%r, seconds=%.3f%s)"
                % (self.n, self.engine, self.total, self.unique, self.seconds,
                   "" if self.complete else ", complete=False"))

    def __eq__(self, other):
        if not isinstance(other, Count):
            return NotImplemented
        return (self.n, self.total, self.unique) == (other.n, other.total,
                                                     other.unique)

    __hash__ = None

    def _repr_html_(self):
        def num(v):
            return "&ndash;" if v is None else "{:,}".format(v)
        return ("<table><tr><th>N</th><th>total</th><th>unique</th>"
                "<th>engine</th><th>seconds</th></tr><tr><td>%d</td>"
                "<td>%s</td><td>%s</td><td>%s</td><td>%.3f</td></tr></table>"
                % (self.n, num(self.total), num(self.unique), self.engine,
                   self.seconds))


def _checkpoint_path(checkpoint):
    if checkpoint is None:
        return None
    path = os.fspath(checkpoint)
    if isinstance(path, bytes):
        path = os.fsdecode(path)
    if not path:
        raise ValueError("checkpoint takes a file name, not ''")
    return path


def count(n, engine="fast", threads=None, part=None, force=False,
          checkpoint=None, max_units=None, kernel=None):
    """Count every solution of the n x n board: a Count.

    engine      any of engines(): "fast" (the default, the fastest on a
                CPU), "carry", "symmetry", "mirror", "bitmap", "flags",
                "backtrack", "brute"...
    threads     threads for the engines with units (fast, carry,
                subunits); None: one per online core
    part        "K/M" or (K, M): count share K of M (needs checkpoint;
                total and unique are then None: merge the parts'
                checkpoints with `nqueens merge`)
    force       run a count estimated to take over a week all the same
                (else TooLongError, as `nqueens count` refuses it)
    checkpoint  a file recording each finished unit: the count survives
                a crash or Ctrl-C, and the same call resumes it
    max_units   with a checkpoint, stop after this many more units
                (Count.complete is then False)
    kernel      fast's inner kernel ("scalar", "sse4", "avx2", "avx512",
                "neon"); None: the widest this CPU runs

    The GIL is released while the library counts; Ctrl-C raises
    KeyboardInterrupt within a second.  Totals are exact ints."""
    _check_engine(engine, n)
    t = _threads(threads)
    k, m = _part(part)
    path = _checkpoint_path(checkpoint)
    kernel = _kernel(kernel)
    if m and path is None:
        raise ValueError("part needs checkpoint=FILE (each part keeps its "
                         "own journal)")
    if max_units is not None:
        if path is None:
            raise ValueError("max_units needs checkpoint=FILE")
        _whole("max_units", max_units, 1, 2 ** 64 - 1)
    if path is not None:
        _check_engine(engine, n, _c.CAP_UNITS)
    if not force:
        _refuse_if_too_long(n, engine, t, kernel, k, m, path)
    if path is None:
        total, unique, nodes, secs, used = _c.count(n, engine, t, kernel)
        if not _caps()[engine] & _c.CAP_UNITS:
            used = 1
        return Count(n, engine, total, unique, nodes, secs, used)
    r = _c.count_resumable(n, engine, t, kernel, path, k, m, max_units or 0)
    whole = r["complete"] and not m
    return Count(n, engine, r["total"] if whole else None,
                 r["unique"] if whole else None, r["nodes"],
                 r["seconds_all"], r["threads"], r["complete"], r["share"],
                 r["recorded"], r["ran"])


# ---- boards ----

_CELL = 32


def _svg(n, queens, mark=None, mark_colour=None, base=0):
    """An n x n board as SVG, rows and columns numbered from 1 (as the
    lesson page numbers them), a queen in row r at column queens[r], and
    the square `mark` (row, col) outlined in mark_colour."""
    size = _CELL * n + 20
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif">'
           % (size, size, size, size)]
    for i in range(n):
        out.append('<text x="%d" y="14" font-size="11" text-anchor="middle">'
                   '%d</text>' % (20 + _CELL * i + _CELL // 2, i + 1))
        out.append('<text x="10" y="%d" font-size="11" text-anchor="middle">'
                   '%d</text>' % (20 + _CELL * i + _CELL // 2 + 4, i + 1))
    for r in range(n):
        for c in range(n):
            out.append('<rect x="%d" y="%d" width="%d" height="%d" '
                       'fill="%s"/>' % (20 + _CELL * c, 20 + _CELL * r,
                                        _CELL, _CELL, "#f0d9b5"
                                        if (r + c) % 2 == 0 else "#b58863"))
    for r, c in enumerate(queens):
        out.append('<text x="%d" y="%d" font-size="%d" text-anchor="middle">'
                   '&#9819;</text>' % (20 + _CELL * (c - base) + _CELL // 2,
                                       20 + _CELL * r + _CELL * 3 // 4,
                                       _CELL * 3 // 4))
    if mark is not None:
        r, c = mark
        out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" '
                   'stroke="%s" stroke-width="3"/>'
                   % (21 + _CELL * (c - base), 21 + _CELL * (r - base),
                      _CELL - 2, _CELL - 2, mark_colour))
    out.append("</svg>")
    return "".join(out)


class Board(tuple):
    """A placement: board[r] is the column of the queen in row r (from 0,
    or from 1 for solutions(..., one_based=True)).  A tuple; in a
    notebook it draws itself (rows and columns numbered from 1)."""

    base = 0

    def _repr_svg_(self):
        return _svg(len(self), self, base=self.base)


class _OneBasedBoard(Board):
    base = 1


def solutions(n, engine=None, one_based=False, unique=False):
    """The solutions of the n x n board, lazily, in lexicographic order:
    an iterator of Board tuples (columns of rows 0..n-1, from 0; from 1
    with one_based=True).

    engine   one that can list: "bitmap" (None, the default), "flags",
             "backtrack", "brute"
    unique   only the lexicographically smallest solution of each class
             of the 8 symmetries

    The library lists on a thread of its own, a little ahead of the
    iterator; leaving the loop early stops it."""
    engine = _c.default_enumerate if engine is None else engine
    _check_engine(engine, n, _c.CAP_ENUMERATE)
    kind = _OneBasedBoard if one_based else Board
    base = 1 if one_based else 0
    return _boards(_c.walk(n, engine, False, bool(unique), base), kind)


def _boards(walk, kind):
    for cols in walk:
        yield kind(cols)


# ---- steps ----

_EVENTS = ("place", "reject", "remove", "solution", "fail")

_MasksBase = collections.namedtuple(
    "Masks", "down down_right down_left free ruled to_try")


class Masks(_MasksBase):
    """The bitmap engines' masks of a row, bit c for column c: the
    columns (down) and diagonals (down_right, down_left) the queens
    above attack, the free squares they leave, the squares the engine's
    own rule rules out (mirror, symmetry) and those the node has still
    to try."""

    __slots__ = ()


class Step(collections.namedtuple(
        "Step", "step event row col queens text reason by_row flags masks")):
    """One step of an engine's search, as `nqueens trace` prints it.

    step     its number, from 1
    event    "place", "reject", "remove", "solution" or "fail"
    row, col the square (for a solution: the last row's)
    queens   the columns of the queens on the board after the step
    text     the line `nqueens trace` prints for it
    reason   for a rejection, what attacks the square: a tuple of
             "column", "diagonal r+c", "diagonal r-c", "row"
    by_row   backtrack's rejection: the row of the attacking queen
    flags    the flags engine's arrays after it: (FA, FB, FC) as 0/1 text
    masks    the bitmap engines': Masks (for place and remove)

    In a notebook it draws the board after it, its square outlined."""

    __slots__ = ()

    _n = 0    # the board's size and numbering, set by trace() (a
    _one = 0  # subclass per board: a named tuple has no room for them)

    def _repr_svg_(self):
        colour = {"place": "#2a2", "reject": "#d22",
                  "remove": "#888"}.get(self.event)
        mark = (self.row, self.col) if colour else None
        return _svg(self._n, self.queens, mark, colour, self._one)


def _mask_text(name, mask, n):
    return "  %s %s" % (name, "".join("1" if mask >> c & 1 else "0"
                                      for c in range(n)))


class _Tracer:
    """The text of each step, as programs/trace/trace.c prints it in its
    steps style (English, as its JSON quotes it): the flags engine's
    arrays before and after need the previous step's."""

    def __init__(self, n, base):
        self.n, self.base = n, base
        self.flags = ("0" * n, "0" * (2 * n - 1), "0" * (2 * n - 1))
        self.solutions = self.fails = 0

    def text(self, number, kind, row, col, reason, by_row, by_col, cols,
             flags, masks):
        n, b = self.n, self.base
        line = "%6d  %-8s" % (number, _EVENTS[kind])
        if kind >= 3:
            if kind == 3:
                self.solutions += 1
            else:
                self.fails += 1
            line += "  #%d:" % (self.solutions if kind == 3 else self.fails)
            line += "".join(" %d" % (c + b) for c in cols)
            return line + ("  (queens attack each other)" if kind == 4
                           else "")
        line += "  row %d col %d" % (row + b, col + b)
        if kind == 1:
            return line + self._why(row, col, reason, by_row, by_col)
        if flags is not None:
            for name, before, after in zip(("FA", "FB", "FC"), self.flags,
                                           flags):
                line += "  %s %s -> %s" % (name, before, after)
            self.flags = flags
        elif masks is not None and kind == 0:
            down, left, right, untried, ruled = masks
            line += _mask_text("down", down, n)
            line += _mask_text("down-right", left, n)
            line += _mask_text("down-left", right, n)
            line += _mask_text("free", ~(down | left | right), n)
            if ruled:
                line += _mask_text("ruled out", ruled, n)
            line += _mask_text("to try", untried, n)
        elif masks is not None:
            line += _mask_text("to try", masks[3], n)
        elif kind == 0:
            line += "  queens" + "".join(" %d" % (c + b) for c in cols)
        return line

    def _why(self, row, col, reason, by_row, by_col):
        b, n = self.base, self.n
        if by_row >= 0:
            return "  attacked by the queen at row %d col %d (%s)" % (
                by_row + b, by_col + b,
                "same column" if reason & 1 else "same diagonal")
        out = ""
        if reason & 1:
            out += "  FA[%d]=1 (column taken)" % col
        if reason & 4:
            out += "  FB[%d]=1 (diagonal row-col taken)" % (row - col + n - 1)
        if reason & 2:
            out += "  FC[%d]=1 (diagonal row+col taken)" % (row + col)
        return out


_REASONS = ((1, "column"), (2, "diagonal r+c"), (4, "diagonal r-c"),
            (8, "row"))


def trace(n, engine="backtrack", limit=None, one_based=False):
    """The steps of an engine's search of the n x n board, lazily: an
    iterator of Step named tuples, the same steps (and the same text)
    as `nqueens trace n --engine ENGINE` prints.

    engine     one that reports its steps: "backtrack" (the default),
               "flags", "bitmap", "mirror", "symmetry", "brute"
    limit      stop after this many steps (None: the whole search; the
               iterator is lazy, so a loop may also just stop)
    one_based  rows and columns counted from 1, as `--one-based`"""
    _check_engine(engine, n, _c.CAP_EVENTS)
    if limit is not None:
        _whole("limit", limit, 1, 2 ** 64 - 1)
    return _steps(n, engine, limit, 1 if one_based else 0)


def _steps(n, engine, limit, base):
    tracer = _Tracer(n, base)
    walk = _c.walk(n, engine, True, False, 0)
    number = 0
    for kind, row, col, reason, by_row, by_col, cols, flags, masks in walk:
        if limit is not None and number == limit:
            return
        number += 1
        text = tracer.text(number, kind, row, col, reason, by_row, by_col,
                           cols, flags, masks)
        if masks is not None:
            d, l, r, u, ru = masks
            full = (1 << n) - 1
            masks = Masks(d, l, r, ~(d | l | r) & full, ru, u)
        step = Step(number, _EVENTS[kind], row + base, col + base,
                    tuple(c + base for c in cols), text,
                    tuple(w for bit, w in _REASONS if reason & bit)
                    if kind == 1 else (),
                    by_row + base if by_row >= 0 and kind == 1 else None,
                    flags, masks)
        yield _with_board(step, n, base)


_STEP_KINDS = {}


def _with_board(step, n, base):
    kind = _STEP_KINDS.get((n, base))
    if kind is None:
        kind = type("Step", (Step,), {"__slots__": (), "_n": n, "_one": base,
                                      "__doc__": Step.__doc__})
        _STEP_KINDS[(n, base)] = kind
    return kind(*step)


# ---- the lesson page ----

def _lesson_path():
    here = os.path.dirname(os.path.abspath(__file__))
    for path in (os.path.join(here, "lesson.html"),
                 os.path.join(here, "..", "..", "..", "web", "lesson.html")):
        if os.path.exists(path):
            return path
    raise FileNotFoundError("lesson.html is not beside the module (make "
                            "python copies web/lesson.html there)")


def lesson(height=720):
    """The lesson page (the whole course, with the real engines in
    WebAssembly) inside a notebook cell: an IPython HTML object holding
    the page in an iframe's srcdoc, which works in Jupyter and in Colab
    alike (a Colab cell cannot reach the files of the machine by URL).
    Outside IPython: the page's path, to open in a browser."""
    path = _lesson_path()
    try:
        from IPython.display import HTML
    except ImportError:
        return path
    import html
    import warnings
    with open(path, encoding="utf-8") as f:
        page = f.read()
    with warnings.catch_warnings():  # IPython suggests IFrame, which needs
        warnings.simplefilter("ignore")  # a URL that Colab cannot serve
        return HTML('<iframe srcdoc="%s" width="100%%" height="%d" '
                    'style="border:1px solid #ccc"></iframe>'
                    % (html.escape(page, quote=True), height))

