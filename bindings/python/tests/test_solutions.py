"""solutions(): lazy, lexicographic, checked, drawn."""
import itertools

import pytest

import nqueens
from test_count import TOTAL, UNIQUE


def attacks(cols):
    return any(a == b or abs(a - b) == j - i
               for (i, a), (j, b) in itertools.combinations(enumerate(cols),
                                                            2))


@pytest.mark.parametrize("engine", ["brute", "backtrack", "flags", "bitmap"])
def test_lists_every_solution_in_order(engine):
    for n in range(1, 8):
        boards = list(nqueens.solutions(n, engine=engine))
        assert len(boards) == TOTAL[n - 1]
        assert boards == sorted(boards) and len(set(boards)) == len(boards)
        assert not any(attacks(b) for b in boards)


def test_unique_and_one_based():
    assert len(list(nqueens.solutions(10, unique=True))) == UNIQUE[9]
    first = next(nqueens.solutions(8, one_based=True))
    assert first == (1, 5, 8, 6, 3, 7, 2, 4)
    assert isinstance(first, tuple) and isinstance(first, nqueens.Board)


def test_lazy():
    """The first board of N = 16 comes at once; leaving the loop early
    stops the listing."""
    it = nqueens.solutions(16)
    assert next(it) == (0, 2, 4, 1, 12, 8, 13, 11, 14, 5, 15, 6, 3, 10, 7, 9)
    del it
    boards = list(itertools.islice(nqueens.solutions(14), 5000))
    assert len(boards) == 5000


def test_svg():
    svg = next(nqueens.solutions(4))._repr_svg_()
    assert svg.startswith("<svg") and svg.count("&#9819;") == 4
    assert ">1</text>" in svg and ">4</text>" in svg and ">0</text>" not in svg
