"""The rules sheet (``tokengen build --rules``): the Meatshield rules in tokengen's own words,
laid out in two columns for reading at the table, appended after the token sheets.

Every game number (bag size, draw sizes, costs, the solo starting hand) and the variants in play
come from the catalogue (``game.draws``, ``game.costs``, ``game.variants`` and ``variants``),
never from this code. Text uses the bundled DejaVu fonts (they have ↓ and ↑). Source of the
rules: the Meatshields fan variant (version 1.1.1) for Dungeon Degenerates: Hand of Doom,
paraphrased, not quoted.

Page geometry in pt: margins of 0.5 in, a title band, two columns with a 0.25 in gap.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer

from . import fonts
from .duplex import apply_printer_scale
from .model import Catalogue, Game
from .rules.bag import EQUIPMENT_EFFECTS, TARGET_ALL_HITS, TOWN_DRAWS
from .rules.bag import costs as game_costs

#: Page margin, column gap and title band height (pt).
MARGIN, GAP, TITLE_BAND = 36.0, 18.0, 58.0
#: Body and heading sizes (pt): large enough to read at arm's length on the table.
BODY, HEADING = 10.0, 12.5
INK = Color(0.137, 0.102, 0.078)
ACCENT = Color(0.541, 0.11, 0.11)


def costs(catalogue: Catalogue) -> tuple[int, int]:
    """(hire, trade) in gp with the catalogue's variants in play, as the rules engine computes
    them (:func:`tokengen.rules.bag.costs`), so the sheet and ``tokengen check`` agree."""
    c = game_costs(catalogue.game, catalogue.variants)
    return c.hire_gp, c.trade_gp


def _span(values: tuple[int, ...]) -> str:
    """``(2, 3, 4, 5)`` → ``"2 to 5"``; one value → ``"2"``."""
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low} to {high}"


def _fill_numbers(text: str, game: Game) -> str:
    """Replace ``game.draws.NAME`` / ``game.costs.NAME`` in a variant description by the value."""
    def value(match: re.Match[str]) -> str:
        group, name = match.groups()
        if group == "draws" and hasattr(game.draws, name):
            v = getattr(game.draws, name)
            return _span(v) if isinstance(v, tuple) else str(v)
        if group == "costs" and name in ("hire_gp", "trade_gp"):
            return f"{getattr(game, name)} gp"
        return match.group(0)
    return re.sub(r"game\.(draws|costs)\.(\w+)", value, text)


def _gp(n: int) -> str:
    return "nothing" if n == 0 else f"{n} gp"


def story(catalogue: Catalogue, styles: dict[str, ParagraphStyle]) -> list[list[Flowable]]:
    """The rules as sections of platypus flowables (a section is kept in one column), numbers
    and variants taken from ``catalogue``."""
    game, draws = catalogue.game, catalogue.game.draws
    in_play = set(catalogue.variants)
    hire, trade = costs(catalogue)
    bonus = draws.explored_bonus
    explored = f" (add {bonus} if it is Explored)" if bonus else ""
    glyph = {p.code: p.glyph for p in game.priorities}
    low, high, both = glyph.get("low", "↓"), glyph.get("high", "↑"), glyph.get("both", "↓↑")
    attrs = ", ".join(f"{a.code} {a.name}" for a in game.attributes)
    prios = ", ".join(f"{p.glyph} {p.name}" for p in game.priorities)
    h, p, small = styles["heading"], styles["body"], styles["small"]

    def section(title: str, *paragraphs: str) -> list[Flowable]:
        return [Paragraph(escape(title), h)] + [Paragraph(text, p) for text in paragraphs]

    town = ("each Town offers as many tokens as its level "
            f"({_span(draws.town_levels)}){explored}; they replace the usual swap for Loot draws."
            if TOWN_DRAWS in in_play else
            "while Trading in a Town you may draw tokens from the bag instead of the same number of Loot cards.")
    target_all = ("Attacks that strike every Adventurer strike the deployed Meatshield as well. If one of them "
                  "kills it, the Monsters that had picked it wait for the next Establish Targets step before choosing again."
                  if TARGET_ALL_HITS in in_play else
                  "Attacks that strike every Adventurer pass the Meatshield by: it takes no harm from them.")
    equipment = ("Effects aimed at an Adventurer's equipment also reach the Meatshields that Adventurer employs."
                 if EQUIPMENT_EFFECTS in in_play else
                 "Effects aimed at an Adventurer's equipment leave Meatshields alone unless the table agreed otherwise before play.")
    trade_text = (f"Passing one to another Adventurer costs {_gp(trade)}, paid by either of them."
                  if trade else "It can be passed to another Adventurer freely, like any piece of equipment.")

    flow: list[list[Flowable]] = [
        section("What they are",
                "Meatshields are hirelings on the cheap. They think they were taken on to haul packs; in fact their "
                "job is to absorb the blows aimed at the Adventurers.",
                f"Each token shows one Adventurer attribute ({escape(attrs)}) and one targeting priority "
                f"({escape(prios)})."),
        section("The bag",
                f"All {catalogue.count} tokens go face down into a bag or cup before the game. Every token that leaves "
                "play for whatever reason (not hired, dismissed, killed, or its employer is killed) goes straight back "
                "into the bag."),
        section("Hiring",
                f"<b>Settlement</b>: hiring is a Rest action that works like Trading. Draw as many tokens as the Settlement's "
                f"Danger Level ({_span(draws.settlement_danger_levels)}){explored}, then hire any of them.",
                f"<b>Town</b>: {town}",
                f"<b>Price</b>: {hire} gp per Meatshield. It works for the Adventurer who paid. {trade_text} "
                "A party may employ any number. Tokens nobody hires return to the bag."),
        section("Deployment",
                "Only one Meatshield takes part in a combat at any moment. At the very start of each Combat Round, if "
                "none is out, the party may put one forward."),
        section("Targeting",
                "In the Establish Targets step, every Monster whose targeting matches the deployed token attacks the "
                f"Meatshield instead of an Adventurer: same attribute, and {low} for lowest or {high} for highest.",
                f"{both}: the token counts as both the lowest and the highest score in its attribute. Monsters that "
                f"look for {low}, for {high} or for {both} in that attribute all pick it, and a {both} Monster attacks "
                "it only once."),
        section("When it is attacked",
                "Deal with Meatshields after every Adventurer has had a turn. Monsters always hit them, and they never "
                "strike back.",
                target_all,
                "A Monster that steals gold gets nothing from a Meatshield: they carry no money.",
                f"{equipment} Otherwise game effects, such as Monster entry effects, ignore Meatshields unless these "
                "rules or your group say otherwise."),
        section("Letting them go",
                "The party may dismiss a Meatshield whenever it likes. If its employer dies it flees at once. Either "
                "way the token returns to the bag."),
    ]
    variants = [v for v in (game.variant(name) for name in catalogue.variants) if v is not None]
    last: list[Flowable] = [Paragraph("Variants in play", h)]
    for v in variants:
        last.append(Paragraph(f"<b>{escape(v.name)}</b>: {escape(_fill_numbers(v.description, game))}", p))
    if not variants:
        last.append(Paragraph("None: the rules above as written.", p))
    others = [v.name for v in game.variants if v.name not in in_play]
    if others:
        last += [Spacer(0, 4), Paragraph(f"Also known to this catalogue, not in play: {escape(', '.join(others))}.", small)]
    flow.append(last)
    return flow


def _styles() -> dict[str, ParagraphStyle]:
    regular, bold = fonts.register()
    registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)
    return {
        "heading": ParagraphStyle("heading", fontName=bold, fontSize=HEADING, leading=HEADING * 1.2,
                                  textColor=ACCENT, spaceBefore=7, spaceAfter=2),
        "body": ParagraphStyle("body", fontName=regular, fontSize=BODY, leading=BODY * 1.32, textColor=INK, spaceAfter=3),
        "small": ParagraphStyle("small", fontName=regular, fontSize=BODY - 1.5, leading=(BODY - 1.5) * 1.3, textColor=INK),
    }


def draw_rules(canvas: Canvas, catalogue: Catalogue, page: tuple[float, float],
               scale: tuple[float, float] | None = None) -> int:
    """Append the rules sheet to ``canvas`` on pages of ``page`` (width, height) pt.

    Two columns under a title band; each section stays in one column; a further page follows
    only if the text overflows (the default catalogue fits on one letter or A4 page). Every page
    ends with ``showPage``.

    Returns:
        The number of pages added.
    Raises:
        RenderError: the bundled fonts cannot be loaded.
    """
    styles = _styles()
    regular, bold = fonts.register()
    sections = story(catalogue, styles)
    w, h = page
    col = (w - 2 * MARGIN - GAP) / 2
    top = h - MARGIN - TITLE_BAND
    pages = 0
    while sections:
        apply_printer_scale(canvas, page, scale)
        _title(canvas, catalogue, page, regular, bold)
        for x in (MARGIN, MARGIN + col + GAP):
            y = top
            while sections:
                items = sections[0]
                sizes = [f.wrapOn(canvas, col, h) for f in items]
                need = sum(hh for _, hh in sizes) + sum(f.getSpaceBefore() + f.getSpaceAfter() for f in items)
                if y - need < MARGIN and y < top:  # does not fit below what is there: next column
                    break
                for f, (_, hh) in zip(items, sizes):
                    y -= f.getSpaceBefore() if y < top else 0
                    f.drawOn(canvas, x, y - hh)
                    y -= hh + f.getSpaceAfter()
                sections.pop(0)
        canvas.showPage()
        pages += 1
    return pages


def _title(canvas: Canvas, catalogue: Catalogue, page: tuple[float, float], regular: str, bold: str) -> None:
    w, h = page
    canvas.saveState()
    canvas.setFillColor(ACCENT)
    canvas.setFont(bold, 20)
    canvas.drawString(MARGIN, h - MARGIN - 20, f"{catalogue.title}: rules at the table")
    canvas.setFillColor(INK)
    canvas.setFont(regular, 9)
    if catalogue.subtitle:
        canvas.drawString(MARGIN, h - MARGIN - 34, catalogue.subtitle)
    canvas.setStrokeColor(ACCENT)
    canvas.setLineWidth(0.8)
    canvas.line(MARGIN, h - MARGIN - TITLE_BAND + 12, w - MARGIN, h - MARGIN - TITLE_BAND + 12)
    canvas.restoreState()
