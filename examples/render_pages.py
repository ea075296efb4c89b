"""Render the first page of each example catalogue to a PNG: the pictures of the docs' gallery.

The docs build (``tools/mkdocs_hooks.py``) calls :func:`render` for every example into the site,
so the gallery always shows what the examples build today. Run from the repository,
``python examples/render_pages.py [DIR]`` writes ``DIR/<name>/page.png`` (default: beside each
example). Each example is built as the gallery shows it, and its first page is rendered with
pypdfium2 at 60 DPI; the face pictures (:data:`FACES`: one face alone, e.g. each key of a boxed
text) at 100 DPI with :func:`render_face`.
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium

HERE = Path(__file__).resolve().parent
BUILDS = {
    "hex-counters": ["build", "hex-counters/counters.yaml", "--fold"],
    "status-tokens": ["build", "status-tokens/status.yaml", "--punch"],
    "poker-cards": ["export", "poker-cards/cards.yaml", "--profile", "print-shop"],
    "rules-cards": ["build", "rules-cards/cards.yaml"],
    "nato-counters": ["build", "nato-counters/counters.yaml"],
    "dial": ["build", "dial/dial.yaml"],
    "two-layouts": ["build", "two-layouts/deck.yaml"],
    "mixed-sizes": ["build", "mixed-sizes/mixed.yaml"],
    "spell-cards": ["build", "spell-cards/spells.yaml"],
}

#: Face pictures: the picture's path (from examples/) → the export that draws it (its first page).
FACES = {
    "rules-cards/text-keys.png": ["export", "rules-cards/text-keys.yaml", "--profile", "single-pages", "--allow-preflight-failures"],
}


def render(name: str, png: Path) -> Path:
    """Build example ``name`` (a key of :data:`BUILDS`) in a temporary folder and write its first
    page, 60 DPI, 64 colours, to ``png``; returns ``png``. Raises CalledProcessError when the build fails."""
    args = BUILDS[name]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / name
        target = ["-o", str(out)] if args[0] == "export" else ["-o", str(out.with_suffix(".pdf"))]
        subprocess.run([sys.executable, "-m", "tokengen", *args, *target, "--quiet"], cwd=HERE, check=True)
        pdf = next(out.glob("*.pdf")) if args[0] == "export" else out.with_suffix(".pdf")
        doc = pdfium.PdfDocument(pdf)
        png.parent.mkdir(parents=True, exist_ok=True)
        doc[0].render(scale=60 / 72).to_pil().convert("RGB").quantize(colors=64).save(png, optimize=True)
        doc.close()
    return png


def render_face(picture: str, png: Path) -> Path:
    """Export face picture ``picture`` (a key of :data:`FACES`) in a temporary folder and write its
    first page, 100 DPI, 64 colours, to ``png``; returns ``png``. Raises CalledProcessError when it fails."""
    args = FACES[picture]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / Path(picture).stem
        subprocess.run([sys.executable, "-m", "tokengen", *args, "-o", str(out), "--quiet"], cwd=HERE, check=True)
        doc = pdfium.PdfDocument(next(out.glob("*.pdf")))
        png.parent.mkdir(parents=True, exist_ok=True)
        doc[0].render(scale=100 / 72).to_pil().convert("RGB").quantize(colors=64).save(png, optimize=True)
        doc.close()
    return png


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    for name in BUILDS:
        render(name, root / name / "page.png")
    for picture in FACES:
        render_face(picture, root / picture)


if __name__ == "__main__":
    main()
