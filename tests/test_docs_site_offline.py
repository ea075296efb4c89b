"""The docs site reads offline and from disk (issue 43): no page loads anything from another host
(the theme's font server was asked on every page), and menu links name files, not folders."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent

#: An element that loads what it names (a stylesheet, a script, a picture, a frame) from another host,
#: or a stylesheet's url() / @import of one.
REMOTE_LOAD = re.compile(r"<(?:link|script|img|iframe|source)\b[^>]*\b(?:href|src)=\"(?:https?:)?//|url\(\s*[\"']?(?:https?:)?//|@import\s+[\"']?(?:https?:)?//")


def test_the_config_asks_no_font_server_and_writes_pages_as_files():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    assert config["theme"]["font"] is False
    assert config["use_directory_urls"] is False


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocs")
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-d", str(out)], cwd=ROOT, env=env, check=True,
                   capture_output=True)
    return out


def test_no_page_loads_anything_from_another_host(site: Path):
    loads = {str(p.relative_to(site)): REMOTE_LOAD.findall(p.read_text("utf-8", errors="replace"))
             for p in [*site.rglob("*.html"), *site.rglob("*.css")]}
    assert {name: found for name, found in loads.items() if found} == {}
    assert len(loads) > 20


def test_menu_links_open_files_from_disk(site: Path):
    index = (site / "index.html").read_text("utf-8")
    links = re.findall(r'class="md-nav__link[^"]*"[^>]*href="([^"#]+)"|href="([^"#:]+)"[^>]*class="md-nav__link', index)
    targets = {a or b for a, b in links} - {"."}
    assert "guide/install.html" in targets and "gallery.html" in targets
    assert all(t.endswith(".html") and (site / t).is_file() for t in targets), sorted(targets)


def test_gallery_pictures_are_shown_large_and_open_full_size(site: Path):
    gallery = (site / "gallery.html").read_text("utf-8")
    pictures = re.findall(r'<a href="([^"]+\.png)"><img alt="[^"]*" class="gallery-pic" src="([^"]+)"', gallery)
    builds = re.findall(r'^    "([a-z0-9-]+)": \[', (ROOT / "examples" / "render_pages.py").read_text("utf-8"), re.M)
    assert len(pictures) == len(builds) >= 9 and all(href == src for href, src in pictures)  # one per example the gallery builds
    css = (site / "stylesheets" / "extra.css").read_text("utf-8")
    assert re.search(r"img\.gallery-pic \{ width: (\d+)px", css) and int(re.search(r"gallery-pic \{ width: (\d+)px", css)[1]) >= 300
