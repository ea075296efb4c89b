"""Fuzzing ``tokengen build`` with hypothesis (issue 7).

Three generators: valid catalogues, near-valid ones with one field broken, and random YAML
text (and bytes). For every one: no uncaught exception, exit code 0 or 2 only, an error is one
line that names the catalogue file, and a valid catalogue yields a PDF whose cells are exact:
every placement of a token face (``cm`` then ``Do``) is a whole number of pitches from the
first, inside the page minus the margin, and the face form is exactly the token size.

A few hundred examples run in the normal test run (well under 60 s). ``make fuzz`` sets
``HYPOTHESIS_PROFILE=fuzz`` for thousands. Every failure found is kept below as an
``@example``.
"""

from __future__ import annotations

import math
import os
import string
import tempfile
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pypdf import PdfReader
from pypdf.generic import ContentStream

from tokengen.cli import main
from tokengen.geometry.imposition import SheetSpec, grid_for
from tokengen.geometry.pager import plan
from tokengen.units import PAGES, parse_length, parse_page

FUZZ = os.environ.get("HYPOTHESIS_PROFILE") == "fuzz"
#: How many times the normal number of examples the fuzz profile runs (``FUZZ_SCALE=100 make fuzz``).
SCALE = int(os.environ.get("FUZZ_SCALE", "20"))


def examples(normal: int) -> settings:
    """``normal`` examples in the normal run, ``FUZZ_SCALE`` (20) times as many under
    ``HYPOTHESIS_PROFILE=fuzz``, with fresh random seeds each run."""
    return settings(max_examples=normal * SCALE if FUZZ else normal, deadline=None, derandomize=not FUZZ,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much])


# ---- running the CLI ------------------------------------------------------------------------


def build(source: bytes, *options: str) -> tuple[int, str, Path, Path | None]:
    """Write ``source`` as a catalogue, run ``tokengen build`` on it in-process.

    Returns:
        (exit code, stderr, catalogue path, PDF path or None when none was written).
    """
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cat = folder / "cat.yaml"
        cat.write_bytes(source)
        out = folder / "out.pdf"
        code: dict[str, int] = {}
        result = CliRunner().invoke(_Wrapper(lambda: code.setdefault("c", main(["build", str(cat), "-o", str(out), *options]))), [],
                                    catch_exceptions=False)
        stderr = result.stderr
        leftovers = sorted(p.name for p in folder.iterdir() if p.name not in ("cat.yaml", "out.pdf"))
        assert leftovers == [], leftovers
        pdf = None
        if out.exists():
            pdf = Path(tempfile.mkdtemp()) / "out.pdf"
            pdf.write_bytes(out.read_bytes())
        return code["c"], stderr, cat, pdf


class _Wrapper:
    """A click-invokable callable (CliRunner needs a command)."""

    def __new__(cls, fn):
        import click

        @click.command()
        def wrapper() -> None:
            fn()

        return wrapper


def check_outcome(code: int, stderr: str, cat: Path) -> None:
    assert code in (0, 2), (code, stderr)
    if code == 2:
        assert stderr.startswith(f"tokengen: error: {cat}"), stderr
        assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr
        assert "Traceback" not in stderr


# ---- valid catalogues -----------------------------------------------------------------------

SAFE_TEXT = string.ascii_letters + string.digits + " -'éüßÆ"
ARROWS = ["↓", "↑", "↓↑", "←", "→", "⇣"]
UNITS = {"in": (0.125, 2.0), "mm": (3.2, 50.0), "cm": (0.32, 5.0), "pt": (9.0, 144.0)}


@st.composite
def lengths(draw: Any) -> str:
    unit = draw(st.sampled_from(sorted(UNITS)))
    lo, hi = UNITS[unit]
    value = draw(st.floats(lo, hi, allow_nan=False, allow_infinity=False))
    return f"{value:.3f}".rstrip("0").rstrip(".") + unit


