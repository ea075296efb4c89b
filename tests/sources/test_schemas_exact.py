"""The schema layer's wording, rule by rule (tokengen/sources/schemas.py): every kind of problem gives one exact
``file:line: field: message``, in line order, once.

Most tests feed :func:`tokengen.sources.schemas.validate` a small schema of their own (through the ``schema``
look-up it uses), so each wording rule is pinned on its own; the rest use the real input schemas. Written
from the mutants ``make mutate`` found alive (issue 18).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tokengen.sources import schemas
from tokengen.sources.yamlsrc import one_line, read_yaml

OBJ = "object"


@pytest.fixture
def check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """``check(schema, yaml_text)`` → the messages :func:`validate` gives, with the file shown as ``f.yaml``."""

    def _check(sch: dict, text: str) -> list[str]:
        path = tmp_path / "f.yaml"
        path.write_text(text, "utf-8")
        data, lines = read_yaml(path)
        monkeypatch.setattr(schemas, "schema", lambda name: sch)
        return [str(p).replace(str(tmp_path) + "/", "") for p in schemas.validate(path, data, lines, "mine")]

    return _check


def props(required: list[str] | None = None, closed: bool = True, **properties) -> dict:
    out: dict = {"type": OBJ, "properties": properties}
    if required:
        out["required"] = required
    if closed:
        out["additionalProperties"] = False
    return out


INT = {"type": "integer"}
STR = {"type": "string"}


# ---- the top level --------------------------------------------------------------------------------


def test_an_empty_file(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(schemas, "schema", lambda name: props())
    assert [str(p) for p in schemas.validate(Path("g.yaml"), None, {}, "mine")] == [
        "g.yaml:1: the file holds nothing: it must be a mapping of keys"]
    monkeypatch.setattr(schemas, "schema", lambda name: {**props(), "x-top": "a mapping with keys a, b"})
    assert [str(p) for p in schemas.validate(Path("g.yaml"), None, {(): 3}, "mine")] == [
        "g.yaml:3: the file holds nothing: it must be a mapping with keys a, b"]


@pytest.mark.parametrize("text,what", [("- 1\n", "a list"), ("hello\n", "text"), ("7\n", "a number"), ("7.5\n", "a number"),
                                       ("true\n", "true/false")])
def test_a_top_level_that_is_not_a_mapping(check, text: str, what: str):
    assert check(props(), text) == [f"f.yaml:1: the top level must be a mapping of keys, not {what}"]
    assert check({**props(), "x-top": "a list of jobs"}, text) == [f"f.yaml:1: the top level must be a list of jobs, not {what}"]


def test_the_top_level_line_is_where_the_document_starts(check, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    assert check(props(), "\n\n- 1\n") == ["f.yaml:3: the top level must be a mapping of keys, not a list"]
    monkeypatch.setattr(schemas, "schema", lambda name: props())
    nothing = schemas.validate(Path("g.yaml"), None, {(): 4}, "mine")
    assert [str(p) for p in nothing] == ["g.yaml:4: the file holds nothing: it must be a mapping of keys"]
    assert [str(p) for p in schemas.validate(Path("g.yaml"), (1, 2), {}, "mine")] == [
        "g.yaml:1: the top level must be a mapping of keys, not tuple"]


def test_a_schema_whose_top_is_not_a_mapping_checks_the_type_itself(check):
    assert check({"type": "array"}, "a: 1\n") == ["f.yaml:1: expected a list, got {'a': 1}"]
    assert check({"type": "array"}, "~\n") == ["f.yaml:1: expected a list, got None"]


def test_valid_data_gives_no_problems(check):
    assert check(props(["a"], a=INT), "a: 1\n") == []


# ---- order and duplicates -------------------------------------------------------------------------------


def test_problems_come_in_line_order(check):
    sch = props(a=INT, b=INT, c=INT)
    assert check(sch, "c: x\na: y\nb: z\n") == ["f.yaml:1: c: expected a whole number, got 'x'",
                                                "f.yaml:2: a: expected a whole number, got 'y'",
                                                "f.yaml:3: b: expected a whole number, got 'z'"]


def test_on_one_line_an_unknown_key_comes_first_then_fields_in_order(check):
    sch = props(a=props(z=INT, c=INT, b=INT))
    assert check(sch, "a: {z: x, c: y, b: z, q: 1}\n") == [
        "f.yaml:1: a.q: unknown key (known keys: b, c, z)",
        "f.yaml:1: a.b: expected a whole number, got 'z'",
        "f.yaml:1: a.c: expected a whole number, got 'y'",
        "f.yaml:1: a.z: expected a whole number, got 'x'",
    ]


def test_a_problem_without_a_line_comes_first(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(schemas, "schema", lambda name: props(a=INT, b=INT))
    found = schemas.validate(Path("g.yaml"), {"a": "x", "b": "y"}, {("a",): 1}, "mine")
    assert [str(p) for p in found] == ["g.yaml: b: expected a whole number, got 'y'", "g.yaml:1: a: expected a whole number, got 'x'"]


def test_on_one_line_a_problem_of_the_whole_mapping_comes_before_its_fields(check):
    sch = props(["need"], closed=False, A=INT, need=INT)
    assert check(sch, "{A: x}\n") == ["f.yaml:1: missing required key 'need'", "f.yaml:1: A: expected a whole number, got 'x'"]


def test_a_misspelt_key_that_explains_a_missing_one_is_reported_once(check):
    sch = props(["title", "size"], title=STR, size=STR)
    assert check(sch, "titel: T\nsize: 1in\n") == ["f.yaml:1: titel: unknown key; did you mean 'title'?"]


# ---- unknown and missing keys ----------------------------------------------------------------------------


def test_unknown_key_with_a_near_miss_and_without(check):
    sch = props(a=props(colour=STR, size=STR))
    assert check(sch, "a:\n  size: x\n  COLOR: red\n") == ["f.yaml:3: a.COLOR: unknown key; did you mean 'colour'?"]
    assert check(sch, "a:\n  size: x\n  weight: 3\n") == ["f.yaml:3: a.weight: unknown key (known keys: colour, size)"]


def test_of_several_unknown_keys_the_first_in_order_is_named(check):
    sch = props(a=props(size=STR))
    assert check(sch, "a:\n  zeta: 1\n  alpha: 2\n") == ["f.yaml:3: a.alpha: unknown key (known keys: size)"]


def test_unknown_key_of_a_mapping_that_allows_no_keys(check):
    assert check(props(), "x: 1\n") == ["f.yaml:1: x: unknown key (known keys: )"]
    assert check({"type": OBJ, "additionalProperties": False}, "x: 1\n") == ["f.yaml:1: x: unknown key (known keys: )"]


def test_a_key_whose_schema_is_false(check):
    # a boolean subschema has no x-message to read: the generic message, not a crash
    assert check({"type": OBJ, "properties": {"old": False}}, "old: 1\n") == ["f.yaml:1: False schema does not allow 1"]


def test_unknown_key_with_a_look_alike_letter_names_it(check):
    sch = props(title=STR)
    assert check(sch, "t\u0456tle: T\n") == [
        "f.yaml:1: t\u0456tle: unknown key (holds U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I); did you mean 'title'?"]


@pytest.mark.parametrize("key,note", [
    ("t\u0456tl\u0435", " (holds U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I, U+0435 CYRILLIC SMALL LETTER IE)"),
    ("\u0430b\u0441d\u0435", " (holds U+0430 CYRILLIC SMALL LETTER A, U+0441 CYRILLIC SMALL LETTER ES)"),
    ("\u0456\u0456x\u0456", " (holds U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I)"),
    ("x\ue000", " (holds U+E000 ?)"),
    ("\u043a\u043b\u044e\u0447", ""),   # all Cyrillic: a foreign word, not a look-alike
    ("1\u0456", ""),                    # no ASCII letter to look like
    ("plain", ""),
])
def test_look_alike_notes(check, key: str, note: str):
    sch = props(zzzzzzzz=STR)
    assert check(sch, f"{key}: 1\n") == [f"f.yaml:1: {one_line(key)}: unknown key{note} (known keys: zzzzzzzz)"]


def test_missing_required_key(check):
    sch = props(a=props(["size"], size=STR, label=STR))
    assert check(sch, "a:\n  label: x\n") == ["f.yaml:1: a: missing required key 'size'"]
    assert check(props(["size"], size=STR), "{}\n") == ["f.yaml:1: missing required key 'size'"]


def test_missing_required_key_of_a_mapping_without_listed_keys(check):
    assert check({"type": OBJ, "required": ["size"]}, "sise: 1\n") == ["f.yaml:1: sise: unknown key; did you mean 'size'?"]
    assert check({"type": OBJ, "required": ["size"]}, "colour: 1\n") == ["f.yaml:1: missing required key 'size'"]


def test_a_known_key_never_explains_a_missing_one(check):
    sch = props(["title"], title=STR, titles=STR)
    assert check(sch, "titles: x\n") == ["f.yaml:1: missing required key 'title'"]


def test_an_unrelated_unknown_key_does_not_explain_a_missing_one(check):
    sch = props(["title"], closed=False, title=STR)
    assert check(sch, "colour: x\n") == ["f.yaml:1: missing required key 'title'"]
    assert check(sch, "titel: x\n") == ["f.yaml:1: titel: unknown key; did you mean 'title'?"]


def test_a_misspelt_key_with_a_look_alike_explains_a_missing_one(check):
    sch = props(["title"], closed=False, title=STR)
    assert check(sch, "t\u0456tle: x\n") == [
        "f.yaml:1: t\u0456tle: unknown key (holds U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I); did you mean 'title'?"]


# ---- one of several shapes -----------------------------------------------------------------------------------

SHAPES = {"oneOf": [STR, props(a=INT, b=props(["c"], c=INT))]}


@pytest.mark.parametrize("key", ["oneOf", "anyOf"])
def test_a_value_of_neither_shape(check, key: str):
    sch = props(v={key: SHAPES["oneOf"]})
    assert check(sch, "v: 7\n") == ["f.yaml:1: v: expected text or a mapping, got 7"]


@pytest.mark.parametrize("key", ["oneOf", "anyOf"])
def test_a_value_of_one_shape_is_explained_inside_it(check, key: str):
    sch = props(v={key: SHAPES["oneOf"]})
    assert check(sch, "v:\n  a: x\n") == ["f.yaml:2: v.a: expected a whole number, got 'x'"]


def test_inside_a_shape_an_unknown_key_is_named_first(check):
    sch = props(v=SHAPES)
    assert check(sch, "v:\n  b: {c: x}\n  q: 1\n") == ["f.yaml:3: v.q: unknown key (known keys: a, b)"]


def test_inside_a_shape_an_unknown_key_is_named_even_below_another_problem(check):
    sch = props(v={"oneOf": [STR, props(["z"], a=props(b=INT), z=INT)]})
    assert check(sch, "v:\n  a: {b: 1, q: 2}\n") == ["f.yaml:2: v.a.q: unknown key (known keys: b)"]


def test_a_value_that_has_the_shape_of_several_branches_is_explained_by_the_first(check):
    # before issue 18 this said "expected , got 'bcd'": no branch had a wrong type to list
    sch = props(v={"oneOf": [{"type": "string", "maxLength": 2}, {"type": "string", "pattern": "^a"}]})
    assert check(sch, "v: bcd\n") == ["f.yaml:1: v: text is longer than 2 characters (3)"]
    sch = props(v={"anyOf": [{"type": "string", "pattern": "^a"}, {"type": "string", "maxLength": 2}, INT]})
    assert check(sch, "v: bcd\n") == ["f.yaml:1: v: 'bcd' does not match '^a'"]


def test_shapes_are_named_by_their_types_only(check):
    sch = props(v={"oneOf": [{"type": "string", "enum": ["x", "y"]}, {"type": "array"}]})
    assert check(sch, "v: 7\n") == ["f.yaml:1: v: expected text or a list, got 7"]


def test_a_value_that_fits_two_shapes_at_once(check):
    sch = props(v={"oneOf": [INT, {"type": "number"}]})
    assert check(sch, "v: 3\n") == ["f.yaml:1: v: 3 is valid under each of {'type': 'number'}, {'type': 'integer'}"]


def test_inside_a_shape_the_outermost_problem_is_named(check):
    sch = props(v={"oneOf": [STR, props(["z"], a=props(b=INT), z=INT)]})
    assert check(sch, "v:\n  a: {b: x}\n") == ["f.yaml:1: v: missing required key 'z'"]


def test_shapes_of_the_same_kind_are_named_once(check):
    sch = props(v={"oneOf": [{"type": "string", "maxLength": 2}, {"type": "string", "pattern": "^a"}, {"type": ["integer", "null"]}]})
    assert check(sch, "v: [1]\n") == ["f.yaml:1: v: expected text or a whole number or nothing, got [1]"]


def test_shapes_with_their_own_message(check):
    sch = props(v={"oneOf": [STR, props(a=INT)], "x-message": "must be a name or a mapping, got {value}"})
    assert check(sch, "v: 7\n") == ["f.yaml:1: v: must be a name or a mapping, got 7"]


def test_a_colour_gets_the_colour_message(check):
    colour = {"description": "a colour: \"#rrggbb\" or [c, m, y, k]",
              "oneOf": [{"type": "string", "pattern": "^#[0-9a-f]{6}$"}, {"type": "array", "items": {"type": "number"}}]}
    expected = 'expected a colour "#rrggbb" or [c, m, y, k] with channels 0-1, got {}'
    assert check(props(c=colour), "c: 5\n") == ["f.yaml:1: c: " + expected.format("5")]
    assert check(props(c=colour), "c: '#12'\n") == ["f.yaml:1: c: " + expected.format("'#12'")]


# ---- messages of single rules ----------------------------------------------------------------------------------


def test_a_subschema_message_with_the_value(check):
    sch = props(scale={"type": "number", "exclusiveMinimum": 0, "x-message": "must be a positive number such as 1.25, got {value}"})
    assert check(sch, "scale: -2\n") == ["f.yaml:1: scale: must be a positive number such as 1.25, got -2"]
    sch = props(scale={"type": "number", "x-message": "must be a number"})
    assert check(sch, "scale: x\n") == ["f.yaml:1: scale: must be a number"]


def test_unknown_values(check):
    sch = props(m={"enum": ["crop-marks", "bleed", 3]})
    assert check(sch, "m: crop-mark\n") == ["f.yaml:1: m: unknown value 'crop-mark'; did you mean 'crop-marks'?"]
    assert check(sch, "m: zzz\n") == ["f.yaml:1: m: unknown value 'zzz' (use one of crop-marks, bleed, 3)"]
    assert check(sch, "m: 4\n") == ["f.yaml:1: m: unknown value 4 (use one of crop-marks, bleed, 3)"]
    # a value of the wrong kind is never "meant" as an option, however close it looks
    assert check(props(m={"enum": ["crop-marks", "bleed"]}), "m: [crop-marks]\n") == [
        "f.yaml:1: m: unknown value ['crop-marks'] (use one of crop-marks, bleed)"]


@pytest.mark.parametrize("kind,words", [("string", "text"), ("integer", "a whole number"), ("number", "a number"), ("array", "a list"),
                                        ("object", "a mapping"), ("boolean", "true or false"), ("null", "nothing")])
def test_wrong_types_in_words(check, kind: str, words: str):
    value = "1.5" if kind != "number" else "x"
    shown = "1.5" if kind != "number" else "'x'"
    assert check(props(v={"type": kind}), f"v: {value}\n") == [f"f.yaml:1: v: expected {words}, got {shown}"]


def test_whole_numbers_are_strict(check):
    assert check(props(v=INT), "v: 1.0\n") == ["f.yaml:1: v: expected a whole number, got 1.0"]
    assert check(props(v=INT), "v: true\n") == ["f.yaml:1: v: expected a whole number, got True"]
    assert check(props(v=INT), "v: 3\n") == []
    assert check(props(v={"type": "number"}), "v: true\n") == ["f.yaml:1: v: expected a number, got True"]
    assert check(props(v={"type": "boolean"}), "v: 'false'\n") == ["f.yaml:1: v: expected true or false, got 'false'"]


def test_a_list_of_types(check):
    assert check(props(v={"type": ["string", "null"]}), "v: 3\n") == ["f.yaml:1: v: expected text or nothing, got 3"]


def test_ids_and_other_patterns(check):
    sch = props(id={"type": "string", "pattern": "^[a-z0-9_-]+$"}, code={"type": "string", "pattern": "^[A-Z]+$"})
    assert check(sch, "id: Str-Low\n") == ["f.yaml:1: id: id 'Str-Low' must be lowercase letters, digits, '-' or '_'"]
    assert check(sch, "code: ab\n") == ["f.yaml:1: code: 'ab' does not match '^[A-Z]+$'"]


def test_bounds(check):
    sch = props(n={"type": "integer", "minimum": 1, "maximum": 5})
    assert check(sch, "n: 0\n") == ["f.yaml:1: n: must be at least 1, got 0"]
    assert check(sch, "n: 6\n") == ["f.yaml:1: n: must be at most 5, got 6"]
    assert check(sch, "n: 5\n") == []


def test_text_length(check):
    sch = props(s={"type": "string", "minLength": 1, "maxLength": 3}, t={"type": "string", "minLength": 2})
    assert check(sch, "s: abcde\n") == ["f.yaml:1: s: text is longer than 3 characters (5)"]
    assert check(sch, "s: ''\n") == ["f.yaml:1: s: must not be empty text"]
    assert check(sch, "t: a\n") == ["f.yaml:1: t: 'a' is too short"]


def test_list_length_and_repeats(check):
    sch = props(a={"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": True}, b={"type": "array", "minItems": 2})
    assert check(sch, "a: []\n") == ["f.yaml:1: a: must not be empty"]
    assert check(sch, "a: [1, 2, 3]\n") == ["f.yaml:1: a: has more than 2 entries"]
    assert check(sch, "a: [1, 1]\n") == ["f.yaml:1: a: lists the same entry twice"]
    assert check(sch, "b: [1]\n") == ["f.yaml:1: b: [1] is too short"]


def test_long_values_are_cut_in_messages(check):
    sch = props(m={"enum": ["x"]})
    assert check(sch, f"m: {'a' * 58}\n") == [f"f.yaml:1: m: unknown value '{'a' * 58}' (use one of x)"]
    assert check(sch, f"m: {'a' * 59}\n") == [f"f.yaml:1: m: unknown value '{'a' * 56}... (use one of x)"]


@pytest.mark.parametrize("length,cut", [(159, False), (160, True), (170, True)])
def test_long_generic_messages_are_cut_at_160_characters(check, length: int, cut: bool):
    # jsonschema's message for const is "'<expected>' was expected": len(expected) + 15 characters
    expected = "a" * (length - 15)
    message = f"'{expected}' was expected"
    assert len(message) == length
    shown = message[:157] + "..." if cut else message
    assert check(props(code={"const": expected}), "code: b\n") == [f"f.yaml:1: code: {shown}"]


def test_generic_messages_stay_on_one_line(check):
    sch = props(code={"type": "string", "pattern": "^z$"})
    assert check(sch, 'code: "a\\tb"\n') == ["f.yaml:1: code: 'a\\tb' does not match '^z$'"]


# ---- where a problem is -----------------------------------------------------------------------------------------


def test_line_of_the_nearest_enclosing_value(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(schemas, "schema", lambda name: props(a=props(b=props(c=INT))))
    found = schemas.validate(Path("g.yaml"), {"a": {"b": {"c": "x"}}}, {(): 1, ("a",): 2}, "mine")
    assert [str(p) for p in found] == ["g.yaml:2: a.b.c: expected a whole number, got 'x'"]
    assert schemas.line_at({(): 1, ("a",): 2}, ("a", "b", "c")) == 2
    assert schemas.line_at({("a",): 2}, ("z",)) is None
    assert schemas.line_at({(): 1, ("a", "b"): 3}, ("a", "b", "c")) == 3
    assert schemas.line_at({}, ()) is None


def test_suggest():
    assert schemas.suggest("TITEL", ["title", "size"]) == "; did you mean 'title'?"
    assert schemas.suggest("titel", ["Title"]) == "; did you mean 'Title'?"
    assert schemas.suggest("xyz", ["title"]) == ""
    assert schemas.suggest("sise", ["size", "side"]) in ("; did you mean 'size'?", "; did you mean 'side'?")
    assert schemas.suggest("colr", ["colour", "color"]) == "; did you mean 'color'?"
    assert schemas.suggest("abcdef", ["abcxyz"]) == ""      # ratio 0.5: below the 0.6 cut-off
    assert schemas.suggest("abcdefg", ["abcdxyz"]) == ""    # ratio 0.57
    assert schemas.suggest("abcde", ["abcxy"]) == "; did you mean 'abcxy'?"  # ratio 0.6: the cut-off itself passes


# ---- the real input schemas ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name,top", [("scenario", "a scenario"), ("jobs", "jobs"), ("profiles", "profile"), ("game_defaults", "")])
def test_real_schemas_say_what_their_top_level_holds(name: str, top: str):
    words = schemas.validate(Path("g.yaml"), [], {}, name)
    assert len(words) == 1 and str(words[0]).startswith("g.yaml:1: the top level must be ")
    assert str(words[0]).endswith(", not a list") and top in str(words[0])


# ---- uniqueItems and pattern as JSON Schema means them (issue 10) --------------------------------------------------


@pytest.mark.parametrize("items,twice", [
    ("[1, 1.0]", True), ("[true, 1]", False), ("[false, 0]", False), ("['1', 1]", False), ("[true, true]", True),
    ("[{a: 1, b: 2}, {b: 2, a: 1}]", True), ("[{a: 1}, {a: 2}]", False), ("[[1, 2], [1, 2]]", True), ("[[1, 2], [2, 1]]", False),
    ("[x, y, x]", True), ("[x, y, z]", False), ("[null, null]", True), ("[[true], [1]]", False), ("[{a: true}, {a: 1}]", False),
])
def test_the_same_entry_twice(check, items: str, twice: bool):
    sch = props(a={"type": "array", "uniqueItems": True})
    assert check(sch, f"a: {items}\n") == (["f.yaml:1: a: lists the same entry twice"] if twice else [])


def test_repeats_are_allowed_where_the_schema_allows_them(check):
    assert check(props(a={"type": "array", "uniqueItems": False}), "a: [1, 1]\n") == []
    assert check(props(a={"uniqueItems": True}), "a: aa\n") == []


def test_repeats_message_names_the_entry(monkeypatch: pytest.MonkeyPatch):
    errors = list(schemas._validator_class()(props(a={"type": "array", "uniqueItems": True})).iter_errors({"a": ["x", "y", "x", "y"]}))
    assert [e.message for e in errors] == ["'x' is given twice"]


@pytest.mark.parametrize("value,ok", [("abc", True), ("'abc\\n'", False), ("\"abc\\n\"", False), ("ab1", False)])
def test_a_pattern_end_is_the_end_of_the_text(check, value: str, ok: bool):
    sch = props(id={"type": "string", "pattern": "^[a-z]+$"})
    assert (check(sch, f"id: {value}\n") == []) is ok


def test_pattern_messages(check):
    sch = props(code={"type": "string", "pattern": "^a\\$$"}, n={"pattern": "^a"})
    assert check(sch, "code: a$\n") == []             # an escaped $ stays a dollar sign
    assert check(sch, "code: a\n") == ["f.yaml:1: code: 'a' does not match '^a\\\\$$'"]
    assert check(sch, "n: 5\n") == []                 # a pattern says nothing about a number


# ---- a value YAML read as a comment -----------------------------------------------------------------------------------


def test_a_value_starting_with_hash_is_explained(check):
    sch = props(title=STR, size=STR)
    assert check(sch, "size: 1in\ntitle: #Tough\n") == [
        "f.yaml:2: title: no value: an unquoted '#' starts a YAML comment, so '#Tough' was read as one; put the value in quotes: "
        'title: "#Tough"']
    long = "#" + "x" * 50
    assert check(sch, f"title: {long}\n") == [
        f"f.yaml:1: title: no value: an unquoted '#' starts a YAML comment, so '{long[:40]}' was read as one; put the value in quotes: "
        f'title: "{long[:40]}"']


def test_an_empty_value_without_a_hash_is_a_plain_type_problem(check):
    sch = props(title=STR)
    assert check(sch, "title:\n") == ["f.yaml:1: title: expected text, got None"]
    assert check(sch, "title: ~ # note\n") == ["f.yaml:1: title: expected text, got None"]


def test_a_comment_value_needs_a_line_and_a_readable_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setattr(schemas, "schema", lambda name: props(title=STR))
    assert [str(p) for p in schemas.validate(tmp_path / "gone.yaml", {"title": None}, {("title",): 1}, "mine")] == [
        f"{tmp_path}/gone.yaml:1: title: expected text, got None"]
    assert [str(p) for p in schemas.validate(tmp_path / "gone.yaml", {"title": None}, {}, "mine")] == [
        f"{tmp_path}/gone.yaml: title: expected text, got None"]
    short = tmp_path / "short.yaml"
    short.write_text("title: #x\n", "utf-8")
    assert [str(p) for p in schemas.validate(short, {"title": None}, {("title",): 5}, "mine")] == [
        f"{short}:5: title: expected text, got None"]


def test_a_trailing_comment_that_looks_like_a_value_is_not_taken_for_one(check):
    sch = props(size=STR)
    assert check(sch, "size: 5  # was: #big\n") == ["f.yaml:1: size: expected text, got 5"]
    assert check({"type": "array"}, "~  # see: #notes\n") == ["f.yaml:1: expected a list, got None"]


def test_the_comment_line_is_read_past_bytes_that_are_not_utf8(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    # validate() reads the source line again; a file changed meanwhile (or any stray byte) must not crash it
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"# caf\xe9\ntitle: #Tough\n")
    monkeypatch.setattr(schemas, "schema", lambda name: props(title=STR))
    assert [str(p) for p in schemas.validate(path, {"title": None}, {("title",): 2}, "mine")] == [
        f"{path}:2: title: no value: an unquoted '#' starts a YAML comment, so '#Tough' was read as one; put the value in quotes: "
        'title: "#Tough"']


def test_too_long_text_with_its_own_message_gives_the_length_not_the_text(check):
    sch = props(label={"type": "string", "maxLength": 3, "x-message": "must be a short label, got {value}"})
    assert check(sch, f"label: {'x' * 5000}\n") == ["f.yaml:1: label: must be a short label, got 5000 characters (at most 3)"]
    sch = props(label={"type": "string", "minLength": 3, "x-message": "must be a label, got {value}"})
    assert check(sch, "label: x\n") == ["f.yaml:1: label: must be a label, got 'x'"]
