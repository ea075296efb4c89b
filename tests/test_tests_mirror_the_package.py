"""The tests mirror the package (issue 38): the tests of ``tokengen/<package>/<module>.py`` live
in ``tests/<package>/``, in a file bearing the module's name (``test_<module>.py``,
``test_<module>_<aspect>.py``), or, where a module is tested through others, in the files
:data:`COVERED_BY` names. A new module without either fails here, as does a folder of tests with
no package of its name."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "tokengen"
TESTS = ROOT / "tests"
#: Modules left out: entry points and generated files.
LEFT_OUT = {"__init__.py", "__main__.py", "_version.py"}

#: Module (under tokengen/) → the test files (under tests/) that test it, for modules tested
#: through the files of their callers rather than a file of their own name.
COVERED_BY: dict[str, list[str]] = {
    "cli/app.py": ["geometry/test_furniture_placement.py"],
    "cli/batch.py": ["outputs/test_batch.py", "outputs/test_batch_profiles.py"],
    "cli/links.py": ["sources/test_remote.py"],
    "cli/params.py": ["cli/test_json_schema.py"],
    "cli/rules.py": ["cli/test_check_and_target.py"],
    "cli/serve.py": ["web/test_serve.py"],
    "cli/sheets.py": ["cli/test_smoke.py", "cli/test_size_forms.py"],
    "cli/shop.py": ["outputs/test_export.py", "outputs/test_shop_presets.py"],
    "cli/streams.py": ["cli/test_console.py", "io/test_hostile.py"],
    "errors.py": ["cli/test_rough_edges.py", "faces/test_art.py"],
    "faces/beneath.py": ["faces/test_art_underlay.py"],
    "faces/emblem.py": ["games/meatshields/test_template.py", "outputs/test_backs.py"],
    "faces/facedraw.py": ["faces/test_boxed_once.py", "faces/test_figures.py"],
    "faces/pagesetup.py": ["outputs/test_backs.py"],
    "faces/render.py": ["faces/test_art.py", "faces/test_pagestream.py"],
    "faces/stacks.py": ["faces/test_stack.py"],
    "faces/svgart.py": ["faces/test_art_embedding.py", "faces/test_svg.py"],
    "faces/svglimits.py": ["faces/test_svg.py", "io/test_hostile_four.py"],
    "faces/svgsafe.py": ["faces/test_svg_fidelity.py"],
    "games/contract.py": ["games/test_registry.py"],
    "games/meatshields/interpretations.py": ["games/meatshields/test_readings.py"],
    "games/meatshields/plugin.py": ["games/test_registry.py"],
    "games/meatshields/rules/bag.py": ["games/meatshields/test_rules_exact.py"],
    "games/meatshields/rules/checks.py": ["games/meatshields/test_rules_checks.py", "games/meatshields/test_rules_exact.py"],
    "games/meatshields/rules/scenario.py": ["games/meatshields/test_scenario.py"],
    "games/meatshields/rules/targeting.py": ["games/meatshields/test_rules_exact.py"],
    "games/odds.py": ["games/test_declared.py"],
    "geometry/alignlayout.py": ["geometry/test_furniture.py"],
    "geometry/bands.py": ["outputs/test_mixed_sizes.py"],
    "geometry/cutpaths.py": ["outputs/test_cut_machines.py", "outputs/test_cutdxf.py"],
    "geometry/decksheet.py": ["outputs/test_tts.py"],
    "geometry/stack.py": ["faces/test_stack.py"],
    "geometry/standee.py": ["outputs/test_standees.py"],
    "geometry/svgpath.py": ["faces/test_svg_fidelity.py", "faces/test_svg.py"],
    "geometry/textfit.py": ["geometry/test_figures.py", "faces/test_figures.py"],
    "geometry/tiling.py": ["outputs/test_tiles.py"],
    "geometry/tuckbox.py": ["outputs/test_box.py"],
    "io/atomic.py": ["io/test_hostile.py", "io/test_safe_output.py"],
    "io/guard.py": ["io/test_hostile.py"],
    "io/progress.py": ["outputs/test_build_memory.py"],
    "io/signals.py": ["outputs/test_watch.py", "io/test_hostile.py"],
    "io/testhook.py": ["io/test_safe_output.py"],
    "model.py": ["faces/test_art_modes.py", "faces/test_art_underlay.py"],
    "outputs/aligntest.py": ["outputs/test_backs.py"],
    "outputs/cutsvg.py": ["outputs/test_cut_machines.py", "outputs/test_cutdxf.py"],
    "outputs/dieline.py": ["outputs/test_cut_dieline.py"],
    "outputs/options.py": ["outputs/test_mixed_sizes.py", "geometry/test_furniture_placement.py"],
    "outputs/profilelist.py": ["outputs/test_profile_list_width.py"],
    "outputs/result.py": ["cli/test_json_schema.py"],
    "outputs/summary.py": ["cli/test_smoke.py"],
    "outputs/writers/base.py": ["outputs/test_export.py"],
    "outputs/writers/chits.py": ["outputs/test_pngs.py", "outputs/test_shop_presets.py"],
    "outputs/writers/cutfiles.py": ["outputs/test_cut_machines.py", "outputs/test_cutdxf.py"],
    "outputs/writers/pages.py": ["outputs/test_export.py", "outputs/test_dtc_pdfx2003.py"],
    "outputs/writers/sheets.py": ["outputs/test_export.py", "outputs/test_punchboard.py"],
    "outputs/writers/sides.py": ["outputs/test_shop_presets.py"],
    "outputs/writers/tabletop.py": ["outputs/test_tts.py", "outputs/test_tts_table.py"],
    "preflight/pdfwalk.py": ["preflight/test_any.py", "preflight/test_checks.py"],
    "preflight/pdfx.py": ["preflight/test_any.py", "preflight/test_checks.py"],
    "sources/artpath.py": ["cli/test_rough_edges.py", "faces/test_art_places.py"],
    "sources/bundled.py": ["sources/test_bad_input.py", "cli/test_check_and_target.py"],
    "sources/cellformat.py": ["sources/test_table_cells.py"],
    "sources/declared.py": ["games/test_declared.py"],
    "sources/expr.py": ["faces/test_computed.py"],
    "sources/fields.py": ["faces/test_stack.py", "test_docs_limits.py"],
    "sources/gamedata.py": ["games/meatshields/test_readings.py", "games/meatshields/test_rules_exact.py"],
    "sources/handsheets.py": ["geometry/test_handsheet.py", "outputs/test_handsheet.py"],
    "sources/lengths.py": ["io/test_hostile_four.py"],
    "sources/markup.py": ["faces/test_boxed_once.py", "faces/test_textbox.py"],
    "sources/merges.py": ["sources/test_spreadsheets.py"],
    "sources/profiles.py": ["sources/test_schemas.py", "cli/test_completion.py"],
    "sources/project.py": ["outputs/test_project.py"],
    "sources/scripts.py": ["geometry/test_linebreak.py"],
    "web/jobs.py": ["web/test_option_change.py", "web/test_serve.py"],
    "web/server.py": ["web/test_option_change.py", "web/test_rough_edges.py"],
}


def _modules() -> list[str]:
    return sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if p.name not in LEFT_OUT)


def _namesake(module: str) -> list[Path]:
    folder, _, name = module.rpartition("/")
    return sorted((TESTS / folder).glob(f"test_{Path(name).stem.lstrip('_')}*.py"))


def test_every_module_has_tests_of_its_name_or_names_them():
    untested = [m for m in _modules() if not _namesake(m) and not COVERED_BY.get(m)]
    assert untested == [], "a module with no tests/<package>/test_<module>*.py: write one, or name its tests in COVERED_BY"


def test_covered_by_names_real_test_files_of_modules_without_a_namesake():
    assert sorted(m for m in COVERED_BY if m not in _modules()) == [], "COVERED_BY names a module that is gone"
    assert sorted(m for m in COVERED_BY if _namesake(m)) == [], "the module has tests of its name now: drop its COVERED_BY entry"
    missing = sorted(f for files in COVERED_BY.values() for f in files if not (TESTS / f).is_file())
    assert missing == []


def test_test_folders_are_packages_of_tokengen():
    folders = {p.parent.relative_to(TESTS) for p in TESTS.rglob("test_*.py")} - {Path(".")}
    assert sorted(str(f) for f in folders if not (PACKAGE / f).is_dir()) == []
