"""``--format json`` follows a JSON Schema shipped in the package, and says its version (issue 43)."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import jsonschema
import pytest

from tests.conftest import CATALOGUE, ROOT
from tokengen.cli.params import SCHEMA_VERSION

SCHEMA = json.loads(files("tokengen").joinpath("data/report.schema.json").read_text("utf-8"))


def _commands(tmp_path: Path) -> dict[str, list[str]]:
    pdf = tmp_path / "b.pdf"
    return {
        "build": ["build", str(CATALOGUE), "-o", str(pdf), "--format", "json"],
        "export": ["export", str(CATALOGUE), "--profile", "tgc-chits", "-o", str(tmp_path / "e"), "--format", "json"],
        "table": ["export", str(CATALOGUE), str(ROOT / "examples/poker-cards/cards.yaml"), "--profile", "tts",
                  "-o", str(tmp_path / "t"), "--format", "json"],
        "batch": ["batch", str(CATALOGUE), "--size", "1in", "--page", "letter", "-o", str(tmp_path / "o"), "--format", "json"],
        "preflight": ["preflight", str(pdf), "--profile", "home", "--format", "json"],
        "check": ["check", str(CATALOGUE), "--format", "json"],
        "target": ["target", "-c", str(CATALOGUE), "-a", "Ann:STR=6,AGI=3,CON=4,MAG=2,MRL=5,PER=3", "-m", "ALL", "--format", "json"],
    }


def test_the_schema_is_a_valid_schema_with_the_version_the_reports_give():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["schema_version"] == {"const": SCHEMA_VERSION, "description": SCHEMA["properties"]["schema_version"]["description"]}


def test_every_json_report_follows_the_schema(run, tmp_path: Path):
    validator = jsonschema.Draft202012Validator(SCHEMA)
    seen = {}
    for name, args in _commands(tmp_path).items():
        result = run(*args)
        assert result.exit_code == 0, (name, result.stderr)
        report = json.loads(result.stdout)
        assert list(report)[0] == "schema_version" and report["schema_version"] == SCHEMA_VERSION, name
        errors = [e.message for e in validator.iter_errors(report)]
        assert errors == [], (name, errors)
        seen[name] = report["command"]
    assert seen == {"build": "build", "export": "export", "table": "export", "batch": "batch", "preflight": "preflight",
                    "check": "check", "target": "target"}


@pytest.mark.parametrize("change", [{"schema_version": 2}, {"command": "draw"}, {"files": "b.pdf"}])
def test_the_schema_refuses_what_a_report_never_is(change: dict):
    report = {"schema_version": 1, "command": "build", "files": ["b.pdf"], "pages": 1, "tokens": 18, "warnings": [], "checks": [],
              "sets": 1, "face_pages": 1, "back_pages": 0, "rules_pages": 0}
    jsonschema.validate(report, SCHEMA)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**report, **change}, SCHEMA)
