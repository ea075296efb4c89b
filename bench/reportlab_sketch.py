"""The bare-ReportLab sketch that ``make bench`` measures tokengen's start-up against.

The least a script can do to print the same sheet: one Form XObject per face (18 designs, drawn
with the same DejaVu fonts), placed at every cell of a Letter page (1 in tokens, 0.25 in margin,
as many columns as fit or 3), cut lines, compressed pages. No catalogue, no validation, no
checks. Usage: ``python reportlab_sketch.py TOKENS OUT.pdf [COLUMNS]``.

Two more sheets for the real-work cases (issue 27), as few calls as a script needs:
``--photos CSV OUT.pdf``: one 2.5 in token per CSV row (``id,name,art``), the JPEG drawn by its
file name (``drawImage``: ReportLab embeds its DCT bytes, never decoding it; binary, not
ASCII85, as tokengen writes it) under its name;
``--distinct N OUT.pdf``: N distinct 1 in counters, one Form XObject each (a filled square, a
ring, a glyph and two lines of text, as the 5-element template of ``workloads.counters``);
``--rules CSV ICONS OUT.pdf``: one 63 × 88 mm rules card per CSV row (``id,name,kind,rules,colour``,
the rules in tokengen's markup: ``**bold**``, ``*italic*``, ``:icon:``), one Form XObject each:
the background, a panel, the name and kind, and the rules as one platypus ``Paragraph`` (``<b>``,
``<i>``, ``<img>`` for the icons in ``ICONS``, justified, each word shaped by HarfBuzz as
tokengen's are: ``shaping=1``) in a ``Frame``, shrunk by 0.5 pt steps from 11 pt to 7 pt until it
fits the box (the template of ``examples/rules-cards``).
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

from reportlab.lib.colors import Color
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

FONTS = Path(__file__).resolve().parent.parent / "fonts"
ATTRIBUTES = ["AGI", "CON", "MAG", "MRL", "PER", "STR"]
PRIORITIES = [("↓", "lowest"), ("↑", "highest"), ("↓↑", "both")]


def main(count: int, out: str, columns: int = 0) -> None:
    pdfmetrics.registerFont(TTFont("DejaVuSans", str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(FONTS / "DejaVuSans-Bold.ttf")))
    width, height, size, margin = 612.0, 792.0, 72.0, 18.0
    c = Canvas(out, pagesize=(width, height), pageCompression=1, invariant=1, initialFontName="DejaVuSans")
    faces = []
    for attribute in ATTRIBUTES:
        for glyph, name in PRIORITIES:
            form = f"{attribute}-{name}"
            c.beginForm(form, 0, 0, size, size)
            c.setFillColor(Color(0.94, 0.89, 0.78))
            c.rect(0, 0, size, size, stroke=0, fill=1)
            c.setStrokeColor(Color(0.54, 0.11, 0.11))
            c.setLineWidth(1.3)
            c.roundRect(5.8, 5.8, size - 11.6, size - 11.6, 5.8, stroke=1, fill=0)
            c.setFillColor(Color(0.54, 0.11, 0.11))
            c.setFont("DejaVuSans-Bold", 22)
            c.drawCentredString(size / 2, 41, glyph)
            c.setFillColor(Color(0.14, 0.1, 0.08))
            c.setFont("DejaVuSans-Bold", 16)
            c.drawCentredString(size / 2, 23, attribute)
            c.setFont("DejaVuSans", 7)
            c.drawCentredString(size / 2, 12, f"{name} {attribute}")
            c.endForm()
            faces.append(form)
    cols = columns or int((width - 2 * margin) // size)
    rows = int((height - 2 * margin - 30) // size)
    x0 = (width - cols * size) / 2
    placed = 0
    while placed < count:
        for n in range(min(cols * rows, count - placed)):
            row, col = divmod(n, cols)
            c.saveState()
            c.translate(x0 + col * size, height - margin - (row + 1) * size)
            c.doForm(faces[(placed + n) % len(faces)])
            c.restoreState()
        on_page = min(cols * rows, count - placed)
        used_rows = -(-on_page // cols)
        c.setLineWidth(0.3)
        for col in range(cols + 1):
            c.line(x0 + col * size, margin / 2, x0 + col * size, height - margin / 2)
        for row in range(used_rows + 1):
            y = height - margin - row * size
            c.line(margin / 2, y, width - margin / 2, y)
        placed += on_page
        c.showPage()
    c.save()


def _grid(c: Canvas, names: list[str], size: float, width: float = 612.0, height: float = 792.0, margin: float = 18.0) -> None:
    """Place the forms ``names`` in order, as many to a page as fit, with cut lines."""
    cols = int((width - 2 * margin) // size)
    rows = int((height - 2 * margin) // size)
    x0 = (width - cols * size) / 2
    for start in range(0, len(names), cols * rows):
        page = names[start:start + cols * rows]
        for n, name in enumerate(page):
            row, col = divmod(n, cols)
            c.saveState()
            c.translate(x0 + col * size, height - margin - (row + 1) * size)
            c.doForm(name)
            c.restoreState()
        c.setLineWidth(0.3)
        for col in range(cols + 1):
            c.line(x0 + col * size, margin / 2, x0 + col * size, height - margin / 2)
        for row in range(-(-len(page) // cols) + 1):
            y = height - margin - row * size
            c.line(margin / 2, y, width - margin / 2, y)
        c.showPage()


def photos(table: str, out: str) -> None:
    from reportlab import rl_config

    rl_config.useA85 = 0  # binary image streams, as tokengen writes them (ASCII85 would add a quarter)
    pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(FONTS / "DejaVuSans-Bold.ttf")))
    size, folder = 180.0, Path(table).parent
    c = Canvas(out, pagesize=(612.0, 792.0), pageCompression=1, invariant=1, initialFontName="DejaVuSans-Bold")
    names = []
    with open(table, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            c.beginForm(row["id"], 0, 0, size, size)
            c.drawImage(str(folder / row["art"]), 0, 0, size, size)
            c.setFillColor(Color(1, 1, 1))
            c.setFont("DejaVuSans-Bold", 14.4)
            c.drawCentredString(size / 2, 12, row["name"])
            c.endForm()
            names.append(row["id"])
    _grid(c, names, size)
    c.save()


def distinct(count: int, out: str) -> None:
    pdfmetrics.registerFont(TTFont("DejaVuSans", str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(FONTS / "DejaVuSans-Bold.ttf")))
    size = 72.0
    palette = [(0.54, 0.16, 0.11), (0.11, 0.31, 0.54), (0.25, 0.42, 0.16), (0.44, 0.31, 0.66)]
    c = Canvas(out, pagesize=(612.0, 792.0), pageCompression=1, invariant=1, initialFontName="DejaVuSans")
    names = []
    for n in range(count):
        name = f"c{n}"
        c.beginForm(name, 0, 0, size, size)
        c.setFillColor(Color(*palette[n % len(palette)]))
        c.rect(0, 0, size, size, stroke=0, fill=1)
        c.setStrokeColor(Color(1, 1, 1))
        c.setLineWidth(1.8)
        c.circle(size / 2, size * 0.55, size * 0.3, stroke=1, fill=0)
        c.setFillColor(Color(1, 1, 1))
        c.setFont("DejaVuSans", 21.6)
        c.drawCentredString(size / 2, size * 0.45, "★◆●▲"[n % 4])
        c.setFont("DejaVuSans-Bold", 10)
        c.drawCentredString(size / 2, size * 0.78, f"{n // 3 + 1}/{n % 97 + 1}")
        c.setFont("DejaVuSans-Bold", 14.4)
        c.drawCentredString(size / 2, size * 0.06, f"{n % 9 + 1}-{n % 7 + 2}")
        c.endForm()
        names.append(name)
    _grid(c, names, size)
    c.save()


def _rules_markup(text: str, icons: Path, size: float) -> str:
    """tokengen's rules markup as ReportLab paragraph markup (bold, italic, inline icons, line breaks)."""
    import re
    from xml.sax.saxutils import escape

    text = escape(text)
    text = re.sub(r"\*\*\*(.+?)\*\*\*", r"<b><i>\1</i></b>", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)
    text = re.sub(r"\*(.+?)\*", r"<i>\1</i>", text)
    text = re.sub(r":(\w+):", lambda m: f'<img src="{icons / (m.group(1) + ".png")}" width="{size}" height="{size}" valign="-2"/>', text)
    return text.replace("\n", "<br/>")


