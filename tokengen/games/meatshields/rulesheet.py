"""The rules sheet (``tokengen build --rules``): the Meatshield rules in tokengen's own words,
laid out for reading at the table with ReportLab platypus frames, appended after the token
sheets, ending with the variants in play and the readings in play (where the variant is silent,
the interpretation used, with its switch).

Every game number (bag size, draw sizes, costs, the solo starting hand) and the variants in play
come from the catalogue (``game.draws``, ``game.costs``, ``game.variants`` and ``variants``),
never from this code. Text uses the bundled DejaVu fonts (they have ↓ and ↑). Source of the
rules: the Meatshields fan variant (version 1.1.1) for Dungeon Degenerates: Hand of Doom,
paraphrased, not quoted.

Page geometry in pt: margins of 0.5 in, a title band, two columns with a 0.25 in gap (one
column on narrow pages); the text flows onto as many pages as it needs.
"""

from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib.colors import Color
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame, Paragraph, Spacer

from ...errors import RenderError
from ...faces.pagesetup import apply_printer_scale
from ...model import Catalogue, Game
from ...sources import fonts
from .rules.bag import EQUIPMENT_EFFECTS, TARGET_ALL_HITS, TOWN_DRAWS
from .rules.bag import costs as game_costs
from .rules.targeting import Interpretations, meaning

#: Page margin and column gap (pt).
MARGIN, GAP = 36.0, 18.0
#: Body and heading sizes (pt): large enough to read at arm's length on the table.
BODY, HEADING = 10.0, 12.5
INK = Color(0.137, 0.102, 0.078)
ACCENT = Color(0.541, 0.11, 0.11)


def costs(catalogue: Catalogue) -> tuple[int, int]:
    """(hire, trade) in gp with the catalogue's variants in play, as the rules engine computes
    them (:func:`tokengen.games.meatshields.rules.bag.costs`), so the sheet and ``tokengen check`` agree."""
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


def story(catalogue: Catalogue, styles: dict[str, ParagraphStyle],
          interpretations: Interpretations | None = None) -> list[list[Flowable]]:
    """The rules as sections of platypus flowables (a section is kept in one column), numbers
    and variants taken from ``catalogue``; the last section states the ``interpretations`` in
    play (default: the catalogue's ``interpretations:``) with the switch for each."""
    readings = interpretations or Interpretations.chosen(catalogue.interpretations)
    sections = [_what_they_are(catalogue), _the_bag(catalogue), _hiring(catalogue), _DEPLOYMENT, _targeting(catalogue),
                _when_attacked(catalogue, readings), _LETTING_GO]
    flow: list[list[Flowable]] = [[Paragraph(escape(title), styles["heading"]), *(Paragraph(text, styles["body"]) for text in paragraphs)]
                                  for title, *paragraphs in sections]
    return [*flow, _variants_section(catalogue, styles), _readings_section(catalogue, styles, readings)]


def _what_they_are(catalogue: Catalogue) -> tuple[str, ...]:
    """The first section (a title, then its paragraphs, as ReportLab markup): the tokens' attributes and priorities."""
    game = catalogue.game
    attrs = ", ".join(f"{a.code} {a.name}" for a in game.attributes)
    prios = ", ".join(f"{p.glyph} {p.name}" for p in game.priorities)
    return ("What they are",
            "Meatshields are hirelings on the cheap. They think they were taken on to haul packs; in fact their "
            "job is to absorb the blows aimed at the Adventurers.",
            f"Each token shows one Adventurer attribute ({escape(attrs)}) and one targeting priority "
            f"({escape(prios)}).")


def _the_bag(catalogue: Catalogue) -> tuple[str, ...]:
    """The section on the bag, with the catalogue's token count."""
    return ("The bag",
            f"All {catalogue.count} tokens go face down into a bag or cup before the game. Every token that leaves "
            "play for whatever reason (not hired, dismissed, killed, or its employer is killed) goes straight back "
            "into the bag.")


