"""Docs that cannot drift: every command has help with an example, a section in the generated
command reference and a mention in the README; every command and catalogue the manual shows
(README.md and the docs site's pages) is run."""

from __future__ import annotations

import importlib.util
import re
import shlex
import shutil
from pathlib import Path

import click
import pytest
from conftest import MANUAL_PAGES, ROOT, manual

from tokengen.cli import cli

README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = sorted(cli.commands)


def _hooks():
    spec = importlib.util.spec_from_file_location("mkdocs_hooks", ROOT / "tools" / "mkdocs_hooks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOKS = _hooks()


def test_there_are_commands():
    assert {"build", "check", "target", "export", "preflight", "align"} <= set(COMMANDS)


@pytest.mark.parametrize("name", COMMANDS)
def test_command_help_has_an_example(run, name: str):
    result = run(name, "--help")
    assert result.exit_code == 0
    assert "Example" in result.stdout
    assert f"tokengen {name}" in result.stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_command_is_in_the_readme(name: str):
    assert f"tokengen {name}" in README


def test_every_command_is_in_the_generated_reference():
    reference = HOOKS.command_reference()
    walked = [path for path, _ in HOOKS.walk_commands(cli)]
    assert walked == [f"tokengen {name}" for name in COMMANDS]  # no sub-groups today; the walk would find them
    for path in walked:
        assert f"\n## {path}\n" in reference
    sections = re.findall(r"^## (tokengen[^\n]*)$", reference, re.M)
    assert sections == ["tokengen", *walked]
    build = reference.split("\n## tokengen build\n", 1)[1].split("\n## ", 1)[0]
    assert "--format [text|json]" in build and "--quiet" in build and "tokengen build meatshields" in build


def test_a_command_without_an_example_fails_the_reference(monkeypatch: pytest.MonkeyPatch):
    @click.command("bare")
    def bare() -> None:
        """Does a thing."""

    monkeypatch.setitem(cli.commands, "bare", bare)
    with pytest.raises(click.ClickException, match=r"^tokengen bare: its help has no example; add one to its docstring$"):
        HOOKS.command_reference()


def test_readme_is_the_first_page_and_short():
    lines = README.count("\n")
    assert lines < 260, lines
    assert README.count("![") == 1  # one picture
    for needed in ("make pdf", "make test", "pip install", "--starter counters", "tokengen export meatshields --profile print-shop"):
        assert needed in README
    page = HOOKS.readme_page(README)
    assert "](docs/" not in page and "](guide/home.md)" in page and "](changelog.md)" in page


def test_readme_links_reach_the_manual():
    generated = {"docs/reference/commands.md"}
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README):
        if "://" in target:
            continue
        assert target in generated or (ROOT / target).exists(), target


