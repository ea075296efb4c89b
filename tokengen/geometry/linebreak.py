"""Where a paragraph may break its lines, by the Unicode line breaking algorithm: pure text work.

Break opportunities are UAX #14's (Unicode Standard Annex #14, "Unicode Line Breaking
Algorithm"), as the ``uniseg`` package computes them from Unicode's data: between two CJK
ideographs or kana, never before closing punctuation (``。``, ``、``, ``」``, ``)``, class CL, CP,
IS, EX, NS) nor after opening punctuation (``「``, ``(``, class OP), after a space, after a
hyphen, and always after a newline. :func:`fill` then chooses breaks greedily, as a typesetter
filling a line word by word does: each line takes as many pieces as fit its width.

Widths are in pt; the caller measures each character as it will be printed (its font and size).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate

from uniseg.linebreak import line_break, line_break_boundaries

#: UAX #14 classes of scripts written without spaces between words, which break between
#: characters: ideographs (ID), small kana (CJ) and Hangul syllables and jamo (H2, H3, JL, JV, JT).
_UNSPACED = frozenset({"ID", "CJ", "H2", "H3", "JL", "JV", "JT"})


def unspaced(text: str) -> bool:
    """``text`` holds a character of a script that breaks between characters, not only at
    spaces (Chinese, Japanese, Korean): its lines need :func:`fill`."""
    return any(ord(ch) >= 0x1100 and str(line_break(ch)) in _UNSPACED for ch in text)


def opportunities(text: str) -> list[int]:
    """The positions (0 < i ≤ len) where a line may end: after ``text[:i]``, per UAX #14; the
    last is always ``len(text)``.

    >>> opportunities("中文。「引」")
    [1, 3, 6]
    """
    return list(line_break_boundaries(text)) if text else []


def fill(text: str, widths: Sequence[float], width: float) -> list[int]:
    """Where to break ``text`` into lines no wider than ``width`` pt, greedily: the positions
    (among :func:`opportunities`) after which a line ends, newlines left out (they break already).

    Args:
        text: the paragraph, a newline where a line must break.
        widths: each character's advance (pt) as printed.
        width: the line's width (pt).
    Returns:
        Increasing positions. White space at a line's end is not counted in its width. A piece
        between two opportunities wider than ``width`` makes a line of its own (the caller
        splits or shrinks it).
    """
    upto = list(accumulate(widths, initial=0.0))  # upto[i]: the width of text[:i]
    breaks: list[int] = []
    start = used = 0
    for end in opportunities(text):
        inked = used + len(text[used:end].rstrip())  # the piece without its trailing white space
        if used > start and upto[inked] - upto[start] > width:
            breaks.append(used)
            start = used
        used = end
        if text[end - 1] == "\n":
            start = end
    return breaks
