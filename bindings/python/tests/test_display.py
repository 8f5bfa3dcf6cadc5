"""The notebook side: the lesson page inline, help() as a manual."""
import pydoc

import pytest

import nqueens


def test_lesson_inline():
    pytest.importorskip("IPython")
    page = nqueens.lesson(height=400)
    html = page._repr_html_() if hasattr(page, "_repr_html_") else page.data
    assert html.startswith("<iframe srcdoc=") and 'height="400"' in html
    assert "&lt;html" in html.lower() and len(html) > 100000


def test_help_reads_like_a_manual():
    text = pydoc.render_doc(nqueens, renderer=pydoc.plaintext)
    for words in ("count(n, engine=\"fast\"", "solutions(n", "trace(n",
                  "KeyboardInterrupt", "TooLongError", "lesson()"):
        assert words in text, words
    for f in (nqueens.count, nqueens.estimate, nqueens.solutions,
              nqueens.trace, nqueens.engines, nqueens.lesson):
        assert len(f.__doc__) > 100
