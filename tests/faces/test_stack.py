"""``stack:``: elements placed one after another in a box, built into a real PDF and read back
with pdfplumber: each element's top is the last one's bottom plus the gap, a ``fill`` spacer
pushes a footer to the stack's bottom, a row places its elements left to right, a long text
pushes what follows down (not shrinking) and a full stack shrinks its texts together."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tokengen import BuildOptions, SheetSpec, build_pdf, load_catalogue
from tokengen.errors import CatalogueError
from tokengen.geometry import stack as geo
from tokengen.units import parse_page

#: The card: 2.5 × 3.5 in (180 × 252 pt); stacks below sit in box [0.1, 0.1, 0.8, 0.8]:
#: x 18 pt, y 25.2 pt from the top, 144 × 201.6 pt.
W, H = 180.0, 252.0
LONG = "Each creature in a 20-foot radius must make a saving throw or take fire damage. " * 3


def catalogue(folder: Path, elements: str, fields: str = "{name: text, body: text}", token: str = "{id: a, name: Fire, body: x}") -> Path:
    path = folder / "cat.yaml"
    path.write_text(f"title: S\nsize: 2.5in x 3.5in\nfields: {fields}\ntemplate:\n{textwrap.indent(elements, '  ')}"
                    f"tokens:\n  - {token}\n", "utf-8")
    return path


def build(folder: Path, elements: str, **kw: str) -> Path:
    cat = load_catalogue(catalogue(folder, elements, **kw))
    out = folder / "out.pdf"
    build_pdf(cat, BuildOptions(sheet=SheetSpec(page=parse_page("letter"), size=cat.size)), out)
    return out


def rects(pdf: Path) -> list[dict]:
    """The filled rectangles of the first token (pdfplumber, y down), top to bottom, left to right."""
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        found = [r for r in page.rects if r["non_stroking_color"] not in (None, (1, 1, 1), [1, 1, 1]) and r["width"] < W]
    first = min(found, key=lambda r: (r["top"], r["x0"]))
    return sorted([r for r in found if abs(r["x0"] - first["x0"]) < W and abs(r["top"] - first["top"]) < H],
                  key=lambda r: (round(r["top"], 3), r["x0"]))


def sizes(pdf: Path, words: tuple[str, ...]) -> dict[str, float]:
    """The font size of the first char of each of ``words`` (first token)."""
    with pdfplumber.open(pdf) as doc:
        found = {w["text"]: w for w in doc.pages[0].extract_words(extra_attrs=["size"])}
    return {w: found[w]["size"] for w in words}


def test_each_top_is_the_last_bottom_plus_the_gap(tmp_path: Path) -> None:
    pdf = build(tmp_path, """\
- stack:
    - {rect: a, fill: "#ff0000", box: [0, 0, 1, 0.1]}
    - {rect: b, fill: "#00ff00", box: [0, 0, 1, 0.05]}
    - {rect: c, fill: "#0000ff", box: [0, 0, 1, 0.02]}
  box: [0.1, 0.1, 0.8, 0.8]
  gap: 4pt
""")
    a, b, c = rects(pdf)
    assert b["top"] == pytest.approx(a["bottom"] + 4, abs=0.01)
    assert c["top"] == pytest.approx(b["bottom"] + 4, abs=0.01)
    assert [r["height"] for r in (a, b, c)] == pytest.approx([0.1 * H, 0.05 * H, 0.02 * H], abs=0.01)
    assert [r["width"] for r in (a, b, c)] == pytest.approx([0.8 * W] * 3, abs=0.01)


def test_a_text_between_takes_its_natural_height_and_the_gaps(tmp_path: Path) -> None:
    pdf = build(tmp_path, """\
- stack:
    - {rect: a, fill: "#ff0000", box: [0, 0, 1, 0.02]}
    - {text: "{name}", size: 12pt}
    - {rect: b, fill: "#00ff00", box: [0, 0, 1, 0.02]}
  box: [0.1, 0.1, 0.8, 0.8]
  gap: 0.02
""")
    a, b = rects(pdf)
    with pdfplumber.open(pdf) as doc:
        fire = next(w for w in doc.pages[0].extract_words(extra_attrs=["size"]) if w["text"] == "Fire")
    gap = 0.02 * W
    assert a["bottom"] + gap < fire["top"] and fire["bottom"] < b["top"] - gap + 0.01
    assert fire["size"] == pytest.approx(12, abs=0.01)
    assert b["top"] - a["bottom"] - 2 * gap == pytest.approx(12 * 1.2, abs=3.5)  # one line, the leading's height give or take


def test_a_fill_spacer_pushes_the_footer_to_the_bottom(tmp_path: Path) -> None:
    pdf = build(tmp_path, """\
- stack:
    - {rect: top, fill: "#ff0000", box: [0, 0, 1, 0.05]}
    - fill: 1
    - {rect: mid, fill: "#00ff00", box: [0, 0, 1, 0.05]}
    - fill: 3
    - {rect: foot, fill: "#0000ff", box: [0, 0, 1, 0.05]}
  box: [0.1, 0.1, 0.8, 0.8]
  gap: 2pt
