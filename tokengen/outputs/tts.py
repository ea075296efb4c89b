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
  most 10 × 7; no slot is reserved, as the deck sets ``BackIsHidden``) and either one shared back
  ``<stem>-back.png`` or, when backs differ, a back sheet ``<stem>-deck-<k>-backs.png`` laid
  out as its face sheet (``UniqueBack``). Two or more cards make one ``DeckCustom`` (one
  ``CustomDeck`` entry per sheet, key ``k`` from 1, ``CardID = k × 100 + slot``); one card is a
  single ``Card``.
* Every object has a ``GUID`` (six hex digits, :func:`assign_guids`: the same input gives the same
  GUIDs), a ``Nickname`` and a ``Description``, the texts TTS shows in an object's tooltip: by
  default the token's ``name`` field (else its id) and nothing; a catalogue's ``tts: {name:
  "{name}", description: "{rules}"}`` sets them from its fields.
* Several catalogues on one table (:func:`one_table`): their objects in one saved object, each
  catalogue's set placed to the right of the one before.
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

import hashlib
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from ..errors import LayoutError, UsageError
from ..geometry.decksheet import MAX_IMAGE_SIDE, DeckSheet, deck_sheets
from ..model import Back, Catalogue, Token
from ..sources.template import substitute
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
#: Space between two catalogues' sets on one table, TTS units.
GAP = 2.0


@dataclass(frozen=True)
class Plan:
    """What a TTS export writes, settled before anything is drawn.

    Attributes:
        cards: a deck (cards) rather than tiles.
        unique: cards with per-token backs (a back sheet per face sheet, ``UniqueBack``).
        cell: (w, h) px of one face or back image.
        sides: the PDF pages, (``"face"`` or ``"back"``, token): every face design, then each
            distinct back (every token's own back when ``unique``).
        faces: tiles only: the face PNG names, in catalogue order.
        backs: the back PNG names: tiles, one per distinct back, with ``back_of`` naming each
            token's; cards, the one shared back or the back sheets.
        sheets, sheet_names: cards only: the face sheets and their PNG names.
        json, thumbnail: the saved object's file names.
        images: (size px, name) of every image written, faces and sheets first, then backs.
    """

    cards: bool
    unique: bool
    cell: tuple[int, int]
    sides: list[tuple[str, Token]]
    faces: list[str]
    backs: list[str]
    back_of: dict[str, str]
    sheets: list[DeckSheet]
    sheet_names: list[str]
    json: str
    thumbnail: str
    images: list[tuple[tuple[int, int], str]]


def is_deck(catalogue: Catalogue) -> bool:
    """Cards go into a deck: tokens whose trim is not square (cards, other rectangles)."""
    kind = catalogue.shape.kind if catalogue.shape is not None else "square"
    return kind in ("square", "rounded") and abs(catalogue.trim_height - catalogue.size) > 1e-6


def drawn_blind(catalogue: Catalogue) -> bool:
    """Whether the set is drawn blind from a bag: ``drawn_blind: true``, or a Meatshields
    catalogue (its format has no such key: the game draws every token from a bag, which is why
    it has one back; token_defs.yaml, ``back``)."""
    return catalogue.drawn_blind or (catalogue.module == "meatshields" and not catalogue.fields)


def image_url(path: Path, base: str | None) -> str:
    """``file:///…`` for the written ``path`` (absolute), or ``BASE/NAME`` when ``base`` is given."""
    if base is None:
        return path.resolve().as_uri()
    return f"{base.rstrip('/')}/{path.name}"


def image_urls(folder: Path, names: list[str], base: str | None) -> dict[str, str]:
    """:func:`image_url` of each image ``names[i]`` written into ``folder``, the folder resolved
    once for all of them (a set of 1,000 tiles asked the file system 1,000 times); an image's
    own name is never a link, as each is written anew in place."""
    if base is not None:
        return {name: image_url(folder / name, base) for name in names}
    absolute = folder.resolve()
    return {name: (absolute / name).as_uri() for name in names}


