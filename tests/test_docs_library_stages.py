"""docs/library.md names the stages of a build as the code has them (issue 38): every dotted
name it gives in backticks under "The stages of a build" exists, and build_pdf calls the four."""

from __future__ import annotations

import ast
import importlib
import inspect
import re

from tests.conftest import ROOT
from tokengen.outputs import build

SECTION = (ROOT / "docs" / "library.md").read_text("utf-8").split("## The stages of a build", 1)[1].split("\n## ", 1)[0]


def test_every_name_the_stages_give_exists():
    names = re.findall(r"`((?:outputs|geometry|faces|sources)\.[a-z_.]+)`", SECTION)
    assert len(names) >= 6
    for dotted in names:
        module, _, attr = dotted.rpartition(".")
        assert hasattr(importlib.import_module(f"tokengen.{module}"), attr), dotted


def test_build_pdf_reads_as_its_stages():
    tree = ast.parse(inspect.getsource(build.build_pdf))
    called = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
    for stage in ("plan_build", "open_sheet", "draw_page", "finish"):
        assert stage in called and f"`outputs.build.{stage}`" in SECTION
    assert len(inspect.getsource(build.build_pdf).splitlines()) < 40


EXPORT = (ROOT / "docs" / "library.md").read_text("utf-8").split("## The stages of an export", 1)[1].split("\n## ", 1)[0]


def test_every_name_the_export_stages_give_exists():
    names = re.findall(r"`((?:outputs|geometry|faces|sources)\.[a-z_.]+)`", EXPORT)
    assert len(names) >= 10
    for dotted in names:
        module, _, attr = dotted.rpartition(".")
        assert hasattr(importlib.import_module(f"tokengen.{module}"), attr), dotted


def test_every_output_has_the_writer_the_docs_name():
    from tokengen.outputs.writers import WRITERS
    from tokengen.sources.profiles import OUTPUTS

    assert sorted(WRITERS) == sorted(OUTPUTS)
    for output, writer in WRITERS.items():
        row = next(line for line in EXPORT.splitlines() if line.startswith("|") and f"`{output}`" in line.split("|")[1])
        assert f"`outputs.writers.{writer.__module__.rsplit('.', 1)[1]}.{writer.__name__}`" in row, output


def test_export_reads_as_its_stages():
    from tokengen.outputs import export

    source = inspect.getsource(export.export)
    assert "WRITERS[profile.output](job)" in source and "ready(job, planned, also)" in source
    assert len(source.splitlines()) < 40
