"""The bundled TrueType fonts (DejaVu Sans, Bitstream Vera licence, see fonts/LICENSE-DejaVu.txt).

They carry the arrow glyphs (↓ U+2193, ↑ U+2191) that PDF core fonts such as Helvetica lack.
ReportLab embeds them as subsets in every PDF. The package carries them as package data
(``tokengen/data/fonts``, copies of the repository's ``fonts/``, kept equal by a test and
``make data``); ``TOKENGEN_FONT_DIR`` points elsewhere.
"""

from __future__ import annotations

import os
from functools import cache
from importlib import resources
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from ..errors import RenderError
from ..io import guard

REGULAR = "DejaVuSans"
BOLD = "DejaVuSans-Bold"


def font_dir() -> Path:
    """Folder holding the bundled TTF files: ``TOKENGEN_FONT_DIR`` if set, else the package data
    folder ``tokengen/data/fonts`` (read through :mod:`importlib.resources`, so any install
    finds them: a wheel, ``pip install --user``, pipx, a venv anywhere)."""
    if os.environ.get("TOKENGEN_FONT_DIR"):
        return Path(os.environ["TOKENGEN_FONT_DIR"])
    return Path(str(resources.files("tokengen").joinpath("data", "fonts")))


@cache
def register() -> tuple[str, str]:
    """Register the regular and bold fonts with ReportLab once per process.

    Returns:
        (regular, bold) font names for ``canvas.setFont``.
    Raises:
        RenderError: a font file is missing or unreadable.
    """
    for name in (REGULAR, BOLD):
        path = font_dir() / f"{name}.ttf"
        refused = guard.not_regular(path)  # a FIFO or device would hang or never end
        if refused:
            raise RenderError(f"cannot load font {path}: {refused.split(' (')[0]}")
        try:
            pdfmetrics.registerFont(TTFont(name, str(path)))
        except Exception as exc:  # ReportLab raises TTFError or OSError subclasses
            raise RenderError(f"cannot load font {path}: {exc}") from None
    return REGULAR, BOLD


def missing_glyphs(text: str, font: str) -> list[str]:
    """Characters of ``text`` that ``font`` has no glyph for (they would print as boxes)."""
    face = pdfmetrics.getFont(font).face
    return [ch for ch in dict.fromkeys(text) if ord(ch) not in face.charToGlyph and not ch.isspace()]


def require_glyphs(text: str, font: str, what: str) -> None:
    """Raise :class:`RenderError` naming ``what`` when ``font`` cannot draw all of ``text``."""
    missing = missing_glyphs(text, font)
    if missing:
        shown = ", ".join(f"'{ch}' (U+{ord(ch):04X})" for ch in missing)
        raise RenderError(f"{what}: font {font} has no glyph for {shown}")


def fit_size(text: str, font: str, width: float, largest: float) -> float:
    """The largest font size (pt) up to ``largest`` at which ``text`` is at most ``width`` pt wide."""
    natural = pdfmetrics.stringWidth(text, font, 1.0)
    return largest if natural <= 0 else min(largest, width / natural)
