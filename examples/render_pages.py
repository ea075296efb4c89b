"""Render the page pictures shown in the README for the example catalogues
(run from the repository: python examples/render_pages.py). Each example is built as the README
shows it, and its first page is rendered with pypdfium2 at 60 DPI to examples/<name>/page.png;
the face pictures (FACES: one face alone, e.g. each key of a boxed text) at 100 DPI.
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
}
#: Pictures of one face (its trim and bleed alone, at 100 DPI) for the README: file → the command.
FACES = {
    "rules-cards/text-keys.png": ["export", "rules-cards/text-keys.yaml", "--profile", "single-pages", "--allow-preflight-failures"],
}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in BUILDS.items():
            out = Path(tmp) / name
            target = ["-o", str(out)] if args[0] == "export" else ["-o", str(out.with_suffix(".pdf"))]
            subprocess.run([str(Path(sys.executable).with_name("tokengen")), *args, *target], cwd=HERE, check=True)
            pdf = next(out.glob("*.pdf")) if args[0] == "export" else out.with_suffix(".pdf")
            doc = pdfium.PdfDocument(pdf)
            doc[0].render(scale=60 / 72).to_pil().convert("RGB").quantize(colors=64).save(HERE / name / "page.png", optimize=True)
            doc.close()
        for picture, args in FACES.items():
            out = Path(tmp) / Path(picture).stem
            subprocess.run([str(Path(sys.executable).with_name("tokengen")), *args, "-o", str(out)], cwd=HERE, check=True)
            doc = pdfium.PdfDocument(next(out.glob("*.pdf")))
            doc[0].render(scale=100 / 72).to_pil().convert("RGB").quantize(colors=64).save(HERE / picture, optimize=True)
            doc.close()


if __name__ == "__main__":
    main()
