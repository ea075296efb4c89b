"""One schema layer for every YAML input (issue 15): catalogues, scenarios, batch job files and
profile files are all checked against a JSON Schema and explained the same way, file:line:
field: message, with strict types and a "did you mean"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE
from tokengen.sources import profiles
from tokengen.sources.schemas import SCHEMAS, schema

SCENARIO_HEAD = "adventurers:\n  - {name: Ann, scores: {STR: 6, AGI: 3, CON: 4, MAG: 2, MRL: 5, PER: 3}}\n"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return path


# (command builder, file name, text, expected message after "tokengen: error: <tmp>/")
CASES = [
    ("scenario", "fight.yaml", SCENARIO_HEAD + "monsters:\n  - {targeting: ↓AGI, steals_gold: \"false\"}\n",
     "fight.yaml:4: monsters[0].steals_gold: expected true or false, got 'false'"),
    ("scenario", "fight.yaml", SCENARIO_HEAD + "monsters:\n  - {targetting: ↓AGI}\n",
     "fight.yaml:4: monsters[0].targetting: unknown key; did you mean 'targeting'?"),
    ("scenario", "fight.yaml", SCENARIO_HEAD + "monsters: [↓STR]\ndeploy: str-low\n",
     "fight.yaml:4: deploy: unknown key; did you mean 'deployed'?"),
    ("scenario", "fight.yaml", SCENARIO_HEAD + "monsters: [7]\n",
     "fight.yaml:3: monsters[0]: expected text or a mapping, got 7"),
    ("jobs", "jobs.yaml", "jobs:\n  - catalogue: CAT\n    landscape: \"false\"\n",
     "jobs.yaml:3: jobs[0].landscape: must be true or false"),
    ("jobs", "jobs.yaml", "jobs:\n  - catalogue: CAT\n    copies: 2.0\n",
     "jobs.yaml:3: jobs[0].copies: must be a whole number of at least 1, got 2.0"),
    ("jobs", "jobs.yaml", "jobs:\n  - catalogue: CAT\n    scale: \"1.5\"\n",
     "jobs.yaml:3: jobs[0].scale: must be a positive number such as 1.25, got '1.5'"),
    ("profiles", "mine.yaml", "x:\n  boxes: \"false\"\n", "mine.yaml:2: x.boxes: expected true or false, got 'false'"),
    ("profiles", "mine.yaml", "x:\n  dpi: \"300\"\n", "mine.yaml:2: x.dpi: expected a whole number from 72 to 2400, got '300'"),
    ("profiles", "mine.yaml", "x:\n  marks: [crop-mark]\n", "mine.yaml:2: x.marks[0]: unknown value 'crop-mark'; did you mean 'crop-marks'?"),
    ("profiles", "mine.yaml", "x:\n  ouptut: png\n", "mine.yaml:2: x.ouptut: unknown key; did you mean 'output'?"),
]


def _args(kind: str, path: Path, tmp_path: Path) -> list[str]:
    if kind == "scenario":
        return ["target", str(path), "-c", str(CATALOGUE)]
    if kind == "jobs":
        return ["batch", str(path), "-o", str(tmp_path / "out")]
    return ["export", "--profile", "home", "--profiles", str(path), "-o", str(tmp_path / "out")]


@pytest.mark.parametrize(("kind", "name", "text", "message"), CASES)
def test_every_yaml_input_is_explained_by_the_one_schema_layer(run, tmp_path: Path, kind, name, text, message):
    path = _write(tmp_path, name, text.replace("CAT", str(CATALOGUE)))
    result = run(*_args(kind, path, tmp_path))
    assert result.exit_code == 2
    assert result.stderr == f"tokengen: error: {tmp_path}/{message}\n"
    assert not (tmp_path / "out").exists()


def test_scenario_steals_gold_false_is_false_when_written_as_a_boolean(run, tmp_path: Path):
    path = _write(tmp_path, "fight.yaml", SCENARIO_HEAD + "monsters:\n  - {name: Cutpurse, targeting: ↓AGI, steals_gold: false}\n"
                  "deployed: agi-low\n")
    result = run("target", str(path), "-c", str(CATALOGUE), "--format", "json")
    assert result.exit_code == 0, result.stderr
    assert "steals nothing" not in result.stdout
    path.write_text(path.read_text("utf-8").replace("steals_gold: false", "steals_gold: true"), "utf-8")
    assert "steals nothing from the Meatshield" in run("target", str(path), "-c", str(CATALOGUE)).stdout


@pytest.mark.parametrize("name", SCHEMAS)
def test_every_input_schema_is_valid_json_schema_2020_12(name: str):
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema(name))
    assert schema(name)["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_profile_schema_names_the_same_choices_as_the_code():
    spec = schema("profiles")["$defs"]["profile"]["properties"]
    assert tuple(spec["output"]["enum"]) == profiles.OUTPUTS
    assert tuple(spec["colour"]["enum"]) == profiles.COLOURS
    assert tuple(spec["marks"]["items"]["enum"]) == profiles.MARKS
    assert set(spec["order"]["items"]["enum"]) == set(profiles.SIDES)
    assert set(spec) == set(profiles.KEYS)


def test_schema_files_are_package_data():
    for name in SCHEMAS:
        text = (Path(profiles.__file__).parent.parent / "data" / f"{name}.schema.json").read_text("utf-8")
        assert json.loads(text)["title"].startswith("tokengen")
