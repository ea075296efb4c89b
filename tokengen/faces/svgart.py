"""SVG art: an ``.svg`` file read as hostile input, then drawn as vectors by svglib (a ReportLab
graphics drawing) when it uses only what svglib draws as a browser does
(:func:`tokengen.faces.svgsafe.outside`), else by resvg as a picture at the print's resolution.

Lengths are in pt (1 in = 72 pt); SVG user units (CSS px) are 0.75 pt, as svglib converts them.
:func:`read_svg` is the one reader; :class:`tokengen.faces.art.ArtLibrary` calls it once per
file and colour output, and :mod:`tokengen.faces.render` draws the drawing once into a Form
XObject on the unit square, which every face using it references.

The checks, in order, each a one-line :class:`~tokengen.errors.RenderError` naming the file:

1. a regular file of at most ``max_bytes`` bytes (:data:`tokengen.limits.MAX_SVG_BYTES`);
2. XML read by defusedxml first: any entity declaration (billion laughs, external entities
   ``SYSTEM "file:///…"``) and any external reference are refused, and at most ``max_elements``
   elements (:data:`tokengen.limits.MAX_SVG_ELEMENTS`, ``--max-svg-elements``) are read;
3. the same bytes parsed by lxml with entities, DTD loading and the network off, the root an
   ``<svg>``; refused with their line: ``<text>`` (svglib draws it with fonts tokengen cannot
   check: convert the text to paths), ``<script>``, ``<foreignObject>``, ``<image>`` (an external
   file or an embedded raster picture: neither goes through the art pipeline), and any ``href``
   or CSS ``url(…)`` that is not ``#id`` in the same file (resvg would read local files);
4. svglib's drawing, with at most ``max_elements`` shapes after ``<use>`` copies; its log
   messages (colours it cannot read, …) become warnings;
5. an SVG using a feature outside svglib's safe set (a mask, a pattern, ``opacity``, a filter, a
   marker, …) is not given to svglib: it is drawn by resvg (:func:`rasterise`, the same engine
   as the reference renderings of resvg's test suite) as an RGBA picture at the output's
   resolution, which then goes through the picture pipeline of PNG art
   (:meth:`tokengen.faces.art.ArtLibrary.svg_picture`); one note names the file, the element and
   the feature: ``drawn as a 300 DPI picture: <mask> at line 12``. For a CMYK output, any
   transparency (``opacity`` as ``fill-opacity``) is refused as in step 6;
6. for a CMYK output, every fill and stroke colour and gradient stop goes through the
   :class:`~tokengen.colour.Converter` (fills as areas, strokes as lines: pure black strokes are
   K only), so the PDF is DeviceCMYK only; transparency (``fill-opacity``, ``stroke-opacity``,
   stop opacity below 1) is refused there, as print-shop PDFs allow none.
"""

from __future__ import annotations

import io
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reportlab.lib.colors import CMYKColor, Color

from ..colour import Converter
from ..errors import ArtError, RenderError
from ..limits import MAX_SVG_BYTES, MAX_SVG_ELEMENTS
from ..model import Colour
from . import svglimits

if TYPE_CHECKING:  # defusedxml, lxml, svglib and ReportLab's graphics load only when a picture is an SVG
    from reportlab.graphics.shapes import Drawing

SVG_NS = "http://www.w3.org/2000/svg"
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
#: Element names refused (local names), with why.
REFUSED = {
    "text": "SVG text is drawn with fonts tokengen cannot check; convert the text to paths (Inkscape: Path > Object to Path)",
    "script": "SVG scripts are refused",
    "foreignObject": "SVG <foreignObject> (HTML inside an SVG) cannot be drawn",
}


