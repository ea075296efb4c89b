"""Sizes per layout: a catalogue's tokens grouped into *bands*, one per trim (size and shape).

A layout may declare its own ``size`` and ``shape`` (:class:`Trim`, kept on its
:class:`tokengen.sources.template.Template`); every token drawn with it takes that trim, every
other token the catalogue's own. One build places every band on the same sheets, each band in
rows of its own (:func:`tokengen.geometry.pager.band_pages`); a catalogue of one trim is one band
and is laid out exactly as before.

Pure geometry, in pt (1 in = 72 pt), no ReportLab.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar, overload

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


_T = TypeVar("_T")


class Run(Sequence[Token]):
    """Every physical token of a run in placement order, without a list of them: band after band
    (``found``), each band's ``copies`` sets one after another, each set its designs in catalogue
    order, each design repeated its ``copies`` times. Index ``i`` → its token in O(log designs):
    a million tokens take as little memory as eighteen (issue 27).

    Raises:
        IndexError: an index outside the run.
    """

    def __init__(self, found: Sequence[Band], copies: int):
        self._designs: list[tuple[int, Token]] = []  # (band, design) of every design placed, in order
        self._ends: list[int] = []  # index within its band's set after each design's last copy
        self._band_starts: list[int] = []  # first token index of each band, then the run's length
        self._band_first: list[int] = []  # each band's first entry in _designs
        start = 0
        for k, band in enumerate(found):
            self._band_starts.append(start)
            self._band_first.append(len(self._designs))
            end = 0
            for token in band.tokens:
                if token.copies > 0:
                    end += token.copies
                    self._designs.append((k, token))
                    self._ends.append(end)
            start += copies * end
        self._sizes = [band.count for band in found]
        self._len = start

    def __len__(self) -> int:
        return self._len

    def _entry(self, index: int) -> int:
        if not 0 <= index < self._len:
            raise IndexError(f"token {index} of a run of {self._len}")
        k = bisect_right(self._band_starts, index) - 1  # an empty band starts where the next one does: the last of them
        within = (index - self._band_starts[k]) % self._sizes[k]
        first = self._band_first[k]
        last = self._band_first[k + 1] if k + 1 < len(self._band_first) else len(self._designs)
        return bisect_right(self._ends, within, first, last)

    def band(self, index: int) -> int:
        """The band (its number in ``found``) of the token at ``index``."""
        return self._designs[self._entry(index)][0]

    @overload
    def __getitem__(self, index: int) -> Token: ...

    @overload
    def __getitem__(self, index: slice) -> list[Token]: ...

    def __getitem__(self, index: int | slice) -> Token | list[Token]:
        if isinstance(index, slice):
            return [self[i] for i in range(self._len)[index]]
        if index < 0:
            index += self._len
        return self._designs[self._entry(index)][1]

    def __iter__(self) -> Iterator[Token]:
        for i in range(self._len):
            yield self[i]

    def designs(self) -> Iterator[tuple[int, Token]]:
        """(band, design) of every design the run places, in the order of its first copy."""
        return iter(self._designs)

    def each(self, of: Callable[[int, Token], _T]) -> Sequence[_T]:
        """``of(band, design)`` for every token, by placement index, as a sequence without a list
        of the tokens: ``of`` is called once per design, in the order of :meth:`designs` (so
        Form XObjects it defines are defined in the order a token-by-token loop would)."""
        return _Each(self, [of(k, t) for k, t in self._designs])


class _Each(Sequence[_T]):
    """:meth:`Run.each`: one value per design, looked up by token index."""

    def __init__(self, run: Run, values: list[_T]):
        self._run, self._values = run, values

    def __len__(self) -> int:
        return len(self._run)

    @overload
    def __getitem__(self, index: int) -> _T: ...

    @overload
    def __getitem__(self, index: slice) -> list[_T]: ...

    def __getitem__(self, index: int | slice) -> _T | list[_T]:
        if isinstance(index, slice):
            return [self[i] for i in range(len(self))[index]]
        if index < 0:
            index += len(self)
        return self._values[self._run._entry(index)]


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