def rules(table: str, icons: str, out: str) -> None:
    from reportlab.lib.enums import TA_JUSTIFY
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Frame, Paragraph

    pdfmetrics.registerFont(TTFont("DejaVuSans", str(FONTS / "DejaVuSans.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(FONTS / "DejaVuSans-Bold.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVuSans-Oblique", str(FONTS / "DejaVuSans-Oblique.ttf")))
    pdfmetrics.registerFont(TTFont("DejaVuSans-BoldOblique", str(FONTS / "DejaVuSans-BoldOblique.ttf")))
    pdfmetrics.registerFontFamily("DejaVuSans", normal="DejaVuSans", bold="DejaVuSans-Bold", italic="DejaVuSans-Oblique",
                                  boldItalic="DejaVuSans-BoldOblique")
    mm = 72 / 25.4
    w, h = 63 * mm, 88 * mm
    box = (0.11 * w, (1 - 0.26 - 0.64) * h, 0.78 * w, 0.64 * h)  # x, y (from the bottom), width, height
    folder = Path(icons)
    c = Canvas(out, pagesize=(612.0, 792.0), pageCompression=1, invariant=1, initialFontName="DejaVuSans")
    names = []
    with open(table, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            name = row["id"]
            c.beginForm(name, 0, 0, w, h)
            colour = Color(*(int(row["colour"][i:i + 2], 16) / 255 for i in (1, 3, 5)))
            c.setFillColor(colour)
            c.rect(0, 0, w, h, stroke=0, fill=1)
            c.setFillColor(Color(0.98, 0.96, 0.92))
            c.roundRect(0.06 * w, 0.045 * h, 0.88 * w, 0.91 * h, 0.03 * w, stroke=0, fill=1)
            c.setFillColor(Color(0.17, 0.17, 0.17))
            c.setFont("DejaVuSans-Bold", 0.08 * w)
            c.drawCentredString(w / 2, h * (1 - 0.13) - 0.03 * w, row["name"])
            c.setFillColor(colour)
            c.setFont("DejaVuSans", 0.05 * w)
            c.drawCentredString(w / 2, h * (1 - 0.2) - 0.02 * w, row["kind"])
            size = 11.0
            while True:  # shrink to fit, as the template's min_size asks
                style = ParagraphStyle("rules", fontName="DejaVuSans", fontSize=size, leading=size * 1.25, alignment=TA_JUSTIFY,
                                       textColor=Color(0.17, 0.17, 0.17), shaping=1)  # kerned by HarfBuzz, as tokengen's
                para = Paragraph(_rules_markup(row["rules"], folder, size), style)
                _, height = para.wrap(box[2], box[3])
                if height <= box[3] or size <= 7:
                    break
                size -= 0.5
            frame = Frame(box[0], box[1], box[2], box[3], leftPadding=0, rightPadding=0, topPadding=(box[3] - height) / 2,
                          bottomPadding=0, showBoundary=0)
            frame.addFromList([para], c)
            c.endForm()
            names.append(name)
    cols, rows_ = int((612 - 36) // w), int((792 - 36) // h)
    x0, y0 = (612 - cols * w) / 2, 792 - 18
    for start in range(0, len(names), cols * rows_):
        for n, name in enumerate(names[start:start + cols * rows_]):
            row_, col = divmod(n, cols)
            c.saveState()
            c.translate(x0 + col * w, y0 - (row_ + 1) * h)
            c.doForm(name)
            c.restoreState()
        c.showPage()
    c.save()


if __name__ == "__main__":
    if sys.argv[1] == "--rules":
        rules(sys.argv[2], sys.argv[3], sys.argv[4])
        sys.exit(0)
    if sys.argv[1] == "--photos":
        photos(sys.argv[2], sys.argv[3])
        sys.exit(0)
    if sys.argv[1] == "--distinct":
        distinct(int(sys.argv[2]), sys.argv[3])
        sys.exit(0)
    main(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
