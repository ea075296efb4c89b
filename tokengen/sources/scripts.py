"""Scripts tokengen cannot print correctly: right-to-left and shaping scripts.

tokengen draws text with ReportLab, glyph after glyph from left to right, without the Unicode
bidirectional algorithm or OpenType shaping. Hebrew and Arabic would come out reversed (and
Arabic unjoined); Indic and other Brahmic scripts need glyphs reordered and combined. Such text is
refused when the catalogue is loaded (:func:`unsupported`), as other text the font cannot print.
A no-break space (U+00A0) and other spaces are ordinary text.
"""

from __future__ import annotations

import unicodedata

#: Scripts (first word of the Unicode character name) that need shaping: glyphs joined,
#: reordered or stacked, which drawing one glyph after another cannot do.
SHAPING = ("DEVANAGARI", "BENGALI", "GURMUKHI", "GUJARATI", "ORIYA", "TAMIL", "TELUGU", "KANNADA", "MALAYALAM",
           "SINHALA", "TIBETAN", "MYANMAR", "KHMER", "MONGOLIAN", "JAVANESE", "BALINESE")


def unsupported(text: str) -> str:
    """Why ``text`` cannot be printed left to right unshaped, or ``""``.

    Returns e.g. ``"Hebrew text (U+05D0 HEBREW LETTER ALEF) is written right to left; tokengen draws
    text left to right without reordering, so it would print reversed"``. Right to left means
    Unicode bidirectional class R or AL (Hebrew, Arabic, Syriac, Thaana, N'Ko, …).
    """
    if text.isascii():
        return ""
    for ch in text:
        if ch < "\u0590":  # Latin, Greek, Cyrillic, Armenian: left to right, unshaped
            continue
        name = unicodedata.name(ch, "")
        script = name.split(" ")[0].title() if name else f"U+{ord(ch):04X}"
        shown = f"U+{ord(ch):04X} {name}".strip()
        if unicodedata.bidirectional(ch) in ("R", "AL"):
            return (f"{script} text ({shown}) is written right to left; tokengen draws text left to right without "
                    "reordering or shaping, so it would print reversed")
        if name.startswith(SHAPING):
            return (f"{script} text ({shown}) needs shaping (glyphs joined and reordered), which tokengen does not do; "
                    "it would print broken")
    return ""
