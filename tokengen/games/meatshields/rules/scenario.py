"""One fight as input for ``tokengen target``: the party, the monsters, the deployed token and
the variants, read from a small YAML scenario file and/or command-line specs.

Scenario file (every key optional; command-line specs are added to it)::

    adventurers:
      - name: Ann
        scores: {AGI: 3, CON: 4, MAG: 2, MRL: 5, PER: 3, STR: 6}
    monsters:
      - {name: Rat King, targeting: "↓STR"}
      - {name: Cutpurse, targeting: "low:AGI", steals_gold: true}
    deployed: str-low          # a token id of the catalogue, or a spec such as ↓STR
    variants: [target-all-hits] # replaces the catalogue's variants: list
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....errors import CatalogueError, UsageError
from ....model import Catalogue, Game
from ....sources import schemas
from ....sources.catalogue import line_at, load_catalogue, suggest
from ....sources.yamlsrc import dotted, read_yaml
from .bag import variants_in_play
from .targeting import Adventurer, Interpretations, Meatshield, Monster, Resolution, parse_targeting, resolve_targets


@dataclass(frozen=True)
class Scenario:
    """A fight: the party, the monsters, the deployed token (or None), the variants in play."""

    party: tuple[Adventurer, ...]
    monsters: tuple[Monster, ...]
    deployed: Meatshield | None
    variants: tuple[str, ...]


def parse_scores(text: str, game: Game) -> dict[str, int]:
    """``"STR=9,AGI=8,…"`` → ``{"STR": 9, "AGI": 8, …}``; every attribute of the game is required.

    Raises:
        UsageError: a malformed pair, an unknown or repeated attribute, a missing one.
    """
    codes = {a.code.upper(): a.code for a in game.attributes}
    scores: dict[str, int] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = pair.partition("=")
        code = codes.get(key.strip().upper())
        if not sep or code is None:
            hint = suggest(key.strip(), list(codes.values())) if sep else ""
            raise UsageError(f"cannot read score '{pair}'{hint}: use ATTRIBUTE=NUMBER with one of {', '.join(codes.values())}")
        if code in scores:
            raise UsageError(f"score {code} given twice")
        try:
            scores[code] = int(value.strip())
        except ValueError:
            raise UsageError(f"score {code} must be a whole number, got '{value.strip()}'") from None
    return _complete(scores, game)


def _complete(scores: dict[str, int], game: Game) -> dict[str, int]:
    missing = [a.code for a in game.attributes if a.code not in scores]
    if missing:
        raise UsageError(f"missing score{'s' if len(missing) > 1 else ''} {', '.join(missing)} (every Adventurer has all {len(game.attributes)})")
    return {a.code: scores[a.code] for a in game.attributes}


def parse_adventurer(text: str, game: Game) -> Adventurer:
    """``"Ann:STR=9,AGI=8,CON=5,MAG=2,MRL=4,PER=3"`` → :class:`Adventurer`.

    Raises:
        UsageError: no ``NAME:`` part, or bad scores (see :func:`parse_scores`).
    """
    name, sep, scores = text.partition(":")
    if not sep or not name.strip():
        raise UsageError(f"cannot read Adventurer '{text}': use NAME:STR=9,AGI=8,...")
    try:
        return Adventurer(name.strip(), parse_scores(scores, game))
    except UsageError as exc:
        raise UsageError(f"Adventurer '{name.strip()}': {exc}") from None


def parse_monster(text: str, game: Game, number: int) -> Monster:
    """``"↓STR"`` or ``"Rat King=↓STR"`` → :class:`Monster` (unnamed ones are called
    ``monster N`` after ``number``). See :func:`~tokengen.games.meatshields.rules.targeting.parse_targeting`.

    Raises:
        UsageError: an unreadable targeting.
    """
    name, sep, spec = text.rpartition("=")
    return Monster(name.strip() if sep and name.strip() else f"monster {number}", parse_targeting(spec, game))


def parse_deployed(text: str, catalogue: Catalogue) -> Meatshield:
    """A token id of the catalogue (``str-low``) or a token spec (``↓STR``, ``low:STR``).

    Raises:
        UsageError: neither an id nor a readable spec.
    """
    for token in catalogue.tokens:
        if token.id == text.strip():
            return Meatshield.of(token, catalogue.game)
    try:
        t = parse_targeting(text, catalogue.game, allow_all=False)
    except UsageError as exc:
        hint = suggest(text.strip(), [tk.id for tk in catalogue.tokens])
        raise UsageError(f"deployed token '{text}' is not a token id{hint} nor a spec ({exc})") from None
    assert t.attribute is not None and t.priority is not None
    return Meatshield(t.label, t.attribute, t.priority)


def load_scenario(path: str | Path, catalogue: Catalogue) -> Scenario:
    """Read a scenario file (format in the module docstring; schema
    ``tokengen/data/scenario.schema.json``, checked through :mod:`tokengen.sources.schemas`).

    Raises:
        CatalogueError: unreadable YAML or a bad entry (a wrong type such as
            ``steals_gold: "false"``, an unknown key, an unknown attribute), with file, line and field.
    """
    path = Path(path)
    data, lines = read_yaml(path, ("scenario",))
    schemas.check(path, data, lines, "scenario")  # shapes and strict types (data/scenario.schema.json)

    def fail(where: tuple[Any, ...], message: str) -> CatalogueError:
        return CatalogueError(path, message, line=line_at(lines, where), field=dotted(where))

    # the schema has checked every shape and type; what is left is checked against the catalogue
    game = catalogue.game
    party = tuple(_adventurer(item, ("adventurers", i), game, fail) for i, item in enumerate(data.get("adventurers") or []))
    monsters = tuple(_monster(item, i, game, fail) for i, item in enumerate(data.get("monsters") or []))
    deployed = None
    if data.get("deployed") is not None:
        try:
            deployed = parse_deployed(data["deployed"], catalogue)
        except UsageError as exc:
            raise fail(("deployed",), str(exc)) from None
    variants = catalogue.variants
    if "variants" in data:
        try:
            variants = variants_in_play(catalogue, base=data["variants"] or [])
        except UsageError as exc:
            raise fail(("variants",), str(exc)) from None
    return Scenario(party, monsters, deployed, variants)


def _adventurer(item: dict[str, Any], where: tuple[Any, ...], game: Game, fail: Any) -> Adventurer:
    codes = {a.code.upper(): a.code for a in game.attributes}
    scores: dict[str, int] = {}
    for key, value in item["scores"].items():
        code = codes.get(str(key).upper())
        if code is None:
            raise fail(where + ("scores", key), f"unknown attribute{suggest(str(key), list(codes.values()))}")
        scores[code] = value
    try:
        return Adventurer(item["name"], _complete(scores, game))
    except UsageError as exc:
        raise fail(where + ("scores",), str(exc)) from None


def _monster(item: str | dict[str, Any], index: int, game: Game, fail: Any) -> Monster:
    if isinstance(item, str):
        item = {"targeting": item}
    try:
        targeting = parse_targeting(item["targeting"], game)
    except UsageError as exc:
        raise fail(("monsters", index, "targeting"), str(exc)) from None
    return Monster(item.get("name") or f"monster {index + 1}", targeting, item.get("steals_gold", False))


def build_scenario(catalogue: Catalogue, scenario: str | Path | None = None, adventurers: Iterable[str] = (),
                   monsters: Iterable[str] = (), deployed: str | None = None, add: Iterable[str] = (),
                   remove: Iterable[str] = ()) -> Scenario:
    """A scenario from an optional file plus command-line specs: Adventurers and monsters are
    appended, ``deployed`` replaces the file's (``"none"``: no token deployed), ``add``/``remove``
    adjust its variants.

    Raises:
        CatalogueError: a bad scenario file. UsageError: a bad spec, no Adventurer, no monster.
    """
    base = load_scenario(scenario, catalogue) if scenario else Scenario((), (), None, catalogue.variants)
    game = catalogue.game
    party = base.party + tuple(parse_adventurer(a, game) for a in adventurers)
    fights = base.monsters + tuple(parse_monster(m, game, len(base.monsters) + i + 1) for i, m in enumerate(monsters))
    names = [a.name for a in party]
    for name in names:
        if names.count(name) > 1:
            raise UsageError(f"two Adventurers are called '{name}'")
    if not party:
        raise UsageError("no Adventurers: give a scenario file or --adventurer NAME:STR=9,AGI=8,...")
    if not fights:
        raise UsageError("no monsters: give a scenario file or --monster ↓STR")
    token = base.deployed
    if deployed is not None:
        token = None if deployed.strip().lower() == "none" else parse_deployed(deployed, catalogue)
    return Scenario(party, fights, token, variants_in_play(catalogue, add, remove, base=base.variants))


@dataclass(frozen=True)
class Damage:
    """What this round's attacks do to the deployed Meatshield under the ``damage``
    interpretation, counting from an unhurt Meatshield: ``hits`` (every attack on it hits),
    ``wounds`` (the catalogue's ``game.damage.wounds``, used by ``damage=wounds``), ``killed``
    (its token then goes back to the bag: Meatshields variant v1.1.1, section Leaving play)."""

    reading: str
    hits: int
    wounds: int | None
    killed: bool

    @classmethod
    def of(cls, resolutions: tuple[Resolution, ...], reading: str, wounds: int | None) -> Damage:
        """Count the hits on the Meatshield in ``resolutions`` and apply ``reading``.

        Raises:
            UsageError: ``damage=wounds`` with no wound count in the catalogue.
        """
        hits = sum(a.times for r in resolutions for a in r.attacks if a.meatshield)
        if reading == "dies":
            return cls(reading, hits, None, hits >= 1)
        if wounds is None:
            raise UsageError("damage=wounds needs the catalogue's game.damage.wounds")
        return cls(reading, hits, wounds, hits >= wounds)

    def describe(self) -> str:
        """In words: ``"2 hits: it dies (damage=dies: the first hit kills); its token goes back to the bag"``."""
        head = f"{self.hits} hit{'' if self.hits == 1 else 's'}"
        rule = "damage=dies: the first hit kills" if self.reading == "dies" else f"damage=wounds: the hit that makes {self.wounds} wounds kills"
        if self.killed:
            return f"{head}: it dies ({rule}); its token goes back to the bag"
        if self.hits == 0:
            return f"no hits: it is unhurt ({rule})"
        return f"{head}: it lives with {self.hits} of {self.wounds} wounds ({rule})"


@dataclass(frozen=True)
class TargetResult:
    """The outcome of ``tokengen target``: the scenario, the interpretations, one
    :class:`~tokengen.games.meatshields.rules.targeting.Resolution` per monster, and what the attacks do to the
    deployed Meatshield (:class:`Damage`; None when no token is deployed)."""

    scenario: Scenario
    interpretations: Interpretations
    resolutions: tuple[Resolution, ...]
    damage: Damage | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, stable keys: deployed, variants, interpretations, monsters (each with
        name, targeting, attacks [{targets, times, side, meatshield, tie}], notes),
        meatshield_damage ({reading, hits, wounds, killed}, or None with no token deployed)."""
        d = self.scenario.deployed
        return {
            "deployed": {"name": d.name, "token": d.label} if d else None,
            "variants": list(self.scenario.variants),
            "interpretations": self.interpretations.as_dict(),
            "monsters": [{"name": r.monster.name, "targeting": r.monster.targeting.label,
                          "attacks": [{"targets": list(a.candidates), "times": a.times, "side": a.side,
                                       "meatshield": a.meatshield, "tie": a.tie} for a in r.attacks],
                          "notes": list(r.notes)} for r in self.resolutions],
            "meatshield_damage": None if self.damage is None else {
                "reading": self.damage.reading, "hits": self.damage.hits, "wounds": self.damage.wounds, "killed": self.damage.killed},
        }

    def format(self) -> str:
        """One line per monster: ``Rat King (↓STR): attacks Meatshield str-low ×1``; a tie reads
        ``one of Ann, Bob (TIE on lowest: players choose)``; notes follow, indented."""
        d = self.scenario.deployed
        out = [f"deployed Meatshield: {f'{d.name} ({d.label})' if d else 'none'}",
               f"variants in play: {', '.join(self.scenario.variants) or 'none'}",
               "interpretations: " + ", ".join(f"{k.replace('_', '-')}={v}" for k, v in self.interpretations.as_dict().items())]
        for r in self.resolutions:
            parts = []
            for a in r.attacks:
                side = "" if a.side == "all" else f" as {a.side.replace('+', ' and ')} {r.monster.targeting.attribute}"
                who = f"one of {', '.join(a.candidates)} ×{a.times}{side} (TIE: players choose)" if a.tie else f"{a.candidates[0]} ×{a.times}{side}"
                parts.append(("Meatshield " if a.meatshield else "") + who)
            out.append(f"{r.monster.name} ({r.monster.targeting.label}): " + ("attacks " + "; ".join(parts) if parts else "attacks no one"))
            out += [f"  note: {n}" for n in r.notes]
        if self.damage is not None and d is not None:
            out.append(f"Meatshield {d.name}: {self.damage.describe()}")
        return "\n".join(out) + "\n"


def target(catalogue: str | Path, scenario: str | Path | None = None, *, adventurers: Iterable[str] = (),
           monsters: Iterable[str] = (), deployed: str | None = None, add: Iterable[str] = (), remove: Iterable[str] = (),
           interpretations: Interpretations | Mapping[str, str | None] | None = None) -> TargetResult:
    """Load the catalogue, build the scenario (:func:`build_scenario`) and resolve its Establish
    Targets step (:func:`~tokengen.games.meatshields.rules.targeting.resolve_targets`), then what the attacks do
    to the deployed Meatshield (:class:`Damage`).

    Args:
        interpretations: an :class:`Interpretations` to use as is, or switches (name → reading,
            None for "not given") laid over the catalogue's ``interpretations:``.
    Raises:
        CatalogueError: a bad catalogue or scenario file. UsageError: a bad spec, or a catalogue
            with declared fields (it has no attributes or targeting to resolve).
    """
    if scenario is not None and not Path(scenario).exists():  # the file the user named, before the default catalogue
        raise CatalogueError(Path(scenario), "file not found")
    cat = load_catalogue(catalogue)
    if cat.fields:
        raise UsageError(f"{catalogue}: target resolves Meatshields fights, and this catalogue declares its own fields "
                         f"(game '{cat.module}'): it has no attributes, priorities or targeting")
    if not isinstance(interpretations, Interpretations):
        interpretations = Interpretations.chosen(cat.interpretations, interpretations)
    fight = build_scenario(cat, scenario, adventurers, monsters, deployed, add, remove)
    resolutions = resolve_targets(fight.party, fight.monsters, fight.deployed,
                                  variants=fight.variants, interpretations=interpretations)
    damage = Damage.of(resolutions, interpretations.damage, cat.game.wounds) if fight.deployed is not None else None
    return TargetResult(fight, interpretations, resolutions, damage)