@dataclass(frozen=True)
class SvgArt:
    """An SVG picture ready to draw.

    Attributes:
        path: the source file (absolute).
        width, height: its size in pt as the SVG states it (``width``/``height``, else the viewBox).
        drawing: the ReportLab drawing, colours already in the output's colour model; None for an
            SVG drawn as a picture (:attr:`outside` says why).
        outside: the first feature svglib does not draw as a browser does, with its line
            (``<mask> at line 12``), or None.
        source: the SVG as read, in UTF-8, for :func:`rasterise` (empty when drawn as vectors).
        warnings: what svglib reported while reading it, one line each, without the file
            (:meth:`tokengen.faces.art.ArtLibrary.warnings` names it: ``art/pic.svg: SVG: …``).
    """

    path: Path
    width: float
    height: float
    drawing: Drawing | None = field(compare=False, repr=False)
    warnings: tuple[str, ...] = ()
    outside: str | None = None
    source: bytes = field(default=b"", compare=False, repr=False)

    @property
    def aspect(self) -> float:
        """Width / height."""
        return self.width / self.height


def is_svg(path: Path | str) -> bool:
    """True when ``path`` names an SVG file (by its ``.svg`` suffix, any case)."""
    return str(path).lower().endswith(".svg")


def read_svg(path: Path, colour: Converter | None = None, *, max_bytes: int = MAX_SVG_BYTES,
             max_elements: int = MAX_SVG_ELEMENTS, dpi: float = 300) -> SvgArt:
    """The SVG at ``path`` checked and drawn (see the module's steps).

    Args:
        path: the file.
        colour: the output's converter; a CMYK one converts every colour (None: RGB as written).
        max_bytes: the largest file accepted, bytes.
        max_elements: the most XML elements read, and the most shapes drawn.
        dpi: the resolution an SVG outside svglib's safe set is drawn at (for its note).
    Raises:
        RenderError: one line naming the file (and the line of the refused element, when known).
    """
    path = Path(path)
    data = _read(path, max_bytes)
    _defused_count(path, data, max_elements)
    root = _parse(path, data)
    _refuse_elements(path, root)
    _count_copies(path, root, max_elements)
    from .svgsafe import outside

    found = outside(root)
    if found is not None:
        _refuse_loops(path, root)
        return _picture(path, root, colour, f"{found[0]} at line {found[1]}" if found[1] else found[0], dpi)
    drawing, logged = _draw(path, root)
    svglimits.check_numbers(path, drawing)
    count = sum(1 for _ in _shapes(drawing))
    if count > max_elements:
        raise ArtError(path, f"SVG draws more than {max_elements} elements once its <use> copies are made, "
                          "the limit (raise it with --max-svg-elements)")
    width, height = float(drawing.width), float(drawing.height)
    if not (width > 0 and height > 0):
        raise ArtError(path, "SVG has no size (give it width and height, or a viewBox)")
    if colour is not None and colour.model == "cmyk":
        _to_cmyk(path, drawing, colour)
    return SvgArt(path, width, height, drawing, tuple(logged))


#: CSS lengths in pt (1 in = 72 pt; 1 px = 0.75 pt), for the size of an SVG drawn as a picture.
_UNITS = {"": 0.75, "px": 0.75, "pt": 1.0, "pc": 12.0, "mm": 72 / 25.4, "cm": 72 / 2.54, "in": 72.0}
#: Properties whose value below 1 is transparency (refused in CMYK outputs).
_OPACITIES = ("opacity", "fill-opacity", "stroke-opacity", "stop-opacity")


def _picture(path: Path, root: Any, colour: Converter | None, why: str, dpi: float) -> SvgArt:
    """An SVG to draw as a picture (step 5): its size in pt, the note, and in CMYK the refusal
    of transparency."""
    from lxml import etree

    if colour is not None and colour.model == "cmyk":
        _refuse_transparency(path, root)
    width, height = _picture_size(path, root)
    # the tree as read (comments and processing instructions dropped), in UTF-8 whatever the file's encoding
    source = etree.tostring(root, encoding="utf-8")
    return SvgArt(path, width, height, None, (f"drawn as a {dpi:.0f} DPI picture: {why}",), why, source)