def _hiring(catalogue: Catalogue) -> tuple[str, ...]:
    """The section on hiring: the draws of a Settlement and a Town (``town-draws`` variant), the price and trading."""
    draws = catalogue.game.draws
    hire, trade = costs(catalogue)
    explored = f" (add {draws.explored_bonus} if it is Explored)" if draws.explored_bonus else ""
    town = ("each Town offers as many tokens as its level "
            f"({_span(draws.town_levels)}){explored}; they replace the usual swap for Loot draws."
            if TOWN_DRAWS in catalogue.variants else
            "while Trading in a Town you may draw tokens from the bag instead of the same number of Loot cards.")
    trade_text = (f"Passing one to another Adventurer costs {_gp(trade)}, paid by either of them."
                  if trade else "It can be passed to another Adventurer freely, like any piece of equipment.")
    return ("Hiring",
            f"<b>Settlement</b>: hiring is a Rest action that works like Trading. Draw as many tokens as the Settlement's "
            f"Danger Level ({_span(draws.settlement_danger_levels)}){explored}, then hire any of them.",
            f"<b>Town</b>: {town}",
            f"<b>Price</b>: {hire} gp per Meatshield. It works for the Adventurer who paid. {trade_text} "
            "A party may employ any number. Tokens nobody hires return to the bag.")


_DEPLOYMENT = ("Deployment",
               "Only one Meatshield takes part in a combat at any moment. At the very start of each Combat Round, if "
               "none is out, the party may put one forward.")


def _targeting(catalogue: Catalogue) -> tuple[str, ...]:
    """The section on targeting, with the catalogue's glyphs for lowest, highest and both."""
    glyph = {p.code: p.glyph for p in catalogue.game.priorities}
    low, high, both = glyph.get("low", "↓"), glyph.get("high", "↑"), glyph.get("both", "↓↑")
    return ("Targeting",
            "In the Establish Targets step, every Monster whose targeting matches the deployed token attacks the "
            f"Meatshield instead of an Adventurer: same attribute, and {low} for lowest or {high} for highest.",
            f"{both}: the token counts as both the lowest and the highest score in its attribute. Monsters that "
            f"look for {low}, for {high} or for {both} in that attribute all pick it, and a {both} Monster attacks "
            "it only once.")


def _when_attacked(catalogue: Catalogue, readings: Interpretations) -> tuple[str, ...]:
    """The section on attacks: the damage reading in play, the ``target-all-hits`` and
    ``equipment-effects`` variants."""
    in_play = set(catalogue.variants)
    target_all = ("Attacks that strike every Adventurer strike the deployed Meatshield as well. If one of them "
                  "kills it, the Monsters that had picked it wait for the next Establish Targets step before choosing again."
                  if TARGET_ALL_HITS in in_play else
                  "Attacks that strike every Adventurer pass the Meatshield by: it takes no harm from them.")
    equipment = ("Effects aimed at an Adventurer's equipment also reach the Meatshields that Adventurer employs."
                 if EQUIPMENT_EFFECTS in in_play else
                 "Effects aimed at an Adventurer's equipment leave Meatshields alone unless the table agreed otherwise before play.")
    if readings.damage == "wounds":
        damage = (f"Reading in play (damage=wounds): every hit is a wound the Meatshield keeps; the hit that brings it to "
                  f"{catalogue.game.wounds} wounds kills it.")
    else:
        damage = "Reading in play (damage=dies): the first hit kills a Meatshield."
    return ("When it is attacked",
            "Deal with Meatshields after every Adventurer has had a turn. Monsters always hit them, and they never "
            "strike back.",
            f"{damage} A Meatshield that dies goes back into the bag.",
            target_all,
            "A Monster that steals gold gets nothing from a Meatshield: they carry no money.",
            f"{equipment} Otherwise game effects, such as Monster entry effects, ignore Meatshields unless these "
            "rules or your group say otherwise.")


_LETTING_GO = ("Letting them go",
               "The party may dismiss a Meatshield whenever it likes. If its employer dies it flees at once. Either "
               "way the token returns to the bag.")


def _variants_section(catalogue: Catalogue, styles: dict[str, ParagraphStyle]) -> list[Flowable]:
    """The rules sheet's last but one section: the variants in play, each with its numbers filled
    in, and the others the catalogue knows."""
    game, in_play = catalogue.game, set(catalogue.variants)
    h, p, small = styles["heading"], styles["body"], styles["small"]
    variants = [v for v in (game.variant(name) for name in catalogue.variants) if v is not None]
    last: list[Flowable] = [Paragraph("Variants in play", h)]
    for v in variants:
        last.append(Paragraph(f"<b>{escape(v.name)}</b>: {escape(_fill_numbers(v.description, game))}", p))
    if not variants:
        last.append(Paragraph("None: the rules above as written.", p))
    others = [v.name for v in game.variants if v.name not in in_play]
    if others:
        last += [Spacer(0, 4), Paragraph(f"Also known to this catalogue, not in play: {escape(', '.join(others))}.", small)]
    return last