""")
    top, mid, foot = rects(pdf)
    assert foot["bottom"] - top["top"] == pytest.approx(0.8 * H, abs=0.01)  # the footer ends where the stack does
    left = 0.8 * H - 3 * 0.05 * H - 4 * 2
    assert mid["top"] - top["bottom"] == pytest.approx(2 + left / 4 + 2, abs=0.01)
    assert foot["top"] - mid["bottom"] == pytest.approx(2 + 3 * left / 4 + 2, abs=0.01)


def test_a_row_places_its_elements_left_to_right(tmp_path: Path) -> None:
    pdf = build(tmp_path, """\
- stack:
    - {rect: a, fill: "#ff0000", box: [0, 0, 0.2, 0.1]}
    - {rect: b, fill: "#00ff00", box: [0, 0, 0.3, 0.05]}
    - {rect: c, fill: "#0000ff", box: [0, 0, 0.1, 0.1]}
  box: [0.1, 0.1, 0.8, 0.2]
  direction: row
  gap: 0.05
  align: end
""")
    a, c, b = rects(pdf)  # sorted by top: b is lower (end-aligned, shorter)
    gap = 0.05 * W
    assert b["x0"] == pytest.approx(a["x1"] + gap, abs=0.01)
    assert c["x0"] == pytest.approx(b["x1"] + gap, abs=0.01)
    assert [r["width"] for r in (a, b, c)] == pytest.approx([0.2 * W, 0.3 * W, 0.1 * W], abs=0.01)
    assert a["bottom"] == pytest.approx(b["bottom"], abs=0.01) and c["bottom"] == pytest.approx(b["bottom"], abs=0.01)
    assert b["top"] - a["top"] == pytest.approx(0.05 * H, abs=0.01)


def test_a_long_text_pushes_the_next_element_down_and_keeps_its_size(tmp_path: Path) -> None:
    spec = """\
- stack:
    - {text: "{body}", size: 10pt, align: left}
    - {rect: marker, fill: "#ff0000", box: [0, 0, 1, 0.02]}
  box: [0.1, 0.1, 0.8, 0.8]
  gap: 3pt
"""
    short = build(tmp_path, spec, token="{id: a, name: F, body: Short}")
    (tmp_path / "short").mkdir()
    short = short.rename(tmp_path / "short" / "out.pdf")
    long = build(tmp_path, spec, token=f"{{id: a, name: F, body: {LONG!r}}}")
    (marker_short,), (marker_long,) = rects(short), rects(long)
    assert marker_long["top"] > marker_short["top"] + 4 * 12  # several lines lower
    with pdfplumber.open(long) as doc:
        chars = [ch for ch in doc.pages[0].chars if ch["top"] < marker_long["top"]
                 and marker_long["x0"] - 1 <= ch["x0"] and ch["x1"] <= marker_long["x1"] + 1]
        assert {round(ch["size"], 2) for ch in chars} == {10.0}
        assert max(ch["bottom"] for ch in chars if ch["top"] < marker_long["top"]) < marker_long["top"] - 3 + 0.5


def test_a_full_stack_shrinks_its_texts_together(tmp_path: Path) -> None:
    spec = """\
- stack:
    - {text: "Alpha {body}", size: 10pt, min_size: 4pt}
    - {text: "Omega {body}", size: 10pt, min_size: 4pt}
    - fill: 1
    - {rect: foot, fill: "#ff0000", box: [0, 0, 1, 0.05]}
  box: [0.1, 0.1, 0.8, 0.5]
"""
    at_ease = build(tmp_path, spec, token="{id: a, name: F, body: short}")
    assert sizes(at_ease, ("Alpha", "Omega")) == pytest.approx({"Alpha": 10, "Omega": 10}, abs=0.01)
    full = build(tmp_path, spec, token=f"{{id: a, name: F, body: {LONG!r}}}")
    got = sizes(full, ("Alpha", "Omega"))
    assert got["Alpha"] == pytest.approx(got["Omega"], abs=0.001)
    assert 4 <= got["Alpha"] < 10
    (foot,) = rects(full)
    with pdfplumber.open(full) as doc:
        lowest = max(ch["bottom"] for ch in doc.pages[0].chars if ch["size"] > 3 and ch["top"] < foot["top"] + 1)
    assert lowest <= foot["top"] + 0.5  # the texts end above the footer


def test_a_text_with_fit_false_keeps_its_size_while_the_others_shrink(tmp_path: Path) -> None:
    pdf = build(tmp_path, """\
- stack:
    - {text: "Alpha {body}", size: 10pt, min_size: 4pt}
    - {text: "Omega {body}", size: 10pt, fit: false}
  box: [0.1, 0.1, 0.8, 0.7]
""", token=f"{{id: a, name: F, body: {LONG!r}}}")
    got = sizes(pdf, ("Alpha", "Omega"))
    assert got["Omega"] == pytest.approx(10, abs=0.001) and got["Alpha"] < 10


def test_an_overfull_stack_cuts_its_last_text_with_the_cut_warning(tmp_path: Path) -> None:
    path = catalogue(tmp_path, """\
