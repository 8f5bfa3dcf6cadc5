"""Shared by the tests: the command line to compare with (NQ_CLI, or the
repository's build/nqueens)."""
import os

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..",
                                    ".."))


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("NQ_CLI") or os.path.join(ROOT, "build", "nqueens")
    path = os.path.abspath(path)
    if not os.access(path, os.X_OK):
        pytest.skip("no nqueens program at %s (make builds it)" % path)
    return path
