"""The generic token carries no Meatshields fields: a Meatshields catalogue's loader writes the
attribute and priority codes and the built-in face's fields into ``Token.values``, and
:class:`tokengen.games.meatshields.model.MeatshieldToken` reads them back as the game's own."""

from __future__ import annotations

import dataclasses

import pytest

from tests.conftest import CATALOGUE, ROOT
from tokengen.errors import UsageError
from tokengen.games.meatshields.model import MeatshieldToken
from tokengen.games.meatshields.rules import Meatshield
from tokengen.model import Catalogue, Colour, Token
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.template import DEFAULT_FACE, builtin, face_of, token_values

CAT = load_catalogue(CATALOGUE)


def test_the_generic_token_has_no_game_fields():
    assert [f.name for f in dataclasses.fields(Token)] == ["id", "style", "back", "copies", "line", "values", "template"]


def test_a_meatshields_token_holds_its_codes_and_face_fields_as_values():
    token = next(t for t in CAT.tokens if t.id == "str-low")
    values = token_values(token)
    assert list(values) == ["attribute", "priority", "glyph", "code", "caption", "art", "background", "ink", "accent"]
    assert (values["attribute"], values["priority"], values["glyph"], values["code"], values["caption"], values["art"]) == \
        ("STR", "low", "\u2193", "STR", "Strength", None)
    assert values["background"] == token.style.background == Colour("rgb", (239 / 255, 228 / 255, 200 / 255))
    assert values["accent"] == token.style.accent and values["ink"] == token.style.ink
    assert token.template is None and face_of(token) is builtin(DEFAULT_FACE) and DEFAULT_FACE == "meatshield"
    assert set(builtin(DEFAULT_FACE).fields()) <= set(values)


def test_a_label_is_the_caption(tmp_path):
    text = CATALOGUE.read_text("utf-8").replace("{id: str-low,  attribute: STR, priority: low}",
                                                "{id: str-low,  attribute: STR, priority: low, label: Brute}")
    path = tmp_path / "labelled.yaml"
    path.write_text(text, "utf-8")
    token = next(t for t in load_catalogue(path).tokens if t.id == "str-low")
    assert token.value("caption") == "Brute" and token.value("code") == "STR"


def test_the_meatshields_view_reads_the_game_attribute_and_priority():
    token = next(t for t in CAT.tokens if t.id == "per-both")
    view = MeatshieldToken.of(token, CAT.game)
    assert view.token is token and (view.id, view.copies) == ("per-both", token.copies)
    assert view.attribute is next(a for a in CAT.game.attributes if a.code == "PER")
    assert view.priority is next(p for p in CAT.game.priorities if p.code == "both")
    assert Meatshield.of(token, CAT.game).label == view.priority.glyph + "PER"


def test_a_token_of_another_game_is_not_a_meatshield():
    hex_token = load_catalogue(ROOT / "examples/hex-counters/counters.yaml").tokens[0]
    with pytest.raises(UsageError) as caught:
        MeatshieldToken.of(hex_token, CAT.game)
    assert str(caught.value) == ("token 'blue-inf-1' (line 2) is not a Meatshields token: "
                                 "it needs an attribute and a priority from game.attributes and game.priorities")


def test_a_code_the_game_does_not_list_is_refused():
    token = next(t for t in CAT.tokens if t.id == "str-low")
    other = dataclasses.replace(token, values=(("attribute", "WIS"), *token.values[1:]))
    with pytest.raises(UsageError, match="^token 'str-low' \\(line \\d+\\) is not a Meatshields token"):
        MeatshieldToken.of(other, CAT.game)


def test_the_meatshields_loader_names_its_game_module():
    assert CAT.module == "meatshields"
    assert load_catalogue(ROOT / "examples/hex-counters/counters.yaml").module == "generic"
    assert {f.name: f.default for f in dataclasses.fields(Catalogue)}["module"] == "generic"  # the generic model names no game
