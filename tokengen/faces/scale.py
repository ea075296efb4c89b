"""Rescaling: the token size a run asks for, and whether the face text stays legible at it.

Every measure on a face is a fraction of the token size (see :mod:`tokengen.faces.render`), so
rescaling is only a matter of choosing the size: the text, strokes, safe area and art follow.
Cut lines, crop marks and the calibration ruler (a true 1 in / 25.4 mm) do not scale.

All lengths are in pt (1 in = 72 pt).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import UsageError
from ..geometry.shapes import Shape, box_width
from ..model import Catalogue, Token
from ..units import format_length
from .render import face_text_sizes

#: Smallest face text (pt) that still reads comfortably on a token held at arm's length.
MIN_LEGIBLE_PT = 5.0


def token_size(base: float, size: float | None = None, scale: float | None = None, shape: Shape | None = None) -> float:
    """The token trim size (pt) of a run: the width of the token's box, as the sheet lays it out.

    Args:
        base: the catalogue's size, pt (the width of its tokens' box).
        size: an explicit size, pt (``--size``), or None: measured as the catalogue's ``size:``
            is, so a hex across its flats (see :func:`tokengen.geometry.shapes.box_width`).
        scale: a factor applied to ``base`` (``--scale``), or None.
        shape: the catalogue's token shape, or None for square.
    Returns:
        the box width of ``size`` if given, else ``base * scale`` if given, else ``base``; never below the
        smallest token size the catalogue accepts (:data:`tokengen.limits.MIN_SIZE`, 0.125 in),
        so every route (catalogue, ``--size``, ``--scale``, batch, export) has the same minimum.
    Raises:
        UsageError: both ``size`` and ``scale`` given, a size/factor that is not a positive
            finite number, or a size below the minimum.
    """
    from ..limits import MIN_SIZE

    if size is not None and scale is not None:
        raise UsageError("--size and --scale are exclusive: give one or the other")
    if scale is not None:
        if not (math.isfinite(scale) and scale > 0):
            raise UsageError(f"scale factor must be a positive number, got {scale!r}")
        result, given = base * scale, f"--scale {scale:g} gives {_show(base * scale)}, which"
    elif size is not None:
        if not (math.isfinite(size) and size > 0):
            raise UsageError(f"token size must be greater than zero, got {format_length(size)}")
        result, given = box_width(size, shape), f"token size {_show(size)}"
    else:
        return base
    if (size if size is not None else result) < MIN_SIZE - 1e-9:
        raise UsageError(f"{given} is smaller than the smallest token size, 0.125in (3.2mm)")
    return result


def _show(pt: float) -> str:
    """A length for messages, in in and mm rounded to what a user typed: ``"0.1in (2.5mm)"``."""
    return f"{pt / 72:.4g}in ({pt / 72 * 25.4:.3g}mm)"


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
        from .facedraw import set_text

        values = dict(token.values)
        sizes = [(e.content, set_text(size, height or size, token.template, e, values))
                 for e in token.template.elements if e.kind in ("text", "glyph")]
        return [SmallText(token.id, part, t.size, token.line) for part, t in sizes if t.text and t.size < minimum - 1e-9]
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
