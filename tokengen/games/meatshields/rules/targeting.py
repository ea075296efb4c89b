"""Monster targeting and one Establish Targets step.

A monster targets one attribute by its lowest score, its highest score, or both (the Mean
Streets kind, which attacks the lowest and the highest Adventurer), or it targets every
Adventurer (ALL). A deployed Meatshield token carries an attribute and a priority; a monster
whose targeting it matches attacks the token instead of an Adventurer.

Where the rules leave a choice, :class:`Interpretations` names the default and the other
option; :data:`INTERPRETATIONS` describes each in words (the ``check`` report prints them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ....errors import UsageError
from ....model import Game, Priority, Token
from ....sources.catalogue import suggest
from ..interpretations import INTERPRETATIONS as _INTERPRETATIONS
from ..model import MeatshieldToken
from .bag import EQUIPMENT_EFFECTS, TARGET_ALL_HITS

LOWEST = "lowest"
HIGHEST = "highest"
#: What each priority code of the catalogue means: the sides of the score it targets.
PRIORITY_SIDES: dict[str, frozenset[str]] = {
    "low": frozenset({LOWEST}),
    "high": frozenset({HIGHEST}),
    "both": frozenset({LOWEST, HIGHEST}),
}
#: ASCII spelling for "targets every Adventurer" (``ALL`` is accepted too, in any case).
ALL = "all"


@dataclass(frozen=True)
class Interpretations:
    """The engine's choices where the rules are silent. Each field holds one of two values; the
    first listed in :data:`INTERPRETATIONS` is the default.

    Attributes:
        one_sided: how a one-sided token (``↓X`` or ``↑X``) meets a monster that targets both
            lowest and highest X. ``"split"``: the token counts as that side's Adventurer, so it
            takes that side's attack and the other side still falls on an Adventurer.
            ``"exact"``: only a ``↓↑X`` token matches such a monster.
        ties: Adventurers sharing the lowest (or highest) score. ``"choose"``: the monster attacks
            one of them and the players pick (the result flags the tie). ``"all"``: it attacks
            each of them.
        same_target: one Adventurer who is both the lowest and the highest (a solo Adventurer, or
            equal scores) for a both-sides monster. ``"once"``: attacked once, as the rules say
            for a ``↓↑`` token. ``"twice"``: attacked once per side.
        damage: what an attack does to a Meatshield (the variant announces two ways of handling
            damage and its text lists neither). ``"dies"``: the first hit kills it and its token
            returns to the bag. ``"wounds"``: it dies at the hit that brings its wounds to the
            catalogue's ``game.damage.wounds``.
        small_bag: a draw larger than what the bag holds (the variant is silent). ``"error"``:
            such a draw cannot be made, so ``tokengen check`` calls the set unplayable.
            ``"take-rest"``: the draw takes every token left in the bag.
    """

    one_sided: str = "split"
    ties: str = "choose"
    same_target: str = "once"
    damage: str = "dies"
    small_bag: str = "error"

    def __post_init__(self) -> None:
        for name, value in self.as_dict().items():
            options = INTERPRETATIONS[name]
            if value not in options:
                raise UsageError(f"{name.replace('_', '-')} must be one of {', '.join(options)}, got '{value}'")

    def as_dict(self) -> dict[str, str]:
        """``{"one_sided": "split", "ties": "choose", "same_target": "once", "damage": "dies",
        "small_bag": "error"}`` (every interpretation, in :data:`INTERPRETATIONS` order)."""
        return {name: getattr(self, name) for name in INTERPRETATIONS}

    @classmethod
    def chosen(cls, *layers: Mapping[str, str | None] | Iterable[tuple[str, str | None]] | None) -> Interpretations:
        """The defaults, overridden by each layer in turn (a catalogue's ``interpretations:``,
        then command-line switches); a layer maps an interpretation name (``same_target`` or
        ``same-target``) to one of its options, and None entries are skipped.

        Raises:
            UsageError: an unknown name (with a "did you mean") or option.
        """
        values: dict[str, str] = {}
        for layer in layers:
            for name, value in (dict(layer) if layer else {}).items():
                key = name.replace("-", "_")
                if key not in INTERPRETATIONS:
                    known = [n.replace("_", "-") for n in INTERPRETATIONS]
                    raise UsageError(f"unknown interpretation '{name}'{suggest(name.replace('_', '-'), known) or ' (known: ' + ', '.join(known) + ')'}")
                if value is not None:
                    values[key] = value
        return cls(**values)

    def in_play(self, wounds: int | None = None) -> list[dict[str, Any]]:
        """Every interpretation with the reading in play, for reports and the rules sheet:
        ``[{"name": "damage", "switch": "--damage", "value": "dies", "meaning": "…",
        "options": ["dies", "wounds"]}, …]``. ``wounds`` (the catalogue's
        ``game.damage.wounds``) is written into the meaning of ``damage=wounds``."""
        return [{"name": name, "switch": "--" + name.replace("_", "-"), "value": getattr(self, name),
                 "meaning": meaning(name, getattr(self, name), wounds), "options": list(options)}
                for name, options in INTERPRETATIONS.items()]


def meaning(name: str, value: str, wounds: int | None = None) -> str:
    """The words for one reading (:data:`INTERPRETATIONS`), with the catalogue's wound count
    (``game.damage.wounds``) in place of ``WOUNDS``."""
    text = INTERPRETATIONS[name][value]
    return text.replace("WOUNDS", str(wounds) if wounds is not None else "the catalogue's game.damage.wounds")


#: Each interpretation's options, default first, each with its meaning in words (defined in
#: :mod:`tokengen.games.meatshields.interpretations`, which the command line reads without loading the rules engine).
INTERPRETATIONS = _INTERPRETATIONS


@dataclass(frozen=True)
class Targeting:
    """A monster's targeting: ``attribute`` code and ``priority`` (from the catalogue), or both
    None for a monster that attacks every Adventurer."""

    attribute: str | None
    priority: Priority | None

    @property
    def targets_all(self) -> bool:
        """True for a monster that attacks every Adventurer (ALL)."""
        return self.attribute is None

    @property
    def sides(self) -> frozenset[str]:
        """``{"lowest"}``, ``{"highest"}``, both, or empty for ALL."""
        return PRIORITY_SIDES[self.priority.code] if self.priority else frozenset()

    @property
    def label(self) -> str:
        """As printed on tokens: ``"↓STR"``, ``"↓↑PER"``, ``"ALL"``."""
        return f"{self.priority.glyph}{self.attribute}" if self.priority else "ALL"


@dataclass(frozen=True)
class Meatshield:
    """A deployed Meatshield: ``name`` (token id or the spec given), the attribute code and the
    priority printed on its token."""

    name: str
    attribute: str
    priority: Priority

    @property
    def sides(self) -> frozenset[str]:
        """The sides of the attribute the token stands for: ``{"lowest"}``, ``{"highest"}`` or both."""
        return PRIORITY_SIDES[self.priority.code]

    @property
    def label(self) -> str:
        """As printed on the token: ``"↓STR"``."""
        return f"{self.priority.glyph}{self.attribute}"

    @classmethod
    def of(cls, token: Token, game: Game) -> Meatshield:
        """The Meatshield a catalogue token stands for, read against the catalogue's ``game``
        (:class:`tokengen.games.meatshields.model.MeatshieldToken`).

        Raises:
            UsageError: the token has no attribute and priority of ``game``.
        """
        view = MeatshieldToken.of(token, game)
        return cls(token.id, view.attribute.code, view.priority)


@dataclass(frozen=True)
class Adventurer:
    """An Adventurer in the party: ``name`` and a score for every attribute code."""

    name: str
    scores: Mapping[str, int]


@dataclass(frozen=True)
class Monster:
    """A monster in the fight: ``name``, its ``targeting``, and whether it steals gold."""

    name: str
    targeting: Targeting
    steals_gold: bool = False


def parse_targeting(text: str, game: Game, *, allow_all: bool = True) -> Targeting:
    """Read a targeting as players write it, with the catalogue's glyphs and codes.

    Accepted: glyph + attribute (``↓STR``, ``↑MAG``, ``↓↑PER``), code ``:`` attribute
    (``low:STR``, ``high:STR``, ``both:STR``), and ``ALL``/``all`` (when ``allow_all``).
    Attribute codes are matched without regard to case.

    Raises:
        UsageError: anything else, with the accepted forms and a "did you mean".
    """
    raw = text.strip()
    if raw.lower() == ALL:
        if allow_all:
            return Targeting(None, None)
        raise UsageError("ALL is a monster's targeting; a token needs an attribute and a priority")
    priority, rest = _priority(raw, text, game)
    if priority is None:
        forms = ", ".join([f"{p.glyph}X" for p in game.priorities] + [f"{p.code}:X" for p in game.priorities]
                          + (["ALL"] if allow_all else []))
        raise UsageError(f"cannot read targeting '{text}': use {forms}")
    if priority.code not in PRIORITY_SIDES:
        raise UsageError(f"priority '{priority.code}' has no meaning the rules engine knows (it knows {', '.join(PRIORITY_SIDES)})")
    return Targeting(_attribute(rest, text, game), priority)


def _priority(raw: str, text: str, game: Game) -> tuple[Priority | None, str]:
    """The priority of the targeting ``raw`` (``text`` as given, for messages) and the rest of
    it: by code before a colon (``low:STR``), else by the longest glyph it starts with (``↓↑``
    before ``↓``); None when neither. Raises UsageError for an unknown code."""
    if ":" in raw:
        by_code = {p.code: p for p in game.priorities}
        code, rest = (part.strip() for part in raw.split(":", 1))
        priority = by_code.get(code.lower())
        if priority is None:
            hint = suggest(code, list(by_code)) or f" (known: {', '.join(by_code)})"
            raise UsageError(f"unknown priority '{code}' in '{text}'{hint}")
        return priority, rest
    for p in sorted(game.priorities, key=lambda p: -len(p.glyph)):
        if raw.startswith(p.glyph):
            return p, raw[len(p.glyph):].strip()
    return None, raw


def _attribute(rest: str, text: str, game: Game) -> str:
    """The catalogue's code of the attribute ``rest`` names, matched without regard to case.
    Raises UsageError with a "did you mean" for an unknown one."""
    codes = {a.code.upper(): a.code for a in game.attributes}
    attribute = codes.get(rest.upper())
    if attribute is None:
        hint = suggest(rest, list(codes.values())) or f" (known: {', '.join(codes.values())})"
        raise UsageError(f"unknown attribute '{rest}' in '{text}'{hint}")
    return attribute


def absorbed_sides(token: Meatshield, targeting: Targeting, interpretations: Interpretations) -> frozenset[str]:
    """The sides of ``targeting`` that a deployed ``token`` takes in place of an Adventurer.

    * Same attribute, and the token's priority shares a side with the monster's: those sides
      (Meatshields variant v1.1.1, section Combat: Establish Targets).
    * A ``↓↑X`` token counts as both the lowest and the highest X, so it takes ``↓X``, ``↑X``
      and ``↓↑X`` monsters (same section, on the ↓↑ priority borrowed from Mean Streets).
    * A one-sided token against a both-sides monster: see :attr:`Interpretations.one_sided`.
    * An ALL monster is never drawn away from the Adventurers: empty.
    """
    if targeting.targets_all or token.attribute != targeting.attribute:
        return frozenset()
    if len(targeting.sides) > 1 and len(token.sides) == 1 and interpretations.one_sided == "exact":
        return frozenset()
    return token.sides & targeting.sides


@dataclass(frozen=True)
class Attack:
    """Attacks on one target. ``candidates`` holds one name when the target is settled, several
    when the players must choose among tied Adventurers; ``times`` is how many attacks;
    ``meatshield`` marks the deployed token; ``side`` is ``"lowest"``, ``"highest"``,
    ``"lowest+highest"`` or ``"all"``."""

    candidates: tuple[str, ...]
    times: int
    side: str
    meatshield: bool = False

    @property
    def tie(self) -> bool:
        """True when the players must pick the target among tied Adventurers."""
        return len(self.candidates) > 1


@dataclass(frozen=True)
class Resolution:
    """Who one monster attacks this round, and notes for the players (gold, effects, …)."""

    monster: Monster
    attacks: tuple[Attack, ...]
    notes: tuple[str, ...] = field(default=())

    @property
    def tie(self) -> bool:
        """True when any of the monster's attacks needs the players to settle a tie."""
        return any(a.tie for a in self.attacks)


