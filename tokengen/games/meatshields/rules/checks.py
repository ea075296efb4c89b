"""Playability checks: can this token set be played under the Meatshield rules?

Two stages. :func:`inspect_source` reads the file and reports every input problem it can
(schema, unknown attribute or priority, duplicate ids) as findings, then builds the
:class:`~tokengen.model.Catalogue`. The game checks are small callables sharing one signature,
``(catalogue, settings) -> list[Finding]``, listed in :data:`CHECKS` and run in order by
:func:`run_checks`. :func:`check_catalogue` does both and returns a :class:`Report`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from dataclasses import field as _field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ....errors import CatalogueError, LayoutError
from ....geometry.pager import fits
from ....geometry.sizing import sheet_spec
from ....model import Catalogue
from ....sources import bundled
from ....sources.catalogue import catalogue_from_data, line_at, suggest, validate_schema
from ....sources.yamlsrc import Lines, dotted, read_yaml
from ....units import counted, format_length
from ...contract import ERROR, INFO, WARNING, Finding, finding_from_error
from ...contract import Report as _Report
from ...contract import Settings as _Settings
from ...contract import reading_lines as _reading_lines
from ...declared import check_odds, check_rules
from .bag import costs, largest_draw, p_at_least_one, party_capacity, tokens_drawn, variants_in_play
from .targeting import PRIORITY_SIDES, Interpretations, Meatshield, Targeting, absorbed_sides


@dataclass(frozen=True)
class Settings(_Settings):
    """How to check a Meatshields catalogue: the sheet (:class:`tokengen.games.contract.Settings`:
    page, margin, token size) and the Meatshield rules in play: the variants (already resolved,
    see :func:`~tokengen.games.meatshields.rules.bag.variants_in_play`; None means the
    catalogue's own list) and the interpretations (None means the catalogue's
    ``interpretations:``, defaults for the rest)."""

    variants: tuple[str, ...] | None = None
    interpretations: Interpretations | None = None

    def in_play(self, catalogue: Catalogue) -> tuple[str, ...]:
        """The variants to check with: the settings' list, else the catalogue's ``variants:``."""
        return catalogue.variants if self.variants is None else self.variants

    def readings(self, catalogue: Catalogue) -> Interpretations:
        """The interpretations to check with: the settings' own, else the catalogue's."""
        return Interpretations.chosen(catalogue.interpretations) if self.interpretations is None else self.interpretations


#: A Meatshields check: ``(catalogue, settings) -> list[Finding]`` with this module's
#: :class:`Settings` (the contract's :data:`~tokengen.games.contract.Check` takes any).
Check = Callable[[Catalogue, Settings], list[Finding]]



# --- stage 1: the file -------------------------------------------------------------------------

def inspect_source(path: str | Path) -> tuple[Catalogue | None, list[Finding]]:
    """Read a catalogue and report every input problem found, instead of stopping at the first.

    Returns:
        (catalogue, findings): the catalogue is None when any error finding was made. Codes:
        ``schema`` (one per schema problem), ``duplicate-id``, ``duplicate-code``,
        ``unknown-attribute``, ``unknown-priority``, ``priority-meaning`` (a priority code the
        engine cannot interpret) and ``catalogue`` (any other problem the loader reports).
    Raises:
        CatalogueError: the file cannot be read as YAML at all (missing, not text, syntax).
    """
    path = Path(path)
    bundled.require(path)  # a missing file: say both ways to get a catalogue
    data, lines = read_yaml(path, ("catalogue", "catalogue-fields"))
    findings = [finding_from_error(e, "schema") for e in validate_schema(path, data, lines)]
    if findings:
        return None, findings

    def at(where: tuple[Any, ...], code: str, message: str) -> Finding:
        return Finding(ERROR, code, message, line_at(lines, where), dotted(where))

    findings = _duplicate_codes(data["game"], at) + _priority_meanings(data["game"], at) + _token_findings(data, lines, at)
    if findings:
        return None, findings
    try:
        return catalogue_from_data(path, data, lines), []
    except CatalogueError as exc:
        return None, [finding_from_error(exc, "catalogue", path)]


#: Makes an error finding at a place in the file (a path of keys and indexes), with its code and message.
_At = Callable[[tuple[Any, ...], str, str], Finding]


def _duplicate_codes(game: dict[str, Any], at: _At) -> list[Finding]:
    """``duplicate-code``: an attribute or priority code given twice in ``game`` (as read)."""
    findings = []
    for kind in ("attributes", "priorities"):
        seen: dict[str, int] = {}
        for i, item in enumerate(game[kind]):
            if item["code"] in seen:
                findings.append(at(("game", kind, i, "code"), "duplicate-code", f"duplicate code '{item['code']}' (also game.{kind}[{seen[item['code']]}])"))
            seen.setdefault(item["code"], i)
    return findings


def _priority_meanings(game: dict[str, Any], at: _At) -> list[Finding]:
    """``priority-meaning``: a priority code the rules engine cannot interpret."""
    return [at(("game", "priorities", i, "code"), "priority-meaning",
               f"the rules engine does not know priority '{p['code']}' (it knows {', '.join(PRIORITY_SIDES)})")
            for i, p in enumerate(game["priorities"]) if p["code"] not in PRIORITY_SIDES]


def _token_findings(data: dict[str, Any], lines: Lines, at: _At) -> list[Finding]:
    """``duplicate-id``, ``unknown-attribute`` and ``unknown-priority`` of each token, in order."""
    game = data["game"]
    attributes = [a["code"] for a in game["attributes"]]
    priorities = {p["code"]: p for p in game["priorities"]} | {p["glyph"]: p for p in game["priorities"]}
    codes = [p["code"] for p in game["priorities"]]
    findings = []
    first: dict[str, int | None] = {}
    for i, t in enumerate(data["tokens"]):
        where = ("tokens", i)
        if t["id"] in first:
            findings.append(at(where + ("id",), "duplicate-id", f"duplicate id '{t['id']}' (first at line {first[t['id']]})"))
        first.setdefault(t["id"], line_at(lines, where))
        if t["attribute"] not in attributes:
            hint = suggest(t["attribute"], attributes) or f" (known: {', '.join(attributes)})"
            findings.append(at(where + ("attribute",), "unknown-attribute", f"attribute '{t['attribute']}' is not in game.attributes{hint}"))
        if t["priority"] not in priorities:
            hint = suggest(t["priority"], codes) or f" (known: {', '.join(codes)})"
            findings.append(at(where + ("priority",), "unknown-priority", f"priority '{t['priority']}' is not in game.priorities{hint}"))
    return findings


# --- stage 2: the game checks ------------------------------------------------------------------

def check_backs(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Error ``back-differs`` for each token whose back is not the catalogue's shared back:
    tokens are drawn blind from the bag, so a different back gives the token away
    (Meatshields variant v1.1.1, section Setup)."""
    common = catalogue.back if catalogue.back is not None else catalogue.tokens[0].back
    return [Finding(ERROR, "back-differs", f"token '{t.id}' has a back unlike the others; tokens are drawn blind, so every back must match",
                    t.line, f"tokens[{i}].back", {"token": t.id})
            for i, t in enumerate(catalogue.tokens) if t.back != common]