def check_base(base: str | None) -> None:
    """Refuse an ``--image-url`` that is empty or has no scheme (``https://…``, ``file:///…``).

    Raises:
        UsageError: naming the value.
    """
    if base is not None and ("://" not in base or base.split("://", 1)[0] == "" or any(c.isspace() for c in base)):
        raise UsageError(f"--image-url {base!r}: expected a URL such as https://example.org/tokens")


def plan(catalogue: Catalogue, stem: str, dpi: int, faces: list[str], backs: list[tuple[Token, str]], *,
         max_pixels: int, max_total_pixels: int) -> Plan:
    """Settle the files of a TTS export of ``catalogue`` at ``dpi`` (its size already settled; the
    images are the trim, no bleed).

    Args:
        stem: the files' stem (:func:`tokengen.outputs.export.slug` of the title).
        faces: a face PNG name per token design (:func:`tokengen.outputs.export.png_name`).
        backs: (token, PNG name) per distinct back (:func:`tokengen.outputs.export.png_backs`).
        max_pixels, max_total_pixels: the largest image, and the most pixels in all.
    Raises:
        LayoutError: an image passes TTS's :data:`MAX_IMAGE_SIDE` or a pixel limit (naming the
            image, its size and the option that raises the limit).
    """
    cell = _cell(catalogue, dpi)
    cards = is_deck(catalogue)
    unique = cards and len(backs) > 1
    sheets = deck_sheets(len(catalogue.tokens), cell) if cards else []
    sheet_names = [f"{stem}-deck-{k}.png" for k in range(1, len(sheets) + 1)]
    if cards:
        faces = []
        back_names, images = _deck_images(stem, sheets, sheet_names, unique, cell)
    else:
        back_names = [name for _, name in backs]
        images = [(cell, n) for n in faces + back_names]
    _check_pixels(catalogue, dpi, images, max_pixels, max_total_pixels)
    back_sides = [("back", t) for t in catalogue.tokens] if unique else [("back", t) for t, _ in backs]
    firsts = {_back(catalogue, t): name for t, name in backs}
    return Plan(cards=cards, unique=unique, cell=cell, sides=[("face", t) for t in catalogue.tokens] + back_sides,
                faces=faces, backs=back_names, back_of={t.id: firsts[_back(catalogue, t)] for t in catalogue.tokens},
                sheets=sheets, sheet_names=sheet_names, json=f"{stem}.json", thumbnail=f"{stem}.png", images=images)


def _cell(catalogue: Catalogue, dpi: int) -> tuple[int, int]:
    """(w, h) px of one face image at ``dpi`` (the trim, no bleed).

    Raises:
        LayoutError: a side passes :data:`MAX_IMAGE_SIDE`.
    """
    px, py = round(catalogue.size / 72 * dpi), round(catalogue.trim_height / 72 * dpi)
    if max(px, py) > MAX_IMAGE_SIDE:
        raise LayoutError(f"{catalogue.path}: each image would be {px} x {py} px at {dpi} DPI, more than Tabletop Simulator's "
                          f"{MAX_IMAGE_SIDE} px; lower --dpi")
    return px, py


def _deck_images(stem: str, sheets: list[DeckSheet], sheet_names: list[str], unique: bool,
                 cell: tuple[int, int]) -> tuple[list[str], list[tuple[tuple[int, int], str]]]:
    """A deck's back image names (a back sheet per face sheet when ``unique``, else the one
    ``<stem>-back.png``) and (size px, name) of its images: the face sheets, then the backs."""
    images = [(s.size, n) for s, n in zip(sheets, sheet_names, strict=True)]
    if not unique:
        return [f"{stem}-back.png"], images + [(cell, f"{stem}-back.png")]
    back_names = [f"{stem}-deck-{k}-backs.png" for k in range(1, len(sheets) + 1)]
    return back_names, images + [(s.size, n) for s, n in zip(sheets, back_names, strict=True)]


