"""Installs anywhere (issue 11): package data, the bundled catalogue, ``tokengen init``, the
default output name, ``python -m tokengen``, and a real wheel installed into a fresh venv."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pypdf
import pytest

import tokengen
from tests.conftest import ROOT
from tokengen.sources import bundled, fonts

PACKAGE = ROOT / "tokengen"  # the source tree
INSTALLED = Path(tokengen.__file__).parent  # the package in use (the same folder in an editable install)


# ---- the package's copies cannot drift from the repository's files -----------------------------


@pytest.mark.parametrize("top, copy", [
    ("token_defs.yaml", "data/catalogues/meatshields.yaml"),
    ("fonts/DejaVuSans.ttf", "data/fonts/DejaVuSans.ttf"),
    ("fonts/DejaVuSans-Bold.ttf", "data/fonts/DejaVuSans-Bold.ttf"),
    ("fonts/DejaVuSans-Oblique.ttf", "data/fonts/DejaVuSans-Oblique.ttf"),
    ("fonts/DejaVuSans-BoldOblique.ttf", "data/fonts/DejaVuSans-BoldOblique.ttf"),
    ("fonts/LICENSE-DejaVu.txt", "data/fonts/LICENSE-DejaVu.txt"),
])
def test_package_copies_match_the_repository(top: str, copy: str):
    assert (PACKAGE / copy).read_bytes() == (ROOT / top).read_bytes(), f"tokengen/{copy} differs from {top}: run 'make data'"


def test_fonts_come_from_the_package(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("TOKENGEN_FONT_DIR", raising=False)
    assert fonts.font_dir() == INSTALLED / "data" / "fonts"


# ---- bundled catalogues, init, default output ---------------------------------------------------


def test_bundled_catalogue_builds_by_name_from_an_empty_folder(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    result = run("build", "meatshields")
    assert (result.exit_code, result.stdout) == (0, "wrote meatshields.pdf: 18 tokens (1 set) on 1 face page\n")
    assert len(pypdf.PdfReader(tmp_path / "meatshields.pdf").pages) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["meatshields.pdf"]
    assert run("check", "meatshields").exit_code == 0


def test_a_file_wins_over_a_bundled_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "meatshields").write_text("x", "utf-8")
    assert bundled.resolve("meatshields") == Path("meatshields")
    (tmp_path / "meatshields").unlink()
    assert bundled.resolve("meatshields") == INSTALLED / "data" / "catalogues" / "meatshields.yaml"


def test_missing_default_catalogue_says_init_and_bundled(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    result = run("build")
    assert (result.exit_code, result.stderr) == (
        2, "tokengen: error: token_defs.yaml: file not found (write a catalogue to start from with 'tokengen init', "
           "or use a bundled one by name: meatshields)\n")
    assert list(tmp_path.iterdir()) == []


def test_init_writes_a_catalogue_that_builds_and_never_overwrites(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.chdir(tmp_path)
    result = run("init", "mine")
    assert (result.exit_code, result.stdout) == (0, "wrote mine/token_defs.yaml\nwrote mine/README-token_defs.md\n")
    assert (tmp_path / "mine" / "token_defs.yaml").read_bytes() == (ROOT / "token_defs.yaml").read_bytes()
    assert "| `tokens` |" in (tmp_path / "mine" / "README-token_defs.md").read_text("utf-8")
    monkeypatch.chdir(tmp_path / "mine")
    (tmp_path / "mine" / "token_defs.yaml").write_text(
        (ROOT / "token_defs.yaml").read_text("utf-8").replace("title: Meatshields", "title: My Own Set"), "utf-8")
    assert run("build").stdout.startswith("wrote my-own-set.pdf: 18 tokens")
    before = (tmp_path / "mine" / "token_defs.yaml").read_bytes()
    again = run("init")
    assert (again.exit_code, again.stderr) == (
        2, "tokengen: error: token_defs.yaml: already exists; tokengen init never overwrites (remove it or pick another folder)\n")
    assert (tmp_path / "mine" / "token_defs.yaml").read_bytes() == before


@pytest.mark.parametrize("name, title, expected", [
    ("token_defs.yaml", "Meatshields", "meatshields.pdf"),
    ("token_defs.yaml", "T", "t.pdf"),
    ("cats.yaml", "Anything", "cats.pdf"),
    ("My Set.yaml", "x", "my-set.pdf"),
    ("___.yaml", "Hand of Doom!", "hand-of-doom.pdf"),
])
def test_default_output_is_named_after_the_catalogue(name: str, title: str, expected: str):
    assert bundled.default_output(Path("some/where") / name, title) == Path(expected)


def test_build_without_o_names_the_pdf_after_the_catalogue(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    cat = tmp_path / "cats.yaml"
    cat.write_bytes((ROOT / "tests" / "data" / "good" / "minimal.yaml").read_bytes())
    monkeypatch.chdir(tmp_path)
    assert run("build", "cats.yaml").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cats.pdf", "cats.yaml"]


def test_python_dash_m(tmp_path: Path):
    result = subprocess.run([sys.executable, "-m", "tokengen", "--version"], cwd=tmp_path, capture_output=True, text=True)
    assert (result.returncode, result.stdout) == (0, "tokengen, version " + tokengen.__version__ + "\n")


def test_py_typed_ships():
    assert (PACKAGE / "py.typed").is_file() and (INSTALLED / "py.typed").is_file()


# ---- a real install: the wheel into a fresh venv outside the repository ---------------------------


def _run(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, env=env)
    assert result.returncode == 0, f"{args}: exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    return result


def _offline_first(args: list[str], cwd: Path) -> None:
    """Run a uv command from uv's cache alone (no network: the matrix and earlier runs fill the
    cache), and only if something is missing there, again with the registry."""
    if subprocess.run([*args, "--offline"], cwd=cwd, capture_output=True).returncode != 0:
        _run(args, cwd=cwd)


@pytest.mark.install
def test_wheel_installs_into_a_fresh_venv_and_works_from_an_empty_folder(tmp_path: Path):
    """Build the wheel, install it (not editable) into a new venv in a temporary folder, and run
    the commands a new user would, from an empty folder. With uv (the test extra) the build
    backend and the dependencies come from uv's cache when they are there, so the test also runs
    offline; without it, pip's cache and the configured index serve them."""
    dist = tmp_path / "dist"
    env_dir = tmp_path / "venv"
    py = env_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    try:
        from uv import find_uv_bin

        uv: str | None = find_uv_bin()
    except (ImportError, FileNotFoundError):
        uv = None
    if uv:
        _offline_first([uv, "build", "--quiet", "--wheel", "--out-dir", str(dist), str(ROOT)], cwd=tmp_path)
    else:
        _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(dist), str(ROOT)], cwd=tmp_path)
    [wheel] = dist.glob("tokengen_print-*.whl")
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("tokengen/data/starters/counters/tokens.csv", "tokengen/data/starters/cards/art/knight.png",
                   "tokengen/data/starters/markers/markers.yaml"):
        assert needed in names
    for needed in ("tokengen/py.typed", "tokengen/data/fonts/DejaVuSans.ttf", "tokengen/data/catalogues/meatshields.yaml",
                   "tokengen/data/profiles.yaml", "tokengen/data/catalogue.schema.json", "tokengen/__main__.py"):
        assert needed in names
    assert not [n for n in names if "/share/" in n or n.startswith("tests/")]
    if uv:
        _run([uv, "venv", "--quiet", "--python", sys.executable, str(env_dir)], cwd=tmp_path)
        _offline_first([uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", str(py), str(wheel)], cwd=tmp_path)
    else:
        venv.create(env_dir, with_pip=True)
        _run([str(py), "-m", "pip", "install", "--quiet", str(wheel)], cwd=tmp_path)
    _installed_weight_is_light(env_dir)
    _run([str(py), "-c", "import tokengen.web.server"], cwd=tmp_path)  # serve's page, without an extra
    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TOKENGEN_FONT_DIR", "VIRTUAL_ENV")}
    script = env_dir / "bin" / "tokengen"
    where = _run([str(py), "-c", "import tokengen; print(tokengen.__file__)"], cwd=empty, env=env).stdout.strip()
    assert Path(where).is_relative_to(env_dir), where  # the installed copy, not the repository's
    assert _run([str(script), "build", "meatshields"], cwd=empty, env=env).stdout == "wrote meatshields.pdf: 18 tokens (1 set) on 1 face page\n"
    assert len(pypdf.PdfReader(empty / "meatshields.pdf").pages) == 1
    # pypdf and pdfplumber are test-only: the installed package exports and preflights without them
    missing = "import importlib.util as u; print([m for m in ('pypdf', 'pdfplumber') if u.find_spec(m) is None])"
    assert _run([str(py), "-c", missing], cwd=empty, env=env).stdout == "['pypdf', 'pdfplumber']\n"
    shop = _run([str(script), "export", "meatshields", "--profile", "print-shop", "-o", "shop"], cwd=empty, env=env).stdout
    assert shop.splitlines()[-1] == "preflight: meatshields-print-shop.pdf passes every check of profile print-shop"
    _run([str(script), "init"], cwd=empty, env=env)
    assert (empty / "token_defs.yaml").is_file()
    assert _run([str(script), "build", "-o", "mine.pdf"], cwd=empty, env=env).stdout.startswith("wrote mine.pdf: 18 tokens")
    version = _run([str(py), "-m", "tokengen", "--version"], cwd=empty, env=env).stdout
    assert version == "tokengen, version " + tokengen.__version__ + "\n"
    _starters_build_check_and_export(script, empty, env)


#: The venv's own installer, which a fresh venv has before tokengen is installed into it.
INSTALLER = ("pip", "setuptools", "pkg_resources", "_distutils_hack", "distutils-precedence.pth")


def _installed_weight_is_light(env_dir: Path) -> None:
    """Issue 43: the default install's packages (bytecode compiled, as pip does) take under 100 MB,
    the venv's own pip and setuptools apart; the extras' packages are not among them."""
    [site] = env_dir.glob("lib/python3*/site-packages") or env_dir.glob("Lib/site-packages")
    ours = [p for p in site.iterdir() if not p.name.startswith(INSTALLER)]
    size = sum(f.stat().st_size for p in ours for f in ([p] if p.is_file() else p.rglob("*")) if f.is_file())
    assert size < 100 * 2**20, f"the default install takes {size / 2**20:.1f} MB"
    names = {p.name.split("-")[0].lower() for p in ours}
    assert not names & {"ezdxf", "numpy", "pyphen"}, sorted(names)
    assert {"starlette", "uvicorn"} <= names  # tokengen serve works in the default install


#: starter → its catalogue file, its token count and the files it writes besides the catalogue
STARTERS = {
    "meatshields": ("token_defs.yaml", 18, ["README-token_defs.md"]),
    "counters": ("counters.yaml", 20, ["tokens.csv"]),
    "markers": ("markers.yaml", 36, ["tokens.csv"]),
    "cards": ("cards.yaml", 8, ["art/back.svg", "art/dragon.png", "art/knight.png", "art/treasure.png", "art/wizard.png"]),
}


def _starters_build_check_and_export(script: Path, folder: Path, env: dict[str, str]) -> None:
    """Each starter of the installed package, written by ``tokengen init --starter``, builds,
    checks and exports (print-shop, passing its preflight) with no warning at all."""
    listed = _run([str(script), "init", "--list"], cwd=folder, env=env).stdout
    assert [line.split()[0] for line in listed.splitlines()] == list(STARTERS)
    for name, (catalogue, tokens, others) in STARTERS.items():
        made = _run([str(script), "init", name, "--starter", name], cwd=folder, env=env)
        assert made.stderr == "" and sorted(made.stdout.splitlines()) == sorted(f"wrote {name}/{f}" for f in [catalogue, *others])
        here = folder / name
        built = _run([str(script), "build", catalogue, "-o", "sheet.pdf", "--format", "json"], cwd=here, env=env)
        report = json.loads(built.stdout)
        assert (built.stderr, report["tokens"], report["warnings"]) == ("", tokens, [])
        assert len(pypdf.PdfReader(here / "sheet.pdf").pages) == report["pages"]
        checked = _run([str(script), "check", catalogue, "--format", "json"], cwd=here, env=env)
        findings = json.loads(checked.stdout)["findings"]
        assert checked.stderr == "" and [f for f in findings if f["severity"] != "info"] == [], name
        shop = _run([str(script), "export", catalogue, "--profile", "print-shop", "-o", "shop", "--format", "json"], cwd=here, env=env)
        exported = json.loads(shop.stdout)
        assert (shop.stderr, exported["passed"], exported["warnings"]) == ("", True, []), name
        assert all(c["passed"] and not c["warning"] for c in exported["checks"]), name


def test_every_starter_builds_from_the_tree(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The same starters from this tree (the install test does it from the wheel)."""
    monkeypatch.chdir(tmp_path)
    assert [line.split()[0] for line in run("init", "--list").stdout.splitlines()] == list(STARTERS)
    for name, (catalogue, tokens, _) in STARTERS.items():
        assert run("init", name, "--starter", name).exit_code == 0
        result = run("build", str(Path(name) / catalogue), "-o", f"{name}.pdf", "--format", "json")
        assert (result.exit_code, result.stderr, json.loads(result.stdout)["tokens"]) == (0, "", tokens)
    again = run("init", "cards", "--starter", "cards")
    assert (again.exit_code, again.stderr) == (2, "tokengen: error: cards/art/back.svg: already exists; tokengen init never overwrites "
                                                   "(remove it or pick another folder)\n")


def test_the_cards_starter_goes_to_a_card_shop_as_it_is(run, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """DriveThruCards' preset trim (2.5 × 3.5 in) is larger than the starter's 63 × 88 mm: its
    back, a vector, stays sharp, so the export passes its preflight with no warning."""
    monkeypatch.chdir(tmp_path)
    assert run("init", "cards", "--starter", "cards").exit_code == 0
    result = run("export", "cards/cards.yaml", "--profile", "dtc-poker", "-o", "shop", "--format", "json")
    exported = json.loads(result.stdout)
    assert (result.exit_code, result.stderr, exported["passed"], exported["warnings"]) == (0, "", True, [])


def test_an_unknown_starter_is_named(run, tmp_path: Path):
    result = run("init", str(tmp_path / "x"), "--starter", "card")
    assert (result.exit_code, result.stderr) == (2, "tokengen: error: --starter: unknown starter 'card'; did you mean 'cards'?\n")
    assert not (tmp_path / "x").exists()


def test_the_starters_ship_in_the_package():
    starters = INSTALLED / "data" / "starters"
    assert sorted(p.name for p in starters.iterdir() if p.is_dir()) == ["cards", "counters", "markers"]
    shipped = (ROOT / "examples" / "poker-cards" / "art")
    for art in shipped.iterdir():
        assert (starters / "cards" / "art" / art.name).read_bytes() == art.read_bytes()


# ---- Windows limits and liveness ------------------------------------------------------------------


def test_windows_caps_the_worker_pool_at_61(monkeypatch: pytest.MonkeyPatch):
    from tokengen.outputs import batch

    assert (batch.max_workers("win32"), batch.max_workers("linux")) == (61, 256)
    monkeypatch.setattr(batch.sys, "platform", "win32")
    assert batch.max_workers() == 61


def test_liveness_is_psutils(monkeypatch: pytest.MonkeyPatch):
    """The stale-.part clean-up asks psutil whether a process exists (os.kill(pid, 0) is no
    liveness test on Windows, where it terminates the process)."""
    import psutil

    from tokengen.io import atomic

    assert atomic._alive(os.getpid()) and atomic._alive(os.getppid()) and not atomic._alive(2 ** 22 + 12345)
    asked = []
    monkeypatch.setattr(psutil, "pid_exists", lambda pid: asked.append(pid) or False)
    assert not atomic._alive(os.getpid()) and asked == [os.getpid()]


# ---- lazy imports: each command loads only what it needs -----------------------------------------

HEAVY = ("reportlab", "jsonschema", "pypdf", "pdfplumber", "pypdfium2", "PIL", "yaml", "tokengen.games.meatshields.rules", "reportlab.platypus")


def _loaded_after(*args: str, cwd: Path) -> set[str]:
    code = ("import sys\nfrom tokengen.cli import main\ncode = main(sys.argv[1:])\n"
            f"print(' '.join(m for m in {HEAVY!r} if m in sys.modules))\nsys.exit(code)\n")
    result = subprocess.run([sys.executable, "-c", code, *args], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return set(result.stdout.splitlines()[-1].split())


def test_version_and_help_load_no_heavy_library(tmp_path: Path):
    assert _loaded_after("--version", cwd=tmp_path) == set()
    assert _loaded_after("build", "--help", cwd=tmp_path) == set()


def test_build_loads_no_pdf_reader_and_no_rules_engine(tmp_path: Path):
    loaded = _loaded_after("build", "meatshields", cwd=tmp_path)
    assert {"reportlab", "yaml"} <= loaded
    # jsonschema only for a file the schema pre-check does not pass (tests/sources/test_schemas_fast.py)
    assert not loaded & {"jsonschema", "pypdf", "pdfplumber", "pypdfium2", "tokengen.games.meatshields.rules", "reportlab.platypus"}
