"""Rescaling: the token size a run asks for, and whether the face text stays legible at it.

Every measure on a face is a fraction of the token size (see :mod:`tokengen.faces.render`), so
rescaling is only a matter of choosing the size: the text, strokes, safe area and art follow.
The size itself is settled by :func:`tokengen.geometry.sizing.token_size` (re-exported here as
:func:`token_size`), which the rules check reaches too.
Cut lines, crop marks and the calibration ruler (a true 1 in / 25.4 mm) do not scale.

All lengths are in pt (1 in = 72 pt).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..geometry.sizing import token_size
from ..model import Catalogue, Token
from ..units import format_length
from .render import face_text_sizes

__all__ = ["MIN_LEGIBLE_PT", "SmallText", "legible", "small_text", "small_text_warnings", "token_size"]

#: Smallest face text (pt) that still reads comfortably on a token held at arm's length.
MIN_LEGIBLE_PT = 5.0


def small_text_warnings(catalogue: Catalogue, size: float, minimum: float = MIN_LEGIBLE_PT) -> list[str]:
    """The face texts of ``catalogue`` below ``minimum`` pt at ``size``, one warning per distinct
    (part, font size), naming how many tokens it concerns and the first few:
    ``"caption text is 4.4 pt on 18 tokens (agi-low, agi-high, agi-both, …), below 5 pt at 0.5in"``."""
    groups: dict[tuple[str, float], list[str]] = {}
    for finding in legible(catalogue, size, minimum):
        groups.setdefault((finding.part, round(finding.pt, 1)), []).append(finding.token)
    out = []
    for (part, pt), tokens in groups.items():
        names = ", ".join(tokens[:3]) + (", …" if len(tokens) > 3 else "")
        count = f"{len(tokens)} token{'s' if len(tokens) != 1 else ''}"
        out.append(f"{part} text is {pt:.1f} pt on {count} ({names}), below {minimum:g} pt at {format_length(size)}")
    return out


@dataclass(frozen=True)
class SmallText:
    """One piece of face text printed below the legible size.

    Attributes:
        token: the token id.
        part: ``"glyph"``, ``"code"`` or ``"caption"`` (see :func:`~tokengen.faces.render.face_text_sizes`).
        pt: its font size at the run's token size.
        line: the catalogue line of the token, when known.
    """

    token: str
    part: str
    pt: float
    line: int | None = None

    def __str__(self) -> str:
        return f"token {self.token}: {self.part} text is {self.pt:.1f} pt, below {MIN_LEGIBLE_PT:g} pt"


def small_text(token: Token, size: float, minimum: float = MIN_LEGIBLE_PT, height: float | None = None) -> list[SmallText]:
    """The face texts of ``token`` that print below ``minimum`` pt on a ``size`` pt token
    (``height`` pt tall when not square). A token drawn from its own template (a catalogue with
    declared fields) names each text by its template text (``"{name}"``)."""
    if token.template is not None:
        from .facedraw import set_box, set_text

        values = dict(token.values)
        found = []
        for e in token.template.elements:
            if e.kind not in ("text", "glyph"):
                continue
            if e.boxed:
                laid = set_box(size, height or size, token.template, e, values)
                pt, shown = laid.size, bool(laid.lines)
            else:
                t = set_text(size, height or size, token.template, e, values)
                pt, shown = t.size, bool(t.text)
            if shown and pt < minimum - 1e-9:
                found.append(SmallText(token.id, e.content, pt, token.line))
        return found
    return [SmallText(token.id, part, pt, token.line)
            for part, pt in face_text_sizes(token, size).items() if pt < minimum - 1e-9]


def legible(catalogue: Catalogue, size: float | None = None, minimum: float = MIN_LEGIBLE_PT) -> list[SmallText]:
    """Check that every face text of ``catalogue`` is at least ``minimum`` pt at token ``size``.

    Meant for the rules ``check`` command (a warning, not an error): an empty list means legible.

    Args:
        catalogue: the validated catalogue.
        size: the token trim size in pt (default: the catalogue's own size).
        minimum: the least legible font size, pt (default :data:`MIN_LEGIBLE_PT`, 5 pt).
    Returns:
        One :class:`SmallText` per (token, text part) below ``minimum``, in catalogue order.
    """
    size = catalogue.size if size is None else size
    height = catalogue.trim_height * size / catalogue.size
    return [finding for token in catalogue.tokens for finding in small_text(token, size, minimum, height)]