def resolve_targets(party: tuple[Adventurer, ...] | list[Adventurer], monsters: tuple[Monster, ...] | list[Monster],
                    deployed: Meatshield | None = None, *, variants: tuple[str, ...] | frozenset[str] = (),
                    interpretations: Interpretations = Interpretations()) -> tuple[Resolution, ...]:
    """Resolve one Establish Targets step: for each monster, who it attacks and how many times.

    Rules (Meatshields variant v1.1.1, section Combat; the ALL variant from section Optional rules):
      * A monster whose targeting matches the deployed token attacks the token instead of the
        Adventurer (:func:`absorbed_sides`); a token that matches both sides of a both-sides
        monster is attacked only once.
      * Sides the token does not take go to the Adventurer with the lowest / highest score;
        ties follow :attr:`Interpretations.ties`, one Adventurer on both sides follows
        :attr:`Interpretations.same_target`.
      * ALL monsters attack every Adventurer once and leave the token alone; with the
        ``target-all-hits`` variant they also attack the token, and if that kills it the monsters
        assigned to it stay without a target until the next Establish Targets step.
      * Attacks on the token hit automatically, the token does no damage back, and they are
        resolved after every Adventurer has had a turn (a note says so).
      * Meatshields carry no gold: a gold-stealing monster that attacks one takes nothing.

    Args:
        party: the Adventurers, each with a score per attribute code the monsters target.
        monsters: the monsters, in the order to report them.
        deployed: the deployed token, or None.
        variants: names of the optional rules in play.
    Returns:
        One :class:`Resolution` per monster, in order.
    Raises:
        UsageError: a monster targets an attribute some Adventurer has no score for.
    """
    return tuple(_resolve(monster, party, deployed, variants, interpretations) for monster in monsters)


