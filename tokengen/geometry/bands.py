"""Sizes per layout: a catalogue's tokens grouped into *bands*, one per trim (size and shape).

A layout may declare its own ``size`` and ``shape`` (:class:`Trim`, kept on its
:class:`tokengen.sources.template.Template`); every token drawn with it takes that trim, every
other token the catalogue's own. One build places every band on the same sheets, each band in
rows of its own (:func:`tokengen.geometry.pager.band_pages`); a catalogue of one trim is one band
and is laid out exactly as before.

Pure geometry, in pt (1 in = 72 pt), no ReportLab.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..model import Catalogue, Token
from .imposition import SheetSpec
from .shapes import Shape, describe, sheet_for


@dataclass(frozen=True)
class Trim:
    """A token's trim as a layout declares it: the box ``width`` pt (a hex's box, as
    :attr:`tokengen.model.Catalogue.size` holds it), its ``height`` pt (None: as wide as it is
    tall) and its ``shape`` (None: square)."""

    width: float
    height: float | None = None
    shape: Shape | None = None


@dataclass(frozen=True)
class Band:
    """The tokens of one trim: ``trim`` (None: the catalogue's own size and shape) and the token
    designs drawn at it, in catalogue order."""

    trim: Trim | None
    tokens: tuple[Token, ...]

    def expanded(self) -> list[Token]:
        """Every physical token of the band, each design repeated ``copies`` times."""
        return [t for t in self.tokens for _ in range(t.copies)]

    @property
    def count(self) -> int:
        """Physical tokens in the band (one set)."""
        return sum(t.copies for t in self.tokens)


def trim_of(token: Token) -> Trim | None:
    """The trim ``token`` is drawn at: its layout's own (:attr:`Template.trim
    <tokengen.sources.template.Template.trim>`), or None for the catalogue's."""
    trim: Trim | None = getattr(token.template, "trim", None)
    return trim


def bands(catalogue: Catalogue) -> list[Band]:
    """The catalogue's tokens grouped by trim, bands in order of their first token (the
    catalogue's own trim among them where its first token is); one band when every token has the
    catalogue's trim."""
    groups: dict[Trim | None, list[Token]] = {}
    for token in catalogue.tokens:
        groups.setdefault(trim_of(token), []).append(token)
    return [Band(trim, tuple(tokens)) for trim, tokens in groups.items()]


def band_spec(spec: SheetSpec, catalogue: Catalogue, trim: Trim | None) -> SheetSpec:
    """The sheet of the band of ``trim`` on the run's sheet ``spec`` (whose ``size`` is the
    catalogue's own size as settled, ``--size``/``--scale`` included): the band's width, height
    and shape, scaled by the factor the run's size puts on the catalogue's. ``trim`` None is the
    catalogue's own band, :func:`tokengen.geometry.shapes.sheet_for` exactly."""
    if trim is None:
        return sheet_for(spec, catalogue)
    factor = spec.size / catalogue.size
    punch = bool(getattr(spec.shape, "punch", False))
    base = replace(spec, size=trim.width * factor, shape=Shape(punch=True) if punch else None, height=None)
    own = replace(catalogue, size=trim.width, height=trim.height, shape=trim.shape)
    return sheet_for(base, own)


def band_specs(spec: SheetSpec, catalogue: Catalogue, found: Sequence[Band] | None = None) -> list[SheetSpec]:
    """:func:`band_spec` of every band of ``catalogue`` (``found``: its :func:`bands`), in order."""
    return [band_spec(spec, catalogue, band.trim) for band in (bands(catalogue) if found is None else found)]


def describe_all(specs: Sequence[SheetSpec]) -> str:
    """The tokens of several bands for captions and PDF subjects: ``0.625in square, 1in circle
    and 63mm × 88mm rounded`` (one band: :func:`tokengen.geometry.shapes.describe`)."""
    names = [describe(s) for s in specs]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def catalogue_trim(catalogue: Catalogue) -> Trim:
    """The catalogue's own trim (its top-level ``size:`` and ``shape:``)."""
    shape: Any = catalogue.shape
    return Trim(catalogue.size, catalogue.height, shape)


def band_catalogue(catalogue: Catalogue, band: Band) -> Catalogue:
    """``catalogue`` as if it held only ``band``'s tokens, at the band's trim (for the checks and
    warnings that measure a catalogue at one size)."""
    if band.trim is None:
        return replace(catalogue, tokens=band.tokens)
    return replace(catalogue, tokens=band.tokens, size=band.trim.width, height=band.trim.height, shape=band.trim.shape)


def band_names(catalogue: Catalogue, found: Sequence[Band] | None = None) -> str:
    """The sizes of ``catalogue``'s bands as its file gives them, for messages: ``0.625in square,
    1in circle and 63mm × 88mm rounded``."""
    page = SheetSpec(page=(0.0, 0.0), size=catalogue.size)
    return describe_all([band_spec(page, catalogue, band.trim) for band in (bands(catalogue) if found is None else found)])
