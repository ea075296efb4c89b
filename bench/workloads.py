"""Real-work cases for ``make bench`` (issue 27): art-heavy sheets, distinct faces, chit PNGs and
print-shop exports, memory to a million tokens, and the page's and ``--watch``'s latency.

``--before TREE`` runs every tokengen command a second time with ``PYTHONPATH=TREE`` (another
checkout's top folder, e.g. a ``git worktree`` of the commit before a change), so the before and
after ratios come from one run; it is refused when that folder holds no ``tokengen`` or when a
command given it would import another copy (:func:`before_tree`).

Each ratio is of CPU time (user + system of the child processes, ``resource.getrusage(
RUSAGE_CHILDREN)``; a process pool's workers count too), the median of alternating pairs in
this one run, so load from other work on the machine hits both sides alike. Peak memory is a
child's ``ru_maxrss``. Usage alone: ``python bench/workloads.py [--repeat N] [--only NAME ...]``
(names: sheet18, rules, photos, counters, exports, chits, shop, preflight, memory, latency).
"""

from __future__ import annotations

import argparse
import csv
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
TOKENGEN = Path(sys.executable).parent / "tokengen"
SKETCH = HERE / "reportlab_sketch.py"
PHOTOS = 100
PHOTO_PX = 1500
PALETTE = ["#8a2a1c", "#1c4f8a", "#3f6a2a", "#6f4ea8", "#b08a1e", "#2b2b2b", "#a8432f", "#3f6ea8"]


#: PYTHONPATH for tokengen commands (None: this checkout as installed); see ``--before``.
TREE: str | None = None


def _env(cmd: list[str]) -> dict[str, str] | None:
    if TREE is None or cmd[0] != str(TOKENGEN):
        return None
    return {**os.environ, "PYTHONPATH": TREE}


def cpu(cmd: list[str]) -> float:
    """CPU seconds (user + system) of ``cmd`` and its children, run to the end.

    Raises:
        RuntimeError: the command failed (with the end of its stderr).
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=_env(cmd))
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.strip()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def peak_mb(cmd: list[str]) -> float:
    """Peak RSS (MB) of ``cmd`` (one child process, ``os.wait4``)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=_env(cmd))
    _, status, usage = os.wait4(proc.pid, 0)
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {stderr.strip()[-400:]}")
    return usage.ru_maxrss / 1024


def pair(ours: list[str], reference: list[str], repeat: int) -> tuple[float, float, float]:
    """(median CPU s of ``ours``, of ``reference``, median of the per-pair ratios), alternating."""
    a, b, r = [], [], []
    for _ in range(repeat):
        x, y = cpu(ours), cpu(reference)
        a.append(x)
        b.append(y)
        r.append(x / y)
    return statistics.median(a), statistics.median(b), statistics.median(r)


# -- inputs -----------------------------------------------------------------------------------

def photos(work: Path) -> Path:
    """A catalogue of :data:`PHOTOS` distinct photo-like 1500 × 1500 JPEGs on 2.5 in tokens (600 DPI
    over the whole face: passed through as their own bytes), one name each."""
    from bench import photo_jpeg  # type: ignore[import-not-found]  # bench.py beside this file

    folder = work / "photos"
    folder.mkdir(exist_ok=True)
    rows = []
    for n in range(PHOTOS):
        path = folder / f"p{n:03d}.jpg"
        if not path.exists():
            photo_jpeg(path, (PHOTO_PX, PHOTO_PX), 85 + n % 10)  # distinct files
        rows.append({"id": f"p{n:03d}", "name": f"Photo {n}", "art": f"photos/{path.name}"})
    _csv(work / "photos.csv", rows)
    cat = work / "photos.yaml"
    cat.write_text("title: Photos\nsize: 2.5in\ndrawn_blind: false\nfields: {name: text, art: image}\n"
                   "template:\n"
                   "  - {image: \"{art}\", box: [0, 0, 1, 1], fit: cover}\n"
                   "  - {text: \"{name}\", font: bold, at: [0.5, 0.9], size: 0.08, width: 0.8, colour: \"#ffffff\"}\n"
                   "back:\n  - {rect: fill, fill: \"#2b2b2b\", bleed: true}\n"
                   "tokens: photos.csv\n", "utf-8")
    return cat


