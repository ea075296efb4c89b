"""Plain YAML words and numbers as they are written (the new user's trial): ``NO``, ``on`` and
``yes`` are text, as YAML 1.2 reads them (only ``true`` and ``false`` are booleans), and a text
field prints a number as it was written (``007``, ``1.10``). Measured on the built PDF's text."""

from __future__ import annotations

import pickle

from pypdf import PdfReader

from tokengen.sources.yamlsrc import WrittenFloat, WrittenInt

CATALOGUE = """title: Words
size: 1in
fields:
  code: text
  elite: {type: text, optional: true}
template:
  - {text: "{code}", at: [0.5, 0.4], size: 0.15}
  - {text: "ELITE", at: [0.5, 0.8], size: 0.12, when: {elite: yes}}
tokens:
  - {id: a, code: NO, elite: yes}
  - {id: b, code: on, elite: "no"}
  - {id: c, code: 1.10}
  - {id: d, code: 007}
  - {id: e, code: true}
"""


def test_yaml_words_and_numbers_print_as_written(run, tmp_path):
    (tmp_path / "cat.yaml").write_text(CATALOGUE, "utf-8")
    result = run("build", str(tmp_path / "cat.yaml"), "-o", str(tmp_path / "cat.pdf"), "--no-cut-lines")
    assert result.exit_code == 0, result.stderr
    text = PdfReader(tmp_path / "cat.pdf").pages[0].extract_text()
    words = text.split()
    for word in ("NO", "on", "1.10", "007"):
        assert word in words, (word, text)
    assert "False" not in words and "1.1" not in words and "7" not in words
    assert words.count("ELITE") == 1  # elite: yes matches the token whose elite is yes, not b's "no"


def test_a_written_number_keeps_its_text_through_pickling():
    for number in (WrittenInt(7, "007"), WrittenFloat(1.1, "1.10")):
        again = pickle.loads(pickle.dumps(number))
        assert again == number and again.written == number.written and type(again) is type(number)
