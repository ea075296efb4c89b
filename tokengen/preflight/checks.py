"""Preflight: read any PDF and say, check by check, why a print shop would reject it.

Checks (each one :class:`Check`, in this order; "warn" checks pass with ``warning`` set):

``pages``        at least one page; an even count for a ``single-pages`` profile (every token
                 has two sides).
``boxes``        every page has its own TrimBox and BleedBox (when the profile sets ``boxes``).
``bleed``        BleedBox minus TrimBox is at least the profile's bleed on all four sides, and
                 BleedBox lies inside the MediaBox.
``trim-size``    ``sheets``: the MediaBox is the profile's page (either way round); with a
                 ``cut_layer`` (a die line), every path stroked in that separation has the
                 bounds of one token's trim within :data:`DIE_TOL` (0.1 pt) and every token on a
                 page with a die line has one;
                 single pages: every page has the same trim, equal to the profile's product
                 ``trim`` when it has one (a preset), else to ``size`` when given.
``fonts``        every font reached from a page is embedded (FontFile, FontFile2 or FontFile3 in
                 its descriptor; Type0 through its descendant; Type3 is drawn by the file):
                 the page's, its Form XObjects' (nested), tiling patterns', Type 3 glyphs' and
                 printable annotations' appearance streams; each problem names page and where.
``colour``       in a CMYK profile: no RGB anywhere (``rg``/``RG``, ``sc``/``scn`` in DeviceRGB,
                 CalRGB, 3-channel ICCBased or Indexed over those, RGB images, shadings); under
                 PDF/X-1a also no ICCBased, Lab or Cal colour spaces (ISO 15930-1: CMYK, grey,
                 spot only).
``images``       every placed image has at least the profile's DPI at its placed size: pixels /
                 (placed length / 72 pt), the lesser of both axes, through every transformation.
``safe-area``    every visible character's box (advance × font size, see
                 :mod:`tokengen.preflight.pdfwalk`) lies at least the profile's ``safe`` inside its trim:
                 the trim of the token it sits on (see :func:`pieces`), else the page's TrimBox
                 (the MediaBox when there is none); a hand-laid sheet's zone labels (its
                 ``zones`` form) lie on the board's margin and are held to the sheet's edge.
                 One problem per page and kind of trim:
                 how many characters, and the one farthest out.
``annotations``  printable annotations and form fields (warn: shops flatten or reject them).
``transparency`` soft masks, constant alpha below 1, blend modes other than Normal,
                 transparency groups: fail under PDF/X-1a, else warn.
``pdfx``         the PDF/X-1a keys of the edition the profile asks for (``pdfx: x1a`` 2001, ``x1a-2003``;
                 see :func:`tokengen.preflight.pdfx.problems`): fail when the profile asks for PDF/X.
``hairlines``    strokes thinner than :data:`HAIRLINE` pt at their placed size (warn).
``ink``          total ink (C+M+Y+K, %) of fills, strokes, text and CMYK image pixels inside the
                 print area (BleedBox, else TrimBox, else CropBox) at most the profile's
                 ``ink_limit`` (:func:`tokengen.preflight.pdfx.ink_limit`); the highest total found and
                 where. The ``All`` separation (crop and registration marks, printed on every
                 plate) counts as no ink (:data:`tokengen.preflight.pdfwalk.ALL_SEPARATION`), and so does
                 the die line (the profile's ``cut_layer`` separation). A CMYK image over the
                 limit is named (``image /Im0 pixel 320 % in form /Fm0``). A profile that
                 prints greys and black on K alone (``colour: formula``) also refuses every
                 DeviceCMYK image with neutral pixels built from C, M and Y (rich or CMY grey,
                 :func:`tokengen.preflight.pdfwalk.cmy_neutral`), naming the image and its
                 heaviest such pixel.

A problem names its page, or ``document`` when it concerns the whole file (the Info keys, the ID,
the output intent, the PDF version, an odd page count).

All positions are in each page's default user space, scaled by ``/UserUnit``; a page's
MediaBox/CropBox origin and ``/Rotate`` cannot change a verdict. The file is read once,
page by page, within the work budget of :class:`~tokengen.preflight.pdfwalk.Limits`; a form placed many
times is measured once.

On a sheet of many tokens the TrimBox is the block of trims (see
:class:`tokengen.outputs.options.BuildOptions`); the trims of single tokens are not in the PDF, so
``safe-area`` finds them as Form XObjects placed on the page whose BBox is trim + bleed (how
tokengen draws tokens); a sheet drawn otherwise is checked against the block's outer edges only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import PreflightError
from ..io import progress
from ..sources.profiles import SHEET_OUTPUTS, Profile
from ..units import counted, format_length
from . import pdfx

if TYPE_CHECKING:  # pikepdf is imported only when a PDF is read (start-up stays fast)
    from .pdfwalk import Box, Limits

#: Most pages a sensible token file has (the build limit); the default of ``--max-pages``.
MAX_PAGES = 5_000
#: Length tolerance, pt.
TOL = 0.01
#: Problems listed per check (the count is always complete).
MAX_DETAILS = 20
#: How far (pt) a die-line path's bounds may lie from its token's trim (profile key ``cut_layer``).
DIE_TOL = 0.1
#: Thinnest stroke that prints reliably, pt (the usual shop minimum; 0.25 pt = 0.09 mm).
HAIRLINE = 0.25
#: Every check, in report order.
#: The name tokengen gives the page-sized form of a hand-laid sheet's zone bands and labels
#: (:meth:`tokengen.faces.render.SheetCanvas.zone_bands`): sheet furniture on the board's margin.
ZONE_FORM = "FormXob.zones"

CHECKS = ("pages", "boxes", "bleed", "trim-size", "fonts", "colour", "images", "safe-area",
          "annotations", "transparency", "pdfx", "hairlines", "ink")


@dataclass(frozen=True)
class Check:
    """The outcome of one check.

    Attributes:
        name: one of :data:`CHECKS`.
        passed: True when nothing is wrong enough to fail.
        message: one line with the numbers (for a failure or warning: how many problems, and
            the first).
        page: 1-based page of the first problem; None when it concerns the whole document (the
            Info dictionary, the ID, the output intent, the PDF version, the page count) or
            when nothing is wrong.
        problems: one line per problem (at most :data:`MAX_DETAILS`), each naming its page, or
            ``document`` for a problem of the whole file.
        warning: passed, but with findings a shop may act on (printable annotations, hairlines,
            transparency outside PDF/X).
    """

    name: str
    passed: bool
    message: str
    page: int | None = None
    problems: tuple[str, ...] = field(default=())
    warning: bool = False

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: name, passed, message, page, problems (a list), warning."""
        data = asdict(self)
        data["problems"] = list(self.problems)
        return data