def test_every_page_is_in_the_nav():
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))

    def pages(nav):
        for entry in nav:
            for value in entry.values():
                yield from pages(value) if isinstance(value, list) else [value]

    in_nav = set(pages(config["nav"]))
    on_disk = {p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs").rglob("*.md")}
    assert on_disk | {"index.md", "changelog.md", "reference/commands.md"} == in_nav


def test_readme_shows_the_two_setup_commands():
    assert "make pdf" in README and "make test" in README


def test_make_test_builds_the_docs_strictly_between_mypy_and_pytest():
    recipe = (ROOT / "Makefile").read_text("utf-8").split("\ntest:", 1)[1].split("\n\n", 1)[0]
    steps = [line.strip() for line in recipe.splitlines()[1:]]
    assert steps[0] == "$(BIN)/python -m mypy"
    assert "-m mkdocs build --strict" in steps[1] and steps[2] == "$(BIN)/python -m pytest"


def test_version(run):
    from tokengen._version import __version__

    result = run("--version")
    assert result.exit_code == 0 and result.stdout == f"tokengen, version {__version__}\n"


def test_readme_plate_examples_are_accepted(tmp_path):
    """Each `plate: ...` the manual shows is what the template parser takes: a plate group name."""
    from tokengen import load_catalogue
    from tokengen.errors import CatalogueError

    shown = re.findall(r"plate: ([^,`}]+), plate_colour: (\"[^\"]*\")", manual())
    assert shown == [("label", '"{background}"')]
    for name, colour in shown + [("true", '"#ffffff"')]:
        path = tmp_path / "plate.yaml"
        path.write_text("title: P\nfields: {name: text, background: colour}\ntemplate:\n"
                        f"  - {{text: \"{{name}}\", at: [0.5, 0.5], plate: {name}, plate_colour: {colour}}}\n"
                        "tokens:\n  - {name: A, background: \"#ffffff\"}\n", "utf-8")
        if name == "true":  # a boolean is refused: the manual must not show one
            with pytest.raises(CatalogueError, match=r"plate.yaml:4: template\[0\]\.plate: expected a plate group name, got True"):
                load_catalogue(path)
        else:
            assert load_catalogue(path).tokens[0].template.elements[0].plate == name


# ---- every command and catalogue block of the manual runs ------------------------------------------

FENCE = re.compile(r"(<!-- sketch[^>]*-->\n)?```(\w*)\n(.*?)```", re.S)
#: commands that never end by themselves (a server, a watcher) are shown, not run
LONG_RUNNING = ("tokengen serve", "--watch")


def _blocks(kind: str) -> list[tuple[str, str]]:
    """``(page:line, body)`` of every ```sh (commands) or ```yaml catalogue block of the manual."""
    found = []
    for page in MANUAL_PAGES:
        text = page.read_text("utf-8")
        for match in FENCE.finditer(text):
            sketch, lang, body = match.groups()
            where = f"{page.relative_to(ROOT).as_posix()}:{text.count(chr(10), 0, match.start(2)) + 1}"
            if kind == "sh" and lang == "sh" and re.search(r"^(tokengen |python -m tokengen |(cd|mkdir) .*&& tokengen )", body, re.M):
                found.append((where, body))
            elif kind == "catalogue" and lang == "yaml" and not sketch and re.search(r"^tokens:", body, re.M):
                found.append((where, body))
    return found


def _sandbox(tmp_path: Path) -> Path:
    """A folder laid out like the repository for the manual's commands: the catalogue, the examples."""
    shutil.copy(ROOT / "token_defs.yaml", tmp_path / "token_defs.yaml")
    shutil.copytree(ROOT / "examples", tmp_path / "examples", ignore=shutil.ignore_patterns("page.png", "__pycache__"))
    return tmp_path


def test_the_manual_has_command_and_catalogue_blocks():
    assert len(_blocks("sh")) >= 10 and len(_blocks("catalogue")) >= 15


@pytest.mark.parametrize("where, body", _blocks("sh"), ids=[w for w, _ in _blocks("sh")])
def test_manual_commands_run(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, body: str):
    """Each ``tokengen`` line of the block runs (in order, in one folder) and exits 0; ``cd`` and
    ``mkdir -p`` are followed; pip, make, shell set-up and long-running commands are not run."""
    monkeypatch.chdir(_sandbox(tmp_path))
    ran = 0
    for line in body.splitlines():
        if any(s in line for s in LONG_RUNNING):
            continue
        for part in line.split("&&"):
            words = shlex.split(part, comments=True)
            if words[:3] == ["python", "-m", "tokengen"]:
                words = words[2:]
            if not words:
                continue
            if words[0] == "cd":
                monkeypatch.chdir(words[1])
            elif words[:2] == ["mkdir", "-p"]:
                Path(words[2]).mkdir(parents=True, exist_ok=True)
            elif words[0] == "tokengen":
                result = run(*words[1:])
                assert result.exit_code == 0, f"{where}: {part.strip()}\n{result.stderr}"
                ran += 1
    assert ran, f"{where}: no command ran"


@pytest.mark.parametrize("where, body", _blocks("catalogue"), ids=[w for w, _ in _blocks("catalogue")])
def test_manual_catalogues_build(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, body: str):
    """Each catalogue the manual shows (not marked as a sketch) builds as it stands; the art it
    names is the docs build's stand-in picture (:func:`tools.mkdocs_hooks.art`)."""
    monkeypatch.chdir(tmp_path)
    HOOKS.art(tmp_path)
    (tmp_path / "shown.yaml").write_text(body, "utf-8")
    result = run("build", "shown.yaml", "-o", "shown.pdf")
    assert (result.exit_code, result.stderr) == (0, ""), where
    assert result.stdout.startswith("wrote shown.pdf: ")


def test_every_picture_marker_is_a_catalogue_block():
    text = (ROOT / "docs" / "guide" / "templates.md").read_text("utf-8")
    names = list(HOOKS.pictures(text))
    assert names == ["text", "glyph", "image", "rect", "circle", "frame", "boxed-text", "line", "polygon", "regular", "star",
                     "ellipse", "sector", "arc-text", "rotate-gradient"]
    for name in names:
        assert f"](../pictures/{name}.png)" in text


def test_a_picture_is_the_face_of_its_catalogue(tmp_path: Path):
    """The docs build's picture of a catalogue is its face at 150 DPI, cropped to the trim (+2 pt)."""
    from PIL import Image

    body = HOOKS.pictures((ROOT / "docs" / "guide" / "templates.md").read_text("utf-8"))["rect"]
    png = HOOKS.render_picture(body, tmp_path / "rect.png")
    with Image.open(png) as im:
        assert im.size == (round(76 * 150 / 72), round(76 * 150 / 72))
        rgb = im.convert("RGB")
        assert rgb.getpixel((im.width // 2, im.height // 2)) == (0xef, 0xe4, 0xc8)  # the panel
        assert rgb.getpixel((12, im.height // 2)) == (0x8a, 0x1c, 0x1c)  # the background, near the edge
