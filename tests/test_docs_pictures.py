"""Pictures a Markdown page links to exist in a clone, or the page says they appear after
``make docs`` (the docs build draws them: ``tools/mkdocs_hooks.py``)."""

from __future__ import annotations

import re
import subprocess

from tests.conftest import ROOT

AFTER = "appear after `make docs`"
#: The pages whose pictures the docs build draws, and nothing else.
DRAWN = {"docs/gallery.md", "docs/guide/templates.md"}


def _pages() -> list[str]:
    """The project's Markdown pages: git's list in a checkout, else (an unpacked sdist) every ``.md``
    outside hidden folders and what builds make (``site/``, ``build/``, ``dist/``)."""
    if (ROOT / ".git").exists():
        return subprocess.run(["git", "ls-files", "*.md"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    made = {"site", "build", "dist", "out"}
    return sorted(str(p.relative_to(ROOT)) for p in ROOT.rglob("*.md")
                  if not any(part.startswith(".") or part in made for part in p.relative_to(ROOT).parts[:-1]))


def _missing() -> dict[str, list[str]]:
    tracked = _pages()
    out: dict[str, list[str]] = {}
    for name in tracked:
        page = ROOT / name
        for target in re.findall(r"!\[[^\]]*\]\(([^)\s#]+)\)", page.read_text("utf-8")):
            if "://" not in target and not (page.parent / target).exists():
                out.setdefault(name, []).append(target)
    return out


def test_only_the_drawn_pages_link_to_pictures_a_clone_lacks():
    assert set(_missing()) == DRAWN


def test_each_drawn_page_says_its_pictures_appear_after_make_docs():
    for name in DRAWN:
        text = (ROOT / name).read_text("utf-8")
        assert AFTER in text, name
    assert re.search(r"^docs:", (ROOT / "Makefile").read_text("utf-8"), re.M)  # the target the pages name


def test_the_checked_in_example_pictures_exist():
    for line in (ROOT / "docs" / "gallery.md").read_text("utf-8").splitlines():
        for target in re.findall(r"!\[[^\]]*\]\((examples/[^)]+)\)", line):
            assert (ROOT / target).is_file(), target