def counters(work: Path, count: int) -> Path:
    """A catalogue of ``count`` distinct 1 in counters from a CSV, a 5-element template."""
    rows = [{"id": f"c{n}", "unit": f"{n // 3 + 1}/{n % 97 + 1}", "factors": f"{n % 9 + 1}-{n % 7 + 2}",
             "mark": "★◆●▲"[n % 4], "side": PALETTE[n % len(PALETTE)]} for n in range(count)]
    _csv(work / f"counters-{count}.csv", rows)
    cat = work / f"counters-{count}.yaml"
    cat.write_text("title: Counters\nsize: 1in\ndrawn_blind: false\n"
                   "fields: {unit: text, factors: text, mark: text, side: colour}\n"
                   "template:\n"
                   "  - {rect: fill, fill: \"{side}\", bleed: true}\n"
                   "  - {circle: ring, at: [0.5, 0.45], r: 0.3, stroke: \"#ffffff\", width: 0.025}\n"
                   "  - {glyph: \"{mark}\", at: [0.5, 0.5], width: 0.4, size: 0.3, colour: \"#ffffff\"}\n"
                   "  - {text: \"{unit}\", font: bold, at: [0.5, 0.18], size: 0.14, width: 0.7, colour: \"#ffffff\"}\n"
                   "  - {text: \"{factors}\", font: bold, at: [0.5, 0.88], size: 0.2, width: 0.7, colour: \"#ffffff\"}\n"
                   "back:\n  - {rect: fill, fill: \"#2b2b2b\", bleed: true}\n"
                   f"tokens: counters-{count}.csv\n", "utf-8")
    return cat


RULES = ROOT / "examples" / "rules-cards"