def preflight(pdf_path: str | Path, profile: Profile, *, size: float | None = None, limits: Limits | None = None) -> list[Check]:
    """Check ``pdf_path`` against ``profile``; ``size`` (pt) is the expected token trim for
    single-page profiles; ``limits`` bound the work (defaults: :class:`~tokengen.preflight.pdfwalk.Limits`).

    Returns:
        One :class:`Check` per name in :data:`CHECKS`, in that order.
    Raises:
        PreflightError: the file is missing, not a regular file, too large, not a PDF, encrypted
            with a password, too damaged to read, or over a work limit (one line naming the
            limit and the ``--max-…`` flag that raises it).
    """
    from .pdfwalk import Limits, quiet_qpdf

    path = Path(pdf_path)
    with quiet_qpdf():
        try:
            return _Run(path, profile, size, limits or Limits()).run()
        except PreflightError as exc:
            raise PreflightError(f"{path}: {exc}") from None
        except RecursionError:
            raise PreflightError(f"{path}: objects nested too deeply to read") from None
        except MemoryError:
            raise PreflightError(f"{path}: out of memory while reading (lower the --max-… limits)") from None
        except Exception as exc:  # noqa: BLE001 - qpdf raises many types for damaged files
            raise PreflightError(f"{path}: cannot read the page contents ({type(exc).__name__}: {_first_line(exc)})") from None


def read_within(pdf_path: str | Path, limits: Limits | None = None) -> None:
    """Read the whole of ``pdf_path`` as :func:`preflight` does, within ``limits``, and drop the
    verdicts: what ``tokengen preview`` runs before pdfium renders a file from elsewhere.

    Raises:
        PreflightError: as :func:`preflight` (the same one line, naming the ``--max-…`` flag).
    """
    from ..sources.profiles import get_profile

    preflight(pdf_path, get_profile("home"), limits=limits)


def _first_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return text[:160]


def _result(name: str, problems: Sequence[tuple[int | None, str]], ok: str, *, warn: bool = False) -> Check:
    if not problems:
        return Check(name, True, ok)
    first_page, first = problems[0]
    total = len(problems) + getattr(problems, "extra", 0)
    more = f" (and {total - 1} more)" if total > 1 else ""
    lines = tuple(f"{_where(p)}: {text}" for p, text in problems[:MAX_DETAILS])
    if total > MAX_DETAILS:
        lines += (f"… {total - MAX_DETAILS} more not shown",)
    return Check(name, warn, f"{_where(first_page)}: {first}{more}", first_page, lines, warning=warn)


def _where(page: int | None) -> str:
    """How a problem line starts: ``page 3``, or ``document`` (page None) for the whole file."""
    return "document" if page is None else f"page {page}"


def _count(n: int, noun: str, nouns: str = "") -> str:
    """``1 page``, ``2 pages``: the number and the noun in the right number (``nouns`` for an
    irregular plural)."""
    return f"{n} {noun if n == 1 else nouns or noun + 's'}"


def _pt(v: float) -> str:
    return f"{v:.2f} pt ({v / 72:.3f} in, {v * 25.4 / 72:.2f} mm)"


def _grow(box: Box, d: float) -> Box:
    return (box[0] - d, box[1] - d, box[2] + d, box[3] + d)


class _Problems(list):
    """A problem list that stops storing past a cap but keeps counting (flat memory)."""

    def __init__(self) -> None:
        super().__init__()
        self.extra = 0

    def add(self, page: int | None, text: str) -> None:
        if len(self) < MAX_DETAILS * 5:
            self.append((page, text))
        else:
            self.extra += 1


