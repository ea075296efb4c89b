"""tokengen serve in a real headless browser (Debian's Chromium driven by Playwright).

Every wait is on something the page shows (an image's pixel width, the error box), never a
sleep; the timeout only turns a hang into a failure. Screenshots go to $TOKENGEN_SCREENSHOTS
when set (the README's picture is made this way), else to the test's temporary folder.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import CATALOGUE
from tests.servekit import HANG, Server, replace, snapshot

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed (pip install -e '.[test]')")

CHROMIUM = os.environ.get("TOKENGEN_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).is_file():
    pytest.skip(f"no Chromium at {CHROMIUM} (Debian: apt-get install chromium; or set TOKENGEN_CHROMIUM)", allow_module_level=True)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

IMAGES = "document.querySelectorAll('#sheet img')"


def _widths(n: int, width: int) -> str:
    """JS: the sheet shows n pages, all loaded, each `width` px wide (the PNG's own size)."""
    return (f"(() => {{ const imgs = [...{IMAGES}]; return imgs.length === {n} && "
            f"imgs.every(i => i.complete && i.naturalWidth === {width}); }})()")


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("TOKENGEN_SCREENSHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_page_in_chromium(tmp_path: Path, run, shots: Path):
    folder = tmp_path / "game"
    folder.mkdir()
    cat = folder / "token_defs.yaml"
    shutil.copy(CATALOGUE, cat)
    text = cat.read_text(encoding="utf-8")
    before = snapshot(folder)
    server = Server(cat, cwd=folder)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                context = browser.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900}, bypass_csp=True)  # the test's own JS only
                page = context.new_page()
                page.set_default_timeout(HANG * 1000)
                page.goto(server.url + "/")
                page.wait_for_function(_widths(1, 850))  # Letter at 100 DPI
                assert "Playable" in page.inner_text("#verdict")
                assert page.locator("#odds table tr").count() > 1  # the draw-odds table

                # keyboard: the first Tab reaches the first control, which is labelled
                page.keyboard.press("Tab")
                assert page.evaluate("document.activeElement.id") == "page"

                # change the page size and the backs: the preview follows
                page.get_by_label("Page size").select_option("a4")
                page.wait_for_function(_widths(1, 827))  # A4 at 100 DPI
                page.get_by_label("Backs", exact=True).select_option("duplex")
                page.wait_for_function(_widths(2, 827))

                # the home PDF is the bytes the CLI writes for the same options
                with page.expect_download() as info:
                    page.click("#download-home")
                downloaded = Path(info.value.path()).read_bytes()
                out = tmp_path / "cli.pdf"
                assert run("build", str(cat), "--page", "a4", "--backs", "duplex", "-o", str(out)).exit_code == 0
                assert downloaded == out.read_bytes()
                page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(shots / "serve.png"), full_page=False)

                # keyboard only: type a size, press Enter
                page.get_by_label("Token size").fill("0.75in")
                page.keyboard.press("Enter")
                page.wait_for_function("document.getElementById('command').textContent.includes('--size=0.75in')")
                page.wait_for_function(_widths(2, 827))
                page.get_by_label("Token size").fill("")
                page.keyboard.press("Enter")
                page.wait_for_function("!document.getElementById('command').textContent.includes('--size')")

                # a bad value: the CLI's message in place of the sheet
                page.get_by_label("Copies of every token").fill("0")
                page.get_by_label("Copies of every token").dispatch_event("change")
                page.wait_for_selector("#error:not([hidden])")
                assert "Invalid value for '--copies': 0 is not in the range 1<=x<=100000" in page.inner_text("#error")
                page.get_by_label("Copies of every token").fill("1")
                page.get_by_label("Copies of every token").dispatch_event("change")
                page.wait_for_function(_widths(2, 827))

                # edit the catalogue on disk: the error appears, then clears when fixed
                replace(cat, text + "\nbogus: [\n")
                page.wait_for_selector("#error:not([hidden])")
                assert "token_defs.yaml:" in page.inner_text("#error") and "YAML syntax error" in page.inner_text("#error")
                assert page.locator("#sheet img").count() == 0
                page.screenshot(path=str(shots / "serve-error.png"))
                replace(cat, text)
                page.wait_for_selector("#error", state="hidden")
                page.wait_for_function(_widths(2, 827))

                # path traversal from the page is refused
                assert page.evaluate("fetch('/files/..%2f..%2f..%2fetc%2fpasswd').then(r => r.status)") == 403
                assert page.evaluate("fetch('/files/token_defs.yaml').then(r => r.status)") == 200

                # 200 % zoom: a 1280 px window at zoom 2 is 640 CSS px wide; nothing scrolls sideways
                zoomed = browser.new_context(viewport={"width": 640, "height": 450}, device_scale_factor=2, bypass_csp=True)
                page2 = zoomed.new_page()  # a second browser window at the same time
                page2.set_default_timeout(HANG * 1000)
                page2.goto(server.url + "/")
                page2.wait_for_function(_widths(1, 850))
                assert page2.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
                page2.screenshot(path=str(shots / "serve-200.png"), full_page=True)
                zoomed.close()
                context.close()
            finally:
                browser.close()
    finally:
        assert server.stop() == 130  # Ctrl-C: exit 130, as every command
    assert snapshot(folder).keys() == before.keys()  # the server wrote nothing beside the catalogue