def _refuse_transparency(path: Path, root: Any) -> None:
    """Refuse (for a CMYK output) the first opacity below 1, as an attribute or in ``style``."""
    from lxml import etree

    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for key, value in _opacities(el).items():
            number = re.fullmatch(r"\s*([0-9.eE+-]+)(%?)\s*", value)
            alpha = float(number.group(1)) / (100 if number.group(2) else 1) if number else 0.0
            if alpha < 1:
                raise ArtError(path, f"SVG uses transparency ({key} {value.strip()} on <{etree.QName(el).localname}>); "
                                  "print-shop PDFs allow none: make its colours opaque", el.sourceline)


def _opacities(el: Any) -> dict[str, str]:
    """The opacity properties (:data:`_OPACITIES`) ``el`` declares, attributes first, then its
    ``style`` (which wins)."""
    declared = {k: v for k, v in el.attrib.items() if k in _OPACITIES}
    for part in (el.get("style") or "").split(";"):
        key, _, value = part.partition(":")
        if key.strip() in _OPACITIES:
            declared[key.strip()] = value
    return declared


def _picture_size(path: Path, root: Any) -> tuple[float, float]:
    """(width, height) in pt of an SVG drawn as a picture: its ``width`` and ``height`` in CSS
    units, a side not given taken from the viewBox (keeping its shape when the other is given).

    Raises:
        ArtError: no size, or a side that cannot be read.
    """
    box = (root.get("viewBox") or "").replace(",", " ").split()
    if len(box) != 4 and (root.get("width") is None or root.get("height") is None):
        raise ArtError(path, "SVG has no size (give it width and height, or a viewBox)")
    sizes = [_side(path, root, box, i, side) for i, side in ((2, "width"), (3, "height"))]
    if (sizes[0] < 0) != (sizes[1] < 0) and sizes[0] and sizes[1]:  # one side given: the other keeps the viewBox's shape
        given, derived = (0, 1) if sizes[0] > 0 else (1, 0)
        sizes[derived] = sizes[given] * -sizes[derived] / (float(box[2 + given]) * 0.75)
    width, height = (abs(v) for v in sizes)
    if not (width > 0 and height > 0):
        raise ArtError(path, "SVG has no size (give it width and height, or a viewBox)")
    return width, height


def _side(path: Path, root: Any, box: list[str], i: int, side: str) -> float:
    """The root's ``side`` (``width`` or ``height``) in pt, or from the viewBox's item ``i``
    as a negative number (settled by :func:`_picture_size`)."""
    text = (root.get(side) or "").strip()
    length = re.fullmatch(r"([0-9.eE+]+)\s*(px|pt|pc|mm|cm|in)?", text)
    try:
        if length:
            return float(length.group(1)) * _UNITS[length.group(2) or ""]
        if (not text or text == "100%") and len(box) == 4:
            return -float(box[i]) * 0.75  # from the viewBox: negative until settled
        raise ValueError(text)
    except ValueError:
        raise ArtError(path, f"SVG {side} '{text}' cannot be read (give it in px, pt, mm, cm or in)") from None


def rasterise(svg: SvgArt, width: int, height: int) -> Any:
    """``svg`` drawn by resvg at ``width`` × ``height`` pixels: a Pillow RGBA image. System fonts
    are not loaded (SVG text is refused), ``<switch>`` reads the language ``en``, and CSS lengths
    use 96 px to the inch as browsers do. Non-``data:`` references were refused before (resvg
    would read local files).

    Raises:
        RenderError: resvg cannot draw the file (one line naming it).
    """
    import resvg_py
    from PIL import Image

    try:
        png = resvg_py.svg_to_bytes(svg_string=svg.source.decode("utf-8"), width=width, height=height,
                                    skip_system_fonts=True, languages=["en"], dpi=96)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ArtError(svg.path, f"cannot draw SVG: {_one_line(exc)}") from None
    with Image.open(io.BytesIO(bytes(png))) as im:
        return im.convert("RGBA")


def _read(path: Path, max_bytes: int) -> bytes:
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise ArtError(path, "art is not a regular file")
        if info.st_size > max_bytes:
            raise ArtError(path, f"SVG file of {info.st_size} bytes, more than the limit of {max_bytes} bytes")
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise ArtError(path, "art file not found") from None
    except OSError as exc:
        raise ArtError(path, f"cannot read art: {exc.strerror or exc}") from None
    if len(data) > max_bytes:  # grew since stat
        raise ArtError(path, f"SVG file of more than {max_bytes} bytes, more than the limit of {max_bytes} bytes")
    return data