def _check_pixels(catalogue: Catalogue, dpi: int, images: list[tuple[tuple[int, int], str]], max_pixels: int,
                  max_total_pixels: int) -> None:
    """Refuse an image of more than ``max_pixels`` or a set of more than ``max_total_pixels``.

    Raises:
        LayoutError: naming the image (or the count), its pixels and the option that raises the limit.
    """
    for (w, h), name in images:
        if w * h > max_pixels:
            raise LayoutError(f"{catalogue.path}: {name} would be {w} x {h} px ({w * h:,} pixels) at {dpi} DPI, more than "
                              f"the limit of {max_pixels:,} (raise it with --max-pixels, or lower --dpi)")
    total = sum(w * h for (w, h), _ in images)
    if total > max_total_pixels:
        raise LayoutError(f"{catalogue.path}: {counted(len(images), 'PNG')} are {total:,} pixels, more than the limit "
                          f"of {max_total_pixels:,} per run (raise it with --max-total-pixels, or lower --dpi)")


def compose(plan: Plan, pages: Iterator[Image.Image]) -> Iterator[tuple[str, Image.Image]]:
    """The images to write, as (file name, image), from ``pages``, the rendered PDF pages of
    ``plan.sides`` in order: tiles' faces and backs as they are; cards pasted into their sheets
    ; then the thumbnail (the first face
    scaled to fit :data:`THUMBNAIL` px, Lanczos). Only the pages a sheet needs are held."""
    first: Image.Image | None = None
    if not plan.cards:
        for name, image in zip(plan.faces + plan.backs, pages, strict=True):
            if first is None:
                first = image.copy()
            yield name, image
    else:
        faces = [next(pages) for side, _ in plan.sides if side == "face"]
        backs = list(pages)
        first = faces[0]
        for sheet, name in zip(plan.sheets, plan.sheet_names, strict=True):
            yield name, _sheet(sheet, faces)
        if plan.unique:
            for sheet, name in zip(plan.sheets, plan.backs, strict=True):
                yield name, _sheet(sheet, backs)
        else:
            yield plan.backs[0], backs[0]
    if first is None:  # no token: the catalogue loader refuses an empty catalogue
        return
    yield plan.thumbnail, thumbnail(first)


def thumbnail(face: Image.Image) -> Image.Image:
    """The saved object's thumbnail: a copy of ``face`` (the first face's image) scaled to fit
    :data:`THUMBNAIL` px square, Lanczos, its proportions kept."""
    thumb = face.copy()
    thumb.thumbnail((THUMBNAIL, THUMBNAIL), Image.Resampling.LANCZOS)
    return thumb


def objects(catalogue: Catalogue, plan: Plan, urls: dict[str, str]) -> list[dict[str, Any]]:
    """The ``ObjectStates`` of ``catalogue``'s export (no GUIDs yet), with ``urls`` mapping each
    image name to its URL (:func:`image_url`)."""
    if plan.cards:
        return [_deck(catalogue, plan.sheets, urls, plan.sheet_names, plan.backs, plan.unique)]
    return _tiles(catalogue, urls, plan.faces, plan.back_of)


def saved_object(catalogue: Catalogue, plan: Plan, urls: dict[str, str]) -> str:
    """The saved object's JSON text (``ObjectStates`` and the empty keys of a TTS save), with
    ``urls`` mapping each image name to its URL (:func:`image_url`)."""
    return save_text(catalogue.title, objects(catalogue, plan, urls))


