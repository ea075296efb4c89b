"""PDFs made by other tools, each with the preflight verdict it must get (issue 18).

The folder is made by the test set-up (module fixture ``foreign``), nothing is committed: a
PostScript card through Ghostscript's pdfwrite (base-14 font left unembedded, as gs does by
default, and embedded on request), our exports rewritten by Ghostscript, qpdf, poppler's
``pdftocairo``, ``pdfseparate`` and ``pdfunite``, images saved as PDF by Pillow, and a blank page
from pikepdf. A case whose tool is missing is skipped with the Debian package to install.
For each: the exact set of failing checks, and the line that explains the first failure.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from tests.conftest import CATALOGUE
from tokengen.outputs.export import export
from tokengen.preflight.checks import preflight
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

PROFILES = load_profiles()

CARD_PS = b"""%!PS
<< /PageSize [90 90] >> setpagedevice
0 0.1 0.3 0 setcmykcolor 0 0 90 90 rectfill
0 0 0 1 setcmykcolor /Helvetica-Bold findfont 12 scalefont setfont 30 40 moveto (AGI) show
showpage
0 0.1 0.3 0 setcmykcolor 0 0 90 90 rectfill
showpage
"""
GS = ["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite"]

#: name → (tool, Debian package, how it is made from the folder's inputs)
MAKERS = {
    "gs-card.pdf": ("gs", "ghostscript", lambda d: [*GS, f"-sOutputFile={d / 'gs-card.pdf'}", str(d / "card.ps")]),
    "gs-card-embedded.pdf": ("gs", "ghostscript", lambda d: [*GS, "-dEmbedAllFonts=true", f"-sOutputFile={d / 'gs-card-embedded.pdf'}",
                                                            "-c", "<</NeverEmbed [ ]>> setdistillerparams", "-f", str(d / "card.ps")]),
    "gs-single-pages.pdf": ("gs", "ghostscript", lambda d: [*GS, "-sColorConversionStrategy=CMYK", "-dProcessColorModel=/DeviceCMYK",
                                                           f"-sOutputFile={d / 'gs-single-pages.pdf'}", str(d / "single-pages.pdf")]),
    "qpdf-linearized.pdf": ("qpdf", "qpdf", lambda d: ["qpdf", "--linearize", str(d / "print-shop.pdf"), str(d / "qpdf-linearized.pdf")]),
    "qpdf-object-streams.pdf": ("qpdf", "qpdf", lambda d: ["qpdf", "--object-streams=generate", str(d / "print-shop.pdf"),
                                                           str(d / "qpdf-object-streams.pdf")]),
    "cairo.pdf": ("pdftocairo", "poppler-utils", lambda d: ["pdftocairo", "-pdf", str(d / "single-pages.pdf"), str(d / "cairo.pdf")]),
    "separated.pdf": ("pdfseparate", "poppler-utils", lambda d: ["pdfseparate", "-f", "1", "-l", "1", str(d / "single-pages.pdf"),
                                                                str(d / "separated.pdf")]),
    "united.pdf": ("pdfunite", "poppler-utils", lambda d: ["pdfunite", str(d / "print-shop.pdf"), str(d / "eu-3mm.pdf"), str(d / "united.pdf")]),
}

#: name → (profile, --size in pt or None, failing checks, the first failing check's message)
VERDICTS = {
    "gs-card.pdf": ("single-pages", 90.0, {"boxes", "bleed", "fonts", "pdfx"},
                    ("fonts", "page 1: font /Helvetica-Bold is not embedded (on the page)")),
    "gs-card-embedded.pdf": ("single-pages", 90.0, {"boxes", "bleed", "pdfx"}, ("boxes", "page 1: no TrimBox and no BleedBox (and 1 more)")),
    "gs-single-pages.pdf": ("single-pages", 72.0, {"pdfx"}, ("pdfx", "document: no /GTS_PDFXVersion in the Info dictionary: not labelled PDF/X (and 3 more)")),
    "qpdf-linearized.pdf": ("print-shop", None, set(), None),
    "qpdf-object-streams.pdf": ("print-shop", None, {"pdfx"}, ("pdfx", "document: PDF version 1.5; PDF/X-1a:2001 allows at most 1.3")),
    "cairo.pdf": ("single-pages", 72.0, {"boxes", "bleed", "colour", "pdfx"}, ("colour", None)),
    "separated.pdf": ("single-pages", 72.0, {"pages", "boxes", "bleed", "trim-size"},
                      ("trim-size", "page 1: trim 90.00 × 90.00 pt, expected 72.00 × 72.00 pt")),
    # the crop marks are in the All separation (issue 26): no ink, where DeviceCMYK 1 1 1 1 failed at 400 %
    "united.pdf": ("print-shop", None, {"boxes", "bleed", "trim-size", "pdfx"},
                   ("trim-size", "page 3: page is 595.3 × 841.9 pt, the profile's sheet is 612.0 × 792.0 pt (and 1 more)")),
    "pillow-rgb-72dpi.pdf": ("single-pages", 300 / 72 * 72, {"pages", "boxes", "bleed", "colour", "images", "pdfx"},
                             ("images", "page 1: image /image in page: 300 × 300 px placed at 4.167 × 4.167 in is 72 DPI, less than 300")),
    "pillow-cmyk-300dpi.pdf": ("single-pages", 90.0, {"pages", "boxes", "bleed", "pdfx"}, ("pages", None)),
    "pikepdf-blank.pdf": ("home", None, set(), None),
}


@pytest.fixture(scope="module")
def foreign(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("foreign")
    cat = load_catalogue(CATALOGUE)
    for name in ("print-shop", "eu-3mm", "single-pages"):
        shutil.copy(export(cat, PROFILES[name], folder / "ours" / name)[0], folder / f"{name}.pdf")
    (folder / "card.ps").write_bytes(CARD_PS)
    for tool, _, command in MAKERS.values():
        if shutil.which(tool):
            subprocess.run(command(folder), check=True, capture_output=True, timeout=120)
    Image.new("RGB", (300, 300), (200, 30, 30)).save(folder / "pillow-rgb-72dpi.pdf", resolution=72)
    Image.new("CMYK", (375, 375), (0, 30, 90, 0)).save(folder / "pillow-cmyk-300dpi.pdf", resolution=300)
    with pikepdf.new() as blank:
        blank.add_blank_page(page_size=(612, 792))
        blank.save(folder / "pikepdf-blank.pdf")
    return folder


@pytest.mark.parametrize("name", list(VERDICTS))
def test_foreign_pdf_verdict(foreign: Path, name: str):
    if name in MAKERS and not shutil.which(MAKERS[name][0]):
        pytest.skip(f"{MAKERS[name][0]} is not installed (Debian package {MAKERS[name][1]})")
    profile, size, fails, first = VERDICTS[name]
    checks = preflight(foreign / name, PROFILES[profile], size=size)
    assert {c.name for c in checks if not c.passed} == fails, [c.message for c in checks if not c.passed]
    words = [line for c in checks for line in (c.message, *c.problems)]
    assert not [w for w in words if "(s)" in w or " 0 character" in w]  # counts in words: "1 page", "2 pages"
    if first is not None:
        check, message = first
        got = next(c for c in checks if c.name == check)
        assert not got.passed
        if message is not None:
            assert got.message == message


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="pdffonts (Debian package poppler-utils) is not installed")
@pytest.mark.parametrize("name", ["gs-card.pdf", "gs-card-embedded.pdf", "cairo.pdf", "single-pages.pdf"])
def test_fonts_verdict_agrees_with_pdffonts(foreign: Path, name: str):
    if not (foreign / name).exists():
        pytest.skip("its tool is not installed")
    listing = subprocess.run(["pdffonts", str(foreign / name)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    unembedded = {line.split()[0] for line in listing if line.split()[-5] == "no"}  # the emb column
    fonts = next(c for c in preflight(foreign / name, PROFILES["home"]) if c.name == "fonts")
    named = {line.split("font /")[1].split(" is not embedded")[0] for line in fonts.problems}
    assert named == unembedded


def test_cairo_rewrites_colour_as_rgb(foreign: Path):
    if not (foreign / "cairo.pdf").exists():
        pytest.skip("pdftocairo (Debian package poppler-utils) is not installed")
    colour = next(c for c in preflight(foreign / "cairo.pdf", PROFILES["single-pages"], size=72.0) if c.name == "colour")
    assert colour.message.startswith("page 1: ") and "RGB" in colour.message


def our_chars(path: Path, pages: int) -> list[tuple[str, float, float, float, int]]:
    """(text, x0, x1, bottom, page) of every visible character, as preflight measures them."""
    from tokengen.preflight.pdfwalk import Budget, Limits, Walker, open_pdf

    pdf = open_pdf(path, Limits())
    try:
        walker = Walker(pdf, Budget(Limits()), 300)
        found = []
        for n, page in enumerate(pdf.pages[:pages], 1):
            summary = walker.page(page, n)
            boxes = list(summary.chars)
            for key, m, _ in summary.children:
                boxes += [((b[0] + m[4], b[1] + m[5], b[2] + m[4], b[3] + m[5]), t) for b, t in walker.measure(key, m[:4]).chars]
            found += [(t, b[0], b[2], b[1], n) for b, t in boxes]
        return sorted(found, key=lambda c: (c[4], round(c[3]), c[1]))
    finally:
        pdf.close()


@pytest.mark.parametrize("name", ["cairo.pdf", "gs-single-pages.pdf", "gs-card-embedded.pdf"])
def test_character_positions_from_other_tools_match_pdfplumber(foreign: Path, name: str):
    """Simple and CID (Identity-H) TrueType fonts as cairo writes them, Ghostscript's subsets:
    left, right and bottom edges within 0.1 pt of pdfplumber (heights differ by design where a
    font's ascent is not 1 em above its descent: ours stop at the ascent)."""
    import pdfplumber

    if not (foreign / name).exists():
        pytest.skip("its tool is not installed")
    mine = our_chars(foreign / name, 4)
    with pdfplumber.open(foreign / name) as plumb:
        theirs = sorted(((c["text"], c["x0"], c["x1"], p.height - c["bottom"], n) for n, p in enumerate(plumb.pages[:4], 1)
                         for c in p.chars if c["text"].strip()), key=lambda c: (c[4], round(c[3]), c[1]))
    assert len(mine) == len(theirs) >= 3
    for a, b in zip(mine, theirs):
        assert a[4] == b[4] and max(abs(a[i] - b[i]) for i in (1, 2, 3)) < 0.1, (a, b)