def test_the_check_of_another_game_in_chromium(tmp_path: Path):
    """A catalogue with declared fields: the verdict counts in words and names no Meatshield
    variants; the rules sheet (Meatshields only) is not offered."""
    folder = tmp_path / "game"
    folder.mkdir()
    cat = folder / "counters.yaml"
    cat.write_text('title: Counters\nsize: 0.5in\nfields: {name: text}\ntemplate:\n  - {text: "{name}", at: [0.5, 0.5], size: 0.3}\n'
                   "tokens:\n  - {id: a, name: Alpha}\n", "utf-8")
    server = Server(cat, cwd=folder)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                page = browser.new_page(bypass_csp=True)  # the test's own JS only
                page.set_default_timeout(HANG * 1000)
                page.goto(server.url + "/")
                page.wait_for_function(_widths(1, 850))
                page.wait_for_function("document.getElementById('verdict').textContent !== ''")
                assert page.inner_text("#verdict") == "Playable (0 errors, 0 warnings, 1 note)"
                assert page.inner_text("#check-title") == "Check"
                assert not page.is_visible("#rules")
            finally:
                browser.close()
    finally:
        assert server.stop() == 130  # Ctrl-C: exit 130, as every command


def test_downloads_in_chromium_refusals_and_a_render_in_flight(tmp_path: Path, run):
    """A refused print-shop download shows its preflight lines on the page (no server path); a
    download clicked while the page says "Rendering…" is the file of the options now shown."""
    from PIL import Image

    from tests.conftest import catalogue_with_art

    folder = tmp_path / "game"
    folder.mkdir()
    Image.new("RGB", (20, 20), (200, 30, 30)).save(folder / "lo.png")  # 16 DPI: print-shop's preflight fails
    cat = catalogue_with_art(CATALOGUE, {"str-low": "lo.png"}, folder / "token_defs.yaml")
    server = Server(cat, cwd=folder, tmpdir=tmp_path)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                page = browser.new_page(accept_downloads=True, bypass_csp=True)  # the test's own JS only
                page.set_default_timeout(HANG * 1000)
                page.goto(server.url + "/")
                page.wait_for_function(_widths(1, 850))
                page.click("#download-shop")
                page.wait_for_selector("#download-error:not([hidden])")
                shown = page.inner_text("#download-error")
                assert shown.splitlines()[0] == "Print-shop files refused:"
                assert ("meatshields-print-shop.pdf fails preflight (images): see tokengen preflight "
                        "meatshields-print-shop.pdf --profile print-shop") in shown
                assert "FAIL  images" in shown and "PASS  pages" in shown
                assert str(tmp_path) not in shown and "tokengen-serve-" not in shown
                assert page.get_attribute("#download-error", "role") == "alert"

                # hold the next render: the page says "Rendering…" while the download is clicked
                held: list = []
                page.route("**/api/render*", lambda route: held.append(route))
                page.get_by_label("Page size").select_option("a4")
                page.wait_for_function("document.getElementById('status').textContent === 'Rendering…'")
                assert held
                with page.expect_download() as info:
                    page.click("#download-home")
                downloaded = Path(info.value.path()).read_bytes()
                assert info.value.suggested_filename == "meatshields.pdf"
                assert page.is_hidden("#download-error")  # the old refusal is cleared
                for route in held:
                    route.continue_()
                page.unroute("**/api/render*")
                page.wait_for_function(_widths(1, 827))

                # under the page's own Content-Security-Policy the saved file (a blob: URL) arrives too
                strict = browser.new_page(accept_downloads=True)
                strict.set_default_timeout(HANG * 1000)
                strict.goto(server.url + "/")
                with strict.expect_download() as info:
                    strict.click("#download-align")
                assert info.value.suggested_filename == "align.pdf"
                assert Path(info.value.path()).read_bytes().startswith(b"%PDF-")
            finally:
                browser.close()
    finally:
        assert server.stop() == 130  # Ctrl-C: exit 130, as every command
    out = tmp_path / "cli.pdf"
    assert run("build", str(cat), "--page", "a4", "-o", str(out)).exit_code == 0
    assert downloaded == out.read_bytes()  # A4, the options shown, not the Letter sheet on screen