def _resolve(monster: Monster, party: tuple[Adventurer, ...] | list[Adventurer], deployed: Meatshield | None,
             variants: tuple[str, ...] | frozenset[str], interpretations: Interpretations) -> Resolution:
    """One monster's part of :func:`resolve_targets`: its attacks and the notes on them."""
    t = monster.targeting
    if t.targets_all:
        attacks = [Attack((a.name,), 1, "all") for a in party]
        notes = []
        if deployed is not None and TARGET_ALL_HITS in variants:
            attacks.append(Attack((deployed.name,), 1, "all", meatshield=True))
            notes.append("if this kills the Meatshield, the monsters it drew stay without a target until the next Establish Targets")
        return Resolution(monster, tuple(attacks), tuple(_attack_notes(monster, attacks, notes)))
    for a in party:
        if t.attribute not in a.scores:
            raise UsageError(f"Adventurer '{a.name}' has no {t.attribute} score (monster '{monster.name}' targets {t.label})")
    taken = absorbed_sides(deployed, t, interpretations) if deployed is not None else frozenset()
    attacks = []
    if deployed is not None and taken:
        attacks.append(Attack((deployed.name,), 1, "+".join(s for s in (LOWEST, HIGHEST) if s in taken), meatshield=True))
    attacks += _adventurer_attacks(party, t, t.sides - taken, interpretations)
    return Resolution(monster, tuple(attacks), tuple(_attack_notes(monster, attacks, [])))


