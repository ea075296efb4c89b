"""Print profiles: what ``tokengen export`` writes and what ``tokengen preflight`` expects.

Profiles are data: the built-ins are package data (``tokengen/data/profiles.yaml``, which also
documents every key); a user file (``--profiles FILE``) of the same shape can add a profile or
change keys of a built-in one. Lengths are parsed here, at the edge, into pt (1 in = 72 pt).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..colour import INK_LIMIT, ColourOptions, icc_version, output_profile
from ..errors import CatalogueError, RenderError, UsageError
from ..units import parse_length, parse_page
from . import schemas
from .catalogue import suggest
from .yamlsrc import Lines, dotted, read_yaml

OUTPUTS = ("sheets", "single-pages", "png", "cut-svg", "cut-dxf", "cricut", "tts")
#: The outputs imposed on sheets (the sheet PDF, plus the cut files of ``cut-svg`` and ``cut-dxf``,
#: and the print image and cut file of ``cricut``).
SHEET_OUTPUTS = ("sheets", "cut-svg", "cut-dxf", "cricut")
#: ``formula`` is CMYK by the device formula instead of the ICC output profile, with greys and black
#: on K alone (:func:`tokengen.model.formula_cmyk`).
COLOURS = ("rgb", "cmyk", "formula")
MARKS = ("cut-lines", "crop-marks", "calibration", "registration")
SIDES = ("back", "face")
#: ``cut``: one closed outline per token, or each shared edge once (:func:`tokengen.geometry.cutpaths.shared_edges`).
CUTS = ("outlines", "shared")
#: A ``cut_layer`` name: a PDF name a RIP matches (``CutContour``, ``Thru-cut``, ``Dieline``).
CUT_LAYER_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,63}")

#: Every key a profile may give, with its default (lengths as the YAML would write them).
DEFAULTS: dict[str, Any] = {
    "description": "",
    "output": "sheets",
    "page": "letter",
    "landscape": False,
    "margin": "0.25in",
    "gutter": 0,
    "bleed": 0,
    "safe": "0.0625in",
    "dpi": 300,
    "colour": "rgb",
    "marks": ["cut-lines", "calibration"],
    "boxes": False,
    "order": ["face", "back"],
    "backs": "none",
    "icc": None,
    "rendering_intent": "relative",
    "ink_limit": INK_LIMIT,
    "max_dpi": 600,
    "columns": None,
    "copies": 1,
    "fill": False,
    "home_bleed": 0,
    "pdfx": "none",
    "product": "",
    "source": "",
    "trim": None,
    "canvas_px": None,
    "cut_layer": None,
    "cut": "outlines",
}
KEYS = (*DEFAULTS, "extends")


@dataclass(frozen=True)
class Profile:
    """One print profile. Lengths in pt.

    Attributes:
        name: as given to ``--profile``.
        output: ``"sheets"``, ``"single-pages"``, ``"png"``, ``"cut-svg"`` (sheets plus cut SVGs),
            ``"cut-dxf"`` (sheets plus cut DXFs) or ``"tts"`` (a Tabletop Simulator saved object and
            its images, :mod:`tokengen.outputs.tts`).
        page: (width, height) of a sheet (``output: sheets`` only).
        margin, gutter: sheet margin and the space between token trims.
        bleed: background past each trim edge.
        safe: text keeps at least this far inside the trim.
        dpi: PNG resolution (px per in) and the least resolution of placed images.
        colour: ``"rgb"`` or ``"cmyk"``.
        marks: a subset of ``cut-lines``, ``crop-marks``, ``calibration``, ``registration``.
        boxes: each page carries a TrimBox and a BleedBox (and preflight requires them).
        order: the side that comes first for each token on single pages.
        backs: ``output: sheets`` only: ``"none"`` or ``"duplex"`` (a back sheet after each face
            sheet, mirrored for a long-edge flip, with its own TrimBox and BleedBox).
        conversion: ``"icc"`` (through the output profile) or ``"formula"`` (``colour: formula``:
            CMYK by :func:`tokengen.model.formula_cmyk`, greys and black on K alone; ``colour``
            is then ``"cmyk"``).
        icc: the CMYK output profile (a shop's own ICC file or a bundled one, absolute) or None
            for the bundled FOGRA39 one (:func:`tokengen.colour.output_profile`).
        rendering_intent: ``relative`` (relative colorimetric with black-point compensation),
            ``perceptual``, ``saturation`` or ``absolute``.
        ink_limit: highest total ink C+M+Y+K in percent; preflight checks it.
        max_dpi: art above this resolution at its printed size is resampled down to it.
        columns: None (the catalogue's columns, as a grouping), 0 (as many as fit) or at most N.
        copies: sets of the catalogue; fill: repeat whole sets until the last sheet is full
            (:func:`tokengen.geometry.pager.plan`).
        home_bleed: on shared-edge sheets, background past the outer cut (pt).
        pdfx: ``"none"``, ``"x1a"`` (write PDF/X-1a:2001, PDF 1.3) or ``"x1a-2003"`` (PDF/X-1a:2003,
            PDF 1.4) (:mod:`tokengen.preflight.pdfx`; needs ``colour: cmyk`` and ``boxes: true``) and
            fail preflight without that edition's keys.
        product: the shop's product this preset is for (``tokengen export --list-profiles``).
        source: where the preset's figures come from (a URL or a short citation).
        trim: the product's trim (width, height) pt, or None: the catalogue's. When set, the
            export draws the tokens at this trim unless ``--size`` asks for another.
        canvas_px: single-pages/png only: each page is exactly (width, height) px at ``dpi``
            (a shop template's canvas), the trim centred on it; the bleed is then whatever the
            canvas leaves around the trim, uneven when the template's is (see
            :func:`tokengen.outputs.export.token_page`). None: trim + 2 × ``bleed``.
        cut_layer: sheet outputs only: the name of a spot colour (``CutContour``) in which every
            token's cut outline is stroked beside the art, as a die line for a die-cut or
            print-and-cut shop (:mod:`tokengen.outputs.dieline`); None: no die line.
        cut: ``"outlines"`` (one closed outline per token in the cut files) or ``"shared"``
            (each edge two tokens share cut once: :func:`tokengen.geometry.cutpaths.shared_edges`).
    """

    name: str
    description: str
    output: str
    page: tuple[float, float]
    margin: float
    gutter: float
    bleed: float
    safe: float
    dpi: int
    colour: str
    marks: tuple[str, ...]
    boxes: bool
    order: tuple[str, ...]
    backs: str = "none"
    columns: int | None = None
    copies: int = 1
    fill: bool = False
    home_bleed: float = 0.0
    conversion: str = "icc"
    icc: Path | None = None
    rendering_intent: str = "relative"
    ink_limit: float = INK_LIMIT
    max_dpi: int = 600
    pdfx: str = "none"
    product: str = ""
    source: str = ""
    trim: tuple[float, float] | None = None
    canvas_px: tuple[int, int] | None = None
    cut_layer: str | None = None
    cut: str = "outlines"

    def colour_options(self) -> ColourOptions:
        """The :class:`tokengen.colour.ColourOptions` this profile asks for."""
        return ColourOptions(conversion=self.conversion, icc=self.icc, intent=self.rendering_intent, ink_limit=self.ink_limit)


def builtin_path() -> Path:
    """The package's ``data/profiles.yaml``."""
    return Path(str(resources.files("tokengen").joinpath("data/profiles.yaml")))


def load_profiles(user_file: str | Path | None = None) -> dict[str, Profile]:
    """The built-in profiles, with ``user_file``'s additions and overrides applied.

    Raises:
        CatalogueError: a profiles file is unreadable or invalid (file:line: field: reason,
            with a "did you mean" for near-miss keys and values).
    """
    raw: dict[str, dict[str, Any]] = {}
    origin: dict[str, tuple[Path, Lines]] = {}
    files = [builtin_path()] + ([Path(user_file)] if user_file is not None else [])
    for path in files:
        data, lines = read_yaml(path, ("profiles",))
        # shapes, strict types and known keys (data/profiles.schema.json): a mapping of profiles,
        # each a mapping of KEYS
        schemas.check(path, data, lines, "profiles")
        for name, spec in data.items():
            raw[name] = _extended(name, spec, raw, path, lines)
            origin[name] = (path, lines)
    return {name: _profile(name, spec, *origin[name]) for name, spec in raw.items()}


def _extended(name: str, spec: dict[str, Any], raw: dict[str, dict[str, Any]], path: Path, lines: Lines) -> dict[str, Any]:
    """Profile ``name``'s keys as ``spec`` (from ``path``) gives them over those it extends (a
    profile read before, in ``raw``) or, without ``extends``, over an earlier profile of that
    name; an ICC profile's file resolved beside the file that names it.

    Raises:
        CatalogueError: ``extends`` names no profile read before.
    """
    base: dict[str, Any] = dict(raw.get(name, {}))
    if "extends" in spec:
        parent = spec["extends"]
        if parent not in raw:
            hint = suggest(str(parent), list(raw)) or f" (known: {', '.join(raw)})"
            raise CatalogueError(path, f"extends unknown profile '{parent}'{hint}", line=lines.get((name, "extends")), field=dotted((name, "extends")))
        base = dict(raw[parent])
    own = {k: v for k, v in spec.items() if k != "extends"}
    if isinstance(own.get("icc"), str) and own["icc"]:  # relative to the file that names it, also when extended
        own["icc"] = str((path.parent / own["icc"]).resolve())
    return {**base, **own}


def get_profile(name: str, user_file: str | Path | None = None) -> Profile:
    """The profile called ``name``.

    Raises:
        UsageError: no such profile (with a "did you mean" and the list of names).
        CatalogueError: see :func:`load_profiles`.
    """
    profiles = load_profiles(user_file)
    if name not in profiles:
        hint = suggest(name, list(profiles))
        raise UsageError(f"unknown profile '{name}'{hint} (profiles: {', '.join(profiles)})")
    return profiles[name]


def _profile(name: str, spec: dict[str, Any], path: Path, lines: Lines) -> Profile:
    """Turn one merged profile into a :class:`Profile` (errors at the key's line).

    Each key's type, range and choices were checked by ``data/profiles.schema.json``
    (:func:`load_profiles`), and :data:`DEFAULTS` are ours: here the lengths and the page are
    parsed, the ICC profile read, and the rules that join keys checked (:func:`_check_keys`).
    """
    values = {**DEFAULTS, **spec}

    def fail(key: str, message: str) -> CatalogueError:
        line = lines.get((name, key), lines.get((name,)))
        return CatalogueError(path, message, line=line, field=dotted((name, key)))

    def length(key: str) -> float:
        try:
            return parse_length(values[key])
        except ValueError as exc:
            raise fail(key, str(exc)) from None

    colour_model = "cmyk" if values["colour"] == "formula" else values["colour"]
    try:
        page = parse_page(str(values["page"]), landscape=values["landscape"])
    except ValueError as exc:
        raise fail("page", str(exc)) from None
    margin, gutter, bleed, safe = (length(k) for k in ("margin", "gutter", "bleed", "safe"))
    if values["output"] in SHEET_OUTPUTS and gutter + 1e-9 < 2 * bleed:
        at = "gutter" if (name, "gutter") in lines or (name, "bleed") not in lines else "bleed"
        raise fail(at, f"gutter {values['gutter']} is narrower than twice the bleed {values['bleed']}: neighbouring bleeds would overlap")
    icc, trim = _check_keys(values, colour_model, path, fail)
    canvas = values["canvas_px"]
    return Profile(name=name, description=values["description"], output=values["output"], page=page, margin=margin,
                   gutter=gutter, bleed=bleed, safe=safe, dpi=values["dpi"], colour=colour_model, marks=tuple(values["marks"]),
                   boxes=values["boxes"], order=tuple(values["order"]), backs=values["backs"],
                   columns=values["columns"], copies=values["copies"], fill=values["fill"], home_bleed=length("home_bleed"),
                   conversion="formula" if values["colour"] == "formula" else "icc", icc=icc,
                   rendering_intent=values["rendering_intent"], ink_limit=float(values["ink_limit"]), max_dpi=values["max_dpi"],
                   pdfx=values["pdfx"], product=values["product"], source=values["source"],
                   trim=trim, canvas_px=None if canvas is None else (canvas[0], canvas[1]),
                   cut_layer=values["cut_layer"], cut=values["cut"])


def _check_keys(values: dict[str, Any], colour_model: str, path: Path, fail: Callable[[str, str], CatalogueError]
                ) -> tuple[Path | None, tuple[float, float] | None]:
    """The rules of a profile that join keys or go past its schema (the ``order`` of both sides,
    the ICC profile's file, the trim, then :data:`_RULES`: a canvas or die line only where the
    output has one, a die line's name, Tabletop Simulator's RGB, PDF/X-1a's needs), checked in
    this order; returns the ICC profile's resolved path (None: the bundled one) and the product
    trim (w, h) pt or None.

    Raises:
        CatalogueError: the first rule broken, at the key it names.
    """
    if sorted(values["order"]) != sorted(SIDES):
        raise fail("order", f"expected back and face once each, got {list(values['order'])}")
    icc = _icc(values, path, fail)
    trim = _trim(values["trim"], lambda m: fail("trim", m))
    for rule in _RULES:
        rule(values, colour_model, fail)
    if values["pdfx"] != "none" and icc is not None and icc_version(icc) >= 4:  # PDF 1.3/1.4 embed ICC v2 (v4 came with PDF 1.5)
        pdfx = values["pdfx"]
        edition = "PDF/X-1a:2001, PDF 1.3" if pdfx == "x1a" else "PDF/X-1a:2003, PDF 1.4"
        raise fail("icc", f"{icc}: an ICC v{icc_version(icc):g} profile; pdfx: {pdfx} ({edition}) needs an ICC v2 profile")
    return icc, trim


def _icc(values: dict[str, Any], path: Path, fail: Callable[[str, str], CatalogueError]) -> Path | None:
    """The ICC profile's file, resolved beside ``path`` and read as an output profile (None: the bundled one)."""
    if values["icc"] is None:
        return None
    icc = (path.parent / values["icc"]).resolve()
    try:
        output_profile(icc)
    except RenderError as exc:
        raise fail("icc", str(exc)) from None
    return icc


def _canvas_rule(values: dict[str, Any], colour_model: str, fail: Callable[[str, str], CatalogueError]) -> None:
    """A canvas in pixels only for an output of images or single pages."""
    if values["canvas_px"] is not None and values["output"] not in ("single-pages", "png"):
        raise fail("canvas_px", f"a canvas in pixels needs output: single-pages or png, not {values['output']}")


def _cut_layer_rule(values: dict[str, Any], colour_model: str, fail: Callable[[str, str], CatalogueError]) -> None:
    """A die line's separation: a name as :data:`CUT_LAYER_NAME` says, not All, on a sheet output."""
    cut_layer = values["cut_layer"]
    if cut_layer is None:
        return
    if not CUT_LAYER_NAME.fullmatch(cut_layer):
        raise fail("cut_layer", f"expected a separation name such as CutContour (a letter, then letters, digits, '.', '_' "
                                f"or '-', at most 64), got {cut_layer!r}")
    if cut_layer == "All":
        raise fail("cut_layer", "All is the registration separation (every plate): name the die line CutContour or another name")
    if values["output"] not in SHEET_OUTPUTS:
        raise fail("cut_layer", f"a die line needs a sheet output (sheets, cut-svg, cut-dxf, cricut), not {values['output']}")


def _tts_rule(values: dict[str, Any], colour_model: str, fail: Callable[[str, str], CatalogueError]) -> None:
    """Tabletop Simulator's images are RGB: "CMYK color mode will not work" (its knowledge base)."""
    if values["output"] == "tts" and colour_model != "rgb":
        raise fail("colour", "Tabletop Simulator images (output: tts) are RGB: use colour: rgb")


def _pdfx_rule(values: dict[str, Any], colour_model: str, fail: Callable[[str, str], CatalogueError]) -> None:
    """PDF/X-1a needs CMYK, the page boxes and a PDF output."""
    pdfx = values["pdfx"]
    if pdfx != "none" and (colour_model != "cmyk" or not values["boxes"] or values["output"] in ("png", "tts")):
        raise fail("pdfx", f"{pdfx} (PDF/X-1a) needs colour: cmyk, boxes: true and a PDF output (sheets or single-pages)")


#: A profile's rules across its keys after the ICC profile and trim are read, in the order checked (:func:`_check_keys`).
_RULES: tuple[Callable[[dict[str, Any], str, Callable[[str, str], CatalogueError]], None], ...] = (
    _canvas_rule, _cut_layer_rule, _tts_rule, _pdfx_rule)


def _trim(value: Any, fail: Any) -> tuple[float, float] | None:
    """A profile's ``trim``: None, one length (a square) or [width, height] → (w, h) pt, each > 0
    (raises ``fail(message)``)."""
    if value is None:
        return None
    items = value if isinstance(value, list) else [value]
    if len(items) not in (1, 2):
        raise fail(f"expected a length or [width, height], got {value!r}")
    try:
        sides = [parse_length(v, allow_zero=False) for v in items]
    except ValueError as exc:
        raise fail(str(exc)) from None
    return (sides[0], sides[-1])
