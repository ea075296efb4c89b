"""Boards larger than the page (issue 41): tiled over pages with overlaps, crop marks, alignment
marks on every overlap, a label per tile and an assembly key; ``--no-tile`` and ``tile: false``
refuse as before.

Measured: the page count is the one the overlap implies (``ceil((L - o) / (w - o))`` per side,
computed here by hand); two neighbouring tiles rendered by pdfium show the same pixels in their
shared strip; an alignment mark's circle is drawn at every mark point of each tile's strips.
"""

from __future__ import annotations

import math

import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops
from pypdf import PdfReader

from tokengen.geometry import tiling

MM = 72 / 25.4
BOARD = """title: Board
size: 400mmx400mm
{tile}fields:
  name: text
template:
  - {{rect: fill, fill: "#e8d8b0"}}
  - {{circle: fill, fill: "#3366cc", at: [0.5, 0.5], r: 0.3}}
  - {{text: "{{name}}", at: [0.5, 0.5], size: 0.1}}
tokens:
  - {{id: board, name: The Board}}
"""


def _by_hand(length: float, window: float, overlap: float) -> int:
    n = 1
    while n * window - (n - 1) * overlap < length:
        n += 1
    return n


@pytest.mark.parametrize("length, window, overlap", [(400 * MM, 576, 6 * MM), (1000, 300, 20), (300, 300, 10), (301, 300, 10)])
def test_tile_count_is_the_least_that_covers(length, window, overlap):
    assert tiling.count(length, window, overlap) == _by_hand(length, window, overlap)


def test_neighbours_share_exactly_the_overlap():
    grid = tiling.tile_board(400 * MM, 400 * MM, (612, 792), 18, 6 * MM)
    assert (grid.rows, grid.columns) == (2, 2)
    a1, a2, b1, _ = grid.tiles
    assert [t.label for t in grid.tiles] == ["A1", "A2", "B1", "B2"]
    assert a1.board.x + a1.board.w - a2.board.x == pytest.approx(6 * MM)
    assert a1.board.y - (b1.board.y + b1.board.h) == pytest.approx(-6 * MM)
    covered = {(t.board.x, t.board.y, t.board.x + t.board.w, t.board.y + t.board.h) for t in grid.tiles}
    assert min(c[0] for c in covered) == 0 and max(c[2] for c in covered) == pytest.approx(400 * MM)
    assert min(c[1] for c in covered) == pytest.approx(0) and max(c[3] for c in covered) == pytest.approx(400 * MM)
    assert tiling._letters(25) == "Z" and tiling._letters(26) == "AA"


@pytest.fixture(scope="module")
def board(tmp_path_factory):
    folder = tmp_path_factory.mktemp("board")
    (folder / "board.yaml").write_text(BOARD.format(tile=""), "utf-8")
    return folder


def test_a_board_on_letter_tiles_into_the_pages_the_overlap_implies(run, board):
    result = run("build", str(board / "board.yaml"), "-o", str(board / "b.pdf"))
    assert result.exit_code == 0, result.stderr
    window = tiling.window((612, 792), 18)
    columns, rows = _by_hand(400 * MM, window.w, 6 * MM), _by_hand(400 * MM, window.h, 6 * MM)
    reader = PdfReader(board / "b.pdf")
    assert len(reader.pages) == columns * rows + 1 == 5
    assert f"tiled over {rows} × {columns} pages each, overlapping by 6mm" in result.stderr + result.stdout
    assert "A1 · row 1 of 2, column 1 of 2" in reader.pages[0].extract_text()
    assert "assembly key" in reader.pages[-1].extract_text()


def _render(pdf, index: int, scale: float) -> Image.Image:
    return pdfium.PdfDocument(str(pdf))[index].render(scale=scale).to_pil().convert("RGB")


def test_neighbouring_tiles_join_exactly_in_their_overlap(run, board):
    pdf = board / "b.pdf"
    if not pdf.exists():
        assert run("build", str(board / "board.yaml"), "-o", str(pdf)).exit_code == 0
    grid = tiling.tile_board(400 * MM, 400 * MM, (612, 792), 18, 6 * MM)
    scale = 4.0  # 288 DPI
    for first, second, across in ((0, 1, True), (0, 2, False)):
        a, b = grid.tiles[first], grid.tiles[second]
        img_a, img_b = _render(pdf, first, scale), _render(pdf, second, scale)
        # the shared strip in board coordinates, trimmed 1 pt inside at its ends
        if across:
            x0, x1 = b.board.x + 1, a.board.x + a.board.w - 1
            y0, y1 = max(a.board.y, b.board.y) + 1, min(a.board.y + a.board.h, b.board.y + b.board.h) - 1
        else:
            x0, x1 = a.board.x + 1, a.board.x + a.board.w - 1
            y0, y1 = b.board.y + b.board.h - 6 * MM + 1, b.board.y + b.board.h - 1

        strip = (x0, y0, x1, y1)
        strip_a, strip_b = _crop(img_a, a, strip, scale), _crop(img_b, b, strip, scale)
        assert strip_a.size == strip_b.size and strip_a.width * strip_a.height > 1000
        diff = ImageChops.difference(strip_a, strip_b).convert("L")
        off = sum(diff.histogram()[49:]) / (diff.width * diff.height)
        assert off < 0.005, f"{off:.4f} of the overlap differs"
        assert len(strip_a.getcolors(1 << 20) or []) > 2  # the strip shows the board, not blank paper