def check_bag_size(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """``bag-too-small`` when the bag holds fewer tokens than the largest draw the rules allow
    with the variants in play (see :func:`~tokengen.games.meatshields.rules.bag.draws`). The variant is silent on
    such a draw; the ``small-bag`` interpretation decides (:func:`~tokengen.games.meatshields.rules.bag.tokens_drawn`,
    which the draw odds use too): ``error`` makes it an error (not playable), ``take-rest`` a
    warning (the draw takes the whole bag)."""
    largest = largest_draw(catalogue.game, settings.in_play(catalogue))
    reading = settings.readings(catalogue).small_bag
    try:
        tokens_drawn(catalogue.count, largest.size, reading)
    except ValueError:
        pass
    else:
        if catalogue.count >= largest.size:
            return []
        return [Finding(WARNING, "bag-too-small",
                        f"the bag holds {counted(catalogue.count, 'token')} but the largest draw ({largest.label}) takes {largest.size}; "
                        f"with small-bag=take-rest that draw takes all {catalogue.count}",
                        data={"bag": catalogue.count, "largest_draw": largest.size, "draw": largest.label, "small_bag": reading})]
    return [Finding(ERROR, "bag-too-small",
                    f"the bag holds {counted(catalogue.count, 'token')} but the largest draw ({largest.label}) takes {largest.size}",
                    data={"bag": catalogue.count, "largest_draw": largest.size, "draw": largest.label, "small_bag": reading})]


def check_printable(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Error ``not-printable`` when one token of the catalogue's size does not fit the page
    (letter with a 0.25in margin unless the settings say otherwise); else info ``sheet``: how
    many fit, the count ``build`` lays out (:func:`tokengen.geometry.pager.fits`)."""
    size = settings.token_size(catalogue)
    try:
        fit = fits([max(catalogue.count, 1)], [sheet_spec(settings.page, size, margin=settings.margin, group=catalogue.columns,
                                                          furniture="full")])[0]
    except LayoutError as exc:
        return [Finding(ERROR, "not-printable", str(exc), field="size")]
    return [Finding(INFO, "sheet", f"{counted(fit.per_page, 'token')} of {format_length(size)} {'fits' if fit.per_page == 1 else 'fit'} on one "
                    f"{format_length(settings.page[0])} × {format_length(settings.page[1])} page "
                    f"({counted(fit.columns, 'column')} × {counted(fit.rows, 'row')})",
                    data={"per_page": fit.per_page, "columns": fit.columns, "rows": fit.rows})]


def check_legible(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Warning ``small-text`` for each face text that prints below 5 pt at the token size
    (:func:`tokengen.faces.scale.legible`): readable across a table needs more."""
    from ....faces.scale import legible

    return [Finding(WARNING, "small-text", str(small), line=small.line, field="size",
                    data={"token": small.token, "part": small.part, "pt": round(small.pt, 2)})
            for small in legible(catalogue, settings.token_size(catalogue))]


def targetings(catalogue: Catalogue) -> list[Targeting]:
    """Every single-attribute targeting the game knows: each attribute × each priority, in
    catalogue order (ALL is left out: no token ever draws it away from the Adventurers)."""
    return [Targeting(a.code, p) for a in catalogue.game.attributes for p in catalogue.game.priorities]


def absorbers(catalogue: Catalogue, targeting: Targeting, interpretations: Interpretations) -> int:
    """How many physical tokens in the full bag take at least one side of ``targeting``."""
    return sum(t.copies for t in catalogue.tokens if absorbed_sides(Meatshield.of(t, catalogue.game), targeting, interpretations))


def check_coverage(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Warning ``targeting-unabsorbed`` for each targeting (attribute × lowest/highest/both) that
    no token in the set takes, under the interpretations in use."""
    return [Finding(WARNING, "targeting-unabsorbed", f"no token absorbs a monster targeting {t.label}", data={"targeting": t.label})
            for t in targetings(catalogue) if absorbers(catalogue, t, settings.readings(catalogue)) == 0]


def check_capacity(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Info ``party-capacity``: how many Meatshields the party can employ before the bag holds
    fewer tokens than the largest draw (employed tokens are out of the bag)."""
    largest = largest_draw(catalogue.game, settings.in_play(catalogue))
    room = party_capacity(catalogue.count, largest.size)
    if room < 0:
        return []  # check_bag_size reports it
    return [Finding(INFO, "party-capacity",
                    f"the party can employ {counted(room, 'Meatshield')} before the bag ({counted(catalogue.count, 'token')}) "
                    f"holds fewer than the largest draw ({largest.size}: {largest.label})",
                    data={"capacity": room, "bag": catalogue.count, "largest_draw": largest.size, "draw": largest.label})]


def check_costs(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Info ``costs``: hire and trade prices in gp with the variants in play."""
    c = costs(catalogue.game, settings.in_play(catalogue))
    return [Finding(INFO, "costs", f"hiring costs {c.hire_gp} gp per Meatshield; handing one to another Adventurer costs {c.trade_gp} gp",
                    data={"hire_gp": c.hire_gp, "trade_gp": c.trade_gp})]


def draw_table(catalogue: Catalogue, settings: Settings) -> dict[str, Any]:
    """Exact odds that a draw from the full bag holds at least one token absorbing each
    targeting, for draw sizes 1 up to the largest draw in play.

    Returns:
        ``{"bag": N, "draw_sizes": [1, …], "rows": [{"targeting": "↓AGI", "absorbers": K,
        "p": [Fraction, …]}, …]}`` (exact :class:`~fractions.Fraction` values). A draw larger
        than the bag follows the ``small-bag`` interpretation: under ``error`` it cannot be
        made and its cell is None; under ``take-rest`` it takes the whole bag.
    """
    largest = largest_draw(catalogue.game, settings.in_play(catalogue)).size
    readings = settings.readings(catalogue)
    sizes = list(range(1, largest + 1))
    rows = []
    for t in targetings(catalogue):
        k = absorbers(catalogue, t, readings)
        # a draw larger than the bag: None under small-bag=error; p_at_least_one takes the rest of the bag otherwise
        cells = [None if n > catalogue.count and readings.small_bag == "error" else p_at_least_one(catalogue.count, k, n)
                 for n in sizes]
        rows.append({"targeting": t.label, "absorbers": k, "p": cells})
    return {"bag": catalogue.count, "draw_sizes": sizes, "rows": rows}


def check_draw_odds(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Info ``draw-odds``: :func:`draw_table` as a finding (fractions as ``"p/q"`` in data)."""
    table = draw_table(catalogue, settings)
    data = {**table, "rows": [{**r, "p": [None if p is None else str(p) for p in r["p"]]} for r in table["rows"]]}
    return [Finding(INFO, "draw-odds", f"chance that a draw from the full bag of {table['bag']} holds a token absorbing each targeting", data=data)]


def check_game_defaults(catalogue: Catalogue, settings: Settings) -> list[Finding]:
    """Info ``game-defaults`` (one finding) when the catalogue left game numbers out: each was
    taken from ``tokengen/data/game_defaults.yaml``; ``data["numbers"]`` lists them with value
    and that file's source."""
    from ....sources import gamedata

    numbers = []
    for name in catalogue.game.defaulted:
        group, key = name.split(".")
        value = gamedata.default(group, key)
        numbers.append({"number": f"game.{name}", "value": list(value) if isinstance(value, tuple) else value,
                        "source": gamedata.source(group, key)})
    if not numbers:
        return []
    shown = "; ".join(f"{n['number']} = {', '.join(map(str, n['value'])) if isinstance(n['value'], list) else n['value']}"
                      for n in numbers)
    return [Finding(INFO, "game-defaults", f"the catalogue leaves out {len(numbers)} game number{'s' if len(numbers) > 1 else ''}, "
                    f"taken from tokengen's game_defaults.yaml with their sources: {shown}", data={"numbers": numbers})]


#: The game checks, in report order. Each takes (catalogue, settings) and returns findings.
CHECKS: tuple[Check, ...] = (check_backs, check_bag_size, check_printable, check_legible, check_coverage, check_capacity,
                             check_costs, check_game_defaults, check_draw_odds, check_rules, check_odds)


def run_checks(catalogue: Catalogue, settings: Settings, checks: Iterable[Check] = CHECKS) -> list[Finding]:
    """Run each check in turn and collect their findings in order."""
    return [finding for check in checks for finding in check(catalogue, settings)]


# --- the report --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Report(_Report):
    """The outcome of ``tokengen check`` for a Meatshields catalogue: the file and findings
    (:class:`tokengen.games.contract.Report`), the variants and interpretations used, and the
    catalogue's ``game.damage.wounds`` (for the meaning of ``damage=wounds``)."""

    variants: tuple[str, ...] = ()
    interpretations: Interpretations = _field(default_factory=Interpretations)
    wounds: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready, stable keys: catalogue, playable, counts, variants, interpretations (name →
        reading), interpretations_in_play (each with its switch, reading, meaning and options:
        :meth:`~tokengen.games.meatshields.rules.targeting.Interpretations.in_play`), findings (each
        :meth:`Finding.as_dict`)."""
        return {"catalogue": str(self.path), "playable": self.playable, "counts": self.counts(),
                "variants": list(self.variants), "interpretations": self.interpretations.as_dict(),
                "interpretations_in_play": self.interpretations.in_play(self.wounds),
                "findings": [f.as_dict() for f in self.findings]}

    def text_lines(self) -> list[str]:
        """:func:`format_report`'s lines."""
        return format_report(self).splitlines()


def check_catalogue(path: str | Path, settings: _Settings = Settings(), *, add: Iterable[str] = (),
                    remove: Iterable[str] = (), readings: Mapping[str, str | None] | None = None) -> Report:
    """Check a catalogue file: :func:`inspect_source`, then :data:`CHECKS`.

    Args:
        path: the catalogue YAML.
        settings: the sheet (any :class:`tokengen.games.contract.Settings`), and with this
            module's :class:`Settings` the interpretations and variants; ``settings.variants`` is ignored when ``add`` or
            ``remove`` is given (they adjust the catalogue's own ``variants:`` list).
        readings: interpretation switches (``{"damage": "wounds", "ties": None}``; None entries
            are not given) laid over the catalogue's ``interpretations:``; when given they
            replace ``settings.interpretations``.
    Raises:
        CatalogueError: the file cannot be read as YAML.
        UsageError: an unknown variant in ``add`` or ``remove``, an unknown interpretation, a
            ``settings.size`` below the smallest token size (:meth:`Settings.token_size`).
    """
    if not isinstance(settings, Settings):  # the sheet alone: the catalogue's own variants and readings
        settings = Settings(page=settings.page, margin=settings.margin, size=settings.size)
    catalogue, findings = inspect_source(path)
    if catalogue is None:
        chosen = settings.interpretations or Interpretations.chosen(readings)
        return Report(Path(path), tuple(findings), tuple(settings.variants or ()), chosen)
    settings.token_size(catalogue)  # a --size build refuses is refused here, before any check runs
    add, remove = tuple(add), tuple(remove)
    variants = variants_in_play(catalogue, add, remove) if add or remove or settings.variants is None else settings.variants
    settings = replace(settings, variants=variants)
    if readings is not None:
        settings = replace(settings, interpretations=Interpretations.chosen(catalogue.interpretations, readings))
    chosen = settings.readings(catalogue)
    return Report(Path(path), tuple(run_checks(catalogue, settings)), variants, chosen, catalogue.game.wounds)


def format_report(report: Report) -> str:
    """The report as text: a verdict line, the variants and interpretations in use, one line per
    finding (``file:line: severity code: field: message``), and the draw-odds table grouped by
    identical rows (percentages rounded to 0.1; the JSON output holds the exact fractions)."""
    out = [report.verdict(), *reading_lines(report)]
    for f in report.findings:
        out.append(report.finding_line(f))
        if f.code == "draw-odds":
            out += _odds_lines(f.data)
    return "\n".join(out) + "\n"


def reading_lines(report: Report) -> list[str]:
    """The Meatshield readings of a report as text: the variants in play, then one line per
    interpretation with its meaning and the other option."""
    return [f"variants in play: {', '.join(report.variants) or 'none'}", *_reading_lines(report.interpretations, report.wounds)]


def _odds_lines(data: dict[str, Any]) -> list[str]:
    groups: dict[tuple[str, ...], list[str]] = {}
    for row in data["rows"]:
        groups.setdefault(tuple(row["p"]), []).append(row["targeting"])
    sizes = data["draw_sizes"]
    head = "    draw size:" + "".join(f"{n:>7}" for n in sizes) + "   targetings"
    lines = [head]
    for probs, labels in groups.items():
        k = next(r["absorbers"] for r in data["rows"] if r["targeting"] == labels[0])
        cells = "".join("      —" if p is None else f"{float(Fraction(p)) * 100:>6.1f}%" for p in probs)
        lines.append(f"    {k:>2} of {data['bag']:<3}  " + cells + "   " + " ".join(labels))
    return lines
