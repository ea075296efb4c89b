"""Chit PNGs (tokengen.outputs.pngs): the PNG written without Pillow's encoder decodes to the pixels
of pdfium's render of its page, rendered here on its own; worker processes write the same pixels
as one process; a run that fails in a worker is reported as in one process."""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from PIL import Image

from tests.conftest import CATALOGUE
from tokengen.outputs import pngs
from tokengen.outputs.export import export, write_png
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles


def page_pixels(pdf: Path, index: int, dpi: int) -> Image.Image:
    """Page ``index`` of ``pdf`` rendered by pdfium at ``dpi`` on white, RGB, cropped to round(w / 72 × dpi) px."""
    document = pdfium.PdfDocument(str(pdf))
    try:
        page = document[index]
        width, height = page.get_size()
        px, py = round(width / 72 * dpi), round(height / 72 * dpi)
        image = page.render(scale=px / width, fill_color=(255, 255, 255, 255), draw_annots=False).to_pil().convert("RGB")
        page.close()
    finally:
        document.close()
    return image.crop((0, 0, px, py))


@pytest.fixture(scope="module")
def chits(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """The Meatshields tgc-chits set written by one process and by two workers (runs of 5 pages)."""
    cat = load_catalogue(CATALOGUE)
    profile = load_profiles()["tgc-chits"]
    made = {"one": export(cat, profile, tmp_path_factory.mktemp("one"), workers=1)}
    patch = pytest.MonkeyPatch()
    patch.setattr(pngs, "POOL_PAGES", 1)
    patch.setattr(pngs, "RUN_PAGES", 5)
    try:
        made["pool"] = export(cat, profile, tmp_path_factory.mktemp("pool"), workers=2)
    finally:
        patch.undo()
    return made


def test_every_chit_png_has_the_pixels_of_its_page_rendered_on_its_own(chits):
    for files in chits.values():
        pdf, images = files[0], files[1:]
        assert len(images) == 19
        for index, png in enumerate(images):
            with Image.open(png) as im:
                assert (im.format, im.mode, im.size) == ("PNG", "RGB", (375, 375))
                assert im.tobytes() == page_pixels(pdf, index, 300).tobytes(), png.name


def test_chits_are_written_unfiltered_with_the_srgb_gama_and_phys_chunks(chits):
    for png in chits["one"][1:]:
        data = png.read_bytes()
        at, kinds, rows = 8, [], b""
        while at < len(data):
            length = int.from_bytes(data[at:at + 4], "big")
            kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
            assert int.from_bytes(data[at + 8 + length:at + 12 + length], "big") == zlib.crc32(kind + body)
            kinds.append(kind)
            if kind == b"IDAT":
                rows += body
            elif kind == b"pHYs":
                assert body == (11811).to_bytes(4, "big") * 2 + b"\x01"  # 300 DPI
            at += 12 + length
        assert kinds == [b"IHDR", b"sRGB", b"gAMA", b"pHYs", b"IDAT", b"IEND"], png.name
        pixels = zlib.decompress(rows)
        assert {pixels[y * (1 + 3 * 375)] for y in range(375)} == {0}, png.name  # filter type None on every row


def test_workers_write_the_same_pngs_as_one_process(chits):
    assert [f.name for f in chits["pool"]] == [f.name for f in chits["one"]]
    assert [f.read_bytes() for f in chits["pool"]] == [f.read_bytes() for f in chits["one"]]


def test_encoded_png_decodes_to_the_pixels_pillow_writes_with_dpi_and_srgb(chits):
    pdf = chits["one"][0]
    image = page_pixels(pdf, 3, 300)
    ours = Image.open(io.BytesIO(pngs.encode_png(image, 300)))
    buffer = io.BytesIO()
    write_png(image, buffer, 300)  # Pillow's encoder, as the chits were written before
    pillow = Image.open(buffer)
    assert ours.tobytes() == pillow.tobytes() == image.tobytes()
    assert ours.info["srgb"] == pillow.info["srgb"] == 0
    assert ours.info["gamma"] == pillow.info["gamma"] == pytest.approx(0.45455)
    assert ours.info["dpi"] == pillow.info["dpi"]  # 11811 px/m: 299.9994 DPI both
    assert tuple(round(v) for v in ours.info["dpi"]) == (300, 300)


def test_encoded_png_chunks_in_order_with_valid_crcs():
    data = pngs.encode_png(Image.new("RGB", (3, 2), (10, 20, 30)), 150)
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, kinds = 8, []
    while at < len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        kind, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        assert int.from_bytes(data[at + 8 + length:at + 12 + length], "big") == zlib.crc32(kind + body)
        kinds.append(kind)
        if kind == b"pHYs":
            assert body == (5906).to_bytes(4, "big") * 2 + b"\x01"  # 150 DPI = 5905.5 → 5906 px per metre
        if kind == b"IDAT":  # each row: a filter-type byte, then its 3 × 3 filtered bytes
            assert len(zlib.decompress(body)) == (1 + 3 * 3) * 2
        at += 12 + length
    assert kinds == [b"IHDR", b"sRGB", b"gAMA", b"pHYs", b"IDAT", b"IEND"]
    assert Image.open(io.BytesIO(data)).tobytes() == bytes([10, 20, 30]) * 6


def test_encode_png_refuses_other_modes():
    with pytest.raises(ValueError, match="^encode_png takes RGB images, not RGBA$"):
        pngs.encode_png(Image.new("RGBA", (2, 2)), 300)


def test_a_worker_run_that_cannot_write_returns_the_message(chits, tmp_path: Path):
    pdf = chits["one"][0]
    missing = tmp_path / "gone" / "x.part"
    shown = tmp_path / "x.png"
    result = pngs.render_run((pdf, 300, 90.0, 0, (missing,), (shown,)))
    assert result == ("write", f"{shown}: cannot write PNG: No such file or directory; no file of the set was replaced")


def test_a_failing_run_in_the_pool_fails_the_set(chits, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    pdf = chits["one"][0]
    monkeypatch.setattr(pngs, "POOL_PAGES", 1)
    monkeypatch.setattr(pngs, "RUN_PAGES", 5)
    temps = [tmp_path / f"{n}.part" for n in range(19)]
    temps[12] = tmp_path / "gone" / "12.part"  # the third run cannot write its third PNG
    shown = [tmp_path / f"{n}.png" for n in range(19)]
    from tokengen.errors import ExportError

    with pytest.raises(ExportError) as caught:
        pngs.write_pngs(pdf, 300, 90.0, temps, shown, workers=2)
    assert str(caught.value) == f"{shown[12]}: cannot write PNG: No such file or directory; no file of the set was replaced"
    assert [n for n, t in enumerate(temps) if not t.exists()] == [12, 13, 14]  # the rest of that run; the other runs wrote theirs


def test_a_worker_keeps_the_pdf_open_between_its_runs_until_the_file_changes(chits, tmp_path: Path):
    pdf = tmp_path / "pages.pdf"
    pdf.write_bytes(chits["one"][0].read_bytes())
    try:
        first = pngs._kept_open(pdf)
        assert pngs._kept_open(pdf) is first  # the next run of the same file: no second open
        pdf.write_bytes(pdf.read_bytes() + b"\n")  # rewritten in place: another size
        again = pngs._kept_open(pdf)
        assert again is not first
        assert len(again) == 19  # the new file, read in full
        other = tmp_path / "other.pdf"
        other.write_bytes(pdf.read_bytes())
        assert pngs._kept_open(other) is not again
        assert [kept[0] for kept in pngs._kept] == [other]  # one document kept at a time
    finally:
        while pngs._kept:
            pngs._kept.pop()[2].close()


def test_runs_of_a_kept_pdf_write_the_pngs_one_process_writes(chits, tmp_path: Path):
    pdf, pngs_one = chits["one"][0], chits["one"][1:]
    temps = [tmp_path / f"{n}.png" for n in range(len(pngs_one))]
    try:
        for first in (10, 0, 15, 5):  # out of order, as a worker is handed them
            assert pngs.render_run((pdf, 300, 90.0, first, tuple(temps[first:first + 5]), tuple(temps[first:first + 5]))) is None
    finally:
        while pngs._kept:
            pngs._kept.pop()[2].close()
    assert [t.read_bytes() for t in temps] == [p.read_bytes() for p in pngs_one]


@pytest.mark.parametrize(("total", "workers", "size"), [
    (200, 8, 1),  # at most POOL_PAGES: this process alone
    (201, 1, 1),
    (201, 8, 5),  # one worker a run of RUN_PAGES at most
    (1001, 2, 2),
    (1001, None, None),  # every core, up to the runs
])
def test_pool_size(total: int, workers: int | None, size: int | None):
    import os

    expected = size if size is not None else max(1, min(os.cpu_count() or 1, -(-total // pngs.RUN_PAGES)))
    assert pngs.pool_size(total, workers) == expected


def test_chits_and_tts_tiles_are_encoded_from_pdfiums_bitmap_without_a_pillow_image_each(tmp_path, monkeypatch):
    """Counted, not timed: a Pillow image per chit (and its copy out of pdfium's bitmap, and
    another out of the image to encode it) was a fifth of the PNGs' work; the rows are read in
    place. The TTS tiles go the same way: only the thumbnail is a Pillow image."""
    made = {"frombuffer": 0, "tobytes": 0}

    def counting(name, original):
        def call(*args, **kwargs):
            made[name] += 1
            return original(*args, **kwargs)
        return call

    monkeypatch.setattr(Image, "frombuffer", counting("frombuffer", Image.frombuffer))
    monkeypatch.setattr(Image.Image, "tobytes", counting("tobytes", Image.Image.tobytes))
    cat = load_catalogue(CATALOGUE)
    chits = export(cat, load_profiles()["tgc-chits"], tmp_path / "chits", workers=1)
    tiles = export(cat, load_profiles()["tts"], tmp_path / "tts", workers=1)
    assert len(chits) == 20 and len(tiles) == 22  # the PDF, 18 faces and the back; and the JSON and thumbnail
    assert made == {"frombuffer": 0, "tobytes": 1}  # the thumbnail, encoded by pngwrite


def test_png_pages_are_encode_png_of_the_rendered_page(tmp_path):
    cat = load_catalogue(CATALOGUE)
    pdf = export(cat, load_profiles()["tgc-chits"], tmp_path, workers=1)[0]
    direct = list(pngs.png_pages(pdf, 150, first=3, count=2))
    via_pillow = [pngs.encode_png(image, 150) for image in pngs.rasterise_pages(pdf, 150, 90.0, first=3, count=2)]
    assert len(direct) == 2 and direct == via_pillow