def _attack_notes(monster: Monster, attacks: list[Attack], notes: list[str]) -> list[str]:
    """``notes`` with what the players should know of ``monster``'s attacks: a Meatshield is hit
    automatically, after every Adventurer's turn, and carries no gold; no attack at all."""
    if any(a.meatshield for a in attacks):
        notes.insert(0, "hits the Meatshield automatically and takes no damage back; resolve it after every Adventurer's turn")
        if monster.steals_gold:
            notes.append("steals nothing from the Meatshield: Meatshields carry no gold")
    if not attacks:
        notes.append("has no one to attack")
    return notes


def _adventurer_attacks(party: tuple[Adventurer, ...] | list[Adventurer], t: Targeting, sides: frozenset[str],
                        interpretations: Interpretations) -> list[Attack]:
    """The attacks of a monster targeting ``t`` on the Adventurers for the ``sides`` the
    deployed token left them: the lowest and highest scorers, ties and one Adventurer on both
    sides settled by ``interpretations``."""
    if not party or not sides:
        return []
    picks = _picks(party, t, sides)
    if interpretations.ties == "choose":
        settled = [(side, names) for side, names in picks if len(names) == 1]
        chosen = _chosen([(side, names) for side, names in picks if len(names) > 1], interpretations)
    else:
        settled = [(side, (name,)) for side, names in picks for name in names]
        chosen = []
    return _merged(settled, interpretations) + chosen