def save_text(title: str, states: list[dict[str, Any]]) -> str:
    """A TTS save of ``states`` named ``title`` as JSON text, every object given a GUID
    (:func:`assign_guids`, seeded with the title)."""
    assign_guids(states, title)
    save = {"SaveName": title, "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5,
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": states, "TabStates": {}, "VersionNumber": ""}
    return json.dumps(save, indent=2, ensure_ascii=False) + "\n"


def _width(state: dict[str, Any]) -> float:
    """Units across an object laid on the table: a tile's or card's scaled width; a bag 2."""
    units = {"Custom_Tile": TILE_UNITS, "Card": CARD_UNITS, "DeckCustom": CARD_UNITS}.get(state["Name"], TILE_UNITS)
    return units * state["Transform"]["scaleX"]


def one_table(groups: list[list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The objects of several catalogues (one list each, as :func:`objects` gives them) on one
    table: each group moved along X so it starts :data:`GAP` units right of the one before;
    their order and their own layout kept."""
    placed: list[dict[str, Any]] = []
    right = None
    for group in groups:
        if not group:
            continue
        left = min(s["Transform"]["posX"] - _width(s) / 2 for s in group)
        shift = 0.0 if right is None else right + GAP - left
        for state in group:
            state["Transform"]["posX"] = round(state["Transform"]["posX"] + shift, 4)
        right = max(s["Transform"]["posX"] + _width(s) / 2 for s in group)
        placed += group
    return placed


#: The stem of the saved object holding several catalogues (``table.json``, ``table.png``).
TABLE = "table"


def write_table(saves: list[Path], out_dir: Path) -> list[Path]:
    """``table.json`` and ``table.png`` in ``out_dir``: the objects of the saved objects ``saves``
    (each a catalogue's ``<stem>.json`` just written) on one table (:func:`one_table`), new GUIDs
    for the whole table, and the first save's thumbnail; both files or neither.

    Raises:
        ExportError: a file cannot be written (as :func:`tokengen.io.atomic.atomic_files`).
    """
    from ..io.atomic import atomic_files

    groups, titles = [], []
    for path in saves:
        save = json.loads(path.read_text(encoding="utf-8"))
        titles.append(save["SaveName"])
        groups.append(save["ObjectStates"])
    targets = [out_dir / f"{TABLE}.json", out_dir / f"{TABLE}.png"]
    with atomic_files(targets, inputs=tuple(saves)) as temps:
        temps[0].write_text(save_text(" + ".join(titles), one_table(groups)), encoding="utf-8")
        temps[1].write_bytes(saves[0].with_suffix(".png").read_bytes())
    return targets


def copy_to_folder(save: Path, folder: Path) -> list[Path]:
    """Copy the saved object ``save`` and its thumbnail (``<stem>.png`` beside it) into
    ``folder``, Tabletop Simulator's ``Saved Objects`` folder (``--tts-folder``), where the table
    lists it; the images stay where the save's URLs point. Both files or neither.

    Raises:
        ExportError: ``folder`` does not exist, or a file cannot be written there.
    """
    from ..io.atomic import atomic_files

    sources = [save, save.with_suffix(".png")]
    targets = [folder / s.name for s in sources]
    with atomic_files(targets, inputs=tuple(sources)) as temps:
        for source, temp in zip(sources, temps, strict=True):
            temp.write_bytes(source.read_bytes())
    return targets


def _back(catalogue: Catalogue, token: Token) -> Back:
    return catalogue.back or token.back


def _sheet(sheet: DeckSheet, images: list[Image.Image]) -> Image.Image:
    """``sheet`` as an image: each card's image in its cell (white elsewhere)."""
    canvas = Image.new("RGB", sheet.size, (255, 255, 255))
    for slot, card in enumerate(sheet.cards):
        canvas.paste(images[card], sheet.box(slot)[:2])
    return canvas


def tooltip(catalogue: Catalogue, token: Token) -> tuple[str, str]:
    """The (``Nickname``, ``Description``) TTS shows for ``token``: the catalogue's ``tts:``
    texts with the token's values in their ``{field}`` places (``{id}`` its id); without them its
    ``name`` field (else its id) and no description."""
    texts = dict(catalogue.tts)
    values = {"id": token.id, **dict(token.values)}
    name = substitute(texts["name"], values) if "name" in texts else None
    if not name:
        own = token.value("name")
        name = str(own) if own else token.id
    return name, substitute(texts.get("description", ""), values)


def guid(seed: str) -> str:
    """Six lower-case hex digits from ``seed`` (SHA-256): TTS's GUIDs are six hex digits
    (a saved object's ``"GUID": "1fbd5a"``)."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()[:6]


def assign_guids(objects: list[dict[str, Any]], seed: str) -> None:
    """Give every object (contained ones too, depth first) a ``GUID`` in place: the n-th object's
    is :func:`guid` of ``seed/n``, the next free one on a clash, so the same save gets the same
    GUIDs and no two objects share one."""
    used: set[str] = set()

    def walk(items: list[dict[str, Any]]) -> None:
        for item in items:
            n = len(used)
            value, k = guid(f"{seed}/{n}"), 0
            while value in used:
                k += 1
                value = guid(f"{seed}/{n}/{k}")
            used.add(value)
            item["GUID"] = value
            walk(item.get("ContainedObjects", []))

    walk(objects)


def _transform(x: float = 0.0, z: float = 0.0, scale: float = 1.0, *, face_down: bool = False) -> dict[str, float]:
    return {"posX": round(x, 4), "posY": 1.0, "posZ": round(z, 4), "rotX": 0.0, "rotY": 180.0,
            "rotZ": 180.0 if face_down else 0.0, "scaleX": round(scale, 6), "scaleY": 1.0, "scaleZ": round(scale, 6)}


def _named(catalogue: Catalogue, token: Token, transform: dict[str, float]) -> tuple[str, dict[str, float], str]:
    name, description = tooltip(catalogue, token)
    return name, transform, description


def _base(name: str, nickname: str, transform: dict[str, float], description: str = "") -> dict[str, Any]:
    return {"GUID": "", "Name": name, "Transform": transform, "Nickname": nickname, "Description": description, "GMNotes": "",
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
        for slot, design in enumerate(sheet.cards):
            where[design] = (key, slot)
    cards: list[dict[str, Any]] = []
    for index, token in enumerate(catalogue.tokens):
        key, slot = where[index]
        for _ in range(token.copies):
            card = _base("Card", *_named(catalogue, token, _transform(scale=scale, face_down=True)))
            card.update({"CardID": key * 100 + slot, "SidewaysCard": False, "CustomDeck": {str(key): custom[str(key)]}})
            cards.append(card)
    if len(cards) == 1:
        return cards[0]
    deck = _base("DeckCustom", catalogue.title, _transform(scale=scale, face_down=True))
    deck.update({"SidewaysCard": False, "DeckIDs": [c["CardID"] for c in cards], "CustomDeck": custom,
                 "ContainedObjects": cards})
    return deck


def _tiles(catalogue: Catalogue, urls: dict[str, str], faces: list[str], back_of: dict[str, str]) -> list[dict[str, Any]]:
    """One ``Custom_Tile`` per physical token, laid out in rows on the table, or all in one
    ``Bag`` when the set is drawn blind."""
    kind = catalogue.shape.kind if catalogue.shape is not None else "square"
    across = max(catalogue.size, catalogue.trim_height) / 72  # inches across the tile's longer side
    scale = across / TILE_UNITS
    physical = [(t, faces[i]) for i, t in enumerate(catalogue.tokens) for _ in range(t.copies)]
    columns = max(1, math.ceil(math.sqrt(len(physical))))
    pitch = across + SPACING
    tiles: list[dict[str, Any]] = []
    for n, (token, face) in enumerate(physical):
        x, z = n % columns * pitch, -(n // columns) * pitch
        tile = _base("Custom_Tile", *_named(catalogue, token, _transform(x, z, scale)))
        tile["CustomImage"] = {"ImageURL": urls[face], "ImageSecondaryURL": urls[back_of[token.id]],
                               "ImageScalar": 1.0, "WidthScale": 0.0,
                               "CustomTile": {"Type": TILE_TYPES[kind], "Thickness": THICKNESS, "Stackable": False, "Stretch": True}}
        tiles.append(tile)
    if not drawn_blind(catalogue):
        return tiles
    for tile in tiles:
        tile["Transform"] = _transform(scale=scale)
    bag = _base("Bag", catalogue.title, _transform())
    bag.update({"MaterialIndex": -1, "ContainedObjects": tiles})
    return [bag]
