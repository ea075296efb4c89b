"""SVG fidelity against resvg's own test suite (``make bench``, or ``python bench/svgsuite.py PATH``).

resvg's repository (linebender/resvg) keeps, under ``crates/resvg/tests/tests/``, SVG files
beside the PNG a browser-grade renderer draws for each (its maintainers check them against
Chrome). The suite is not part of tokengen: give its ``tests`` folder on the command line or in
``RESVG_TESTS``; without it this prints how to get it and exits 0.

Each SVG of the folders ``painting``, ``paint-servers``, ``masking``, ``structure`` and
``shapes`` (skipping those with ``<text>`` or references to other files) is drawn through an
``image:`` element of a one-token catalogue (as large as the reference at 300 DPI) by tokengen's own pipeline (the catalogue loader,
:class:`tokengen.faces.render.SheetCanvas`, the art library: svglib vectors or resvg pictures),
the PDF page is rendered by pypdfium2 at the reference's pixel size over white, and the two are
compared.

Tolerance: both images blurred by 1 px (Gaussian); a pixel is off when some channel lies more
than 32 levels outside the range of the other image's 3 × 3 neighbourhood (either way round);
a case matches when at most 0.4 % of its pixels are off.

Report: cases matching (as vectors, as pictures), refused by name (the one-line error), and
drawn differently without a word (the target is 0); ``--list`` names the cases of each kind.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import tempfile
import textwrap
from collections import Counter
from pathlib import Path

FOLDERS = ("painting", "paint-servers", "masking", "structure", "shapes")
#: Levels (0-255) a pixel may lie outside the other image's 3 × 3 neighbourhood.
LEVELS = 32
#: Share of pixels that may be off for a case to match.
SHARE = 0.004
#: The resolution SVG pictures are drawn at (tokengen's ``min_dpi``): the token is sized so that
#: it is the reference's pixel size, so nothing is resampled between resvg and the comparison.
DPI = 300


def off_share(ours, theirs) -> float:
    """Share of pixels off between two RGB images of one size (see the module's tolerance)."""
    from PIL import ImageChops, ImageFilter

    a, b = ours.filter(ImageFilter.GaussianBlur(1)), theirs.filter(ImageFilter.GaussianBlur(1))

    def outside(x, y):
        high, low = y.filter(ImageFilter.MaxFilter(3)), y.filter(ImageFilter.MinFilter(3))
        return ImageChops.lighter(ImageChops.subtract(x, high), ImageChops.subtract(low, x))

    diff = ImageChops.lighter(outside(a, b), outside(b, a))
    red, green, blue = diff.split()
    histogram = ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()
    return sum(histogram[LEVELS + 1:]) / (a.width * a.height)


def on_white(image):
    from PIL import Image

    rgba = image.convert("RGBA")
    white = Image.new("RGBA", rgba.size, "white")
    white.alpha_composite(rgba)
    return white.convert("RGB")


def skipped(svg: Path) -> str | None:
    """Why a suite file is left out (text, another file), or None."""
    text = svg.read_text("utf-8", "replace")
    if "<text" in text:
        return "text"
    from lxml import etree

    try:
        root = etree.fromstring(text.encode("utf-8"), etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        return None  # tokengen says why
    for el in root.iter():
        if isinstance(el.tag, str):
            href = el.get("{http://www.w3.org/1999/xlink}href") or el.get("href")
            if href and not href.strip().startswith(("#", "data:")):
                return "another file"
    return None


def draw(svg: Path, folder: Path, side: float) -> tuple[bytes, list[str]]:
    """One token page (``side`` pt square) whose face is ``svg`` through an ``image:`` element;
    the PDF's bytes and the build's art warnings. Raises what tokengen raises."""
    from tokengen import load_catalogue
    from tokengen.faces.render import SheetCanvas, binary_streams, open_canvas

    (folder / "pic.svg").write_bytes(svg.read_bytes())
    cat = folder / "cat.yaml"
    cat.write_text(textwrap.dedent("""\
        title: suite
        size: {side}pt
        fields: {{pic: image}}
        template:
          - {{rect: fill, fill: "#ffffff", bleed: true}}
          - {{image: "{{pic}}", box: [0, 0, 1, 1]}}
        tokens:
          - {{id: a, pic: pic.svg}}
        """).format(side=side), "utf-8")
    loaded = load_catalogue(cat)
    buffer = io.BytesIO()
    canvas = open_canvas(buffer, (side, side), title="t", author="a", subject="s")
    sheet = SheetCanvas(canvas, side)
    canvas.doForm(sheet.face_form(loaded.tokens[0]))
    canvas.showPage()
    with binary_streams():
        canvas.save()
    return buffer.getvalue(), sheet.art.warnings(folder)


def measure(svg: Path, folder: Path) -> tuple[str, str]:
    """(kind, detail) for one case: ``vectors``/``picture`` (matched), ``refused``, ``different``."""
    import pypdfium2 as pdfium
    from PIL import Image

    from tokengen.errors import TokengenError

    reference = on_white(Image.open(svg.with_suffix(".png")))
    side = max(reference.size)
    try:
        pdf, notes = draw(svg, folder, side * 72 / DPI)
    except TokengenError as exc:
        return "refused", " ".join(str(exc).split())
    document = pdfium.PdfDocument(pdf)
    page = document[0].render(scale=DPI / 72).to_pil().convert("RGB")
    document.close()
    if page.size != (side, side):  # a pixel lost to rounding
        page = page.resize((side, side))
    left, top = (side - reference.width) // 2, (side - reference.height) // 2  # contain: centred
    ours = page.crop((left, top, left + reference.width, top + reference.height))
    share = off_share(ours, reference)
    picture = any("picture" in note for note in notes)
    if share <= SHARE:
        return ("picture" if picture else "vectors"), "; ".join(notes)
    return "different", f"{share:.2%} off; " + "; ".join(notes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("suite", nargs="?", default=os.environ.get("RESVG_TESTS"),
                        help="resvg's crates/resvg/tests/tests folder (or RESVG_TESTS)")
    parser.add_argument("--list", action="store_true", help="name the cases of each kind")
    args = parser.parse_args(argv)
    if not args.suite:
        print("svgsuite: skipped; give resvg's crates/resvg/tests/tests folder (git clone "
              "https://github.com/linebender/resvg) as an argument or in RESVG_TESTS")
        return 0
    root = Path(args.suite)
    kinds: Counter[str] = Counter()
    skips: Counter[str] = Counter()
    listed: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in FOLDERS:
            for svg in sorted((root / name).rglob("*.svg")):
                if not svg.with_suffix(".png").exists():
                    continue
                why = skipped(svg)
                if why:
                    skips[why] += 1
                    continue
                kind, detail = measure(svg, Path(tmp))
                kinds[kind] += 1
                listed.setdefault(kind, []).append(f"{svg.relative_to(root)}: {detail}")
    total = sum(kinds.values())
    matched = kinds["vectors"] + kinds["picture"]
    print(f"resvg suite ({', '.join(FOLDERS)}): {total} cases; skipped: {skips['text']} with text, "
          f"{skips['another file']} referring to another file")
    print("| outcome | cases | share |\n|---|---:|---:|")
    for label, count in (("matches, drawn as vectors (svglib)", kinds["vectors"]),
                         ("matches, drawn as a picture (resvg) with a note", kinds["picture"]),
                         ("refused by name", kinds["refused"]),
                         ("drawn differently in silence", kinds["different"])):
        print(f"| {label} | {count} | {count / max(total, 1):.1%} |")
    print(f"| **matches in all** | {matched} | {matched / max(total, 1):.1%} |")
    if args.list:
        for kind, lines in sorted(listed.items()):
            print(f"\n{kind}:")
            print("\n".join(f"  {line}" for line in lines))
    return 0 if kinds["different"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
