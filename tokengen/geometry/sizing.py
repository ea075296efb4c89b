"""The token size of a run, settled once: the size asked for (``--size``, ``--scale``, a batch
job's, a check's) → the width of the token's box, and the sheet that lays boxes of that width out.

Pure, in pt (1 in = 72 pt), no ReportLab. It lives on the geometry floor because every route
that turns a size into a sheet needs it: the commands (``cli``), ``outputs.export`` and
``outputs.batch`` build with it, and ``games.generic`` and the Meatshields rules check with it;
``games/`` sits below ``outputs/``, so the one place both may import is ``geometry/`` (or lower),
and the function is arithmetic on a :class:`~tokengen.geometry.shapes.Shape` and a
:class:`~tokengen.geometry.imposition.SheetSpec`, both geometry. ``faces.scale`` re-exports
:func:`token_size` under its old name.
"""

from __future__ import annotations

import math

from ..errors import UsageError
from ..limits import MIN_SIZE
from ..units import format_length, format_like
from .imposition import SheetSpec
from .shapes import Shape, box_width

#: A size as asked for: one length (the width), or (width, height) from ``WIDTHxHEIGHT``
#: (:func:`tokengen.units.parse_size`; height None: the width alone), pt.
Asked = float | tuple[float, float | None]


def token_size(base: float, size: Asked | None = None, scale: float | None = None, shape: Shape | None = None, *,
               base_height: float | None = None) -> float:
    """The token trim size (pt) of a run: the width of the token's box, as the sheet lays it out.
    Every route (build, export, batch, check, the web page through the commands) settles its
    size here, so each has the same minimum and the same hex conversion.

    Args:
        base: the catalogue's size, pt (the width of its tokens' box, as
            :attr:`tokengen.model.Catalogue.size` holds it).
        size: the size asked for, pt (``--size``; a batch job's ``size``), or None for the
            catalogue's. Measured as the catalogue's ``size:`` is: a square's or card's width, a
            circle's diameter, a hex across its flats, so a flat hex's box is wider than ``size``
            (2/√3 × ``size``, see :func:`tokengen.geometry.shapes.box_width`).
            A (width, height) pair (``--size 63mmx88mm``) gives the width; its height must keep
            the catalogue's proportions (``base_height`` / ``base``, within 1 %): the height
            follows the width.
        scale: a factor applied to ``base`` (``--scale``), or None.
        shape: the catalogue's token shape (``square``, ``rounded``, ``circle``, ``hex`` flat or
            pointy), or None for square.
        base_height: the catalogue's token height, pt (None: as wide as high).
    Returns:
        the box width of ``size`` if given, else ``base * scale`` if given, else ``base``.
    Raises:
        UsageError: both ``size`` and ``scale`` given, a size/factor that is not a positive
            finite number, or a size below the minimum, :data:`tokengen.limits.MIN_SIZE`
            (9 pt = 0.125 in, a WIDTHxHEIGHT whose height does not follow the width
            (``--size 63mm × 100mm does not keep the tokens' proportions …``), the smallest size a catalogue's ``size:`` accepts), with the one
            message every command shows: ``token size 0.05in (1.27mm) is smaller than the
            smallest token size, 0.125in (3.2mm)``. ``size`` is held to the minimum as given
            (across a hex's flats, as ``size:`` is), ``base * scale`` as the box width it is.
    """
    if size is not None and scale is not None:
        raise UsageError("--size and --scale are exclusive: give one or the other")
    if isinstance(size, tuple):
        size = _width_of(size, base, base_height)
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
        raise UsageError(f"{given} is smaller than the smallest token size, {_MINIMUM}")
    return result


def _width_of(asked: tuple[float, float | None], base: float, base_height: float | None) -> float:
    """The width of a WIDTHxHEIGHT size, pt, once its height is seen to follow the width.

    Raises:
        UsageError: the height is more than 1 % off the catalogue's proportions.
    """
    width, height = asked
    if height is None or not (math.isfinite(width) and width > 0 and base > 0):
        return width
    problem = proportions_problem(width, height, base, base_height)
    if problem:
        raise UsageError(problem)
    return width


#: What a refusal of another shape tells the user to do, after :func:`proportions_problem`'s reason.
SIZE_REMEDY = "give the width alone or a WIDTHxHEIGHT that matches"