def rules_cards(work: Path, count: int = 1000) -> Path:
    """A catalogue of ``count`` distinct rules cards: ``examples/rules-cards`` (boxed rules text with
    bold and italic words, inline icons, justified, shrunk to fit), its rows repeated with a number
    in each name and rules text, so every card is its own face."""
    with open(RULES / "tokens.csv", newline="", encoding="utf-8") as f:
        base = list(csv.DictReader(f))
    rows = [{**row, "id": f"{row['id']}-{n}", "name": f"{row['name']} {n}",
             "rules": row["rules"].replace(" ", f" {n % 7 + 1} ", 1) if n % 2 else f"{row['rules']} ({n})"}
            for n in range(count // len(base) + 1) for row in base][:count]
    _csv(work / f"rules-{count}.csv", rows)
    import shutil

    shutil.copytree(RULES / "icons", work / "icons", dirs_exist_ok=True)
    text = (RULES / "cards.yaml").read_text("utf-8")
    cat = work / f"rules-{count}.yaml"
    cat.write_text(text.replace("tokens: tokens.csv", f"tokens: rules-{count}.csv"), "utf-8")
    return cat


def _csv(path: Path, rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def million(work: Path) -> Path:
    """The Meatshields catalogue, built with ``--copies 55556`` (see :func:`case_memory`): 1,000,008
    tokens. (A design's own ``copies`` is at most 10,000, so the sets are repeated instead.)"""
    return ROOT / "token_defs.yaml"


# -- cases ------------------------------------------------------------------------------------

def _build(cat: Path, out: Path, *extra: str) -> list[str]:
    return [str(TOKENGEN), "build", str(cat), "--columns", "0", "-o", str(out), *extra]


def case_photos(work: Path, repeat: int) -> list[list[str]]:
    cat = photos(work)
    ours = _build(cat, work / "photos.pdf", "--max-art-pixels", "250000000")
    sketch = [sys.executable, str(SKETCH), "--photos", str(work / "photos.csv"), str(work / "photos-sketch.pdf")]
    a, b, r = pair(ours, sketch, repeat)
    return [["100 photos 1500 × 1500, 2.5 in / sketch (drawImage of the file)", f"{a:.2f}", f"{b:.2f}", f"{r:.2f}×", _goal(r, 1.5)]]


def case_counters(work: Path, repeat: int) -> list[list[str]]:
    rows = []
    for count, goal in ((1000, None), (10_000, 1.4)):
        cat = counters(work, count)
        sketch = [sys.executable, str(SKETCH), "--distinct", str(count), str(work / f"counters-{count}-sketch.pdf")]
        a, b, r = pair(_build(cat, work / f"counters-{count}.pdf"), sketch, repeat)
        rows.append([f"{count:,} distinct counters / sketch ({count:,} forms)", f"{a:.2f}", f"{b:.2f}", f"{r:.2f}×",
                     _goal(r, goal) if goal else ""])
    return rows


def case_rules(work: Path, repeat: int) -> list[list[str]]:
    """1,000 rules cards (boxed text: markup, icons, justified, shrink to fit) against the sketch's
    platypus ``Paragraph`` in a ``Frame``, one form per card (issue 39: ≤ 1.3×)."""
    cat = rules_cards(work, 1000)
    sketch = [sys.executable, str(SKETCH), "--rules", str(work / "rules-1000.csv"), str(RULES / "icons"), str(work / "rules-sketch.pdf")]
    a, b, r = pair(_build(cat, work / "rules-1000.pdf"), sketch, repeat)
    return [["1,000 rules cards / sketch (Paragraph + Frame, a form a card)", f"{a:.2f}", f"{b:.2f}", f"{r:.2f}×", _goal(r, 1.3)]]


def case_sheet18(work: Path, repeat: int) -> list[list[str]]:
    """The default 18-token sheet against the sketch at 18 tokens, CPU (issue 39: ≤ 1.6×)."""
    ours = [str(TOKENGEN), "build", str(ROOT / "token_defs.yaml"), "-o", str(work / "s18.pdf")]
    sketch = [sys.executable, str(SKETCH), "18", str(work / "k18.pdf"), "3"]
    a, b, r = pair(ours, sketch, max(repeat, 9))
    return [["18-token sheet / sketch (18)", f"{a:.3f}", f"{b:.3f}", f"{r:.2f}×", _goal(r, 1.6)]]


def case_preflight(work: Path, repeat: int) -> list[list[str]]:
    """``tokengen preflight`` of the 100,008-token sheet against ``qpdf --check`` of the same file
    (pikepdf's qpdf, ``Pdf.check_pdf_syntax``, when no ``qpdf`` is on the PATH), and its peak RSS
    (issue 39: ≤ 2×, < 50 MB)."""
    import shutil

    sheet = work / "sheet-100k.pdf"
    if not sheet.exists():
        subprocess.run([str(TOKENGEN), "build", str(ROOT / "token_defs.yaml"), "--copies", "5556", "--columns", "0", "-o", str(sheet)],
                       check=True, capture_output=True, env=_env([str(TOKENGEN)]))
    ours = [str(TOKENGEN), "preflight", str(sheet), "--profile", "home"]
    qpdf = shutil.which("qpdf")
    if qpdf:
        reference, label = [qpdf, "--check", str(sheet)], "qpdf --check"
    else:
        reference = [sys.executable, "-c", "import pikepdf,sys; pikepdf.open(sys.argv[1]).check_pdf_syntax()", str(sheet)]
        label = "pikepdf check_pdf_syntax (no qpdf on PATH)"
    a, b, r = pair(ours, reference, repeat)
    mb = min(peak_mb(ours) for _ in range(2))
    return [[f"preflight, 100,008-token sheet / {label}", f"{a:.2f}", f"{b:.2f}", f"{r:.2f}×", _goal(r, 2.0)],
            ["preflight, 100,008-token sheet: peak RSS (MB)", f"{mb:.0f} MB", "", "", "met (< 50 MB)" if mb < 50 else "NOT met (< 50 MB)"]]


#: Export profiles measured against their build (1,000 distinct counters), with issue 39's targets.
EXPORTS = (("print-shop", 2.0), ("tgc-chits", 4.0), ("tts", 3.0), ("single-pages", 2.0), ("cut-dxf", 1.5), ("cut-svg", 1.5))


def case_exports(work: Path, repeat: int, which: tuple[str, ...] = tuple(p for p, _ in EXPORTS)) -> list[list[str]]:
    cat = counters(work, 1000)
    rows = []
    for profile, goal in EXPORTS:
        if profile not in which:
            continue
        export = [str(TOKENGEN), "export", str(cat), "--profile", profile, "-o", str(work / f"out-{profile}")]
        start = time.perf_counter()
        a, b, r = pair(export, _build(cat, work / "counters-1000.pdf"), repeat)
        rows.append([f"export --profile {profile}, 1,000 distinct / their build", f"{a:.2f}", f"{b:.2f}", f"{r:.2f}×",
                     _goal(r, goal) + f" (wall {(time.perf_counter() - start) / repeat:.1f} s a pair)"])
    return rows


def case_memory(work: Path, repeat: int) -> list[list[str]]:
    cat = million(work)
    mb = min(peak_mb(_build(cat, work / "million.pdf", "--copies", "55556", "--max-tokens", "2000000", "--max-pages", "30000"))
             for _ in range(max(1, repeat // 3)))
    return [["1,000,008 tokens: peak RSS (MB)", f"{mb:.0f} MB", "", "", "met (< 100 MB)" if mb < 100 else "NOT met (< 100 MB)"]]


def case_latency(work: Path, repeat: int) -> list[list[str]]:
    """The page's re-render after an option change for 1,000 distinct counters: CPU time of the
    server's process (``time.process_time``, the median of the re-renders after the first)."""
    cat = counters(work, 1000)
    code = (
        "import sys,time,statistics,tempfile\n"
        "from pathlib import Path\n"
        "from tokengen.web import jobs\n"
        "cat, n = sys.argv[1], int(sys.argv[2])\n"
        "out = Path(tempfile.mkdtemp()) / 'sheet.pdf'\n"
        "times = []\n"
        "for i in range(n + 1):  # the first builds the caches a page session has\n"
        "    t = time.process_time(); jobs.build(cat, {'margin': ('0.25in', '0.3in')[i % 2]}, out)\n"
        "    times.append(time.process_time() - t)\n"
        "print(statistics.median(times[1:]))\n")
    try:
        env = {**os.environ, "PYTHONPATH": TREE} if TREE else None
        out = subprocess.run([sys.executable, "-c", code, str(cat), str(max(repeat, 3))], capture_output=True, text=True,
                             check=True, env=env)
        page = float(out.stdout.strip())
        row = [["page re-render after an option change (margin), 1,000 distinct (server CPU s)", f"{page:.3f}", "", "",
                _goal(page, 0.4, " s")]]
    except (subprocess.CalledProcessError, ValueError) as exc:
        row = [["page re-render, 1,000 distinct", "failed", "", "", str(getattr(exc, "stderr", exc)).strip()[-120:]]]
    return row


def _goal(value: float, goal: float | None, unit: str = "×") -> str:
    if goal is None:
        return ""
    return f"≤ {goal}{unit} {'met' if value <= goal else 'NOT met'}"


CASES: dict[str, Callable[[Path, int], list[list[str]]]] = {
    "sheet18": case_sheet18, "rules": case_rules, "photos": case_photos, "counters": case_counters,
    "exports": case_exports, "chits": lambda w, r: case_exports(w, r, ("tgc-chits",)),
    "shop": lambda w, r: case_exports(w, r, ("print-shop",)), "preflight": case_preflight, "memory": case_memory,
    "latency": case_latency}
#: What ``report`` runs when no names are given (``chits`` and ``shop`` are parts of ``exports``).
DEFAULT = ["sheet18", "rules", "photos", "counters", "exports", "preflight", "memory", "latency"]


def before_tree(path: str) -> str:
    """``path`` (a checkout of tokengen, e.g. a ``git worktree`` of the commit before a change) as
    the absolute ``PYTHONPATH`` its commands run with, once a child process given it has been seen
    to import that tree's ``tokengen`` and not this one's.

    Raises:
        SystemExit: ``path`` holds no ``tokengen`` package, or a child imports another one (an
            install that comes before ``PYTHONPATH``): the "before" rows would measure this tree.
    """
    tree = Path(path).resolve()
    package = tree / "tokengen" / "__init__.py"
    if not package.is_file():
        raise SystemExit(f"--before {path}: no tokengen package there ({package} is missing); give a checkout's top folder")
    probe = subprocess.run([sys.executable, "-c", "import tokengen; print(tokengen.__file__)"], capture_output=True, text=True,
                           env={**os.environ, "PYTHONPATH": str(tree)}, cwd=tempfile.gettempdir())
    found = Path(probe.stdout.strip()).resolve() if probe.returncode == 0 else None
    if found != package:
        why = f"imports {found}" if found else f"cannot import it: {probe.stderr.strip()[-200:]}"
        raise SystemExit(f"--before {path}: a command given PYTHONPATH={tree} {why}, not {package}; the before rows would not be "
                         f"the old tree's")
    return str(tree)


def report(work: Path, repeat: int, only: list[str] | None = None, before: str | None = None) -> str:
    """The table of every case in ``only`` (default all), as text; with ``before`` (a checkout's
    path, checked by :func:`before_tree`), each case again with that tree's tokengen, its rows
    marked ``before:``."""
    global TREE
    import compileall

    if before is not None:
        before = before_tree(before)
    for tree in filter(None, [str(ROOT), before]):  # as an installed copy: byte-compiled
        compileall.compile_dir(str(Path(tree) / "tokengen"), quiet=1)
    rows = [["real work (issues 27, 39): CPU, medians of alternating pairs", "tokengen s", "reference s", "ratio", "target"]]
    for name in only or DEFAULT:
        rows += CASES[name](work, repeat)
        if before:
            TREE = before
            try:
                rows += [[f"  before: {r[0]}", *r[1:]] for r in CASES[name](work, repeat)]
            except RuntimeError as exc:
                rows.append([f"  before: {name}", "failed", "", "", str(exc)[-80:]])
            finally:
                TREE = None
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths))) for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", choices=list(CASES))
    parser.add_argument("--work", type=Path, help="a folder to keep the inputs in (default: a temporary one)")
    parser.add_argument("--before", help="another checkout whose tokengen runs each case too (PYTHONPATH)")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    if args.work:
        args.work.mkdir(parents=True, exist_ok=True)
        print(report(args.work, args.repeat, args.only, args.before))
        return 0
    with tempfile.TemporaryDirectory(prefix="tokengen-work-") as tmp:
        print(report(Path(tmp), args.repeat, args.only, args.before))
    return 0


if __name__ == "__main__":
    sys.exit(main())