@st.composite
def catalogues(draw: Any) -> dict[str, Any]:
    codes = draw(st.lists(st.from_regex(r"\A[A-Z][A-Z0-9]{0,3}\Z"), min_size=1, max_size=6, unique=True))
    names = draw(st.lists(st.text(SAFE_TEXT, min_size=1, max_size=20).filter(str.strip), min_size=len(codes), max_size=len(codes)))
    prio_codes = draw(st.lists(st.from_regex(r"\A[a-z][a-z0-9_-]{0,6}\Z"), min_size=1, max_size=3, unique=True))
    glyphs = draw(st.lists(st.sampled_from(ARROWS), min_size=len(prio_codes), max_size=len(prio_codes), unique=True))
    data: dict[str, Any] = {
        "title": draw(st.text(SAFE_TEXT, min_size=1, max_size=30)),
        "game": {
            "attributes": [{"code": c, "name": n} for c, n in zip(codes, names)],
            "priorities": [{"code": c, "glyph": g, "name": c} for c, g in zip(prio_codes, glyphs)],
        },
    }
    if draw(st.booleans()):
        data["size"] = draw(lengths())
    if draw(st.booleans()):
        data["columns"] = draw(st.integers(1, 12))
    if draw(st.booleans()):
        colour = st.one_of(st.from_regex(r"\A#[0-9a-f]{6}\Z"), st.lists(st.floats(0, 1), min_size=4, max_size=4))
        data["style"] = draw(st.fixed_dictionaries({}, optional={"background": colour, "ink": colour, "accent": colour}))
    n = draw(st.integers(1, 24))
    tokens = []
    for i in range(n):
        token: dict[str, Any] = {
            "id": f"t{i}",
            "attribute": draw(st.sampled_from(codes)),
            "priority": draw(st.sampled_from(prio_codes + glyphs)),
        }
        if draw(st.integers(0, 4)) == 0:
            token["copies"] = draw(st.integers(1, 3))
        if draw(st.integers(0, 4)) == 0:
            token["label"] = draw(st.text(SAFE_TEXT, min_size=1, max_size=12))
        tokens.append(token)
    data["tokens"] = tokens
    return data


sheet_options = st.fixed_dictionaries({
    "--page": st.sampled_from(sorted(PAGES)),
    "--margin": st.sampled_from(["0", "0.25in", "5mm", "0.5in"]),
    "--gutter": st.sampled_from(["0", "0.0625in", "2mm"]),
}, optional={"--landscape": st.just(None), "--copies": st.integers(1, 3).map(str), "--crop-marks": st.just(None),
             "--columns": st.integers(1, 8).map(str), "--no-cut-lines": st.just(None)})


def argv(options: dict[str, str | None]) -> list[str]:
    out: list[str] = []
    for key, value in options.items():
        out += [key] if value is None else [key, value]
    return out


def placements(pdf: Path) -> tuple[list[tuple[float, float]], dict[str, list[float]], list[float]]:
    """First page's face placements ((x, y) of each ``cm`` before a ``Do``), each placed form's
    BBox, and its first ``re`` (the background rectangle), all in pt."""
    reader = PdfReader(pdf)
    page = reader.pages[0]
    xobjects = page["/Resources"]["/XObject"]
    matrix: list[float] = [1, 0, 0, 1, 0, 0]
    saved: list[list[float]] = []
    out, boxes, background = [], {}, []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            saved.append(matrix)
        elif op == b"Q":
            matrix = saved.pop()
        elif op == b"cm":  # composed in full: the sheet furniture may turn (a caption up a narrow side)
            a, b, c, d, e, f = (float(v) for v in operands)
            m = matrix
            matrix = [a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2], c * m[1] + d * m[3],
                      e * m[0] + f * m[2] + m[4], e * m[1] + f * m[3] + m[5]]
        elif op == b"Do" and str(operands[0]).startswith("/FormXob.face-"):  # not the calibration ruler
            name = str(operands[0])
            assert matrix[:4] == [1, 0, 0, 1], matrix  # a face is placed by a move alone: never turned or scaled
            out.append((matrix[4], matrix[5]))
            form = xobjects[name].get_object()
            boxes[name] = [float(v) for v in form["/BBox"]]
            if not background:
                for args, form_op in ContentStream(form, reader).operations:
                    if form_op == b"re":
                        background = [float(v) for v in args]
                        break
    return out, boxes, background


