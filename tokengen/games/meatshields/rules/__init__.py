"""The Meatshield rules engine: targeting, draws and the bag, and playability checks.

Pure functions and frozen values; nothing here prints. The ``check`` and ``target`` commands
in :mod:`tokengen.cli` are thin wrappers over :func:`check_catalogue` and :func:`target`.
"""

from .bag import (
                  EQUIPMENT_EFFECTS,
                  SMALL_BAG,
                  SOLO_START,
                  TARGET_ALL_HITS,
                  TOWN_DRAWS,
                  BagState,
                  Costs,
                  Draw,
                  Hire,
                  costs,
                  draw_size,
                  draws,
                  largest_draw,
                  p_at_least_one,
                  party_capacity,
                  tokens_drawn,
                  variants_in_play,
)
from .checks import CHECKS, Check, Finding, Report, Settings, check_catalogue, draw_table, format_report, inspect_source, run_checks
from .scenario import Damage, Scenario, TargetResult, build_scenario, load_scenario, target
from .targeting import (
                  INTERPRETATIONS,
                  Adventurer,
                  Attack,
                  Interpretations,
                  Meatshield,
                  Monster,
                  Resolution,
                  Targeting,
                  absorbed_sides,
                  may_deploy,
                  meatshield_affected,
                  parse_targeting,
                  resolve_targets,
)

__all__ = [
    "EQUIPMENT_EFFECTS", "SMALL_BAG", "SOLO_START", "TARGET_ALL_HITS", "TOWN_DRAWS", "BagState", "Costs", "Draw", "Hire", "costs",
    "draw_size", "draws", "largest_draw", "p_at_least_one", "party_capacity", "tokens_drawn", "variants_in_play",
    "CHECKS", "Check", "Finding", "Report", "Settings", "check_catalogue", "draw_table", "format_report",
    "inspect_source", "run_checks",
    "Damage", "Scenario", "TargetResult", "build_scenario", "load_scenario", "target",
    "INTERPRETATIONS", "Adventurer", "Attack", "Interpretations", "Meatshield", "Monster", "Resolution",
    "Targeting", "absorbed_sides", "may_deploy", "meatshield_affected", "parse_targeting", "resolve_targets",
]