def _crop(img: Image.Image, tile: tiling.Tile, strip: tuple[float, float, float, float], scale: float) -> Image.Image:
    """The board's ``strip`` (x0, y0, x1, y1 board pt) as rendered on ``tile``'s page."""
    x0, y0, x1, y1 = strip
    left, top = round((x0 + tile.origin[0]) * scale), round((792 - (y1 + tile.origin[1])) * scale)
    return img.crop((left, top, left + round((x1 - x0) * scale) - 1, top + round((y1 - y0) * scale) - 1))


def test_an_alignment_mark_stands_at_every_mark_point(run, board):
    pdf = board / "b.pdf"
    if not pdf.exists():
        assert run("build", str(board / "board.yaml"), "-o", str(pdf)).exit_code == 0
    grid = tiling.tile_board(400 * MM, 400 * MM, (612, 792), 18, 6 * MM)
    points = grid.alignment_points()
    assert len(points) == 12  # 3 on each of the two strips of each row or column
    scale = 4.0
    for index, tile in enumerate(grid.tiles):
        img = _render(pdf, index, scale)
        marks = tiling.marks_on(tile, points)
        assert len(marks) == 6  # each tile of a 2 x 2 board touches one vertical and one horizontal strip
        grey = img.convert("L")
        for x, y in marks:  # the circle's rightmost point and the cross's end are dark
            for px, py in ((x + tiling.ALIGN_RADIUS, y), (x + 2 * tiling.ALIGN_RADIUS - 0.5, y)):
                cx, cy = int(px * scale), int((792 - py) * scale)
                assert grey.crop((cx - 1, cy - 1, cx + 2, cy + 2)).getextrema()[0] < 90, (tile.label, x, y)


@pytest.mark.parametrize("how", ["--no-tile", "tile: false\n"])
def test_no_tile_refuses_as_before(run, tmp_path, how):
    catalogue = tmp_path / "board.yaml"
    catalogue.write_text(BOARD.format(tile=how if how.startswith("tile") else ""), "utf-8")
    args = ["--no-tile"] if how == "--no-tile" else []
    result = run("build", str(catalogue), *args, "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 2
    assert "does not fit on a 8.5in × 11in page" in result.stderr
    assert not (tmp_path / "x.pdf").exists()


def test_a_wider_overlap_needs_more_tiles(run, tmp_path):
    catalogue = tmp_path / "board.yaml"
    catalogue.write_text(BOARD.format(tile="tile: {overlap: 10mm}\n"), "utf-8")
    result = run("build", str(catalogue), "-o", str(tmp_path / "x.pdf"))
    assert result.exit_code == 0, result.stderr
    window = tiling.window((612, 792), 18)
    pages = _by_hand(400 * MM, window.w, 10 * MM) * _by_hand(400 * MM, window.h, 10 * MM) + 1
    assert len(PdfReader(tmp_path / "x.pdf").pages) == pages == 7
    assert math.isclose(tiling.count(400 * MM, window.w, 10 * MM), 3)


def test_check_says_what_build_does(run, board):
    result = run("check", str(board / "board.yaml"))
    assert result.exit_code == 0, result.stdout
    assert ("info board: a 400mm × 400mm board: build tiles it over 2 × 2 pages of 8.5in × 11in overlapping by 6mm, "
            "plus an assembly key; shop exports print it whole with single-pages") in result.stdout


def test_every_caption_stays_on_its_page(run, board):
    import pdfplumber

    pdf = board / "captions.pdf"
    assert run("build", str(board / "board.yaml"), "-o", str(pdf)).exit_code == 0
    with pdfplumber.open(pdf) as doc:
        for page in doc.pages:
            captions = [c for c in page.chars if c["size"] <= 8.01]  # the labels (the board's own text is larger)
            assert captions and max(c["x1"] for c in captions) <= page.width - 18, page.page_number