def check_exact(data: dict[str, Any], options: dict[str, str | None], pdf: Path) -> None:
    size = parse_length(data.get("size", "1in"))
    margin = parse_length(options["--margin"] or "0")
    gutter = parse_length(options["--gutter"] or "0")
    width, height = parse_page(options["--page"] or "letter", landscape="--landscape" in options)
    pitch = size + gutter
    spots, boxes, background = placements(pdf)
    set_size, copies = sum(t.get("copies", 1) for t in data["tokens"]), int(options.get("--copies") or 1)
    total = set_size * copies
    explicit = int(options["--columns"] or 0) if "--columns" in options else None
    # as build settles the sheet: the calibration strip up the left margin when that saves a sheet
    # (--furniture full), and the catalogue's columns a group the pager may widen to a multiple
    settled = plan(set_size, SheetSpec(page=(width, height), size=size, margin=margin, gutter=gutter, columns=explicit,
                                       group=data.get("columns"), furniture="full"), copies)
    grid = grid_for(settled.spec)
    used = len({round((x - spots[0][0]) / pitch) for x, _ in spots})  # whole steps, not rounded coordinates
    assert used <= grid.columns and (explicit is None or used <= explicit)
    group = data.get("columns")
    if explicit is None and group and grid.columns >= group:
        assert grid.columns % group == 0, (grid.columns, group)  # rows hold whole groups
    assert len(spots) == min(total, settled.per_page)
    for box in boxes.values():
        assert math.isclose(box[2] - box[0], size, abs_tol=0.01) and math.isclose(box[3] - box[1], size, abs_tol=0.01)
    assert math.isclose(background[2], size, abs_tol=0.01) and math.isclose(background[3], size, abs_tol=0.01)
    x0, y0 = spots[0]
    for x, y in spots:
        for d in (x - x0, y - y0):
            steps = d / pitch
            assert abs(steps - round(steps)) * pitch < 0.01, (d, pitch)
        assert margin - 0.01 <= x and x + size <= width - margin + 0.01
        assert margin - 0.01 <= y and y + size <= height - margin + 0.01
    assert len({(round((x - x0) / pitch), round((y - y0) / pitch)) for x, y in spots}) == len(spots)  # no two in one cell


def dump(data: Any) -> bytes:
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False).encode("utf-8")


@examples(40)
@given(catalogues(), sheet_options)
@example({"title": "0", "game": {"attributes": [{"code": "A", "name": "0"}], "priorities": [{"code": "a", "glyph": "↓", "name": "a"}]},
          "size": "9.43pt", "columns": 9, "tokens": [{"id": f"t{i}", "attribute": "A", "priority": "a"} for i in range(10)]},
         {"--page": "legal", "--margin": "0", "--gutter": "0"})  # found by make fuzz: columns counted by rounded x
@example({"title": "T", "game": {"attributes": [{"code": "A", "name": "a"}], "priorities": [{"code": "a", "glyph": "↓", "name": "a"}]},
          "size": "2in", "tokens": [{"id": f"t{i}", "attribute": "A", "priority": "a"} for i in range(18)]},
         {"--page": "letter", "--margin": "0.25in", "--gutter": "0", "--landscape": None})  # the furniture in a side strip, turned
def test_valid_catalogues_build_exact_cells(data: dict[str, Any], options: dict[str, str | None]):
    code, stderr, cat, pdf = build(dump(data), *argv(options))
    assert code == 0, stderr
    assert pdf is not None and pdf.read_bytes().startswith(b"%PDF")
    check_exact(data, options, pdf)


# ---- near-valid catalogues: one field broken ----------------------------------------------------