- stack:
    - {text: "{body}", size: 10pt, min_size: 9pt}
    - {text: "{body}", size: 10pt, min_size: 9pt}
  box: [0.1, 0.1, 0.8, 0.3]
""", token=f"{{id: a, name: F, body: {LONG!r}}}")
    from tokengen.faces import facedraw
    from tokengen.sources.template import token_values

    cat = load_catalogue(path)
    token = cat.tokens[0]
    cut = facedraw.cut_texts(W, H, token.template, token_values(token))
    assert [e.where for e, _ in cut] == ["template[0].stack[0]", "template[0].stack[1]"]  # the first cut at the box's end, the second left no room
    assert [laid.size for _, laid in cut] == pytest.approx([9, 9])  # both at their min_size
    assert cut[0][1].lines and not cut[1][1].lines


@pytest.mark.parametrize(("elements", "field", "words"), [
    ("- stack: [{fill: red}]\n  box: [0, 0, 1, 1]\n", "template[0].stack[0].fill", "share of the space"),
    ("- stack: [{frame: f}]\n", "template[0].stack[0].frame", "cannot hold a frame"),
    ("- stack: [{text: x, at: [0.5, 0.5]}]\n", "template[0].stack[0].at", "leave 'at' out"),
    ("- stack: [{text: x}]\n  direction: sideways\n", "template[0].direction", "sideways"),
    ("- stack: [{text: x}]\n  gap: lots\n", "template[0].gap", "lots"),
    ("- stack: [{text: x}]\n  align: middle\n", "template[0].align", "middle"),
    ("- stack: [{text: x, repeat: {count: 2, step: [0, 0.1]}}]\n", "template[0].stack[0].repeat.step", "step"),
    ("- stack: []\n", "template[0].stack", "fill spacers"),
    ("- stack: [{rect: r}]\n", "template[0].stack[0]", "needs box"),
    ("- stack: [{text: x, width: 0.5}]\n", "template[0].stack[0].width", "as wide as the stack"),
    ("- {line: [[0, 0], [1, 1]], box: [0, 0, 1, 0.1]}\n", "template[0].box", "only in a stack"),
])
def test_bad_stack_input_names_file_line_and_field(tmp_path: Path, elements: str, field: str, words: str) -> None:
    with pytest.raises(CatalogueError) as info:
        load_catalogue(catalogue(tmp_path, elements))
    message = str(info.value)
    assert "\n" not in message and "cat.yaml:" in message and field in message and words in message


def test_a_stacks_elements_count_under_the_design_element_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("tokengen.sources.fields.MAX_DESIGN_ELEMENTS", 10)  # the stack, its 10 rects and the back's one element: 12
    children = "".join(f'    - {{rect: r{k}, fill: "#ff0000", box: [0, 0, 1, 0.01]}}\n' for k in range(10))
    with pytest.raises(CatalogueError, match=r"× 12 template elements"):
        load_catalogue(catalogue(tmp_path, f"- stack:\n{children}"))


def test_place_is_geometry_alone() -> None:
    boxes = geo.place((10, 20, 100, 200), [geo.Child(30), geo.Child(0, None, 1), geo.Child(20, 40)], gap=5, align="centre")
    assert boxes == [(10, 20, 100, 30), (10, 55, 100, 140), (40, 200, 40, 20)]
    over = geo.place((0, 0, 10, 50), [geo.Child(40), geo.Child(40)], gap=0)
    assert over == [(0, 0, 10, 40), (0, 40, 10, 10)]


@given(st.lists(st.tuples(st.floats(0, 80), st.one_of(st.none(), st.floats(0, 120)), st.sampled_from([0.0, 0.0, 1.0, 2.5])),
                max_size=12),
       st.floats(0, 10), st.booleans(), st.sampled_from(geo.ALIGNS))
def test_placed_boxes_stay_in_the_stack_in_order(sizes: list, gap: float, row: bool, align: str) -> None:
    box = (5.0, 7.0, 100.0, 150.0)
    children = [geo.Child(m, c, w) for m, c, w in sizes]
    boxes = geo.place(box, children, gap, row, align)
    assert len(boxes) == len(children)
    for x, y, w, h in boxes:
        assert box[0] - 1e-9 <= x and x + w <= box[0] + box[2] + 1e-9
        assert box[1] - 1e-9 <= y and y + h <= box[1] + box[3] + 1e-9
    starts = [b[0] if row else b[1] for b in boxes]
    ends = [b[0] + b[2] if row else b[1] + b[3] for b in boxes]
    assert all(e <= s + 1e-9 for e, s in zip(ends, starts[1:], strict=False))  # in order, never overlapping
    if any(c.weight for c in children) and geo.need(children, gap) <= (box[2] if row else box[3]):
        assert ends[-1] == pytest.approx(box[0] + box[2] if row else box[1] + box[3])  # spacers fill the stack to its end