def pieces(forms: list[Box], trim: Box, bleed: float) -> list[Box]:
    """The token trims on a sheet: every Form XObject placed on the page whose (page-space)
    BBox lies inside ``trim`` grown by ``bleed`` and is smaller than it (tokengen draws each
    token that way, its BBox = trim + bleed), shrunk by ``bleed``. Empty when the page is one
    piece."""
    outer = _grow(trim, bleed + TOL)
    area = (trim[2] - trim[0]) * (trim[3] - trim[1])
    found = []
    for x0, y0, x1, y1 in dict.fromkeys(forms):
        inner = (x0 + bleed, y0 + bleed, x1 - bleed, y1 - bleed)
        if inner[2] <= inner[0] or inner[3] <= inner[1]:
            continue
        if x0 >= outer[0] and y0 >= outer[1] and x1 <= outer[2] and y1 <= outer[3] and (inner[2] - inner[0]) * (inner[3] - inner[1]) < area * 0.99:
            found.append(inner)
    return found


class _Run:
    """One preflight: the file read page by page; each check's findings gathered as it goes."""

    def __init__(self, path: Path, profile: Profile, size: float | None, limits: Limits):
        self.path, self.profile, self.size, self.limits = path, profile, size, limits
        self.ink_limit = pdfx.ink_limit(profile)
        self.x1a = pdfx.wanted(profile)
        #: The profile prints greys and black on K alone (``colour: formula``): CMY greys in images fail ``ink``.
        self.k_neutrals = getattr(profile, "conversion", "icc") == "formula"
        self.found: dict[str, _Problems] = {name: _Problems() for name in CHECKS}
        self.fonts: set[str] = set()
        self.least_bleed = math.inf
        self.first_trim: tuple[float, float] | None = None
        self.images = 0
        self.least_dpi = math.inf
        self.chars = 0
        self.tokens = 0
        self.thinnest: tuple[float, int, str] | None = None
        self.ink: tuple[float, int, str] | None = None
        self.annotations = 0
        self.transparency = 0
        self.rgb = 0
        self.unsafe: dict[str, _Unsafe] = {}  # this page's characters too close to a trim, by trim kind
        self.die_pages = 0  # pages with a die line (profile key cut_layer)
        self.piece_cache: dict[tuple[Any, ...], tuple[list[tuple[float, Box, str]], list[tuple[Box, str]]]] = {}
        self.locators: dict[tuple[Box, ...], _Locator] = {}  # by the page's token trims
        self.reached: dict[tuple[Any, ...], list[Any]] = {}  # forms reached from a page, by its children's keys
        self.count = 0  # pages read (set by _checks)
        self.x_problems: list[tuple[int | None, str]] = []

    def run(self) -> list[Check]:
        from .pdfwalk import Budget, Walker, open_pdf

        pdf = open_pdf(self.path, self.limits)
        try:
            budget = Budget(self.limits)
            walker = Walker(pdf, budget, self.ink_limit, die=self.profile.cut_layer, neutrals=self.k_neutrals)
            count = 0
            walker.count_placements(pdf.pages)
            budget.decoded = 0  # the first pass is not counted twice
            total = len(pdf.pages)
            for number, page in enumerate(pdf.pages, 1):
                if number > self.limits.pages:
                    raise PreflightError(f"the PDF has more pages than its page count says, more than the limit of {self.limits.pages:,} (raise it with --max-pages)")
                count = number
                self._page(walker, page, number)
                progress.report("preflight pages", number, total)
            x_problems = pdfx.problems(pdf, self.path, pdfx.edition(self.profile)) if self.x1a else []
        finally:
            pdf.close()
        return self._checks(count, x_problems)

    # -- one page ----------------------------------------------------------------------------------
    def _page(self, walker: Any, page: Any, n: int) -> None:
        """Read page ``n`` and add its findings: its boxes, what its content reaches (fonts,
        colour, transparency), then its images, strokes, ink and characters, placement by
        placement (each token form measured once)."""
        from .pdfwalk import page_boxes, user_unit

        uu = user_unit(page)
        boxes = page_boxes(page)
        self._geometry(n, boxes, uu)
        frame = _Frame.of(boxes, self.profile.safe / uu)
        summary = walker.page(page, n, frame.area)
        walker.budget.charge_chars(len(summary.chars))  # before they are checked: a shared stream is parsed once, checked per page
        annots = self._annotations(walker, page, n)
        self._reached_findings(n, self._reached_from(walker, summary, annots))
        self._page_content(n, summary, uu)
        placed, forms, board = self._placements(walker, summary)
        trims = pieces(forms, frame.trim, frame.bleed)
        self.tokens += len(trims)
        if self.profile.cut_layer is not None:  # a page that is one piece (one token on it): its TrimBox is that token's trim
            self._die(n, summary.die, trims or [frame.trim], uu)
        loose = self._placed(walker, n, placed, set(trims), frame, list(summary.chars), uu)
        self.chars += len(summary.chars) + len(board)
        self._board(n, board, boxes["media"], frame.safe, uu)
        self._loose(n, loose, trims, frame, uu)
        self._report_unsafe(n, uu)

    def _page_content(self, n: int, summary: Any, uu: float) -> None:
        """The images, strokes and ink of page ``n``'s own content (not its forms')."""
        from .pdfwalk import IDENTITY, image_dpis, thinnest

        self._dpi(n, image_dpis(summary.images, IDENTITY), uu)
        self._stroke(n, thinnest(summary.strokes, IDENTITY), uu)
        for total, what in summary.ink:
            self._ink(n, total, what)

    @staticmethod
    def _placements(walker: Any, summary: Any) -> tuple[list[tuple[Any, Any, float, float]], list[Box], list[tuple[Box, str]]]:
        """The forms the page places, each measured (its subtree charged to the budget): (key,
        measure, dx, dy) of each, their page-space bounding boxes, and the characters of a
        hand-laid sheet's zone forms (on the board's margin), in page space."""
        placed: list[tuple[Any, Any, float, float]] = []
        forms: list[Box] = []
        board: list[tuple[Box, str]] = []
        for key, m, label in summary.children:
            walker.budget.charge_placements(1 + walker.forms[key].count)
            measure = walker.measure(key, m[:4])
            if label.endswith(ZONE_FORM) or ZONE_FORM + "-" in label:
                board.extend((_shift(b, m[4], m[5]), t) for b, t in measure.chars)
                continue
            placed.append((key, measure, m[4], m[5]))
            if measure.bbox is not None:
                forms.append(_shift(measure.bbox, m[4], m[5]))
        return placed, forms, board

    def _placed(self, walker: Any, n: int, placed: list[tuple[Any, Any, float, float]], piece_set: set[Box], frame: _Frame,
                loose: list[tuple[Box, str]], uu: float) -> list[tuple[Box, str]]:
        """Check each placed form's images, strokes and ink; a token form's characters against
        its own trim (once per form, :meth:`_piece`). Returns ``loose`` with the characters
        still to be checked against the page (those of other forms, and of tokens, outside them).

        Raises:
            PreflightError: more than :data:`~tokengen.preflight.pdfwalk.MAX_CHARS` on the page.
        """
        from .pdfwalk import MAX_CHARS

        bleed = frame.bleed
        for key, measure, dx, dy in placed:
            self._dpi(n, measure.dpi, uu)
            self._stroke(n, measure.stroke, uu)
            self._form_ink(n, measure.ink, dx, dy, frame.area)
            walker.budget.charge_chars(len(measure.chars))
            self.chars += len(measure.chars)
            box = _shift(measure.bbox, dx, dy) if measure.bbox else None
            inner = (box[0] + bleed, box[1] + bleed, box[2] - bleed, box[3] - bleed) if box else None
            if inner is not None and inner in piece_set:
                failing, outside = self._piece(key, measure, bleed, frame.safe)
                for gap, b, text in failing:
                    self._unsafe(n, _shift(b, dx, dy), text, gap, "the token's trim", uu)
                loose.extend((_shift(b, dx, dy), t) for b, t in outside)
            else:
                loose.extend((_shift(b, dx, dy), t) for b, t in measure.chars)
            if len(loose) > MAX_CHARS:
                raise PreflightError(f"more than {MAX_CHARS:,} characters on page {n} (a fixed limit)")
        return loose

    def _form_ink(self, n: int, ink: list[tuple[float, str, list[Box]]], dx: float, dy: float, area: Box) -> None:
        """The highest ink total of a form placed at (``dx``, ``dy``) that reaches ``area``."""
        from .pdfwalk import overlaps

        for total, what, places in ink:
            if any(overlaps(_shift(b, dx, dy), area) for b in places):
                self._ink(n, total, what)
                break

    def _board(self, n: int, board: list[tuple[Box, str]], media: Box, safe: float, uu: float) -> None:
        """A hand-laid sheet's zone labels, kept by the board around the counters: the sheet's
        edge (``media``) is their trim."""
        for b, text in board:
            gap = min(b[0] - media[0], b[1] - media[1], media[2] - b[2], media[3] - b[3])
            if gap + TOL / uu < safe:
                self._unsafe(n, b, text, gap, "the sheet (a zone label on the board's margin)", uu)

    def _loose(self, n: int, loose: list[tuple[Box, str]], trims: list[Box], frame: _Frame, uu: float) -> None:
        """Characters not checked against a token form's own trim: against the token trim their
        centre lies in, else the page's trim."""
        key = tuple(trims)
        locate = self.locators.get(key)
        if locate is None:  # the pages of one sheet layout share it
            locate = self.locators[key] = _Locator(trims)
            if len(self.locators) > 64:  # pages laid out each their own way: keep few
                self.locators.pop(next(iter(self.locators)))
        safe, trim = frame.safe, frame.trim
        for b, text in loose:
            home = locate((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
            where = "the token's trim"
            if home is None:
                home, where = trim, ("the trim, outside every token" if trims else "the trim")
            gap = min(b[0] - home[0], b[1] - home[1], home[2] - b[2], home[3] - b[3])
            if gap + TOL / uu < safe:
                self._unsafe(n, b, text, gap, where, uu)

    def _die(self, n: int, paths: list[Box], trims: list[Box], uu: float) -> None:
        """The die line of page ``n`` against its tokens: every path stroked in the profile's
        ``cut_layer`` separation must have the bounds of one token's trim within :data:`DIE_TOL`
        pt, and on a page with a die line every token needs its path (a back sheet has none)."""
        if not paths:
            return
        self.die_pages += 1
        name = self.profile.cut_layer

        def near(a: Box, b: Box) -> bool:
            return all(abs(a[i] - b[i]) * uu <= DIE_TOL for i in range(4))

        stray = [p for p in paths if not any(near(p, t) for t in trims)]
        if stray:
            x0, y0, x1, y1 = (v * uu for v in stray[0])
            self.found["trim-size"].add(n, f"die line {name}: {counted(len(stray), 'path')} of {len(paths)} {'matches' if len(stray) == 1 else 'match'} "
                                           f"no token's trim within {DIE_TOL:g} pt; the first spans ({x0:.2f}, {y0:.2f})-({x1:.2f}, {y1:.2f}) pt")
        uncut = [t for t in trims if not any(near(p, t) for p in paths)]
        if uncut:
            x0, y0 = uncut[0][0] * uu, uncut[0][1] * uu
            self.found["trim-size"].add(n, f"die line {name}: {counted(len(uncut), 'token')} of {len(trims)} {'has' if len(uncut) == 1 else 'have'} "
                                           f"no cut path; the first at ({x0:.2f}, {y0:.2f}) pt")

    def _piece(self, key: Any, measure: Any, bleed: float, safe: float) -> tuple[list[tuple[float, Box, str]], list[tuple[Box, str]]]:
        """Characters of a token form checked against its own trim once (cached): those too
        close (gap, box, text) and those whose centre lies outside it, relative to the form."""
        cache = (key, id(measure), round(bleed, 6), round(safe, 6))
        found = self.piece_cache.get(cache)
        if found is None:
            b = measure.bbox
            home = (b[0] + bleed, b[1] + bleed, b[2] - bleed, b[3] - bleed)
            failing, outside = [], []
            for box, text in measure.chars:
                cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                if not (home[0] <= cx <= home[2] and home[1] <= cy <= home[3]):
                    outside.append((box, text))
                    continue
                gap = min(box[0] - home[0], box[1] - home[1], home[2] - box[2], home[3] - box[3])
                if gap + TOL < safe:
                    failing.append((gap, box, text))
            found = (failing, outside)
            self.piece_cache[cache] = found
        return found

    def _unsafe(self, n: int, b: Box, text: str, gap: float, where: str, uu: float) -> None:
        """Count one character too close to ``where`` (a trim) on page ``n``; the closest (or
        farthest outside) of each trim kind is kept for :meth:`_report_unsafe`."""
        group = self.unsafe.get(where)
        if group is None:
            self.unsafe[where] = _Unsafe(1, gap, text, b)
        else:
            group.count += 1
            if gap < group.gap:
                group.gap, group.text, group.box = gap, text, b

    def _report_unsafe(self, n: int, uu: float) -> None:
        """One problem line per trim kind of page ``n``: how many characters, and the worst."""
        safe = self.profile.safe
        for where, g in self.unsafe.items():
            char = f"{g.text!r} at ({g.box[0] * uu:.1f}, {g.box[1] * uu:.1f}) pt"
            needs = format_length(safe)
            needs += "" if needs.endswith("pt") else f" = {safe:.2f} pt"  # 0.125in = 9.00 pt; 4.50pt once
            gap = f"{g.gap * uu:.2f} pt from {where} (needs {needs})"
            if g.count == 1:
                self.found["safe-area"].add(n, f"1 character lies outside the safe area: {char} is {gap}")
            else:
                self.found["safe-area"].add(n, f"{counted(g.count, 'character')} {'lies' if g.count == 1 else 'lie'} outside the safe area; the worst, {char}, is {gap}")
        self.unsafe = {}

    def _geometry(self, n: int, boxes: dict[str, Box], uu: float) -> None:
        """The boxes, bleed and trim-size findings of page ``n`` (``boxes`` from
        :func:`~tokengen.preflight.pdfwalk.page_boxes`, scaled by ``uu``, its UserUnit)."""
        profile = self.profile
        trim, bleed = boxes.get("trim"), boxes.get("bleed")
        if profile.boxes and (trim is None or bleed is None):
            missing = " and no ".join(k for k, b in (("TrimBox", trim), ("BleedBox", bleed)) if b is None)
            self.found["boxes"].add(n, f"no {missing}")
        if profile.boxes or profile.bleed > 0:
            self._bleed(n, trim, bleed, boxes["media"], uu)
        if profile.output in SHEET_OUTPUTS:
            self._sheet_size(n, trim, boxes["media"], uu)
        else:
            self._single_trim(n, trim or (None if profile.boxes else boxes["media"]), uu)

    def _bleed(self, n: int, trim: Box | None, bleed: Box | None, media: Box, uu: float) -> None:
        """The bleed around the TrimBox at least the profile's, and the BleedBox on the page."""
        if trim is None or bleed is None:
            self.found["bleed"].add(n, "no bleed: TrimBox or BleedBox missing")
            return
        smallest = min(trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3]) * uu
        self.least_bleed = min(self.least_bleed, smallest)
        want = self.profile.bleed
        if smallest + TOL < want:
            self.found["bleed"].add(n, f"bleed {_pt(smallest)} is less than the profile's {format_length(want)} ({want:.2f} pt)")
        if not _inside(bleed, media):
            self.found["bleed"].add(n, f"BleedBox {_scaled(bleed, uu)} runs off the MediaBox {_scaled(media, uu)}")

    def _sheet_size(self, n: int, trim: Box | None, media: Box, uu: float) -> None:
        """A sheet profile: the page is the profile's sheet (either way round), the TrimBox on it."""
        want = sorted(self.profile.page)
        got = sorted(((media[2] - media[0]) * uu, (media[3] - media[1]) * uu))
        if abs(got[0] - want[0]) > 0.5 or abs(got[1] - want[1]) > 0.5:
            self.found["trim-size"].add(n, f"page is {got[0]:.1f} × {got[1]:.1f} pt, the profile's sheet is {want[0]:.1f} × {want[1]:.1f} pt")
        if trim and not _inside(trim, media):
            self.found["trim-size"].add(n, f"TrimBox {_scaled(trim, uu)} runs off the page")

    def _single_trim(self, n: int, box: Box | None, uu: float) -> None:
        """A single-pages profile: every page's trim ``box`` the product's (a preset's ``trim``),
        else ``size``, else the first page's. None: no trim (the boxes check reports it)."""
        if box is None:
            return
        profile = self.profile
        dims = ((box[2] - box[0]) * uu, (box[3] - box[1]) * uu)
        product = profile.trim  # a product preset's trim is the shop's product: it wins over ``size``
        expected = product or ((self.size, self.size) if self.size is not None else self.first_trim)
        if expected is not None and (abs(dims[0] - expected[0]) > TOL * 10 or abs(dims[1] - expected[1]) > TOL * 10):
            whose = f" (profile {profile.name}'s product trim)" if product else ""
            self.found["trim-size"].add(n, f"trim {dims[0]:.2f} × {dims[1]:.2f} pt, expected {expected[0]:.2f} × {expected[1]:.2f} pt{whose}")
        self.first_trim = self.first_trim or dims

    def _annotations(self, walker: Any, page: Any, n: int) -> list[Any]:
        """Printable annotations and widgets (warned); their normal appearances, summarised."""
        out: list[Any] = []
        annots = page.obj.get("/Annots")
        if annots is None:
            return out
        for i, annot in enumerate(list(annots)[:10_000], 1):
            try:
                flags = int(annot.get("/F", 0))
                subtype = str(annot.get("/Subtype", "/?"))
            except (TypeError, ValueError, AttributeError):
                continue
            printable = bool(flags & 4) and not flags & 2
            if subtype == "/Widget" or printable:
                self._annotation_found(n, annot, i, subtype)
            summary = self._appearance(walker, annot, i, subtype) if printable else None
            if summary is not None:
                out.append(summary)
        return out

    def _annotation_found(self, n: int, annot: Any, i: int, subtype: str) -> None:
        rect = annot.get("/Rect")
        at = f" at ({float(rect[0]):.1f}, {float(rect[1]):.1f}) pt" if rect is not None and len(rect) == 4 else ""
        kind = "form field" if subtype == "/Widget" else "printable annotation"
        self.annotations += 1
        self.found["annotations"].add(n, f"{kind} {subtype}{at} (annotation {i})")

    @staticmethod
    def _appearance(walker: Any, annot: Any, i: int, subtype: str) -> Any:
        """The summary of a printable annotation's normal appearance (its ``/AS`` state's when
        it has several), or None."""
        import pikepdf

        ap = annot.get("/AP")
        normal = ap.get("/N") if ap is not None else None
        if normal is not None and not isinstance(normal, pikepdf.Stream):
            state = annot.get("/AS")
            normal = normal.get(str(state)) if state is not None else None
        if not isinstance(normal, pikepdf.Stream):
            return None
        return walker.form(normal, f"annotation {i} ({subtype}) appearance", 1)[1]

    def _reached_from(self, walker: Any, summary: Any, annots: list[Any]) -> list[Any]:
        """:meth:`_reached` from the page's ``summary`` and its annotations' appearances; for a
        page without annotations, the forms found below its children are kept by the children's
        keys (in order: the walk, and so the first of each finding, is the same) for the next
        page placing the same forms."""
        if annots:
            return self._reached(walker, [summary, *annots])
        key = tuple(k for k, _, _ in summary.children)
        below = self.reached.get(key)
        if below is None:
            below = self.reached[key] = self._reached(walker, [summary])[1:]
            if len(self.reached) > 64:  # a file whose pages each place other forms: keep few
                self.reached.pop(next(iter(self.reached)))
        return [summary, *below]

    @staticmethod
    def _reached(walker: Any, roots: list[Any]) -> list[Any]:
        seen: dict[int, Any] = {}
        stack = list(roots)
        while stack:
            s = stack.pop()
            if id(s) in seen:
                continue
            seen[id(s)] = s
            for key, _, _ in s.children:
                child = walker.forms.get(key)
                if child is not None and id(child) not in seen:
                    stack.append(child)
        return list(seen.values())

    def _reached_findings(self, n: int, reached: list[Any]) -> None:
        """The fonts, colour, neutral-grey and transparency findings of page ``n`` from every
        stream it reaches (``reached``: summaries, the page's first)."""
        self._fonts_found(n, reached)
        self._colour_found(n, reached)
        if self.k_neutrals:
            self._neutrals_found(n, reached)
        trans = [t for s in reached for t in s.transparency]
        if trans:
            c = sum(s.counts.get("transparency", 0) for s in reached)
            self.transparency += c
            self.found["transparency"].add(n, f"{_count(c, 'use')} of transparency, first: {trans[0]}")

    def _fonts_found(self, n: int, reached: list[Any]) -> None:
        seen: set[tuple[str, str]] = set()
        for s in reached:
            for name, ok, where in s.fonts.values():
                self.fonts.add(name)
                if not ok and (name, where) not in seen:
                    seen.add((name, where))
                    self.found["fonts"].add(n, f"font {name} is not embedded ({'on the page' if where == 'page' else 'in ' + where})")

    def _colour_found(self, n: int, reached: list[Any]) -> None:
        rgb = [t for s in reached for t in s.rgb]
        count = sum(s.counts.get("rgb", 0) for s in reached)
        if self.x1a:
            rgb += [t for s in reached for t in s.spaces]
            count += sum(s.counts.get("spaces", 0) for s in reached)
        if rgb:
            self.rgb += count
            label = "RGB or non-PDF/X colour" if count > sum(s.counts.get("rgb", 0) for s in reached) else "RGB"
            self.found["colour"].add(n, f"{_count(count, label + ' use')}, first: {rgb[0]}")

    def _neutrals_found(self, n: int, reached: list[Any]) -> None:
        done: set[str] = set()
        for s in reached:
            for text in s.neutrals:
                if text not in done:
                    done.add(text)
                    self.found["ink"].add(n, f"{text}; profile {self.profile.name} prints greys and black on K alone (colour: formula)")

    def _dpi(self, n: int, entries: list[tuple[float, str]], uu: float) -> None:
        for dpi, what in entries:
            dpi /= uu
            self.images += 1
            self.least_dpi = min(self.least_dpi, dpi)
            if dpi + 0.5 < self.profile.dpi:
                self.found["images"].add(n, f"{what} is {dpi:.0f} DPI, less than {self.profile.dpi}")

    def _stroke(self, n: int, entry: tuple[float, str] | None, uu: float) -> None:
        if entry is None:
            return
        width = entry[0] * uu
        if self.thinnest is None or width < self.thinnest[0]:
            self.thinnest = (width, n, entry[1])
        if width + 1e-6 < HAIRLINE:
            where = "on the page" if entry[1] == "page" else f"in {entry[1]}"
            self.found["hairlines"].add(n, f"a stroke {width:.3f} pt wide {where}, thinner than {HAIRLINE} pt")

    def _ink(self, n: int, total: float, what: str) -> None:
        if self.ink is None or total > self.ink[0]:
            self.ink = (total, n, what)
        if total > self.ink_limit + 0.5:
            self.found["ink"].add(n, f"total ink {total:.0f} % ({what}) is over the profile's limit of {self.ink_limit:.0f} %")

    # -- results -----------------------------------------------------------------------------------
    def _checks(self, count: int, x_problems: list[tuple[int | None, str]]) -> list[Check]:
        """One :class:`Check` per name of :data:`CHECKS`, in order, from the findings gathered
        over ``count`` pages (``x_problems``: :func:`~tokengen.preflight.pdfx.problems`)."""
        self.count, self.x_problems = count, x_problems
        return [getattr(self, "_check_" + name.replace("-", "_"))() for name in CHECKS]

    def _check_pages(self) -> Check:
        count = self.count
        if count == 0:
            return Check("pages", False, "the PDF has no pages")
        odd = [(None, f"{_count(count, 'page')}, an odd count: every token needs a face and a back")] \
            if self.profile.output == "single-pages" and count % 2 else []
        return _result("pages", odd, _count(count, "page"))

    def _check_boxes(self) -> Check:
        if not self.profile.boxes:
            return Check("boxes", True, f"not required by profile {self.profile.name}")
        return _result("boxes", self.found["boxes"], f"every page ({self.count}) has a TrimBox and a BleedBox")

    def _check_bleed(self) -> Check:
        p = self.profile
        if not p.boxes and p.bleed <= 0:
            return Check("bleed", True, f"no bleed required by profile {p.name}")
        least = self.least_bleed if self.least_bleed < math.inf else 0.0
        return _result("bleed", self.found["bleed"], f"bleed at least {_pt(least)} on every side of every page (profile: {format_length(p.bleed)})")

    def _check_trim_size(self) -> Check:
        p, found = self.profile, self.found["trim-size"]
        if p.output not in SHEET_OUTPUTS:
            shown = f"{self.first_trim[0]:.2f} × {self.first_trim[1]:.2f} pt" if self.first_trim else "none"
            return _result("trim-size", found, f"every page has the same trim, {shown}")
        want = sorted(p.page)
        if p.cut_layer is not None and not self.die_pages and self.count:
            found.add(None, f"die line {p.cut_layer}: no page has a path stroked in the {p.cut_layer} separation")
        die = f"; the {p.cut_layer} die line follows every token's trim within {DIE_TOL:g} pt on {_count(self.die_pages, 'page')}" \
            if p.cut_layer is not None else ""
        return _result("trim-size", found, f"every page is the profile's {want[0]:.1f} × {want[1]:.1f} pt sheet{die}")

    def _check_fonts(self) -> Check:
        if not self.fonts:
            return _result("fonts", self.found["fonts"], "no fonts used")
        return _result("fonts", self.found["fonts"], "the only font is embedded" if len(self.fonts) == 1 else f"all {len(self.fonts)} fonts embedded")

    def _check_colour(self) -> Check:
        if self.profile.colour != "cmyk":
            return Check("colour", True, f"profile {self.profile.name} accepts RGB")
        extra = "; no ICCBased, Lab or Cal colour spaces (PDF/X-1a)" if self.x1a else ""
        return _result("colour", self.found["colour"], f"no RGB colour operators, colour spaces or images{extra}")

    def _check_images(self) -> Check:
        if not self.images:
            return Check("images", True, "no images placed")
        return _result("images", self.found["images"], f"{_count(self.images, 'image placement')}, the least {self.least_dpi:.0f} DPI (profile: {self.profile.dpi})")

    def _check_safe_area(self) -> Check:
        if not self.chars:
            return _result("safe-area", self.found["safe-area"], "no visible text to check")
        per = f", each token's own trim for {_count(self.tokens, 'token')} placed as forms" if self.tokens else ""
        every = ("the only character is" if self.chars == 1 else f"all {self.chars} characters are") + f" at least {format_length(self.profile.safe)} inside the trim"
        return _result("safe-area", self.found["safe-area"], f"{every}{per}")

    def _check_annotations(self) -> Check:
        return _result("annotations", self.found["annotations"], "no printable annotations or form fields", warn=True)

    def _check_transparency(self) -> Check:
        return _result("transparency", self.found["transparency"], "no transparency (soft masks, alpha, blend modes)", warn=not self.x1a)

    def _check_pdfx(self) -> Check:
        if not self.x1a:
            return Check("pdfx", True, f"not asked by profile {self.profile.name}")
        return _result("pdfx", self.x_problems, f"{pdfx.edition(self.profile)}: version, Info keys, ID, output intent and a TrimBox on every page")

    def _check_hairlines(self) -> Check:
        thin = f", the thinnest {self.thinnest[0]:.2f} pt" if self.thinnest else ""
        return _result("hairlines", self.found["hairlines"], f"no stroke thinner than {HAIRLINE} pt{thin}", warn=True)

    def _check_ink(self) -> Check:
        if self.profile.colour != "cmyk":
            return Check("ink", True, f"profile {self.profile.name} is RGB: no ink limit")
        high = f"; the highest {self.ink[0]:.0f} % on page {self.ink[1]} ({self.ink[2]})" if self.ink else ""
        return _result("ink", self.found["ink"], f"total ink at most {self.ink_limit:.0f} % everywhere{high}")


@dataclass(frozen=True)
class _Frame:
    """A page's frame for the character and ink checks, in default user space (pt / UserUnit):
    its trim (TrimBox, else MediaBox), the least bleed around it (0 without a BleedBox), the
    print area ink counts in (BleedBox, else TrimBox, else CropBox) and the safe distance."""

    trim: Box
    bleed: float
    area: Box
    safe: float

    @classmethod
    def of(cls, boxes: dict[str, Box], safe: float) -> _Frame:
        trim = boxes.get("trim") or boxes["media"]
        bleed_box = boxes.get("bleed")
        bleed = min(trim[0] - bleed_box[0], trim[1] - bleed_box[1], bleed_box[2] - trim[2], bleed_box[3] - trim[3]) if bleed_box else 0.0
        return cls(trim, max(bleed, 0.0), bleed_box or boxes.get("trim") or boxes["crop"], safe)


@dataclass
class _Unsafe:
    """Characters of one page too close to one kind of trim: how many, and the worst one (its
    gap to the trim in pt, negative outside it; its text and box)."""

    count: int
    gap: float
    text: str
    box: Box


class _Locator:
    """Finds the token trim containing a point among many (a grid of cells, one lookup each)."""

    def __init__(self, trims: list[Box]):
        self.trims = trims
        self.cell = max(1.0, min((min(t[2] - t[0], t[3] - t[1]) for t in trims), default=1.0))
        self.grid: dict[tuple[int, int], list[Box]] = {}
        self.big: list[Box] = [] if len(trims) > 8 else trims  # trims spanning many cells are checked one by one
        if len(trims) > 8:
            for t in trims:
                columns = range(int(t[0] // self.cell), int(t[2] // self.cell) + 1)
                rows = range(int(t[1] // self.cell), int(t[3] // self.cell) + 1)
                if len(columns) * len(rows) > 16:
                    self.big.append(t)
                    continue
                for i in columns:
                    for j in rows:
                        self.grid.setdefault((i, j), []).append(t)

    def __call__(self, x: float, y: float) -> Box | None:
        near = self.grid.get((int(x // self.cell), int(y // self.cell)), [])
        return next((t for t in (*near, *self.big) if t[0] <= x <= t[2] and t[1] <= y <= t[3]), None)


def _shift(b: Box, dx: float, dy: float) -> Box:
    return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)


def _inside(inner: Box, outer: Box) -> bool:
    """True when ``inner`` lies inside ``outer`` within :data:`TOL`."""
    return not (inner[0] < outer[0] - TOL or inner[1] < outer[1] - TOL or inner[2] > outer[2] + TOL or inner[3] > outer[3] + TOL)


def _scaled(b: Box, uu: float) -> list[float]:
    return [round(v * uu, 2) for v in b]
