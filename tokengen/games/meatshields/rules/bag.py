"""The bag of Meatshield tokens: variants in play, costs, draw sizes, exact draw odds, and what
happens to tokens as they are hired, traded, killed or abandoned.

Every game number (draw sizes, the Explored bonus, the solo start, the costs) is read from the
catalogue's ``game`` section; the code only knows what each rule *does*. Rules sources are
cited as "Meatshields variant v1.1.1, section …" (the published fan variant; the section names
are ours: Setup, Hiring, Optional rules, Leaving play, Combat, Effects; the wording is ours too).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from ....errors import UsageError
from ....model import Catalogue, Game
from ....sources.catalogue import suggest

#: Names of the optional rules whose *behaviour* the engine models. Their numbers (if any) and
#: their descriptions live in the catalogue's ``game.variants``; cost-only variants such as
#: ``cheap-hire`` and ``paid-trade`` need no name here.
TOWN_DRAWS = "town-draws"
SOLO_START = "solo-start"
TARGET_ALL_HITS = "target-all-hits"
EQUIPMENT_EFFECTS = "equipment-effects"


def variants_in_play(catalogue: Catalogue, add: Iterable[str] = (), remove: Iterable[str] = (),
                     base: Iterable[str] | None = None) -> tuple[str, ...]:
    """The optional rules in play: ``base`` (default: the catalogue's ``variants:`` list), plus
    ``add``, minus ``remove``.

    Returns:
        Variant names in the order the catalogue's ``game.variants`` defines them.
    Raises:
        UsageError: a name is not a variant of the game (with a "did you mean"), or a name is
            both added and removed.
    """
    known = [v.name for v in catalogue.game.variants]
    base = catalogue.variants if base is None else tuple(base)
    add, remove = tuple(add), tuple(remove)
    for name in base + add + remove:
        if name not in known:
            hint = suggest(name, known) or f" (known: {', '.join(known) or 'none'})"
            raise UsageError(f"unknown variant '{name}'{hint}")
    both = sorted(set(add) & set(remove))
    if both:
        raise UsageError(f"variant '{both[0]}' is both added and removed")
    chosen = (set(base) | set(add)) - set(remove)
    return tuple(name for name in known if name in chosen)


@dataclass(frozen=True)
class Costs:
    """Gold pieces (gp) to hire one Meatshield and to hand one to another Adventurer."""

    hire_gp: int
    trade_gp: int


def costs(game: Game, variants: Iterable[str]) -> Costs:
    """Hire and trade costs with the variants in play.

    Base costs come from ``game.costs``; each variant in play that names ``hire_gp`` or
    ``trade_gp`` replaces that cost (a later variant in ``game.variants`` order wins).
    Source: Meatshields variant v1.1.1, section Hiring (base price, trading like equipment) and
    section Optional rules (a lower price; a fee for each trade between Adventurers).
    """
    hire, trade = game.hire_gp, game.trade_gp
    chosen = set(variants)
    for variant in game.variants:
        if variant.name in chosen:
            hire = variant.hire_gp if variant.hire_gp is not None else hire
            trade = variant.trade_gp if variant.trade_gp is not None else trade
    return Costs(hire, trade)


@dataclass(frozen=True)
class Draw:
    """One occasion to draw tokens: ``place`` is ``"settlement"``, ``"town"`` or ``"solo start"``;
    ``level`` the Danger Level or Town level (None for the solo start); ``size`` tokens drawn."""

    place: str
    level: int | None
    explored: bool
    size: int

    @property
    def label(self) -> str:
        """In words: ``"Settlement Danger Level 5, Explored"``."""
        if self.level is None:
            return "solo start"
        where = "Settlement Danger Level" if self.place == "settlement" else "Town level"
        return f"{where} {self.level}" + (", Explored" if self.explored else "")


def draws(game: Game, variants: Iterable[str]) -> tuple[Draw, ...]:
    """Every draw the rules allow with the variants in play, from ``game.draws``.

    * A Settlement draws its Danger Level, plus ``explored_bonus`` when it is Explored
      (Meatshields variant v1.1.1, section Hiring: a Rest Action in a Settlement).
    * With ``town-draws``, a Town draws its level, plus the same bonus when Explored
      (section Optional rules: replaces swapping Loot draws for tokens).
    * With ``solo-start``, a one-Adventurer game begins with ``solo_start`` tokens drawn
      (section Optional rules: solo play).
    """
    d = game.draws
    chosen = set(variants)
    out = [Draw("settlement", level, explored, level + (d.explored_bonus if explored else 0))
           for level in d.settlement_danger_levels for explored in (False, True)]
    if TOWN_DRAWS in chosen:
        out += [Draw("town", level, explored, level + (d.explored_bonus if explored else 0))
                for level in d.town_levels for explored in (False, True)]
    if SOLO_START in chosen:
        out.append(Draw("solo start", None, False, d.solo_start))
    return tuple(out)


def draw_size(game: Game, place: str, level: int, explored: bool) -> int:
    """Tokens drawn in one Settlement (``place="settlement"``, ``level`` = Danger Level) or Town
    (``place="town"``, ``level`` = Town level): the level, plus ``game.draws.explored_bonus``
    when Explored.

    Raises:
        UsageError: ``level`` is not one of the catalogue's levels for that place.
    """
    d = game.draws
    levels = {"settlement": d.settlement_danger_levels, "town": d.town_levels}.get(place)
    if levels is None:
        raise UsageError(f"unknown place '{place}': use settlement or town")
    if level not in levels:
        raise UsageError(f"{place} level {level} is not one of {', '.join(map(str, levels))}")
    return level + (d.explored_bonus if explored else 0)


def largest_draw(game: Game, variants: Iterable[str]) -> Draw:
    """The draw with the most tokens (the first such in :func:`draws` order)."""
    return max(draws(game, variants), key=lambda d: d.size)


#: The readings of a draw larger than the bag (the variant is silent); the engine's default first.
#: See :class:`~tokengen.games.meatshields.rules.targeting.Interpretations` (``small_bag``).
SMALL_BAG = ("error", "take-rest")


def tokens_drawn(bag: int, size: int, small_bag: str) -> int:
    """How many tokens a draw of ``size`` takes from a bag holding ``bag``, under the
    ``small-bag`` reading: ``"take-rest"`` takes what is left (``min(size, bag)``); ``"error"``
    refuses a draw larger than the bag. ``tokengen check`` (``bag-too-small``), the draw odds
    and :meth:`BagState.can_draw` all ask this one function, so they agree.

    Raises:
        ValueError: a negative count, an unknown reading, or (``"error"``) ``size > bag``.
    """
    if bag < 0 or size < 0:
        raise ValueError(f"counts must be 0 or more: bag={bag}, draw={size}")
    if small_bag not in SMALL_BAG:
        raise ValueError(f"small-bag must be one of {', '.join(SMALL_BAG)}, got '{small_bag}'")
    if size > bag and small_bag == "error":
        raise ValueError(f"a draw of {size} cannot be made from a bag of {bag} (small-bag=error)")
    return min(size, bag)


def p_at_least_one(bag: int, hits: int, drawn: int, small_bag: str = "take-rest") -> Fraction:
    """Exact probability that ``drawn`` tokens taken blind from a bag of ``bag`` tokens, of which
    ``hits`` are of the wanted kind, include at least one of them (hypergeometric):
    ``1 - C(bag - hits, n) / C(bag, n)`` with ``n`` = :func:`tokens_drawn` (under
    ``small_bag="take-rest"`` a draw larger than the bag takes all of it).

    Raises:
        ValueError: a negative count (``hits`` below 0 would give a "probability" below 0),
            ``hits > bag``, or a draw larger than the bag under ``small_bag="error"``.
    """
    if hits < 0:
        raise ValueError(f"the number of wanted tokens must be 0 or more, got {hits}")
    if hits > bag:
        raise ValueError(f"the bag of {bag} cannot hold {hits} wanted tokens")
    n = tokens_drawn(bag, drawn, small_bag)
    if n == 0:
        return Fraction(0)
    return 1 - Fraction(comb(bag - hits, n), comb(bag, n))


def party_capacity(bag: int, largest: int) -> int:
    """How many Meatshields the party can employ while the bag still holds at least ``largest``
    tokens (hired tokens are out of the bag). Negative when even a full bag is too small."""
    return bag - largest


@dataclass(frozen=True)
class Hire:
    """One employed Meatshield: the token id and the Adventurer who employs it."""

    token: str
    employer: str


@dataclass(frozen=True)
class BagState:
    """Where every physical token is: in the bag (``bag``, token ids, one entry per copy), or
    employed (``hired``). States are values; the functions below return new states."""

    bag: tuple[str, ...]
    hired: tuple[Hire, ...] = field(default=())

    @classmethod
    def full(cls, catalogue: Catalogue) -> BagState:
        """Every token of the catalogue in the bag (each design ``copies`` times)."""
        return cls(tuple(t.id for t in catalogue.expanded()))

    def can_draw(self, size: int, small_bag: str = "error") -> bool:
        """True when a draw of ``size`` can be made: the bag holds at least ``size`` tokens, or
        (``small_bag="take-rest"``) the draw takes what is left (:func:`tokens_drawn`)."""
        try:
            tokens_drawn(len(self.bag), size, small_bag)
        except ValueError:
            return False
        return True

    def hire(self, drawn: Iterable[str], hired: dict[str, str]) -> BagState:
        """Draw ``drawn`` from the bag and employ ``hired`` (token id → employer); every drawn
        token not hired goes straight back to the bag (Meatshields variant v1.1.1, section Hiring).

        Raises:
            UsageError: a drawn token is not in the bag, or a hired token was not drawn.
        """
        drawn = list(drawn)
        left = Counter(self.bag)
        for token in drawn:
            if left[token] <= 0:
                raise UsageError(f"token '{token}' is not in the bag")
            left[token] -= 1
        offered = Counter(drawn)
        for token in hired:
            if offered[token] <= 0:
                raise UsageError(f"token '{token}' was not drawn")
        bag = list(self.bag)
        for token in hired:
            bag.remove(token)
        return BagState(tuple(bag), self.hired + tuple(Hire(t, e) for t, e in hired.items()))

    def release(self, token: str) -> BagState:
        """A Meatshield leaves play (killed, abandoned, or any other reason): its token goes back
        to the bag (Meatshields variant v1.1.1, section Leaving play).

        Raises:
            UsageError: no such Meatshield is employed.
        """
        for i, hire in enumerate(self.hired):
            if hire.token == token:
                return BagState(self.bag + (token,), self.hired[:i] + self.hired[i + 1:])
        raise UsageError(f"no employed Meatshield '{token}'")

    def employer_dies(self, adventurer: str) -> BagState:
        """An Adventurer is killed: every Meatshield they employ walks off at once and its token
        goes back to the bag (Meatshields variant v1.1.1, section Leaving play: the employer dies)."""
        leaving = tuple(h.token for h in self.hired if h.employer == adventurer)
        return BagState(self.bag + leaving, tuple(h for h in self.hired if h.employer != adventurer))

    def trade(self, token: str, to: str) -> BagState:
        """Hand an employed Meatshield to another Adventurer (what it costs: :func:`costs`).

        Raises:
            UsageError: no such Meatshield is employed.
        """
        for i, hire in enumerate(self.hired):
            if hire.token == token:
                return BagState(self.bag, self.hired[:i] + (Hire(token, to),) + self.hired[i + 1:])
        raise UsageError(f"no employed Meatshield '{token}'")
