"""--preview on build and export, and tokengen preview: PNGs of exactly round(W/72 × DPI) px."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PIL import Image

from tests.conftest import CATALOGUE

LETTER_100 = (850, 1100)  # 612 × 792 pt at 100 DPI
A4_150 = (round(595.2756 / 72 * 150), round(841.8898 / 72 * 150))  # 1240 × 1754


def _pixels(path: Path) -> tuple[int, int]:
    with Image.open(path) as image:
        return image.size


@pytest.fixture
def cat(tmp_path: Path) -> Path:
    target = tmp_path / "token_defs.yaml"
    shutil.copy(CATALOGUE, target)
    return target


def test_build_preview_writes_one_png_per_page_at_100_dpi(run, cat: Path, tmp_path: Path):
    out = tmp_path / "sheet.pdf"
    result = run("build", str(cat), "--backs", "--rules", "-o", str(out), "--preview")
    assert result.exit_code == 0, result.stderr
    pngs = sorted(tmp_path.glob("sheet-*.png"))
    assert [p.name for p in pngs] == ["sheet-1.png", "sheet-2.png", "sheet-3.png"]  # face, back, rules
    assert all(_pixels(p) == LETTER_100 for p in pngs)
    with Image.open(pngs[0]) as image:
        assert image.mode == "RGB"
        assert round(image.info["dpi"][0]) == 100
    assert "wrote 3 preview PNGs at 100 DPI" in result.stdout


def test_build_preview_one_page_named_file_and_dpi(run, cat: Path, tmp_path: Path):
    target = tmp_path / "look.png"
    result = run("build", str(cat), "--page", "a4", "--backs", "-o", str(tmp_path / "a4.pdf"),
                 "--preview", str(target), "--preview-dpi", "150", "--preview-page", "2")
    assert result.exit_code == 0, result.stderr
    assert _pixels(target) == A4_150
    assert not list(tmp_path.glob("look-*.png"))
    # page 2 is the back sheet: the back colour dominates its centre, the face sheet's centre differs
    with Image.open(target) as back:
        assert back.getpixel((A4_150[0] // 2, A4_150[1] // 2)) != (255, 255, 255)


def test_preview_of_the_back_matches_the_page_rendered_alone(run, cat: Path, tmp_path: Path):
    """The PNG is the PDF's page: compare with a pdfium render of the same page."""
    import pypdfium2 as pdfium

    out = tmp_path / "s.pdf"
    assert run("build", str(cat), "-o", str(out), "--preview", "--preview-dpi", "72").exit_code == 0
    document = pdfium.PdfDocument(out)
    reference = document[0].render(scale=1.0).to_pil().convert("RGB")
    document.close()
    with Image.open(tmp_path / "s-1.png") as png:
        assert png.size == reference.size == (612, 792)
        assert png.tobytes() == reference.tobytes()


def test_preview_options_need_preview(run, cat: Path, tmp_path: Path):
    result = run("build", str(cat), "-o", str(tmp_path / "x.pdf"), "--preview-dpi", "50")
    assert result.exit_code == 2
    assert result.stderr == "tokengen: error: tokengen build: --preview-dpi: add --preview (see 'tokengen build --help')\n"
    assert not (tmp_path / "x.pdf").exists()


def test_preview_page_out_of_range_is_one_line(run, cat: Path, tmp_path: Path):
    out = tmp_path / "x.pdf"
    result = run("build", str(cat), "-o", str(out), "--preview", "--preview-page", "4")
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: --preview-page 4: {out} has 1 page\n"


def test_export_preview(run, cat: Path, tmp_path: Path):
    out = tmp_path / "shop"
    result = run("export", str(cat), "--profile", "print-shop", "-o", str(out), "--preview", "--preview-dpi", "50")
    assert result.exit_code == 0, result.stderr
    pdf = next(out.glob("*.pdf"))
    pngs = sorted(out.glob(f"{pdf.stem}-*.png"))
    assert len(pngs) == 2  # face sheet and its duplex back sheet
    assert all(_pixels(p) == (round(612 / 72 * 50), round(792 / 72 * 50)) for p in pngs)


def test_preview_command_any_pdf(run, cat: Path, tmp_path: Path):
    pdf = tmp_path / "align.pdf"
    assert run("align", "--page", "a4", "-o", str(pdf)).exit_code == 0
    result = run("preview", str(pdf), "--dpi", "150")
    assert result.exit_code == 0, result.stderr
    assert [_pixels(tmp_path / f"align-{n}.png") for n in (1, 2)] == [A4_150, A4_150]
    result = run("preview", str(pdf), "--page", "2", "--dpi", "20", "-o", str(tmp_path / "p2.png"))
    assert result.exit_code == 0
    assert _pixels(tmp_path / "p2.png") == (round(595.2756 / 72 * 20), round(841.8898 / 72 * 20))


@pytest.mark.parametrize(("content", "message"), [
    (None, "no such file"),
    (b"not a pdf", "cannot read as a PDF"),
])
def test_preview_command_bad_input(run, tmp_path: Path, content: bytes | None, message: str):
    pdf = tmp_path / "in.pdf"
    if content is not None:
        pdf.write_bytes(content)
    result = run("preview", str(pdf))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"tokengen: error: {pdf}: {message}")
    assert result.stderr.count("\n") == 1
    assert not list(tmp_path.glob("*.png"))


def test_preview_never_overwrites_the_pdf(run, cat: Path, tmp_path: Path):
    out = tmp_path / "s.pdf"
    assert run("build", str(cat), "-o", str(out)).exit_code == 0
    before = out.read_bytes()
    link = tmp_path / "s.png"  # a PNG name that reaches the PDF itself
    link.symlink_to(out)
    result = run("preview", str(out), "--page", "1", "-o", str(link))
    assert result.exit_code == 2
    assert "output would overwrite an input file" in result.stderr
    assert out.read_bytes() == before


def test_preview_pixel_limit(run, cat: Path, tmp_path: Path):
    out = tmp_path / "big.pdf"
    assert run("build", str(cat), "--page", "tabloid", "-o", str(out)).exit_code == 0
    result = run("preview", str(out), "--dpi", "1200")
    assert result.exit_code == 2
    assert result.stderr.endswith(" px, more than the 100,000,000 px limit; lower --dpi\n")


def test_a_preview_name_must_end_in_png(run, cat: Path, tmp_path: Path):
    """The optional value of --preview can swallow the catalogue's name; a .pdf or .jpg name would
    hold PNG bytes. Both are refused before anything is built."""
    before = cat.read_bytes()
    result = run("build", "-o", str(tmp_path / "o.pdf"), "--preview", str(cat))
    assert result.exit_code == 2 and not (tmp_path / "o.pdf").exists() and cat.read_bytes() == before
    assert (f"--preview takes a file name ending in .png, got '{cat}' (give the catalogue before --preview, "
            "or write --preview=NAME.png)") in result.stderr
    assert run("build", str(cat), "-o", str(tmp_path / "o.pdf")).exit_code == 0
    result = run("preview", str(tmp_path / "o.pdf"), "-o", str(tmp_path / "o.jpg"))
    assert result.exit_code == 2 and "-o/--output takes a file name ending in .png, got" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".yaml") == ["o.pdf"]
    assert run("preview", str(tmp_path / "o.pdf"), "-o", str(tmp_path / "O.PNG"), "--page", "1").exit_code == 0