def _defused_count(path: Path, data: bytes, max_elements: int) -> None:
    """Read ``data`` with defusedxml (entities and external references refused), counting elements."""
    from defusedxml import DefusedXmlException, EntitiesForbidden, ExternalReferenceForbidden
    from defusedxml import ElementTree as DefusedET

    count = 0
    work = svglimits.Work(path, max_elements)  # attributes and path data, counted as they are parsed
    try:
        for _, element in DefusedET.iterparse(io.BytesIO(data), events=("start",), forbid_dtd=False, forbid_entities=True,
                                              forbid_external=True):
            count += 1
            if count > max_elements:
                raise ArtError(path, f"SVG has more than {max_elements} elements, the limit "
                                  f"(raise it with --max-svg-elements)")
            work.element(element)
    except EntitiesForbidden as exc:
        if exc.sysid or exc.pubid:
            raise ArtError(path, f"SVG declares the external entity '{exc.name}' ({exc.sysid or exc.pubid}); "
                              "external references are refused") from None
        raise ArtError(path, f"SVG declares the XML entity '{exc.name}'; entities are refused "
                          "(a small file can expand without bound)") from None
    except ExternalReferenceForbidden as exc:
        raise ArtError(path, f"SVG refers to the external file {exc.sysid or exc.pubid}; external references are refused") from None
    except DefusedXmlException as exc:
        raise ArtError(path, f"SVG refused: {_one_line(exc)}") from None
    except DefusedET.ParseError as exc:
        raise ArtError(path, f"not a readable SVG: {_one_line(exc)}") from None