def _readings_section(catalogue: Catalogue, styles: dict[str, ParagraphStyle], readings: Interpretations) -> list[Flowable]:
    """The rules sheet's last section: the readings in play, each with its switch."""
    game, h, p, small = catalogue.game, styles["heading"], styles["body"], styles["small"]
    rulings: list[Flowable] = [Paragraph("Readings in play", h),
                               Paragraph("Where the variant leaves a question open, these are the readings this sheet and "
                                         "tokengen use (switch: <b>tokengen check</b> / <b>target</b> option, or the "
                                         "catalogue's interpretations: list).", small)]
    for item in readings.in_play(game.wounds):
        rulings.append(Paragraph(f"<b>{escape(item['switch'][2:])}={escape(item['value'])}</b>: "
                                 f"{escape(meaning(item['name'], item['value'], game.wounds))}.", p))
    return rulings


def _styles() -> dict[str, ParagraphStyle]:
    regular, bold = fonts.register()
    registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)
    return {
        "heading": ParagraphStyle("heading", fontName=bold, fontSize=HEADING, leading=HEADING * 1.2,
                                  textColor=ACCENT, spaceBefore=7, spaceAfter=2),
        "body": ParagraphStyle("body", fontName=regular, fontSize=BODY, leading=BODY * 1.32, textColor=INK, spaceAfter=3),
        "small": ParagraphStyle("small", fontName=regular, fontSize=BODY - 1.5, leading=(BODY - 1.5) * 1.3, textColor=INK),
        "title": ParagraphStyle("title", fontName=bold, fontSize=20, leading=23, textColor=ACCENT, spaceAfter=3),
        "subtitle": ParagraphStyle("subtitle", fontName=regular, fontSize=9, leading=11, textColor=INK, spaceAfter=2),
    }


def page_count(catalogue: Catalogue, page: tuple[float, float], scale: tuple[float, float] | None = None) -> int:
    """How many pages :func:`draw_rules` adds for ``catalogue`` on ``page``: laid out on a canvas
    that is never saved (a build counts its pages before it writes anything).

    Raises:
        RenderError: as :func:`draw_rules`.
    """
    import io

    return draw_rules(Canvas(io.BytesIO(), pagesize=page), catalogue, page, scale)


def draw_rules(canvas: Canvas, catalogue: Catalogue, page: tuple[float, float],
               scale: tuple[float, float] | None = None, interpretations: Interpretations | None = None) -> int:
    """Append the rules sheet to ``canvas`` on pages of ``page`` (width, height) pt.

    Laid out with ReportLab platypus: each page has a title band (the title wraps to the page
    width) and :class:`~reportlab.platypus.Frame` columns (two when a column can be at least
    :data:`MIN_COLUMN` wide, else one). Sections flow through the frames in order, each kept
    whole in one frame when it fits in an empty one (else its paragraphs flow on, split between
    lines), onto as many pages as the text needs. Nothing is drawn outside the :data:`MARGIN`.
    Every page ends with ``showPage``.

    Args:
        interpretations: the readings to state (default: the catalogue's ``interpretations:``).
    Returns:
        The number of pages added.
    Raises:
        RenderError: the bundled fonts cannot be loaded, or the page is too small to hold one
            line of the sheet.
    """
    from .rules.targeting import Interpretations as _Interpretations

    readings = interpretations or _Interpretations.chosen(catalogue.interpretations)
    styles = _styles()
    queue: list[Any] = list(story(catalogue, styles, readings))
    w, h = page
    pages = 0
    while queue:
        apply_printer_scale(canvas, page, scale)
        band = _title(canvas, catalogue, page, styles, first=not pages)
        frames = _frames(w, h - band)
        placed = 0
        for frame, width, height in frames:
            placed += _fill(frame, width, height, canvas, queue)
        canvas.showPage()
        pages += 1
        if not placed:
            raise RenderError(f"the rules sheet does not fit a {w:.0f} x {h:.0f} pt page (not even one line has room inside its 0.5in margin): "
                              "use a larger --page, or build without --rules")
    return pages