HOSTILE = st.one_of(
    st.none(), st.booleans(), st.integers(-(10 ** 15), 10 ** 15), st.floats(), st.just("1e12"), st.just("-1in"),
    st.just("0in"), st.just("500in"), st.just("nan"), st.just("1furlong"), st.just("⬇"), st.just("Agi"), st.just("!!"),
    st.text(max_size=30), st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


def paths(data: Any, where: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in ``data`` (for picking the field to break)."""
    out = [where] if where else []
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths(v, where + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths(v, where + (i,))
    return out


@st.composite
def near_valid(draw: Any) -> dict[str, Any]:
    data = draw(catalogues())
    targets = paths(data)
    where = draw(st.sampled_from(targets))
    parent = data
    for part in where[:-1]:
        parent = parent[part]
    how = draw(st.sampled_from(["replace", "delete", "rename", "add"]))
    key = where[-1]
    if how == "replace":
        parent[key] = draw(HOSTILE)
    elif how == "delete":
        del parent[key]
    elif how == "rename" and isinstance(parent, dict):
        parent[draw(st.sampled_from([key[:-1] or "x", key + "s", key.upper(), key.replace("_", "-"), " " + key]))] = parent.pop(key)
    elif isinstance(parent, dict):
        parent[draw(st.text(min_size=1, max_size=10))] = draw(HOSTILE)
    else:
        parent.append(draw(HOSTILE))
    return data


@examples(120)
@given(near_valid())
@example({"title": "T", "size": "500in", "game": {"attributes": [{"code": "A", "name": "a"}],
          "priorities": [{"code": "l", "glyph": "↓", "name": "l"}]}, "tokens": [{"id": "t0", "attribute": "A", "priority": "l"}]})
@example({"title": "T", "game": {"attributes": [{"code": "A", "name": "\x00\n漢"}],
          "priorities": [{"code": "l", "glyph": "↓", "name": "l"}]}, "tokens": [{"id": "t0", "attribute": "A", "priority": "l"}]})
@example({"title": "T", "style": {"ink": [float("nan"), 0, 0, 0]}, "game": {"attributes": [{"code": "A", "name": "a"}],
          "priorities": [{"code": "l", "glyph": "↓", "name": "l"}]}, "tokens": [{"id": "t0", "attribute": "A", "priority": "l"}]})
@example({"title": "T\nX", "game": {"attributes": [{"code": "A", "name": "a"}],
          "priorities": [{"code": "l", "glyph": "↓", "name": "l"}]}, "tokens": [{"id": "t0", "attribute": "A", "priority": "l"}]})
@example({"title": "T", "game": {"attributes": [{"code": "A", "name": "a"}],  # found by make fuzz: copies 1.0 crashed range()
          "priorities": [{"code": "l", "glyph": "↓", "name": "l"}]}, "tokens": [{"id": "t0", "attribute": "A", "priority": "l", "copies": 1.0}]})
def test_near_valid_catalogues_fail_cleanly(data: dict[str, Any]):
    code, stderr, cat, pdf = build(dump(data))
    check_outcome(code, stderr, cat)
    assert (pdf is not None) == (code == 0)


# ---- random YAML text and bytes ---------------------------------------------------------------

YAML_BITS = st.sampled_from([
    "title:", "game:", "tokens:", "attributes:", "priorities:", "- ", "  ", "\n", "\t", ":", "{", "}", "[", "]", ",",
    "&a ", "*a", "!!python/object:os.system", "!!binary ", "<<: ", "? ", "---\n", "...\n", "#", "'", '"', "|", ">",
    "%YAML 1.1\n", "%TAG ! tag:x:\n", "\ufeff", "1in", "-1in", "1e12", ".nan", "~", "↓", "id: a", "AGI", "low",
])


@examples(150)
@given(st.one_of(st.lists(YAML_BITS | st.text(max_size=5), max_size=40).map("".join), st.text(max_size=200)))
@example("{")  # found by make fuzz: the error mark is past the last line (IndexError)
@example("%YAML 1.1\n%YAML 1.1\n")  # duplicate directive
@example("!!binary ~")
@example("&a [*a]")
@example("? [a]\n: 1")
@example("--- |\n  text")
def test_random_yaml_text_fails_cleanly(text: str):
    code, stderr, cat, pdf = build(text.encode("utf-8", "surrogatepass"))
    check_outcome(code, stderr, cat)


@examples(60)
@given(st.binary(max_size=300))
@example(b"\xef\xbb\xbf")
@example(b"\xff\xfe")
def test_random_bytes_fail_cleanly(raw: bytes):
    code, stderr, cat, pdf = build(raw)
    check_outcome(code, stderr, cat)


def _nest(inner: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)


# (a named function: hypothesis cannot inspect a lambda inside a decorator, and warns)
@examples(60)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10), _nest, max_leaves=30))
def test_random_yaml_values_fail_cleanly(value: Any):
    code, stderr, cat, pdf = build(dump(value))
    check_outcome(code, stderr, cat)
