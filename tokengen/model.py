"""Value objects: the validated catalogue as frozen dataclasses. Lengths are in pt."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as _field
from pathlib import Path
from typing import Any


def _divide(a: float, b: float) -> float:
    """``a / b``, 0 when ``b`` is 0 (as ImageMath divides images)."""
    return a / b if b else 0.0


def formula_cmyk(r: Any, g: Any, b: Any, maximum: Callable[[Any, Any], Any] = max,
                 divide: Callable[[Any, Any], Any] = _divide) -> tuple[Any, Any, Any, Any]:
    """The ``colour: formula`` conversion, the one rule for catalogue colours and art pixels:
    the device formula with full grey-component replacement,
    k = 1 − max(r, g, b), c = (1 − r − k)/(1 − k), m = (1 − g − k)/(1 − k), y = (1 − b − k)/(1 − k)
    (c, m, y = 0 when k = 1). A neutral (r = g = b) is K alone: black C0 M0 Y0 K1, 50 % grey K0.5.

    Args:
        r, g, b: 0..1 each: floats (a catalogue colour), or ImageMath operands of float images
            (every pixel of an art image at once, :func:`tokengen.colour.formula_image`).
        maximum: the larger of two values (ImageMath's ``max`` for operands).
        divide: ``a / b`` giving 0 when ``b`` is 0 (operands: ``operator.truediv``, which ImageMath
            already makes 0 there).
    Returns:
        (c, m, y, k), 0..1 each, of the same kind as ``r``, ``g``, ``b``.
    """
    k = 1 - maximum(maximum(r, g), b)
    white = 1 - k
    return (divide(1 - r - k, white), divide(1 - g - k, white), divide(1 - b - k, white), k)


@dataclass(frozen=True)
class Colour:
    """A colour as the catalogue gave it: ``space`` is ``"rgb"`` (3 channels) or ``"cmyk"`` (4),
    every channel in 0..1."""

    space: str
    values: tuple[float, ...]

    @classmethod
    def parse(cls, value: str | list[float]) -> Colour:
        """``"#rrggbb"`` → rgb; ``[c, m, y, k]`` → cmyk. The schema has already checked the form."""
        if isinstance(value, str):
            return cls("rgb", tuple(int(value[i : i + 2], 16) / 255 for i in (1, 3, 5)))
        return cls("cmyk", tuple(float(v) for v in value))

    def to_cmyk(self) -> tuple[float, float, float, float]:
        """CMYK channels in 0..1. RGB converts by :func:`formula_cmyk` (the device formula with
        full grey-component replacement: every grey and black on K alone; no ICC profile is
        applied)."""
        if self.space == "cmyk":
            c, m, y, k = self.values
            return (c, m, y, k)
        r, g, b = self.values
        c, m, y, k = formula_cmyk(r, g, b)
        return (float(c), float(m), float(y), float(k))

    def to_rgb(self) -> tuple[float, float, float]:
        """RGB channels in 0..1 (CMYK converts by r = (1 - c)(1 - k), …)."""
        if self.space == "rgb":
            r, g, b = self.values
            return (r, g, b)
        c, m, y, k = self.values
        return ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))


@dataclass(frozen=True)
class Attribute:
    """An Adventurer attribute: ``code`` is printed on the token (``STR``), ``name`` in full."""

    code: str
    name: str


@dataclass(frozen=True)
class Priority:
    """A targeting priority: ``code`` as written in catalogues (``low``), ``glyph`` as printed
    (``↓``), ``name`` in words (``lowest``)."""

    code: str
    glyph: str
    name: str


@dataclass(frozen=True)
class FaceStyle:
    """How a face is painted: colours and an optional art image (absolute path)."""

    background: Colour
    ink: Colour
    accent: Colour
    art: Path | None = None


@dataclass(frozen=True)
class Back:
    """The back design. Every token in a bag must share one (they are drawn blind)."""

    text: str
    background: Colour
    ink: Colour
    art: Path | None = None
    # a catalogue with declared fields draws its backs from a template (tokengen.sources.template) with
    # the values of the fields it reads: equal values, equal backs (one shared back, or per token)
    template: Any = None
    values: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Token:
    """One token design, of any game. ``copies`` is how many of it the set holds; ``line`` is where
    it is defined in the catalogue (for messages).

    A token carries no game's fields: what a game knows about it lives in ``values``, its field
    values (name → text, number, :class:`Colour` or art :class:`~pathlib.Path`, in the order they
    were read), which its face template reads and its game's checks interpret. ``template`` is the
    face template (:class:`tokengen.sources.template.Template`) a catalogue with declared fields
    gives; None draws the face with the built-in template of the catalogue's format
    (:data:`tokengen.sources.template.DEFAULT_FACE`): a Meatshields catalogue, whose loader
    (:mod:`tokengen.sources.catalogue`) writes that template's fields and the token's
    ``attribute`` and ``priority`` codes into ``values``
    (:class:`tokengen.games.meatshields.model.MeatshieldToken` reads them back)."""

    id: str
    style: FaceStyle
    back: Back
    copies: int = 1
    line: int | None = None
    values: tuple[tuple[str, Any], ...] = ()
    template: Any = None

    def value(self, name: str) -> Any:
        """The value of field ``name`` (None when the token has none)."""
        return dict(self.values).get(name)


@dataclass(frozen=True)
class Draws:
    """Draw sizes from the game rules: a Settlement draws its Danger Level, a Town (variant) its
    level, each ``+ explored_bonus`` when Explored; a solo game starts with ``solo_start``.
    The numbers come from the catalogue, or from ``tokengen/data/game_defaults.yaml`` for those
    it leaves out (:mod:`tokengen.sources.gamedata`); none is written in the code."""

    settlement_danger_levels: tuple[int, ...]
    town_levels: tuple[int, ...]
    explored_bonus: int
    solo_start: int


@dataclass(frozen=True)
class Variant:
    """An optional rule: its words, and the costs (gp) it replaces while in play."""

    name: str
    description: str
    hire_gp: int | None = None
    trade_gp: int | None = None


@dataclass(frozen=True)
class Game:
    """The game data of a catalogue: attributes, priorities, draws, costs (gp), known variants;
    ``wounds`` is the hit count of the ``damage=wounds`` reading (``game.damage.wounds``);
    ``defaulted`` names the numbers taken from ``tokengen/data/game_defaults.yaml`` because the
    catalogue left them out (``"draws.town_levels"``, …)."""

    attributes: tuple[Attribute, ...]
    priorities: tuple[Priority, ...]
    draws: Draws
    hire_gp: int
    trade_gp: int
    variants: tuple[Variant, ...] = ()
    wounds: int | None = None
    defaulted: tuple[str, ...] = ()

    def variant(self, name: str) -> Variant | None:
        """The variant called ``name``, or None."""
        return next((v for v in self.variants if v.name == name), None)


@dataclass(frozen=True)
class Remark:
    """A warning reading a catalogue found, at its place: ``code`` (as ``tokengen check`` names
    it: ``unmatched-condition``), ``message``, the ``file`` as the user gave it, its ``line`` and
    ``field`` path (``template[3].when``)."""

    code: str
    message: str
    file: str
    line: int | None = None
    field: str | None = None

    def __str__(self) -> str:
        """The line ``build`` and ``export`` print after ``tokengen: warning:``:
        ``cat.yaml:12: template[3].when: matches no token (…)``."""
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


@dataclass(frozen=True)
class Declared:
    """One entry of a catalogue's ``rules:`` or ``odds:`` list, as the schema passed it: the
    ``section`` (``"rules"`` or ``"odds"``), its ``index`` in that list, the entry's mapping
    ``spec`` (YAML data: str, int, float, lists and mappings) and its 1-based ``line``.
    :mod:`tokengen.games.declared` reads and checks them."""

    section: str
    index: int
    spec: dict[str, Any] = _field(compare=False, hash=False)
    line: int | None = None

    @property
    def where(self) -> str:
        """The entry as a field path: ``rules[2]``, ``odds[0]``."""
        return f"{self.section}[{self.index}]"


@dataclass(frozen=True)
class Catalogue:
    """A validated catalogue. ``size`` is the token trim size in pt; ``tokens`` keep file order."""

    path: Path
    title: str
    game: Game
    tokens: tuple[Token, ...]
    size: float = 72.0
    subtitle: str = ""
    author: str = ""
    back: Back | None = None
    variants: tuple[str, ...] = ()
    columns: int | None = None
    #: The table's readings where the rules are silent (``(("damage", "wounds"), …)``), from the
    #: catalogue's ``interpretations:``; those left out take their defaults.
    interpretations: tuple[tuple[str, str], ...] = ()
    # any game (a catalogue declaring its fields): the declared fields (name → type), the trim
    # height in pt when the token is not square (``size`` is then its width), its shape
    # (tokengen.geometry.shapes.Shape; None is a square), the game module that checks it (a Meatshields
    # catalogue: "meatshields", set by its loader) and whether its tokens are drawn blind (every back
    # must then be the same)
    fields: tuple[tuple[str, str], ...] = ()
    height: float | None = None
    shape: Any = None
    module: str = "generic"
    drawn_blind: bool = False
    #: Tabletop Simulator's tooltip texts, from the catalogue's ``tts:`` (``(("name", "{name}"),
    #: ("description", "{rules}"))``): each a text whose ``{field}`` places take the token's values.
    tts: tuple[tuple[str, str], ...] = ()
    inputs: tuple[Path, ...] = ()  # other files read: the tokens' spreadsheet, the catalogue's fonts
    #: The safe area (pt) the faces were designed for (``safe_area:``; None: the home one). An
    #: output asking a larger one scales each face's content about its centre to fit.
    safe_area: float | None = None
    #: A board larger than the page is tiled over pages with this overlap (pt, ``tile: {overlap: 6mm}``);
    #: None: ``tile: false``, such a board is refused.
    tile_overlap: float | None = 6 * 72 / 25.4
    #: ``shape: standee``: the base (pt) of each standee strip (:mod:`tokengen.outputs.standees`); None: not standees.
    standee_base: float | None = None
    #: ``sheet:`` (or ``--sheet FILE``): the sheet laid out by hand (a
    #: :class:`tokengen.geometry.handsheet.HandSheet`); None: the tokens are packed in a grid.
    hand_sheet: Any = None
    #: What reading the catalogue found that the user should know, one line each without the
    #: ``tokengen: warning:`` prefix (a spreadsheet column that is not a field, left out).
    warnings: tuple[str, ...] = ()
    #: The warnings among :attr:`warnings` that have a place in the catalogue, as
    #: :class:`Remark` values, for ``tokengen check`` to report as findings.
    remarks: tuple[Remark, ...] = ()
    #: Where the catalogue (or its spreadsheet) first names each picture it reads: (the
    #: picture's resolved path, the file naming it as the user gave it, its line, its field
    #: path), for a message about a picture that cannot be used (:meth:`art_place`).
    art_places: tuple[tuple[Path, str, int | None, str | None], ...] = ()
    #: The catalogue's ``rules:`` then ``odds:`` entries, in order (:class:`Declared`).
    declared: tuple[Declared, ...] = ()
    #: The declared choices of fields (field name → its values, in order): a field's
    #: ``choices:`` list; in the Meatshields format ``attribute`` and ``priority`` (the codes of
    #: ``game.attributes`` and ``game.priorities``). The ``each:`` rule reads them.
    choices: tuple[tuple[str, tuple[Any, ...]], ...] = ()

    def art_place(self, path: Path | str) -> tuple[str, int | None, str | None]:
        """(file, line, field) where the picture ``path`` is named, as :attr:`art_places` holds
        it (``("cat.yaml", 9, "tokens[0].art")``, ``("tokens.xlsx", 5, "art (column C)")``);
        a picture it does not name: the catalogue file alone. Never raises."""
        for named, file, line, field in self.art_places:
            if named == Path(path):
                return file, line, field
        return str(self.path), None, None

    def files_read(self) -> tuple[Path, ...]:
        """Every file a build of this catalogue reads, the catalogue first, then sorted: art of faces
        and backs, image fields, the tokens' spreadsheet and the catalogue's fonts. An output may be
        none of these (:func:`tokengen.io.guard.check_output`)."""
        return (self.path, *sorted(set(self.pictures()) | set(self.inputs)))

    def pictures(self) -> list[Path]:
        """The pictures the tokens draw, sorted: art of faces and backs, and image fields' values."""
        found = {path for t in self.tokens for path in (t.style.art, t.back.art) if path is not None}
        found |= {v for t in self.tokens for _, v in t.values if isinstance(v, Path)}
        if self.back is not None and self.back.art is not None:
            found.add(self.back.art)
        return sorted(found)

    @property
    def width(self) -> float:
        """Trim width, pt (the ``size``)."""
        return self.size

    @property
    def trim_height(self) -> float:
        """Trim height, pt (``height``, else the ``size`` of a square)."""
        return self.size if self.height is None else self.height

    def expanded(self) -> list[Token]:
        """Every physical token in order, each design repeated ``copies`` times."""
        return [t for t in self.tokens for _ in range(t.copies)]

    @property
    def count(self) -> int:
        """Number of physical tokens in the set (the bag size)."""
        return sum(t.copies for t in self.tokens)