#: Narrowest column (pt) worth two columns; below it the sheet uses one column.
MIN_COLUMN = 2.5 * 72


def _frames(w: float, top: float) -> list[tuple[Frame, float, float]]:
    """The text frames of one page below a band ending at ``top`` (pt), each with its width
    and height (pt)."""
    width = w - 2 * MARGIN
    count = 2 if (width - GAP) / 2 >= MIN_COLUMN else 1
    col = (width - GAP * (count - 1)) / count
    height = max(top - MARGIN, 0.0)
    return [(Frame(MARGIN + i * (col + GAP), MARGIN, col, height, leftPadding=0, rightPadding=0, topPadding=0,
                   bottomPadding=0, showBoundary=0), col, height) for i in range(count)]


def _height(items: list[Flowable], canvas: Canvas, width: float) -> float:
    """Height (pt) of ``items`` stacked in a frame ``width`` wide, spaces between them included."""
    total = 0.0
    for i, f in enumerate(items):
        total += f.wrapOn(canvas, width, 1e6)[1] + (f.getSpaceBefore() if i else 0) + f.getSpaceAfter()
    return total


def _fill(frame: Frame, width: float, height: float, canvas: Canvas, queue: list[Any]) -> int:
    """Draw from the front of ``queue`` into ``frame`` until it is full; returns how many
    flowables were drawn.

    Queue entries: a section (a list: heading and paragraphs) goes in whole when it fits the
    room left; a short one (a third of the frame or less) that does not fit starts the next
    frame, a longer one is broken into its heading kept with its first paragraph (a tuple:
    never split from each other unless they cannot fit even an empty frame) and the rest. A
    single paragraph that does not fit is split between lines (``Frame.split``).
    """
    drawn = 0
    room = height  # pt left in the frame, tracked as flowables are drawn
    while queue:
        item = queue[0]
        if isinstance(item, (list, tuple)):
            need = _height(list(item), canvas, width) + (item[0].getSpaceBefore() if drawn else 0)
            if need <= room + 0.01:
                for f in item:
                    if not frame.add(f, canvas):
                        raise RenderError("rules sheet: a section measured to fit did not")  # pragma: no cover
                    drawn += 1
                room -= need
                queue.pop(0)
                continue
            if isinstance(item, list) and len(item) > 2 and need > height / 3:
                queue[0:1] = [tuple(item[:2]), *item[2:]]  # a long section: keep only its heading with what follows
                continue
            if drawn:
                return drawn  # start the section (or heading) in the next frame
            queue[0:1] = list(item)  # taller than a whole frame: let its paragraphs flow
            continue
        before = item.getSpaceBefore() if drawn else 0
        need = item.wrapOn(canvas, width, 1e6)[1] + before + item.getSpaceAfter()
        if frame.add(item, canvas):
            drawn += 1
            room -= need
            queue.pop(0)
            continue
        pieces = frame.split(item, canvas)
        if len(pieces) < 2:
            return drawn
        queue[0:1] = pieces
    return drawn


def _title(canvas: Canvas, catalogue: Catalogue, page: tuple[float, float], styles: dict[str, ParagraphStyle],
           first: bool = True) -> float:
    """Draw the title band (title, subtitle, a rule) wrapped to the page width, or on later
    pages a one-line "continued" header; returns the height (pt) from the page top to the top
    of the text frames."""
    w, h = page
    width = w - 2 * MARGIN
    y = h - MARGIN
    lines = ((f"{catalogue.title}: rules at the table", styles["title"]), (catalogue.subtitle, styles["subtitle"])) if first else \
        ((f"{catalogue.title}: rules at the table (continued)", styles["subtitle"]),)
    for text, style in lines:
        if not text:
            continue
        para = Paragraph(escape(text), style)
        _, ph = para.wrapOn(canvas, width, h)
        para.drawOn(canvas, MARGIN, y - ph)
        y -= ph + style.spaceAfter
    canvas.saveState()
    canvas.setStrokeColor(ACCENT)
    canvas.setLineWidth(0.8)
    canvas.line(MARGIN, y - 4, w - MARGIN, y - 4)
    canvas.restoreState()
    return h - (y - 10)
