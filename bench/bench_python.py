#!/usr/bin/env python3
"""bench_python.py - nqueens.count(N) from Python beside `nqueens count N`.

Each round runs both, the order alternating round by round (a loaded
machine's load drifts; taking turns spreads it over both), each as a
process of its own: the command line, and python3 -c 'nqueens.count(N)'.
Two figures each: the count's own time (what the program reports: the
table's hh:mm:ss.ms, Count.seconds) and the process's wall time (Python's
start and import included).  Prints the medians and the ratios, and the
machine (lscpu's model name and family), for bench/RESULTS.md.

    make bench-python [N=17] [ROUNDS=7]
    PYTHONPATH=build/python python3 bench/bench_python.py --cli build/nqueens
"""
import argparse
import datetime
import os
import re
import statistics
import subprocess
import sys
import time

PY_COUNT = ("import sys, nqueens; c = nqueens.count(int(sys.argv[1])); "
            "print(c.total, repr(c.seconds))")


def cpu():
    """lscpu's model name and family, or what /proc/cpuinfo says."""
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        out = open("/proc/cpuinfo").read()
    fields = dict(re.findall(r"^(Model name|CPU family|model name|cpu family)"
                             r"\s*:\s*(.*)$", out, re.M))
    model = fields.get("Model name") or fields.get("model name", "?")
    family = fields.get("CPU family") or fields.get("cpu family", "?")
    return "%s (family %s), %d cores online" % (model, family,
                                                 os.cpu_count() or 0)


def run_cli(cli, n):
    t0 = time.monotonic()
    out = subprocess.run([cli, "count", str(n)], capture_output=True,
                         text=True, check=True).stdout
    wall = time.monotonic() - t0
    row = out.strip().splitlines()[-1].split()
    h, m, s = row[3].split(":")
    return int(row[1]), int(h) * 3600 + int(m) * 60 + float(s), wall


def run_python(n):
    t0 = time.monotonic()
    out = subprocess.run([sys.executable, "-c", PY_COUNT, str(n)],
                         capture_output=True, text=True, check=True).stdout
    wall = time.monotonic() - t0
    total, seconds = out.split()
    return int(total), float(seconds), wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="build/nqueens")
    ap.add_argument("--n", type=int, default=17)
    ap.add_argument("--rounds", type=int, default=7)
    a = ap.parse_args()
    cli, py = [], []
    for r in range(a.rounds):
        order = (0, 1) if r % 2 == 0 else (1, 0)
        for which in order:
            res = run_cli(a.cli, a.n) if which == 0 else run_python(a.n)
            (cli if which == 0 else py).append(res)
    if len({t for t, _, _ in cli + py}) != 1:
        sys.exit("bench_python: the totals differ: %r %r" % (cli, py))
    med = [statistics.median(x[i] for x in rows) for rows in (cli, py)
           for i in (1, 2)]
    print("date:    %s" % datetime.date.today().isoformat())
    print("cpu:     %s" % cpu())
    print("load:    %.2f %.2f %.2f" % os.getloadavg())
    print("command: nqueens count %d  vs  python3 -c 'nqueens.count(%d)'"
          ", %d rounds, alternating" % (a.n, a.n, a.rounds))
    print("count's own time, median: CLI %.3f s, Python %.3f s, "
          "Python/CLI %.3f" % (med[0], med[2], med[2] / med[0]))
    print("process wall time, median: CLI %.3f s, Python %.3f s, "
          "Python/CLI %.3f" % (med[1], med[3], med[3] / med[1]))


if __name__ == "__main__":
    main()
