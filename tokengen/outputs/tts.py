"""Tabletop Simulator export (``output: tts``): a saved object TTS loads, its thumbnail and its images.

Files written into the output folder, all or none (:func:`tokengen.io.atomic.atomic_files`):

* ``<stem>-<profile>.pdf``: the single-token pages every image is rasterised from (one page per
  face design, then one per distinct back), drawn with the face and back forms of the PDF
  exports (:func:`tokengen.outputs.export.write_single_pages`) and rasterised as the ``png``
  profiles' chits are (:func:`tokengen.outputs.export.rasterise_pages`): one renderer.
* ``<stem>.json``: the saved object (``{"ObjectStates": [...]}``), and ``<stem>.png`` its
  256 px thumbnail: TTS lists a saved object as a JSON file with a PNG of the same name beside it
  in its ``Saved Objects`` folder.
* Cards (a catalogue whose tokens are not square: cards and other rectangles): the faces tiled
  into card sheets ``<stem>-deck-<k>.png`` (:func:`tokengen.geometry.decksheet.deck_sheets`: at
  most 10 × 7, the last slot kept for TTS's hidden face) and either one shared back
  ``<stem>-back.png`` or, when backs differ, a back sheet ``<stem>-deck-<k>-backs.png`` laid
  out as its face sheet (``UniqueBack``). Two or more cards make one ``DeckCustom`` (one
  ``CustomDeck`` entry per sheet, key ``k`` from 1, ``CardID = k × 100 + slot``); one card is a
  single ``Card``.
* Tokens and tiles (square, rounded, circle, hex): one PNG per face design
  (:func:`tokengen.outputs.export.png_name`) and per distinct back
  (:func:`tokengen.outputs.export.png_backs`); every physical token (copies too) is its own
  ``Custom_Tile`` (``CustomImage.CustomTile.Type`` 0 box, 1 hex, 2 circle, 3 rounded:
  api.tabletopsimulator.com, "Custom Tile"; the knowledge base, "Custom Tile": "Rounded is a
  square with rounded corners"). Custom tiles rather than ``Custom_Token``: a token's shape is
  cut from its image's transparency, and the knowledge base says "Custom Tiles load faster than
  Custom Tokens. If you can use a custom tile instead, it is almost always preferable"
  (kb.tabletopsimulator.com, "Custom Token"). A set drawn blind (``drawn_blind: true``, the
  Meatshields) is one ``Bag`` holding every token in ``ContainedObjects``.

Sizes. One TTS unit is about an inch (the knowledge base gives tile thickness "in in-game
units (about an inch)", "Custom Tile"). A ``Custom_Tile`` at ``scale`` 1 is
:data:`TILE_UNITS` units across and a card at ``scale`` 1 is :data:`CARD_UNITS` units wide,
so ``scaleX = scaleZ = width in inches / TILE_UNITS`` (cards: ``/ CARD_UNITS``), and
``scaleY`` stays 1 so ``Thickness`` (:data:`THICKNESS`, units) is the tile's own.

Images. PNGs of trim only (no bleed: TTS maps the whole image onto the face), 8-bit sRGB (TTS
takes RGB PNG or JPG, "CMYK color mode will not work", "Asset Creation"), at the profile's DPI
(150 for ``tts``: a poker card is 372 × 520 px, so a full 10 × 7 sheet is 3720 × 3640 px), each
side at most :data:`tokengen.geometry.decksheet.MAX_IMAGE_SIDE` px (the knowledge base's
"under 4096x4096"). URLs are ``file:///`` URIs of the written files (TTS loads local files; the
save then works on this computer only), or ``BASE/NAME`` with ``--image-url BASE`` for images the
user uploads, so the save can be shared.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from ..errors import LayoutError, UsageError
from ..geometry.decksheet import MAX_IMAGE_SIDE, DeckSheet, deck_sheets
from ..io.atomic import atomic_files
from ..model import Catalogue, Token
from ..sources.profiles import Profile
from ..units import counted

#: Width of a ``Custom_Tile`` at scale 1, TTS units (about inches).
TILE_UNITS = 2.0
#: Width of a card at scale 1, TTS units (a poker card, 2.5 in, shows at scale 1).
CARD_UNITS = 2.5
#: Thickness of a tile, TTS units: 0.1 (about 2.5 mm, a thick chipboard counter).
THICKNESS = 0.1
#: Longest side of the thumbnail beside the JSON, px.
THUMBNAIL = 256
#: ``CustomTile.Type`` for each shape kind (api.tabletopsimulator.com, "Custom Tile").
TILE_TYPES = {"square": 0, "hex": 1, "circle": 2, "rounded": 3}
#: ``CustomDeck.Type`` (the card's outline) for cards: 0 "Rectangle (Rounded)", 1 "Rectangle"
#: (api.tabletopsimulator.com, "Custom Card").
CARD_TYPES = {"rounded": 0, "square": 1}
#: Spacing between objects laid out on the table, TTS units.
SPACING = 0.25


@dataclass(frozen=True)
class Plan:
    """What an export writes: ``names`` of the images in render order (the PDF pages' order:
    faces, then distinct backs), the ``sheets`` (cards only) and the tokens' ``backs`` (token,
    PNG name) per distinct back."""

    cards: bool
    faces: list[str]
    backs: list[tuple[Token, str]]
    sheets: list[DeckSheet]
    sheet_names: list[str]
    back_sheet_names: list[str]


def is_deck(catalogue: Catalogue) -> bool:
    """Cards go into a deck: tokens whose trim is not square (cards, other rectangles)."""
    kind = catalogue.shape.kind if catalogue.shape is not None else "square"
    return kind in ("square", "rounded") and abs(catalogue.trim_height - catalogue.size) > 1e-6


def image_url(path: Path, base: str | None) -> str:
    """``file:///…`` for the written ``path`` (absolute), or ``BASE/NAME`` when ``base`` is given."""
    if base is None:
        return path.resolve().as_uri()
    return f"{base.rstrip('/')}/{path.name}"


