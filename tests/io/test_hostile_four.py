"""Hostile input, part four (issue 37): every limit checked before the work it bounds, on the
new surfaces too, with the limit and its flag named, nothing left in the output folder and never
exit 70. Each test builds its issue's reproducer shape, small, in ``tmp_path``; work is bounded by
counts, never by a timer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from tokengen.sources.profiles import load_profiles

TOKENGEN = str(Path(sys.executable).parent / "tokengen")
# A small Python process starts the command and reports its peak RSS (as tests/faces/test_art_limits.py does).
WRAPPER = ("import os,subprocess,sys\n"
           "p=subprocess.Popen(sys.argv[1:])\n"
           "_,status,ru=os.wait4(p.pid,0)\n"
           "sys.stderr.write(f'RSS_KB={ru.ru_maxrss}\\n')\n"
           "sys.exit(os.waitstatus_to_exitcode(status))\n")


def _peak_mb(*args: str) -> tuple[int, float, str]:
    """(exit code, peak RSS in MB, stderr without the RSS line) of ``tokengen ARGS``."""
    proc = subprocess.run([sys.executable, "-c", WRAPPER, TOKENGEN, *args], capture_output=True, text=True)
    stderr, _, rss = proc.stderr.rpartition("RSS_KB=")
    return proc.returncode, int(rss) / 1024, stderr


def _catalogue(folder: Path, count: int, size: str = "1in", template: str = '{text: "{name}", at: [0.5, 0.5], width: 0.8, size: 0.1}',
               extra: str = "") -> Path:
    """An any-game catalogue of ``count`` distinct tokens of ``size`` (``WxH`` for cards) in
    ``folder``, its template the one element ``template``, ``extra`` YAML before its tokens."""
    path = folder / "c.yaml"
    rows = "".join(f"  - {{id: t{i}, name: N{i}}}\n" for i in range(count))
    path.write_text(f"title: T\nsize: {size}\nfields: {{name: text}}\ntemplate:\n  - {template}\n{extra}tokens:\n{rows}", "utf-8")
    return path


def _no_traceback(result) -> None:
    assert result.exit_code != 70 and "Traceback" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr


# 5. export's pages, files and bytes before the first file is written, for every profile
@pytest.mark.parametrize("name", sorted(load_profiles()))
def test_export_refuses_past_max_pages_before_writing_any_file(run, tmp_path: Path, name: str):
    profile = load_profiles()[name]
    width, height = profile.trim or (72.0, 72.0)  # cards at the profile's trim
    catalogue = _catalogue(tmp_path, 130, f"{width:g}ptx{height:g}pt")  # 130 designs: more than one sheet of any profile
    out = tmp_path / "out"
    result = run("export", str(catalogue), "--profile", name, "-o", str(out), "--max-pages", "1")
    _no_traceback(result)
    assert result.exit_code == 2
    assert "more than the limit of 1 (raise it with --max-pages)" in result.stderr
    assert not out.exists() or not any(out.iterdir())


# 1. icons: the art budget and the one-at-a-time decoding and resampling of image:
def _icons(folder: Path, count: int, side: int) -> str:
    """``count`` distinct ``side`` px square 1-bit PNG icons in ``folder``; returns the catalogue's ``icons:`` line."""
    for i in range(count):
        im = Image.new("1", (side, side), 0)
        ImageDraw.Draw(im).rectangle((0, 0, side // 8 * (i + 1), side // 2), fill=1)
        im.save(folder / f"i{i}.png")
    return "icons: {" + ", ".join(f"i{i}: i{i}.png" for i in range(count)) + "}\n"


def _icon_text(count: int) -> str:
    return '{text: "{name} ' + " ".join(f":i{i}:" for i in range(count)) + '", box: [0.1, 0.1, 0.8, 0.8], size: 0.1}'


def test_six_large_icons_are_decoded_one_at_a_time_and_resampled(tmp_path: Path):
    catalogue = _catalogue(tmp_path, 1, "2in", _icon_text(6), _icons(tmp_path, 6, 6000))
    out = tmp_path / "out.pdf"
    code, peak, stderr = _peak_mb("build", str(catalogue), "-o", str(out))
    assert code == 0, stderr
    assert peak < 300, f"peak {peak:.0f} MB"  # ReportLab decoding each icon whole: 1,149 MB
    assert "6 pictures resampled to 600 DPI (i0.png, i1.png, …)" in stderr
    import pikepdf

    with pikepdf.open(out) as pdf:  # every icon embedded at 600 DPI of its printed size, not 6000 px
        sizes = [(int(o.Width), int(o.Height)) for o in pdf.objects
                 if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Image"]
    assert len(sizes) == 6 and max(max(s) for s in sizes) < 200, sizes


def test_icons_count_towards_the_art_budget(run, tmp_path: Path):
    catalogue = _catalogue(tmp_path, 1, "2in", _icon_text(2), _icons(tmp_path, 2, 400))
    out = tmp_path / "out.pdf"
    result = run("build", str(catalogue), "-o", str(out), "--keep-resolution", "--max-art-pixels", "200000")
    _no_traceback(result)
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {catalogue}:6: icons.i1: i1.png: the art of this build holds 320000 pixels "
                             "as embedded, more than the limit of 200000 (raise it with --max-art-pixels)\n")
    assert not out.exists()


# 12. an icon that is not a picture: one line at the catalogue's file and line, in build and check
@pytest.mark.parametrize("command", ["build", "check"])
def test_an_icon_that_is_not_a_picture_is_named_where_the_catalogue_names_it(run, tmp_path: Path, command: str):
    (tmp_path / "i0.png").write_text("hello", "utf-8")
    catalogue = _catalogue(tmp_path, 1, "2in", _icon_text(1), "icons: {i0: i0.png}\n")
    result = run(command, str(catalogue), *(("-o", str(tmp_path / "out.pdf")) if command == "build" else ()))
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {catalogue}:6: icons.i0: i0.png: not a readable PNG or JPEG image\n")


# 3. lists and mappings refused by their length in the YAML reader, before the rest is read: past
# the limit an entry the reader itself refuses (a Python tag) is never reached
BAD = "!!python/object:os.system x"


def _read_refusal(run, tmp_path: Path, text: str) -> str:
    path = tmp_path / "c.yaml"
    path.write_text(text, "utf-8")
    result = run("check", str(path))
    _no_traceback(result)
    assert result.exit_code == 2
    return result.stderr.replace(str(path), "c.yaml")


def test_a_long_condition_list_is_refused_by_its_length(run, tmp_path: Path):
    values = ", ".join(f"v{i}" for i in range(600)) + f", {BAD}" + ", v" * 100_000
    template = f'{{text: "{{name}}", at: [0.5, 0.5], width: 0.8, size: 0.1, when: {{name: [{values}]}}}}'
    path = _catalogue(tmp_path, 1, template=template)
    assert _read_refusal(run, tmp_path, path.read_text("utf-8")) == \
        "tokengen: error: c.yaml:5: template[0].when.name: has more than 500 entries\n"


def test_many_layouts_are_refused_by_their_count(run, tmp_path: Path):
    layouts = "".join(f"  l{i}: []\n" for i in range(100)) + f"  bad: {BAD}\n" + "".join(f"  m{i}: []\n" for i in range(10_000))
    path = _catalogue(tmp_path, 1, extra=f"layouts:\n{layouts}")
    assert _read_refusal(run, tmp_path, path.read_text("utf-8")) == "tokengen: error: c.yaml:6: layouts: has more than 64 entries\n"


def test_a_long_value_map_is_refused_by_its_length(run, tmp_path: Path):
    keys = ", ".join(f"k{i}: 0.1" for i in range(600)) + f", bad: {BAD}" + "".join(f", x{i}: 1" for i in range(100_000))
    template = f'{{text: "{{name}}", at: [0.5, 0.5], width: 0.8, size: {{by: name, map: {{{keys}}}}}}}'
    path = _catalogue(tmp_path, 1, template=template)
    assert _read_refusal(run, tmp_path, path.read_text("utf-8")) == \
        "tokengen: error: c.yaml:5: template[0].size.map: has more than 500 entries\n"


# 8. a boxed text's sizes above 0 by the schema (min_size: 0 ended in exit 70 in build and check)
@pytest.mark.parametrize("command", ["build", "check"])
@pytest.mark.parametrize(("key", "value", "message"), [
    ("min_size", "0", "expected a size above 0, got 0"),
    ("size", "0", "expected a size above 0, got 0"),
    ("min_size", "0pt", "expected a length above 0, got '0pt'"),
    ("min_size", "{by: name, map: {N0: 0pt}, default: 0.1}", "expected a length above 0, got '0pt'"),
])
def test_a_text_size_of_zero_is_refused_by_the_schema(run, tmp_path: Path, command: str, key: str, value: str, message: str):
    sizes = {"size": "0.1", "min_size": "0.05", key: value}
    template = '{text: "{name} is long enough to need shrinking", box: [0.1, 0.1, 0.8, 0.8], ' + \
        ", ".join(f"{k}: {v}" for k, v in sizes.items()) + "}"
    catalogue = _catalogue(tmp_path, 1, template=template)
    out = tmp_path / "out.pdf"
    result = run(command, str(catalogue), *(("-o", str(out)) if command == "build" else ()))
    _no_traceback(result)
    field = f"template[0].{key}" + (".map.N0" if "map" in value else "")
    if command == "check" and "pt" in value:  # the schema passes a length: check's finding (not playable, exit 1)
        assert result.exit_code == 1 and f"c.yaml:5: error catalogue: {field}: {message}\n" in result.stdout
        return
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {catalogue}:5: {field}: {message}\n")
    assert not out.exists()


# 7. numbers in SVG range-checked before ReportLab writes them (exit 70: "number too large")
SVG = '<svg xmlns="http://www.w3.org/2000/svg" {size}><rect x="1" y="1" width="5" height="5" {rect}/></svg>'


@pytest.mark.parametrize(("size", "rect", "reason"), [
    ('width="1e30" height="10"', "", "SVG gives the number 7.5e+29 (width), beyond the limit of ±1e+09 (a fixed limit)"),
    ('viewBox="0 0 1e308 1e308"', "", "SVG gives the number 7.5e+307 (width), beyond the limit of ±1e+09 (a fixed limit)"),
    ('width="1e-300" height="10"', "", "SVG of 7.5e-301 x 7.5 pt, smaller than the limit of 0.01 pt across (a fixed limit)"),
    ('width="10" height="10"', 'stroke="black" stroke-width="1e30"',
     "SVG gives the number 1e+30 (strokeWidth), beyond the limit of ±1e+09 (a fixed limit)"),
    ('width="10" height="10"', 'transform="scale(1e300)"', "SVG gives the number 1e+300 (transform), beyond the limit of ±1e+09 (a fixed limit)"),
    ('width="10" height="10"', 'transform="scale(1e7) scale(1e7)"',  # each in range, their product not
     "SVG gives the number 1e+14 (transform), beyond the limit of ±1e+09 (a fixed limit)"),
])
def test_svg_numbers_out_of_range_are_refused(run, tmp_path: Path, size: str, rect: str, reason: str):
    (tmp_path / "a.svg").write_text(SVG.format(size=size, rect=rect), "utf-8")
    catalogue = _catalogue(tmp_path, 1, template="{image: a.svg, box: [0.1, 0.1, 0.8, 0.8]}")
    out = tmp_path / "out.pdf"
    result = run("build", str(catalogue), "-o", str(out))
    _no_traceback(result)
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {catalogue}:5: template[0].image: a.svg: {reason}\n")
    assert not out.exists()


# 2. SVG path segments and attributes per element counted while parsing, before svglib reads them
def _svg_refusal(run, tmp_path: Path, svg: str) -> str:
    (tmp_path / "a.svg").write_text(svg, "utf-8")
    catalogue = _catalogue(tmp_path, 1, template="{image: a.svg, box: [0.1, 0.1, 0.8, 0.8]}")
    result = run("build", str(catalogue), "-o", str(tmp_path / "out.pdf"))
    _no_traceback(result)
    assert result.exit_code == 2 and not (tmp_path / "out.pdf").exists()
    return result.stderr.replace(f"{catalogue}:5: template[0].image: a.svg: ", "")


def test_a_path_of_many_segments_is_refused_by_its_count(run, tmp_path: Path, monkeypatch):
    from svglib import svglib

    def never(*args, **kwargs):
        raise AssertionError("svglib read the file")

    monkeypatch.setattr(svglib.SvgRenderer, "render", never)  # refused before svglib reads it
    d = "M0 0" + " L1 1" * 1_500_000
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><path d="{d}"/></svg>'
    assert _svg_refusal(run, tmp_path, svg) == ("tokengen: error: SVG path data holds more than 200,000 numbers, the limit "
                                                "(10 per element of --max-svg-elements 20000; raise it with --max-svg-elements)\n")


def test_an_element_of_many_attributes_is_refused_by_its_count(run, tmp_path: Path, monkeypatch):
    from svglib import svglib

    def never(*args, **kwargs):
        raise AssertionError("svglib read the file")

    monkeypatch.setattr(svglib.SvgRenderer, "render", never)
    attributes = " ".join(f'a{i}="1"' for i in range(100_000))
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5" {attributes}/></svg>'
    assert _svg_refusal(run, tmp_path, svg) == "tokengen: error: <rect> has 100,002 attributes, more than the limit of 256 (a fixed limit)\n"


# 9. a folder name longer than the file system takes: refused by its length, nothing made
@pytest.mark.parametrize("folder", ["x" * 300, "a/" + "é" * 200 + "/b"])
def test_init_refuses_a_name_too_long_before_making_anything(run, tmp_path: Path, monkeypatch, folder: str):
    monkeypatch.chdir(tmp_path)
    result = run("init", folder)
    _no_traceback(result)
    long = max(folder.split("/"), key=len)
    assert (result.exit_code, result.stderr) == (
        2, f"tokengen: error: {long[:37]}...: name too long ({len(long.encode())} bytes; this file system takes at most 255)\n")
    assert list(tmp_path.iterdir()) == []


# 6. a template's text under the same length limit as a text field's (400 characters)
def test_a_long_template_text_is_refused_by_its_length(run, tmp_path: Path):
    text = "**a** " * 20_000  # 120 KB of styled runs: 14.6 s laid out
    catalogue = _catalogue(tmp_path, 1, template=f'{{text: "{text}", box: [0.1, 0.1, 0.8, 0.8], size: 0.1}}')
    out = tmp_path / "out.pdf"
    result = run("build", str(catalogue), "-o", str(out))
    _no_traceback(result)
    assert (result.exit_code, result.stderr) == (2, f"tokengen: error: {catalogue}:5: template[0].text: text is longer than 400 characters (120000)\n")
    assert not out.exists()


# 4. spreadsheet parts by what they hold, not only their size: refused by the scan, before openpyxl
def _styles(plural: bytes, item: bytes, count: int) -> dict[str, bytes]:
    from tests.sources.test_table_damaged import NS

    return {"xl/styles.xml": b"<styleSheet " + NS + b"><" + plural + b">" + item * count + b"</" + plural + b"></styleSheet>"}


def _shared_strings(item: bytes, count: int) -> dict[str, bytes]:
    """A shared strings part of ``count`` ``item``s, declared where openpyxl looks for it."""
    from tests.sources.test_table_damaged import NS, SHEET, sheet

    types = (b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
             b'<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
             b'<Default Extension="xml" ContentType="application/xml"/>'
             b'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
             b'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
             b'<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
             b"</Types>")
    rows = b'<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row><row r="2"><c r="A2" t="s"><v>2</v></c></row>'
    strings = b'<?xml version="1.0"?><sst ' + NS + b">" + b"<si><t>id</t></si><si><t>name</t></si><si><t>a</t></si>" + item * count + b"</sst>"
    return {"[Content_Types].xml": types, SHEET: sheet(rows), "xl/sharedStrings.xml": strings}


def _comments(count: int, parts: int) -> dict[str, bytes]:
    """``parts`` comment parts of ``count`` comments of 200 characters, tied to the sheet."""
    from tests.sources.test_table_damaged import NS

    one = b"".join(b'<comment ref="A%d" authorId="0"><text><t>' % i + b"c" * 200 + b"</t></text></comment>" for i in range(1, count + 1))
    rels = (b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + b"".join(b'<Relationship Id="rId%d" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" '
                       b'Target="../comments%d.xml"/>' % (i, i) for i in range(1, parts + 1)) + b"</Relationships>")
    out = {"xl/worksheets/_rels/sheet1.xml.rels": rels}
    for i in range(1, parts + 1):
        out[f"xl/comments{i}.xml"] = (b'<?xml version="1.0"?><comments ' + NS + b"><authors><author>a</author></authors><commentList>"
                                      + one + b"</commentList></comments>")
    return out


def _defined_names(count: int) -> dict[str, bytes]:
    import io
    import zipfile

    import openpyxl

    data = io.BytesIO()
    openpyxl.Workbook().save(data)
    part = zipfile.ZipFile(data).read("xl/workbook.xml")
    names = b"".join(b'<definedName name="n%d">Sheet!$A$1</definedName>' % i for i in range(count))
    return {"xl/workbook.xml": part.replace(b"</sheets>", b"</sheets><definedNames>" + names + b"</definedNames>")}


_ELEMENTS = "part {} has more than 100,000 XML elements (a fixed limit)"
_IN_ALL = ("its parts other than sheets hold more than 250,000 XML elements in all, counted as far as part xl/sharedStrings.xml "
           "(a fixed limit)")


@pytest.mark.parametrize(("shape", "message"), [
    ("attribute", "part xl/worksheets/sheet1.xml holds a text or attribute of more than 1 MiB "
                  "(a cell holds at most 32,767 characters; a fixed limit)"),
    ("fonts", _ELEMENTS.format("xl/styles.xml")),  # 500,000 <font/>: the elements' limit comes first
    ("fonts 2,000", "part xl/styles.xml has more than 1,024 fonts (Excel's own limit; fixed)"),
    ("fills", _ELEMENTS.format("xl/styles.xml")),
    ("borders", _ELEMENTS.format("xl/styles.xml")),
    ("cell formats", _ELEMENTS.format("xl/styles.xml")),  # 60,000 <xf> with an alignment each: under the old 130,980 cell formats
    ("number formats", _ELEMENTS.format("xl/styles.xml")),
    ("shared strings", _IN_ALL),  # 999,999 shared strings: under the old 1,000,000
    ("rich shared strings", _IN_ALL),
    ("comments", _ELEMENTS.format("xl/comments1.xml")),  # three 20 MB comment parts
    ("defined names", _ELEMENTS.format("xl/workbook.xml")),
])
def test_spreadsheet_parts_are_refused_by_what_they_hold(tmp_path: Path, monkeypatch, shape: str, message: str):
    import openpyxl

    from tests.sources.test_table_damaged import ROWS, SHEET, error, sheet, workbook

    replace = {
        "attribute": lambda: {SHEET: sheet(ROWS.replace(b'<row r="1">', b'<row r="1" x="' + b"a" * 20_000_000 + b'">'))},
        "fonts": lambda: _styles(b"fonts", b"<font/>", 500_000),
        "fonts 2,000": lambda: _styles(b"fonts", b"<font/>", 2_000),
        "fills": lambda: _styles(b"fills", b'<fill><patternFill patternType="solid"/></fill>', 500_000),
        "borders": lambda: _styles(b"borders", b"<border><left/><right/><top/><bottom/></border>", 500_000),
        "cell formats": lambda: _styles(b"cellXfs", b'<xf numFmtId="0"><alignment horizontal="left"/></xf>', 60_000),
        "number formats": lambda: _styles(b"numFmts", b'<numFmt numFmtId="200" formatCode="0.0"/>', 300_000),
        "shared strings": lambda: _shared_strings(b"<si><t>s</t></si>", 999_999),
        "rich shared strings": lambda: _shared_strings(b"<si><r><rPr><b/></rPr><t>s</t></r></si>", 100_000),
        "comments": lambda: _comments(75_000, 3),
        "defined names": lambda: _defined_names(400_000),
    }[shape]()
    path = workbook(tmp_path, replace)

    def never(*args, **kwargs):
        raise AssertionError("openpyxl read the workbook")

    monkeypatch.setattr(openpyxl, "load_workbook", never)
    monkeypatch.setattr(openpyxl.reader.excel, "load_workbook", never)
    assert error(path) == f"{path}: {message}"


def test_spreadsheet_parts_just_inside_the_element_limits_are_read(tmp_path: Path):
    from tests.sources.test_table_damaged import workbook
    from tokengen.sources.table import read_table

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    styles = workbook(tmp_path / "a", _styles(b"numFmts", b'<numFmt numFmtId="200" formatCode="0.0"/>', 99_990))
    strings = workbook(tmp_path / "b", _shared_strings(b"<si><t>s</t></si>", 120_000))
    assert [r.values for r in read_table(styles, ["id", "name"])] == [{"id": "a", "name": "x"}]
    assert [r.values for r in read_table(strings, ["id", "name"])] == [{"id": "a", "name": None}]


# 13. a boolean cell holding 2 is refused at its row and column, as the limits page says
def test_a_boolean_cell_holding_two_is_refused_at_its_cell(tmp_path: Path):
    from tests.sources.test_table_damaged import SHEET, error, sheet, workbook

    rows = (b'<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>name</t></is></c></row>'
            b'<row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c><c r="B2" t="b"><v>2</v></c></row>')
    path = workbook(tmp_path, {SHEET: sheet(rows)})
    assert error(path) == f"{path}:2: column B: a boolean cell holds '2', not 0 or 1: a damaged file"


# 14. build --watch ended by SIGTERM exits 143 (and SIGHUP 129), as the limits page says
@pytest.mark.parametrize(("signum", "code"), [(15, 143), (1, 129)])
def test_watch_ended_by_a_signal_exits_with_its_code(tmp_path: Path, signum: int, code: int):
    catalogue = _catalogue(tmp_path, 1)
    proc = subprocess.Popen([TOKENGEN, "build", str(catalogue), "-o", str(tmp_path / "out.pdf"), "--watch"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:  # the wait is for the event: the watch has begun
        if line.startswith("watching "):
            break
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == code, stderr
    assert "Traceback" not in stderr


# 11. past a mapping's size limit the message keeps its reason, never the value cut short
@pytest.mark.parametrize("extra", [
    "icons: {" + ", ".join(f"i{i}: i.png" for i in range(300)) + "}\n",
    "layouts: {" + ", ".join(f"l{i}: []" for i in range(100)) + "}\n",
])
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_a_mapping_past_its_size_keeps_the_reason(run, tmp_path: Path, extra: str, fmt: str):
    catalogue = _catalogue(tmp_path, 1, extra=extra)
    result = run("check", str(catalogue), "--format", fmt)
    _no_traceback(result)
    key, limit = ("icons", 200) if extra.startswith("icons") else ("layouts", 64)
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {catalogue}:6: {key}: has more than {limit} entries\n"
    assert "i.png" not in result.stdout + result.stderr
    if fmt == "json":  # the report first, its schema finding included, as for any file the schema refuses
        assert f'"message": "has more than {limit} entries",' in result.stdout


def test_a_long_mapping_the_reader_does_not_bound_is_explained_by_its_reason(tmp_path: Path):
    from tokengen.sources import schemas

    path = tmp_path / "c.yaml"  # validated directly: the reader's bound is not in the way
    data = {"title": "T", "size": "1in", "fields": {"name": "text"}, "icons": {f"i{i}": "i.png" for i in range(300)},
            "template": [{"text": "{name}", "at": [0.5, 0.5], "width": 0.8, "size": 0.1}], "tokens": [{"id": "a", "name": "A"}]}
    problems = schemas.validate(path, data, {("icons",): 4}, "catalogue-fields")
    assert [str(p) for p in problems] == [f"{path}:4: icons: has more than 200 entries"]


# left from last round: impose() from Python refuses a token below the smallest size
@pytest.mark.parametrize("size", [0.001, float("nan"), 8.9])
def test_impose_refuses_a_token_below_the_smallest_size(size: float):
    from tokengen.errors import LayoutError
    from tokengen.geometry.imposition import SheetSpec
    from tokengen.geometry.pager import impose

    with pytest.raises(LayoutError, match=r"^token size .* pt is below the smallest of 9 pt \(0.125in\)$"):
        impose(1, SheetSpec(page=(612.0, 792.0), size=size))
    assert len(impose(1, SheetSpec(page=(612.0, 792.0), size=9.0))) == 1


# 10. the preview's render limit: a page preflight passes is stopped after a few seconds by default
def test_the_preview_render_limit_is_a_few_seconds_by_default_and_names_its_flag(run):
    from tokengen.outputs.preview import Bounds

    assert Bounds().seconds == 10 and Bounds().flags[1] == "--max-render-seconds"
    result = run("preview", "--help")
    assert "--max-render-seconds INTEGER RANGE" in result.stdout
    assert "[default: 10; x>=1]" in " ".join(result.stdout.split())
