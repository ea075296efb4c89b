"""The hand-written Meatshields face code as it was before faces became templates, kept here as
the reference renderer for tests/games/meatshields/test_template.py (the built-in ``meatshield``
template must draw exactly this, pixel for pixel)."""

from __future__ import annotations

from tokengen.faces.emblem import CAPTION_Y, CODE_Y, GLYPH_Y, PAD, text_box
from tokengen.faces.render import SAFE, SheetCanvas
from tokengen.geometry.imposition import Rect
from tokengen.model import Token
from tokengen.sources import fonts

TEXT_INSET, FRAME_INSET, FRAME_WIDTH = 0.13, 0.08, 0.018


def face_text_sizes(token: Token, size: float) -> dict[str, float]:
    fonts.register()
    width = size * (1 - 2 * TEXT_INSET)
    return {
        "glyph": fonts.fit_size(token.value("glyph"), fonts.BOLD, width, 0.36 * size),
        "code": fonts.fit_size(token.value("code"), fonts.BOLD, width, 0.25 * size),
        "caption": fonts.fit_size(token.value("caption"), fonts.REGULAR, width, 0.105 * size),
    }


def face_text_boxes(token: Token, s: float, sizes: dict[str, float]) -> list[Rect]:
    regular, bold = fonts.register()
    pad = PAD * s
    glyph = text_box(token.value("glyph"), bold, sizes["glyph"], s / 2, GLYPH_Y * s, -0.08 * sizes["glyph"]).grow(pad)
    code = text_box(token.value("code"), bold, sizes["code"], s / 2, CODE_Y * s)
    caption = text_box(token.value("caption"), regular, sizes["caption"], s / 2, CAPTION_Y * s)
    x0, x1 = min(code.x, caption.x), max(code.x1, caption.x1)
    lower = Rect(x0, caption.y, x1 - x0, code.y1 - caption.y).grow(pad)
    return [glyph, lower]


class LegacySheetCanvas(SheetCanvas):
    """A :class:`SheetCanvas` drawing Meatshields faces with the old hand-written code."""

    def face_form(self, token: Token) -> str:
        name = f"face-{token.id}"
        if name not in self._forms:
            art = self._art_form(token.style.art, token.style.background) if token.style.art else None
            self._begin(name)
            self._draw_legacy_face(token, art)
            self.canvas.endForm()
            self._forms.add(name)
        return name

    def _draw_legacy_art(self, art, path):
        from tokengen.faces.art import fit

        c, s, b = self.canvas, self.size, self.bleed
        name, width, height, _ = art
        if b > 0:
            box = Rect(-b, -b, s + 2 * b, s + 2 * b)
            drawn = fit(width, height, box, "cover")
        else:
            box = Rect(SAFE * s, SAFE * s, s * (1 - 2 * SAFE), s * (1 - 2 * SAFE))
            drawn = fit(width, height, box, "contain")
        c.saveState()
        clip = c.beginPath()
        if b > 0:
            clip.rect(box.x, box.y, box.w, box.h)
        else:
            inset = FRAME_INSET * s
            clip.roundRect(inset, inset, s - 2 * inset, s - 2 * inset, 0.08 * s)
        c.clipPath(clip, stroke=0, fill=0)
        c.translate(drawn.x, drawn.y)
        c.scale(drawn.w, drawn.h)
        c.doForm(name)
        c.restoreState()

    def _draw_legacy_face(self, token, art=None):
        c, s, b = self.canvas, self.size, self.bleed
        style = token.style
        c.setFillColor(self.paint(style.background, area=True))
        c.rect(-b, -b, s + 2 * b, s + 2 * b, stroke=0, fill=1)
        if art:
            self._draw_legacy_art(art, style.art)
        c.setStrokeColor(self.paint(style.accent))
        c.setLineWidth(FRAME_WIDTH * s)
        inset = FRAME_INSET * s
        c.roundRect(inset, inset, s - 2 * inset, s - 2 * inset, 0.08 * s, stroke=1, fill=0)
        sizes = face_text_sizes(token, s)
        c.saveState()
        self._shrink_text()
        if art:
            for box in face_text_boxes(token, s, sizes):
                self._plate(box.x, box.y, box.w, box.h, style.background)
        c.setFillColor(self.paint(style.accent))
        c.setFont(self.bold, sizes["glyph"])
        c.drawCentredString(s / 2, 0.575 * s, token.value("glyph"), charSpace=-0.08 * sizes["glyph"])
        c.setFillColor(self.paint(style.ink))
        c.setFont(self.bold, sizes["code"])
        c.drawCentredString(s / 2, 0.325 * s, token.value("code"))
        c.setFont(self.regular, sizes["caption"])
        c.drawCentredString(s / 2, 0.175 * s, token.value("caption"))
        c.restoreState()