def _picks(party: tuple[Adventurer, ...] | list[Adventurer], t: Targeting, sides: frozenset[str]
           ) -> list[tuple[str, tuple[str, ...]]]:
    """For each side in ``sides`` (lowest first), the names of the Adventurers with that score."""
    scores = [a.scores[t.attribute] for a in party]  # type: ignore[index]  # a targeting that attacks has an attribute
    picks: list[tuple[str, tuple[str, ...]]] = []
    for side in (LOWEST, HIGHEST):
        if side in sides:
            best = min(scores) if side == LOWEST else max(scores)
            picks.append((side, tuple(a.name for a, s in zip(party, scores) if s == best)))
    return picks


def _chosen(tied: list[tuple[str, tuple[str, ...]]], interpretations: Interpretations) -> list[Attack]:
    """The attacks whose target the players choose among ``tied`` Adventurers (``ties=choose``)."""
    if len(tied) == 2 and tied[0][1] == tied[1][1] and interpretations.same_target == "once":
        # every Adventurer is tied, so each is both the lowest and the highest: under
        # same-target=once the players choose one of them, attacked once (two free choices
        # would let them pick the same Adventurer for both sides, attacked twice)
        return [Attack(tied[0][1], 1, f"{LOWEST}+{HIGHEST}")]
    return [Attack(names, 1, side) for side, names in tied]


def _merged(settled: Sequence[tuple[str, tuple[str, ...]]], interpretations: Interpretations) -> list[Attack]:
    """The attacks on settled targets, those on one Adventurer (lowest and highest at once)
    merged: attacked once, or once per side under ``same_target=twice``."""
    merged: dict[str, list[str]] = {}
    for side, (name,) in settled:
        merged.setdefault(name, []).append(side)
    return [Attack((name, ), len(s) if interpretations.same_target == "twice" else 1, "+".join(s))
            for name, s in merged.items()]


def meatshield_affected(effect: str, variants: tuple[str, ...] | frozenset[str] = ()) -> bool:
    """Whether a game effect touches a Meatshield.

    ``effect`` is ``"attack"`` (monsters hit them automatically: yes), ``"gold"`` (they have
    none: no), ``"equipment"`` (effects aimed at an Adventurer's equipment: only with the
    ``equipment-effects`` variant, a table agreement that defaults to no), or ``"game"`` (any
    other game effect, e.g. monster entry effects: no). Source: Meatshields variant v1.1.1,
    section Effects.

    Raises:
        UsageError: an unknown effect kind.
    """
    kinds = {"attack": True, "gold": False, "equipment": EQUIPMENT_EFFECTS in variants, "game": False}
    if effect not in kinds:
        raise UsageError(f"unknown effect kind '{effect}': use {', '.join(kinds)}")
    return kinds[effect]


def may_deploy(deployed: Meatshield | None) -> bool:
    """At the very start of a combat round the party may deploy one Meatshield, and only when
    none is deployed: one token takes part at a time (Meatshields variant v1.1.1, section Combat)."""
    return deployed is None