def check_base(base: str | None) -> None:
    """Refuse an ``--image-url`` that is empty or has no scheme (``https://…``, ``file:///…``).

    Raises:
        UsageError: naming the value.
    """
    if base is not None and ("://" not in base or base.split("://", 1)[0] == "" or any(c.isspace() for c in base)):
        raise UsageError(f"--image-url {base!r}: expected a URL such as https://example.org/tokens")


def export_tts(catalogue: Catalogue, profile: Profile, out_dir: Path, stem: str, pdf: Path, dpi: int,
               ready: Any, *, image_base: str | None = None, max_pixels: int, max_total_pixels: int,
               keep_resolution: bool = False, warnings: list[str] | None = None) -> list[Path]:
    """Write the Tabletop Simulator files of ``catalogue`` (module docstring) into ``out_dir``.

    Args:
        catalogue: the validated catalogue (its size already settled).
        profile: an ``output: tts`` profile (its bleed is ignored: the images are the trim).
        stem, pdf: the files' stem and the PDF's path (:func:`tokengen.outputs.export.export`).
        dpi: image resolution, px per in.
        ready: checks every target and makes the folder (the export's own guard).
        image_base: ``--image-url``: the URL the images will be hosted under, or None for
            ``file:///`` URLs.
        max_pixels, max_total_pixels: refuse a larger image, or more pixels in all, before
            anything is drawn.
    Returns:
        The paths written: the PDF, the JSON, the thumbnail, then the images.
    Raises:
        LayoutError: an image passes TTS's size or a pixel limit.
        ExportError, RenderError: as :func:`tokengen.outputs.export.export`.
    """
    from dataclasses import replace

    from .export import png_backs, png_name, rasterise_pages, write_png, write_single_pages

    check_base(image_base)
    profile = replace(profile, bleed=0.0)  # TTS maps the whole image onto the face: trim only
    width, height = catalogue.size, catalogue.trim_height
    px, py = round(width / 72 * dpi), round(height / 72 * dpi)
    if max(px, py) > MAX_IMAGE_SIDE:
        raise LayoutError(f"{catalogue.path}: each image would be {px} x {py} px at {dpi} DPI, more than Tabletop Simulator's "
                          f"{MAX_IMAGE_SIDE} px; lower --dpi")
    cards = is_deck(catalogue)
    backs = png_backs(stem, catalogue)
    sheets = deck_sheets(len(catalogue.tokens), (px, py)) if cards else []
    unique = cards and len(backs) > 1
    if cards:
        faces: list[str] = []
        sheet_names = [f"{stem}-deck-{k}.png" for k in range(1, len(sheets) + 1)]
        back_names = [f"{stem}-deck-{k}-backs.png" for k in range(1, len(sheets) + 1)] if unique else [f"{stem}-back.png"]
        images = [(s.size, n) for s, n in zip(sheets, sheet_names, strict=True)]
        images += [(s.size, n) for s, n in zip(sheets, back_names, strict=True)] if unique else [((px, py), back_names[0])]
    else:
        faces = [png_name(stem, i, t) for i, t in enumerate(catalogue.tokens, 1)]
        sheet_names, back_names = [], [name for _, name in backs]
        images = [((px, py), n) for n in faces + back_names]
    for (w, h), name in images:
        if w * h > max_pixels:
            raise LayoutError(f"{catalogue.path}: {name} would be {w} x {h} px ({w * h:,} pixels) at {dpi} DPI, more than "
                              f"the limit of {max_pixels:,} (raise it with --max-pixels, or lower --dpi)")
    total = sum(w * h for (w, h), _ in images)
    if total > max_total_pixels:
        raise LayoutError(f"{catalogue.path}: {counted(len(images), 'PNG')} are {total:,} pixels, more than the limit "
                          f"of {max_total_pixels:,} per run (raise it with --max-total-pixels, or lower --dpi)")
    # the PDF pages: every face design, then each distinct back (per token when the backs differ)
    if unique:
        back_sides = [("back", t) for t in catalogue.tokens]
    else:
        back_sides = [("back", t) for t, _ in backs]
    sides = [("face", t) for t in catalogue.tokens] + back_sides
    json_path, thumb = out_dir / f"{stem}.json", out_dir / f"{stem}.png"
    names = [n for _, n in images]
    targets = [pdf, json_path, thumb] + [out_dir / n for n in names]
    ready(targets, len(sides))
    urls = {n: image_url(out_dir / n, image_base) for n in names}
    with atomic_files(targets, inputs=catalogue.files_read()) as temps:
        write_single_pages(catalogue, profile, iter(sides), temps[0], len(sides), keep_resolution, warnings)
        pages = rasterise_pages(temps[0], dpi, width)
        temp_of = dict(zip(names, temps[3:], strict=True))
        first: Image.Image | None = None
        if cards:
            face_images = [next(pages) for _ in catalogue.tokens]
            back_images = list(pages)
            first = face_images[0]
            for sheet, name in zip(sheets, sheet_names, strict=True):
                _write_sheet(sheet, face_images, back_images[0] if not unique else None, temp_of[name], dpi, out_dir / name)
            if unique:
                for sheet, name in zip(sheets, back_names, strict=True):
                    _write_sheet(sheet, back_images, None, temp_of[name], dpi, out_dir / name)
            else:
                write_png(back_images[0], temp_of[back_names[0]], dpi, shown=out_dir / back_names[0])
            objects = [_deck(catalogue, sheets, urls, sheet_names, back_names, unique)]
        else:
            for name, image in zip(faces + back_names, pages, strict=True):
                write_png(image, temp_of[name], dpi, shown=out_dir / name)
                if first is None:
                    first = image
                else:
                    image.close()
            objects = _tiles(catalogue, urls, faces, back_names, backs)
        assert first is not None
        _write_thumbnail(first, temps[2], thumb)
        save = {"SaveName": catalogue.title, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5,
                "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
                "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}
        temps[1].write_text(json.dumps(save, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return targets


def _write_sheet(sheet: DeckSheet, images: list[Image.Image], hidden: Image.Image | None, temp: Path, dpi: int, shown: Path) -> None:
    """Paste each card's image into its cell of ``sheet`` (white elsewhere), ``hidden`` into the
    reserved slot when given, and save the sheet PNG."""
    from .export import write_png

    canvas = Image.new("RGB", sheet.size, (255, 255, 255))
    for slot, card in enumerate(sheet.cards):
        canvas.paste(images[card], sheet.box(slot)[:2])
    if hidden is not None:
        canvas.paste(hidden, sheet.box(sheet.hidden_slot)[:2])
    write_png(canvas, temp, dpi, shown=shown)
    canvas.close()


def _write_thumbnail(image: Image.Image, temp: Path, shown: Path) -> None:
    """The first face scaled to fit :data:`THUMBNAIL` px (Lanczos), as the saved object's PNG."""
    from .export import write_png

    thumb = image.copy()
    thumb.thumbnail((THUMBNAIL, THUMBNAIL), Image.Resampling.LANCZOS)
    write_png(thumb, temp, 72, shown=shown)


def _nickname(token: Token) -> str:
    """The name TTS shows for a token: its ``name`` field, its label, else its id."""
    name = token.value("name")
    return str(name) if name else token.label or token.id


def _transform(x: float = 0.0, z: float = 0.0, scale: float = 1.0, *, face_down: bool = False) -> dict[str, float]:
    return {"posX": round(x, 4), "posY": 1.0, "posZ": round(z, 4), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 6), "scaleY": 1.0, "scaleZ": round(scale, 6)}


def _base(name: str, nickname: str, transform: dict[str, float]) -> dict[str, Any]:
    return {"Name": name, "Transform": transform, "Nickname": nickname, "Description": "", "GMNotes": "",
            "ColorDiffuse": {"r": 1.0, "g": 1.0, "b": 1.0}, "Locked": False, "Grid": True, "Snap": True,
            "Autoraise": True, "Sticky": True, "Tooltip": True, "HideWhenFaceDown": True}


def _deck(catalogue: Catalogue, sheets: list[DeckSheet], urls: dict[str, str], sheet_names: list[str],
          back_names: list[str], unique: bool) -> dict[str, Any]:
    """The ``DeckCustom`` of every physical card (copies repeat their ``CardID``), or the ``Card``
    when there is one."""
    scale = catalogue.size / 72 / CARD_UNITS
    card_type = CARD_TYPES[catalogue.shape.kind if catalogue.shape is not None else "square"]
    custom: dict[str, dict[str, Any]] = {}
    where: dict[int, tuple[int, int]] = {}  # design index → (deck key, slot)
    for key, (sheet, name) in enumerate(zip(sheets, sheet_names, strict=True), 1):
        custom[str(key)] = {"FaceURL": urls[name], "BackURL": urls[back_names[key - 1] if unique else back_names[0]],
                            "NumWidth": sheet.columns, "NumHeight": sheet.rows, "BackIsHidden": True,
                            "UniqueBack": unique, "Type": card_type}
        for slot, card in enumerate(sheet.cards):
            where[card] = (key, slot)
    cards: list[dict[str, Any]] = []
    for index, token in enumerate(catalogue.tokens):
        key, slot = where[index]
        for _ in range(token.copies):
            card = _base("Card", _nickname(token), _transform(scale=scale, face_down=True))
            card.update({"CardID": key * 100 + slot, "SidewaysCard": False, "CustomDeck": {str(key): custom[str(key)]}})
            cards.append(card)
    if len(cards) == 1:
        return cards[0]
    deck = _base("DeckCustom", catalogue.title, _transform(scale=scale, face_down=True))
    deck.update({"SidewaysCard": False, "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": custom,
                 "ContainedObjects": cards})
    return deck


def _tiles(catalogue: Catalogue, urls: dict[str, str], faces: list[str], back_names: list[str],
           backs: list[tuple[Token, str]]) -> list[dict[str, Any]]:
    """One ``Custom_Tile`` per physical token, laid out in rows on the table, or all in one
    ``Bag`` when the set is drawn blind."""
    from .export import _back

    kind = catalogue.shape.kind if catalogue.shape is not None else "square"
    across = max(catalogue.size, catalogue.trim_height) / 72  # inches across the tile's longer side
    scale = across / TILE_UNITS
    back_of = {_back(catalogue, t): name for t, name in backs}
    physical = [(t, faces[i]) for i, t in enumerate(catalogue.tokens) for _ in range(t.copies)]
    columns = max(1, math.ceil(math.sqrt(len(physical))))
    pitch = across + SPACING
    tiles: list[dict[str, Any]] = []
    for n, (token, face) in enumerate(physical):
        x, z = n % columns * pitch, -(n // columns) * pitch
        tile = _base("Custom_Tile", _nickname(token), _transform(x, z, scale))
        tile["CustomImage"] = {"ImageURL": urls[face], "ImageSecondaryURL": urls[back_of[_back(catalogue, token)]],
                               "ImageScalar": 1.0, "WidthScale": 0.0,
                               "CustomTile": {"Type": TILE_TYPES[kind], "Thickness": THICKNESS, "Stackable": False, "Stretch": True}}
        tiles.append(tile)
    if not catalogue.drawn_blind:
        return tiles
    for tile in tiles:
        tile["Transform"] = _transform(scale=scale)
    bag = _base("Bag", catalogue.title, _transform())
    bag.update({"MaterialIndex": -1, "ContainedObjects": tiles})
    return [bag]