def _parse(path: Path, data: bytes) -> Any:
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False,
                             remove_comments=True, remove_pis=True)
    try:
        root = etree.fromstring(data, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise ArtError(path, f"not a readable SVG: {_one_line(exc)}") from None
    if etree.QName(root).localname != "svg":
        raise ArtError(path, f"not an SVG: its root element is <{etree.QName(root).localname}>, not <svg>")
    _start_lines(root, data)
    return root


#: What holds no element of an SVG's source: comments, CDATA, processing instructions, a DOCTYPE.
_NO_ELEMENTS = re.compile(rb"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE[^>\[]*(\[.*?\])?\s*>", re.S)
#: The opening ``<`` of a start tag.
_START_TAG = re.compile(rb"<[A-Za-z_]")


def _start_lines(root: Any, data: bytes) -> None:
    """Set each element's ``sourceline`` to the line of its start tag's ``<``, where messages
    should point: libxml2 gives the line where the start tag ends, and Inkscape writes one
    attribute a line, so ``<svg`` on line 4 was named as line 16. Start tags are found in
    document order in the source with comments and the like blanked out; when their count is not
    the elements' (a source in another encoding), the parser's lines are kept."""
    from lxml import etree

    text = _NO_ELEMENTS.sub(lambda m: re.sub(rb"[^\n]", b" ", m.group()), data)
    starts = [m.start() for m in _START_TAG.finditer(text)]
    elements = list(root.iter(etree.Element))
    if len(starts) != len(elements):
        return
    line, last = 1, 0
    for element, at in zip(elements, starts, strict=True):
        line += text.count(b"\n", last, at)
        last = at
        element.sourceline = line


#: A CSS ``url(…)`` reference whose target is not ``#id`` (quotes and spaces allowed).
_URL_TARGET = re.compile(r"url\(\s*['\"]?\s*([^'\")\s]*)")


def _refuse_elements(path: Path, root: Any) -> None:
    """Refuse (step 3) the first element tokengen does not draw or that refers outside the file."""
    from lxml import etree

    for el in root.iter():
        if isinstance(el.tag, str):
            _refuse_element(path, el, etree.QName(el).localname)


def _refuse_element(path: Path, el: Any, name: str) -> None:
    """Refuse the element ``el`` (local name ``name``): text, scripts, HTML, pictures, and an
    ``href`` that is not ``#id``."""
    where = el.sourceline
    if name in REFUSED or name in ("tspan", "textPath", "flowRoot"):
        raise ArtError(path, f"<{name}> refused: {REFUSED.get(name, REFUSED['text'])}", where)
    href = el.get(XLINK_HREF) or el.get("href")
    if name == "image":
        kind = "embeds a raster picture" if (href or "").lstrip().startswith("data:") else f"refers to the file '{href}'"
        raise ArtError(path, f"<image> {kind}; pictures inside an SVG are refused "
                       "(give the picture its own image element)", where)
    if href is not None and name != "a" and not href.strip().startswith("#"):
        raise ArtError(path, f"<{name}> refers to '{href}' outside the file; external references are refused", where)
    _refuse_css_references(path, el, name)


def _refuse_css_references(path: Path, el: Any, name: str) -> None:
    """Refuse a stylesheet ``@import`` and a CSS ``url(…)`` (in an attribute or a ``<style>``)
    that is not ``#id``."""
    where = el.sourceline
    if name == "style" and "@import" in (el.text or ""):
        raise ArtError(path, "<style> imports another stylesheet; external references are refused", where)
    for text in (*el.attrib.values(), (el.text or "") if name == "style" else ""):
        for target in _URL_TARGET.finditer(text):
            if target.group(1).startswith("#"):
                continue
            raise ArtError(path, f"<{name}> refers to 'url({target.group(1)})' outside the file; external "
                              "references are refused", where)


def _refuse_loops(path: Path, root: Any) -> None:
    """Refuse an element that refers to itself through ``url(#id)`` or ``href="#id"`` references
    (a pattern filled with itself, a mask using a group that it masks): browsers and resvg
    disagree on what such a file shows. The first loop met in document order is named."""
    from lxml import etree

    refs = _references(root)
    state: dict[Any, int] = {}  # 1: on the path being walked, 2: walked
    for start in refs:
        if start in state:
            continue
        looped = _walk_from(start, refs, state)
        if looped is not None:
            raise ArtError(path, f"<{etree.QName(looped).localname}> refers to itself (a reference loop)", looped.sourceline)


def _references(root: Any) -> dict[Any, list[Any]]:
    """Each element with an ``id`` (in document order), with the elements it or its descendants
    refer to by ``url(#id)`` or ``#id`` (in the order met)."""
    ids = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    refs: dict[Any, list[Any]] = {}
    for el in ids.values():
        found: dict[str, None] = {}
        for node in el.iter():
            if not isinstance(node.tag, str):
                continue
            for value in node.attrib.values():
                found.update(dict.fromkeys(m.group(1)[1:] for m in _URL_TARGET.finditer(value)))
                if value.strip().startswith("#"):
                    found[value.strip()[1:]] = None
        refs[el] = list(dict.fromkeys(ids[i] for i in found if i in ids))
    return refs


def _walk_from(start: Any, refs: dict[Any, list[Any]], state: dict[Any, int]) -> Any:
    """Walk the references from ``start`` depth first, marking ``state``; the element that closes
    a loop, or None. Without recursion: a chain of 20,000 references stays flat."""
    state[start] = 1
    stack = [(start, iter(refs[start]))]
    while stack:
        el, todo = stack[-1]
        target = next(todo, None)
        if target is None:
            state[el] = 2
            stack.pop()
        elif state.get(target) == 1:
            return target
        elif target not in state:
            state[target] = 1
            stack.append((target, iter(refs[target])))
    return None


def _count_copies(path: Path, root: Any, max_elements: int) -> None:
    """Refuse an SVG whose elements, counted with every ``<use>`` copy made (a ``<use>`` of a
    group of ``<use>`` elements multiplies), exceed ``max_elements``: before svglib copies them."""
    from lxml import etree

    ids = {el.get("id"): el for el in root.iter() if isinstance(el.tag, str) and el.get("id")}
    sizes: dict[Any, int] = {}
    busy: set[Any] = set()

    def size(el: Any) -> int:
        if el in sizes:
            return sizes[el]
        if el in busy:
            raise ArtError(path, f"<{etree.QName(el).localname}> uses itself (a <use> loop)", el.sourceline)
        busy.add(el)
        total = 1
        stack = [c for c in el if isinstance(c.tag, str)]
        for child in stack:
            total += size(child)
            if total > max_elements:
                break
        href = (el.get(XLINK_HREF) or el.get("href") or "").strip()
        if etree.QName(el).localname == "use" and href.startswith("#") and href[1:] in ids:
            total += size(ids[href[1:]])
        busy.discard(el)
        total = min(total, max_elements + 1)
        sizes[el] = total
        return total

    if size(root) > max_elements:
        raise ArtError(path, f"SVG draws more than {max_elements} elements once its <use> copies are made, "
                          "the limit (raise it with --max-svg-elements)")


def _draw(path: Path, root: Any) -> tuple[Drawing, list[str]]:
    import logging  # only when a picture is an SVG, as svglib itself

    from svglib.svglib import SvgRenderer  # loads cssselect2 and tinycss2: only when a picture is an SVG

    class _Collect(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.WARNING)
            self.messages: dict[str, None] = {}

        def emit(self, record: logging.LogRecord) -> None:
            self.messages[_one_line(record.getMessage())] = None

    log = logging.getLogger("svglib.svglib")
    handler, propagate = _Collect(), log.propagate
    log.addHandler(handler)
    log.propagate = False  # svglib's messages become our warnings, not lines on stderr
    try:
        drawing = SvgRenderer(str(path), external_reference_root=str(path.parent)).render(root)
    except RenderError:
        raise
    except Exception as exc:  # svglib raises what its parsing meets: ValueError, KeyError, CircularRefError, …
        raise ArtError(path, f"cannot draw SVG: {_one_line(exc)}") from None
    finally:
        log.removeHandler(handler)
        log.propagate = propagate
    return drawing, list(handler.messages)


def _shapes(node: Any) -> Iterator[Any]:
    """Every node under ``node`` (a drawing or group), depth first, groups included."""
    from reportlab.graphics.shapes import Group

    for child in getattr(node, "contents", ()):
        yield child
        if isinstance(child, Group):
            yield from _shapes(child)
        clip = getattr(child, "_clip_shape", None)
        if clip is not None:
            yield clip


def _cmyk(colour: Converter, value: Color, area: bool) -> CMYKColor:
    if isinstance(value, CMYKColor):
        tokengen_colour = Colour("cmyk", (value.cyan, value.magenta, value.yellow, value.black))
    else:
        tokengen_colour = Colour("rgb", (value.red, value.green, value.blue))
    c, m, y, k = colour.paint(tokengen_colour, area=area)
    return CMYKColor(c, m, y, k)


def _to_cmyk(path: Path, drawing: Drawing, colour: Converter) -> None:
    """Replace every colour of ``drawing`` by the converter's CMYK (refusing transparency)."""
    for node in _shapes(drawing):
        for attr, opacity, area in (("fillColor", "fillOpacity", True), ("strokeColor", "strokeOpacity", False)):
            value = getattr(node, attr, None)
            alpha = getattr(node, opacity, None)
            if isinstance(value, Color):
                alpha = value.alpha if alpha is None else min(alpha, value.alpha)
            if alpha is not None and alpha < 1:
                raise ArtError(path, f"SVG uses transparency ({attr[:-5]} opacity {alpha:g}); print-shop PDFs allow none: "
                                  "make its colours opaque")
            if isinstance(value, Color):
                setattr(node, attr, _cmyk(colour, value, area))
        stops = getattr(node, "_rl_colors", None)
        if stops is not None:
            for stop in stops:
                if stop.alpha < 1:
                    raise ArtError(path, f"SVG uses transparency (gradient stop opacity {stop.alpha:g}); "
                                      "print-shop PDFs allow none: make its colours opaque")
            node._rl_colors = [_cmyk(colour, stop, True) for stop in stops]


def _one_line(exc: BaseException | str) -> str:
    return " ".join(str(exc).split())[:200] or type(exc).__name__