def proportions_problem(width: float, height: float, base: float, base_height: float | None, *,
                        asked: str = "--size", remedy: str = SIZE_REMEDY) -> str | None:
    """Why a ``width`` × ``height`` (pt) does not keep the proportions of the catalogue's
    ``base`` × ``base_height`` tokens (pt; ``base_height`` None: square), or None when it keeps
    them within 1 %: the one message for a change of shape, ``--size 63mm × 100mm does not keep
    the tokens' proportions (63mm × 88mm): at 63mm wide they are 88mm high; give the width alone or a
    WIDTHxHEIGHT that matches``. ``asked`` names what asked for the size (``--size``, a job's
    ``size``, a profile's trim; ``""``: nothing), ``remedy`` what to do instead."""
    expected = width * (base_height or base) / base
    if abs(height - expected) <= 0.01 * expected:
        return None
    return (f"{asked + ' ' if asked else ''}{format_length(width)} × {format_length(height)} does not keep the tokens' proportions "
            f"({format_length(base)} × {format_length(base_height or base)}): at {format_length(width)} wide they are "
            f"{format_like(expected, width)} high; {remedy}")


def height_note(asked: Asked | None, base: float, base_height: float | None) -> str | None:
    """What to tell the user when a ``--size WIDTHxHEIGHT`` (``asked``, pt) that keeps the
    catalogue's ``base`` × ``base_height`` proportions within 1 % (:func:`proportions_problem`)
    still prints another height than the one asked, as the messages show lengths (4 figures, in
    the unit of the height asked): ``--size 2.5in × 3.5in prints the tokens 2.5in × 3.492in
    (251.43pt): …``, with why and how to print that height. None for a width alone or a height
    printed as asked."""
    if not isinstance(asked, tuple) or base <= 0:
        return None
    width, height = asked
    if height is None:
        return None
    printed = width * (base_height or base) / base
    if format_like(printed, height).split()[0] == format_like(height, height).split()[0]:
        return None
    return (f"--size {format_length(width)} × {format_length(height)} prints the tokens {format_length(width)} × "
            f"{format_like(printed, height)}: the height follows the width, keeping the catalogue's proportions "
            f"({format_length(base)} × {format_length(base_height or base)}); to print them {format_length(height)} high, "
            f"change the catalogue's proportions: size: {format_length(width)}x{format_length(height)}")


#: The minimum as messages name it (0.125in (3.2mm)).
_MINIMUM = f"{MIN_SIZE / 72:g}in ({MIN_SIZE / 72 * 25.4:.2g}mm)"


def _show(pt: float) -> str:
    """A length for messages, in in and mm rounded to what a user typed: ``"0.1in (2.5mm)"``."""
    return f"{pt / 72:.4g}in ({pt / 72 * 25.4:.3g}mm)"


def sheet_spec(page: tuple[float, float], size: float, *, margin: float = 18.0, gutter: float = 0.0, bleed: float = 0.0,
               columns: int | None = None, group: int | None = None, cut_lines: bool = True, crop_marks: bool = False,
               calibration: bool = True, home_bleed: float = 0.0, furniture: str = "foot") -> SheetSpec:
    """The sheet of a run from its settled options (lengths in pt; ``size`` already settled by
    :func:`token_size`, the box width). Never raises.

    Args:
        page: (width, height) of the sheet, pt.
        size: the token box width, pt.
        columns: None (lay out by ``group``, the catalogue's ``columns:``, widened to a multiple
            that fits when that saves pages: :func:`tokengen.geometry.pager.plan`), 0 (as many
            as fit) or N (at most N).
        group: the catalogue's ``columns:`` (None: none), used only when ``columns`` is None.
        margin, gutter, bleed, cut_lines, crop_marks, calibration, home_bleed: as
            :class:`~tokengen.geometry.imposition.SheetSpec` holds them.
        furniture: ``"foot"`` (the ruler strip always across the foot), ``"full"`` (across the
            foot, or up the left margin when that saves sheets: what build, export, batch and
            the page ask for) or ``"compact"`` (see :func:`tokengen.geometry.pager.furniture_place`).
    Returns:
        a square :class:`~tokengen.geometry.imposition.SheetSpec`; a build gives it the
        catalogue's height and shape with :func:`tokengen.geometry.shapes.sheet_for`.
    """
    return SheetSpec(page=page, size=size, margin=margin, gutter=gutter, bleed=bleed, columns=columns or None,
                     cut_lines=cut_lines, crop_marks=crop_marks, calibration=calibration,
                     group=group if columns is None else None, home_bleed=home_bleed, furniture=furniture)
