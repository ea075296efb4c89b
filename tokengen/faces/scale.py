"""Rescaling: the token size a run asks for, and whether the face text stays legible at it.

Every measure on a face is a fraction of the token size (see :mod:`tokengen.faces.render`), so
rescaling is only a matter of choosing the size: the text, strokes, safe area and art follow.
The size itself is settled by :func:`tokengen.geometry.sizing.token_size` (re-exported here as
:func:`token_size`), which the rules check reaches too.
Cut lines, crop marks and the calibration ruler (a true 1 in / 25.4 mm) do not scale.

All lengths are in pt (1 in = 72 pt).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import LayoutError
from ..geometry.shapes import Shape
from ..geometry.sizing import token_size
from ..model import Catalogue, Token
from ..sources import fonts, template
from ..units import format_length, format_pt
from .facedraw import FaceLayout
from .render import text_frame

__all__ = ["MIN_LEGIBLE_PT", "SmallText", "legible", "small_text", "small_text_warnings", "token_size"]

#: Smallest face text (pt) that still reads comfortably on a token held at arm's length.
MIN_LEGIBLE_PT = 5.0


def small_text_warnings(catalogue: Catalogue, size: float, minimum: float = MIN_LEGIBLE_PT,
                        safe: float | None = None, layouts: Mapping[str, FaceLayout] | None = None) -> list[str]:
    """The face texts of ``catalogue`` below ``minimum`` pt at ``size`` with a ``safe`` pt safe area
    (None: the home one), one warning per distinct (part, printed size), naming how many tokens
    it concerns and the first few:
    ``"caption text is 3.68 pt on 18 tokens (agi-low, agi-high, agi-both, …), below 5 pt at 0.5in"``.
    The size is the one the PDF holds (:func:`tokengen.faces.facedraw.printed_texts`); ``layouts``
    (token id → its face as drawn, :attr:`tokengen.faces.render.SheetCanvas.layouts`) spare setting
    the texts again."""
    groups: dict[tuple[str, str], list[str]] = {}
    for finding in legible(catalogue, size, minimum, safe, layouts):
        groups.setdefault((finding.part, format_pt(finding.pt)), []).append(finding.token)
    out = []
    for (part, pt), tokens in groups.items():
        names = ", ".join(tokens[:3]) + (", …" if len(tokens) > 3 else "")
        count = f"{len(tokens)} token{'s' if len(tokens) != 1 else ''}"
        out.append(f"{part} text is {pt} pt on {count} ({names}), below {minimum:g} pt at {format_length(size)}")
    return out


@dataclass(frozen=True)
class SmallText:
    """One piece of face text printed below the legible size.

    Attributes:
        token: the token id.
        part: ``"glyph"``, ``"code"`` or ``"caption"`` for a token of the built-in face, else the
            template text (``"{name}"``).
        pt: its font size as the PDF holds it at the run's token size.
        line: the catalogue line of the token, when known.
    """

    token: str
    part: str
    pt: float
    line: int | None = None

    def __str__(self) -> str:
        return f"token {self.token}: {self.part} text is {format_pt(self.pt)} pt, below {MIN_LEGIBLE_PT:g} pt"


def small_text(token: Token, size: float, minimum: float = MIN_LEGIBLE_PT, height: float | None = None,
               shape: Shape | None = None, safe: float | None = None, design: float | None = None,
               layout: FaceLayout | None = None) -> list[SmallText]:
    """The face texts of ``token`` that print below ``minimum`` pt on a ``size`` pt token
    (``height`` pt tall when not square, of ``shape``) with a ``safe`` pt safe area (None: the
    one laid out for), its faces laid out for a ``design`` pt one (None: the home one), measured as drawn (:func:`tokengen.faces.facedraw.printed_texts`). A token drawn
    from its own template names each text by its template text (``"{name}"``), one of the
    built-in face ``glyph``, ``code`` or ``caption``. A text that cannot be fitted inside the
    safe area at all is left to that stronger warning. ``layout``: the face as drawn, when known
    (used if laid out in the same safe area).

    Raises:
        LayoutError: the safe area leaves no room for text on the token.
    """
    from .facedraw import printed_texts

    fonts.register()
    height = height or size
    area, scale = text_frame(shape, size, height, safe, design)
    printed = printed_texts(size, height, template.face_of(token), template.token_values(token), area, scale, layout)
    parts = [p.element.content for p in printed] if token.template is not None else list(_BUILTIN_PARTS)
    return [SmallText(token.id, part, p.pt, token.line) for part, p in zip(parts, printed, strict=True)
            if p.text and p.fits and p.pt < minimum - 1e-9]


#: The built-in face's texts, in drawing order.
_BUILTIN_PARTS = ("glyph", "code", "caption")


def legible(catalogue: Catalogue, size: float | None = None, minimum: float = MIN_LEGIBLE_PT,
            safe: float | None = None, layouts: Mapping[str, FaceLayout] | None = None) -> list[SmallText]:
    """Check that every face text of ``catalogue`` is at least ``minimum`` pt at token ``size``.

    Meant for the rules ``check`` command (a warning, not an error): an empty list means legible.

    Args:
        catalogue: the validated catalogue.
        size: the token trim size in pt (default: the catalogue's own size).
        minimum: the least legible font size, pt (default :data:`MIN_LEGIBLE_PT`, 5 pt).
        safe: the safe area (pt) text is fitted into (None: the home one).
        layouts: token id → its face as a build drew it (see :func:`small_text_warnings`).
    Returns:
        One :class:`SmallText` per (token, text part) below ``minimum``, in catalogue order.
    """
    size = catalogue.size if size is None else size
    height = catalogue.trim_height * size / catalogue.size
    laid = layouts or {}
    try:
        return [finding for token in catalogue.tokens
                for finding in small_text(token, size, minimum, height, catalogue.shape, safe, catalogue.safe_area, laid.get(token.id))]
    except LayoutError:  # no room for text at all: build and check say so
        return []
