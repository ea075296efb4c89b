"""Hostile-input figures for ``make bench`` (issue 10): time and peak memory that must not grow
with the size of a hostile input, shown as ratios between a small and a 10× (or more) larger
case within one run. Each case is a whole ``tokengen`` process, as in ``bench.py``.

* a length of 1,203 vs 120,003 characters on the command line (``--size 000…01in``): refused at
  once, so the ratio is about 1 (it was quadratic: 127 s at 120,000);
* a catalogue whose ``variants`` list holds 2,000 vs 20,000 mixed values: linear checks;
* PNG export of 4 vs 40 designs at 1200 DPI: one image in memory at a time, so peak memory
  stays level while time grows with the designs;
* single pages of 500 vs 5,000 pages: memory grows by a few KB a page, not by the drawing.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = ROOT / "tests" / "data" / "good" / "minimal.yaml"


def _catalogue(path: Path, tokens: int = 1, copies: int = 1, extra: str = "") -> Path:
    head = MINIMAL.read_text("utf-8").split("tokens:")[0].replace("title: T", "title: T" + extra)
    rows = "".join(f"  - {{id: t{i}, attribute: AGI, priority: low, copies: {copies}}}\n" for i in range(tokens))
    path.write_text(head + "tokens:\n" + rows, "utf-8")
    return path


def report(work: Path, tokengen: Path, timed, table) -> str:  # type: ignore[no-untyped-def]
    """The hostile-input table. ``timed`` and ``table`` are bench.py's (a command → Run)."""
    work = work / "hostile"
    work.mkdir()
    rows = [["hostile case (small → large)", "wall s", "wall ratio", "peak MB", "memory ratio"]]

    def pair(label: str, small: list[str], large: list[str]) -> None:
        a, b = (timed([str(tokengen), *cmd], 1) for cmd in (small, large))
        rows.append([label, f"{a.seconds:.2f} → {b.seconds:.2f}", f"{b.seconds / a.seconds:.2f}×",
                     f"{a.rss_mb:.0f} → {b.rss_mb:.0f}", f"{b.rss_mb / a.rss_mb:.2f}×"])

    def refused(cmd: list[str]) -> list[str]:  # these exit 2 by design: wrap so bench sees 0
        return [sys.executable, "-c", "import subprocess, sys; subprocess.run(sys.argv[1:])", str(tokengen), *cmd]

    out = str(work / "x.pdf")
    a, b = ("0" * n + "1in" for n in (1_200, 120_000))
    for label, small, large in (
        ("--size of 1,203 → 120,003 characters (refused)", ["build", str(MINIMAL), "--size", a, "-o", out],
         ["build", str(MINIMAL), "--size", b, "-o", out]),
        ("variants list of 2,000 → 20,000 mixed values (refused)",
         ["build", str(_catalogue(work / "v2k.yaml", extra=_variants(2_000))), "-o", out],
         ["build", str(_catalogue(work / "v20k.yaml", extra=_variants(20_000))), "-o", out]),
    ):
        x, y = timed(refused(small), 1), timed(refused(large), 1)
        rows.append([label, f"{x.seconds:.2f} → {y.seconds:.2f}", f"{y.seconds / x.seconds:.2f}×",
                     f"{x.rss_mb:.0f} → {y.rss_mb:.0f}", f"{y.rss_mb / x.rss_mb:.2f}×"])
    pair("PNG export, 4 → 40 designs at 1200 DPI",
         ["export", str(_catalogue(work / "p4.yaml", tokens=4)), "--profile", "tgc-chits", "--dpi", "1200", "-o", str(work / "p4")],
         ["export", str(_catalogue(work / "p40.yaml", tokens=40)), "--profile", "tgc-chits", "--dpi", "1200", "-o", str(work / "p40")])
    pair("single pages, 500 → 5,000 pages",
         ["export", str(_catalogue(work / "s500.yaml", copies=250)), "--profile", "single-pages", "-o", str(work / "s500")],
         ["export", str(_catalogue(work / "s5000.yaml", copies=2500)), "--profile", "single-pages", "-o", str(work / "s5000")])
    return table(rows)


def _variants(n: int) -> str:
    values = ", ".join(str(i) if i % 2 else f"v{i}" for i in range(n))
    return f"\nvariants: [{values}]"
