"""tokengen benchmark (``make bench``; not part of the test suite).

Prints whole-process wall time, peak memory (max RSS) and output size for the default 18-token
sheet, 10,000 and 100,000 tokens; a batch of 12 sizes run serially and in parallel; and the
same 18-token sheet and a 2,000-token sheet through protograf 0.5.2, side by side as ratios;
the real-work cases of :mod:`workloads` (photos, distinct counters, chit PNGs, print-shop
files, a million tokens' memory, the page's re-render), each beside its reference.

Every case runs as its own subprocess, so start-up (imports, fonts) is counted, as a user sees
it; peak memory is that process's ``ru_maxrss`` (``os.wait4``). Each case runs ``--repeat``
times (default 3) and the fastest run is shown, since a shared machine adds noise.

protograf is installed into a separate venv (``.venv-bench``, created here on first use); it is
not a dependency of tokengen. If it cannot be installed the comparison is skipped with the reason.
"""

from __future__ import annotations

import argparse
import compileall
import datetime
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOKENGEN = Path(sys.executable).parent / "tokengen"
CATALOGUE = ROOT / "token_defs.yaml"
TOKENGEN_PACKAGE = ROOT / "tokengen"
BENCH_VENV = ROOT / ".venv-bench"
PROTOGRAF = "protograf==0.5.2"
PROTOGRAF_SCRIPT = Path(__file__).resolve().parent / "protograf_sheet.py"
SKETCH = Path(__file__).resolve().parent / "reportlab_sketch.py"
BATCH_SIZES = ["0.5in", "0.625in", "0.75in", "20mm", "0.875in", "25mm", "1in", "1.125in", "30mm", "1.25in", "1.5in", "2in"]


@dataclass
class Run:
    seconds: float
    rss_mb: float
    stdout: str


def measure(cmd: list[str], repeat: int = 1) -> Run:
    """Run ``cmd`` (already :func:`_wrapped`) ``repeat`` times: the fastest wall time, the
    largest peak RSS (MB) and the stdout of the fastest run.

    Raises:
        RuntimeError: the command failed (with its stderr).
    """
    best: Run | None = None
    peak = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.perf_counter() - start
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd[3:])} failed ({proc.returncode}): {proc.stderr.strip()[-500:]}")
        peak = max(peak, _rss_from(proc.stderr))
        if best is None or seconds < best.seconds:
            best = Run(seconds, 0.0, proc.stdout)
    assert best is not None
    best.rss_mb = peak
    return best


def _wrapped(cmd: list[str]) -> list[str]:
    """``cmd`` run under a tiny Python wrapper that reports the child's peak RSS on stderr."""
    code = ("import os,subprocess,sys\n"
            "p=subprocess.Popen(sys.argv[1:])\n"
            "_,status,ru=os.wait4(p.pid,0)\n"
            "sys.stderr.write(f'\\nRSS_KB={ru.ru_maxrss}\\n')\n"
            "sys.exit(os.waitstatus_to_exitcode(status))\n")
    return [sys.executable, "-c", code, *cmd]


def _rss_from(stderr: str) -> float:
    match = re.search(r"RSS_KB=(\d+)", stderr)
    return int(match.group(1)) / 1024 if match else float("nan")


def timed(cmd: list[str], repeat: int) -> Run:
    """Wall time and peak RSS of ``cmd`` (the wrapper's own start-up is not counted in RSS; its
    ~20 ms are in the wall time, the same for every case)."""
    return measure(_wrapped(cmd), repeat)


def tokengen_build(copies: int, out: Path, repeat: int) -> tuple[Run, int, int]:
    # --columns 0: fill each page (the catalogue's own columns: 3 suit only the 18-token sheet)
    layout = ["--columns", "0"] if copies > 1 else []
    run = timed([str(TOKENGEN), "build", str(CATALOGUE), "--copies", str(copies), *layout, "-o", str(out)], repeat)
    match = re.search(r"(\d+) tokens? .*?on (\d+) (?:face )?pages?", run.stdout)
    tokens, pages = (int(match.group(1)), int(match.group(2))) if match else (0, 0)
    return run, tokens, pages


def startup(work: Path, repeat: int) -> None:
    """Start-up ratios within this run (issue 11), each the fastest of ``repeat`` runs:
    ``tokengen --version`` against ``python -c "import click"``; the default 18-token sheet
    against the bare-ReportLab sketch (:mod:`reportlab_sketch`) at 18 tokens; 10,008 tokens with
    ``--columns 0`` against the sketch at 10,008."""
    py = sys.executable
    # byte-compile the package first, as pip does when it installs a wheel: a run with
    # PYTHONDONTWRITEBYTECODE set (or a read-only checkout) would otherwise compile every module
    # from source on every start, which no installed copy does
    compileall.compile_dir(str(TOKENGEN_PACKAGE), quiet=1)
    cases = [
        ("tokengen --version / python -c 'import click'", [str(TOKENGEN), "--version"], [py, "-c", "import click"], 1.5),
        ("18-token sheet / bare-ReportLab sketch (18)", [str(TOKENGEN), "build", str(CATALOGUE), "-o", str(work / "s18.pdf")],
         [py, str(SKETCH), "18", str(work / "k18.pdf"), "3"], 2.0),
        ("10,008 tokens --columns 0 / sketch (10,008)",
         [str(TOKENGEN), "build", str(CATALOGUE), "--copies", "556", "--columns", "0", "-o", str(work / "s10k.pdf")],
         [py, str(SKETCH), "10008", str(work / "k10k.pdf")], 1.5),
    ]
    rows = [["start-up: ratio within this run", "tokengen s", "reference s", "ratio", "target"]]
    for label, ours, reference, target in cases:
        a = b = None
        for _ in range(repeat):  # alternate, so load from elsewhere hits both alike
            run_a, run_b = measure(ours), measure(reference)
            a = run_a if a is None or run_a.seconds < a.seconds else a
            b = run_b if b is None or run_b.seconds < b.seconds else b
        assert a is not None and b is not None
        ratio = a.seconds / b.seconds
        rows.append([label, f"{a.seconds:.3f}", f"{b.seconds:.3f}", f"{ratio:.2f}×",
                     f"≤ {target}× {'met' if ratio <= target else 'NOT met'}"])
    print(table(rows))


def many_tokens(work: Path, copies: int) -> Path:
    """A copy of the catalogue with every token ``copies`` times, filling each page."""
    import yaml

    data = yaml.safe_load(CATALOGUE.read_text(encoding="utf-8"))
    data.pop("columns", None)
    for token in data["tokens"]:
        token["copies"] = copies
    path = work / f"catalogue-x{copies}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def shop_and_preflight(work: Path, big_pdf: Path, repeat: int) -> list[list[str]]:
    """``export --profile print-shop`` (PDF/X-1a, preflighted) against ``build`` of the same
    10,008 tokens; preflight of the 100,008-token build PDF and of a tenth of it (memory flat
    in the page count)."""
    catalogue = many_tokens(work, 556)
    build = timed([str(TOKENGEN), "build", str(catalogue), "-o", str(work / "x556.pdf")], repeat)
    shop = timed([str(TOKENGEN), "export", str(catalogue), "--profile", "print-shop", "-o", str(work / "shop")], repeat)
    small = work / "tokengen-556.pdf"
    big = timed([str(TOKENGEN), "preflight", str(big_pdf), "--profile", "home"], repeat)
    tenth = timed([str(TOKENGEN), "preflight", str(small), "--profile", "home"], repeat)
    return [["print shop and preflight", "wall s", "peak MB", "ratio", "target"],
            ["build, 10,008 tokens", f"{build.seconds:.2f}", f"{build.rss_mb:.0f}", "", ""],
            ["export --profile print-shop, the same tokens (PDF/X-1a + preflight)", f"{shop.seconds:.2f}", f"{shop.rss_mb:.0f}",
             f"{shop.seconds / build.seconds:.2f}× build", "≤ 5× build"],
            ["preflight, 100,008-token build PDF", f"{big.seconds:.2f}", f"{big.rss_mb:.0f}", "", "< 15 s, < 300 MB"],
            ["preflight, 10,008-token build PDF", f"{tenth.seconds:.2f}", f"{tenth.rss_mb:.0f}",
             f"{big.rss_mb / tenth.rss_mb:.2f}× memory for 10× pages", "flat (≤ 1.25×)"]]


def protograf_python() -> tuple[Path | None, str]:
    """The benchmark venv's python with protograf installed, or (None, why not)."""
    python = BENCH_VENV / "bin" / "python"
    check = [str(python), "-c", "import protograf"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python, ""
    print(f"installing {PROTOGRAF} into {BENCH_VENV.name} (benchmark only) …", flush=True)
    try:
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True, capture_output=True, text=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", PROTOGRAF], check=True, capture_output=True, text=True)
    except subprocess.CalledProcessError as exc:
        lines = [line for line in (exc.stderr or "").splitlines() if line.strip() and "Location" not in line]
        return None, (lines[-1] if lines else f"exit status {exc.returncode}")
    if subprocess.run(check, capture_output=True).returncode != 0:
        return None, "protograf installed but does not import"
    return python, ""


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def _parallel_ceiling(cores: int, rounds: int = 3) -> float:
    """Speed-up of a pure-Python CPU loop on ``cores`` processes over one: what the machine
    itself allows (shared or overcommitted virtual cores give much less than ``cores``×)."""
    import concurrent.futures

    best = {1: float("inf"), cores: float("inf")}
    for _ in range(rounds):
        for workers in best:
            start = time.perf_counter()
            with concurrent.futures.ProcessPoolExecutor(workers) as pool:
                list(pool.map(_burn, [2_000_000] * (2 * cores)))
            best[workers] = min(best[workers], time.perf_counter() - start)
    return best[1] / best[cores]


def kb(path: Path) -> float:
    return path.stat().st_size / 1024


def table(rows: list[list[str]]) -> str:
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    lines = []
    for i, row in enumerate(rows):
        lines.append("  ".join(c.ljust(w) if k == 0 else c.rjust(w) for k, (c, w) in enumerate(zip(row, widths))))
        if i == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def photo_jpeg(path: Path, size: tuple[int, int] = (2000, 1500), quality: int = 85) -> int:
    """A photo-like JPEG (gradient and blurred noise: detail everywhere, as a photograph has);
    2000 × 1500 at quality 85 is about 560 KB, the size of the photo in the issue. Returns bytes."""
    from PIL import Image, ImageFilter

    w, h = size
    base = Image.linear_gradient("L").resize((w, h))
    green = Image.effect_noise((w, h), 60).filter(ImageFilter.GaussianBlur(1.2))
    blue = Image.effect_noise((w, h), 40).filter(ImageFilter.GaussianBlur(2))
    Image.merge("RGB", (base, green, blue)).save(path, quality=quality)
    return path.stat().st_size


def art_bench(work: Path, repeat: int) -> str:
    """One photo JPEG as every token's art: PDF size against the JPEG's (target: under 1.2 × the
    JPEG + 80 KB), and 10,000 tokens against 18 (target: within 10 %), resampled to 600 DPI and
    kept (``--keep-resolution``, the JPEG passed through as its own DCT bytes)."""
    art = work / "photo.jpg"
    jpeg = photo_jpeg(art)
    text = CATALOGUE.read_text("utf-8").replace("style:\n  background:", "style:\n  art: photo.jpg\n  background:", 1)
    catalogue = work / "art.yaml"
    catalogue.write_text(text, "utf-8")
    small = work / "small.jpg"
    small_bytes = photo_jpeg(small, (525, 525), 100)  # 600 DPI over the 0.875 in safe area: no resampling
    catalogue_small = work / "art-small.yaml"
    catalogue_small.write_text(text.replace("art: photo.jpg", "art: small.jpg"), "utf-8")
    rows = [["one photo JPEG as art, 1 in tokens", "JPEG KB", "PDF KB", "PDF / (1.2 × JPEG + 80 KB)", "wall s", "peak MB"]]
    sizes: dict[str, float] = {}
    for label, cat, size, extra in (("2000 × 1500 photo, resampled to 600 DPI", catalogue, jpeg, []),
                                    ("2000 × 1500 photo, --keep-resolution", catalogue, jpeg, ["--keep-resolution"]),
                                    ("525 × 525 JPEG (600 DPI, passed through)", catalogue_small, small_bytes, [])):
        for copies, layout in ((1, []), (556, ["--columns", "0"])):
            out = work / f"art-{len(sizes)}.pdf"
            run = timed([str(TOKENGEN), "build", str(cat), "--copies", str(copies), *layout, *extra, "-o", str(out)], repeat)
            sizes[f"{label} {copies}"] = kb(out)
            tokens = "18 tokens" if copies == 1 else "10,008 tokens"
            rows.append([f"{label}, {tokens}", f"{size / 1024:,.0f}", f"{kb(out):,.0f}", f"{kb(out) / (1.2 * size / 1024 + 80):.2f}",
                         f"{run.seconds:.2f}", f"{run.rss_mb:.0f}"])
        ratio = sizes[f"{label} 556"] / sizes[f"{label} 1"]
        rows.append([f"{label}: 10,008 tokens / 18 tokens", "", f"{ratio:.2f}×", "", "", ""])
    return table(rows) + ("\ntargets: one sheet ≤ 1.2 × JPEG + 80 KB (ratio ≤ 1); 10,000 tokens within 10 % of that (ratio ≤ 1.1);"
                          "\nthe 10,000-token page code itself is about 95 KB (see the table above), art or not")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case; the fastest is shown")
    parser.add_argument("--no-protograf", action="store_true", help="skip the protograf comparison")
    parser.add_argument("--startup-only", action="store_true", help="only the start-up ratios")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    print(f"tokengen benchmark, {datetime.date.today()}, {platform.machine()} with {cores} cores, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f} at start\n")
    with tempfile.TemporaryDirectory(prefix="tokengen-bench-") as tmp:
        work = Path(tmp)
        # -- start-up ------------------------------------------------------------------------
        startup(work, max(args.repeat, 9))
        print()
        if args.startup_only:
            return 0
        # -- single builds -------------------------------------------------------------------
        rows = [["case", "tokens", "pages", "wall s", "peak MB", "PDF KB", "target"]]
        ours: dict[int, tuple[Run, Path]] = {}
        for copies, label, target in ((1, "default sheet", ""), (556, "10,000 tokens", "< 1 s, < 150 KB"),
                                      (5556, "100,000 tokens", "< 8 s, < 200 MB")):
            out = work / f"tokengen-{copies}.pdf"
            run, tokens, pages = tokengen_build(copies, out, args.repeat)
            ours[copies] = (run, out)
            rows.append([label, f"{tokens:,}", f"{pages:,}", f"{run.seconds:.2f}", f"{run.rss_mb:.0f}", f"{kb(out):,.0f}", target])
        print(table(rows))
        # -- art: files the size of their pictures ---------------------------------------------
        print()
        print(art_bench(work, args.repeat))
        # -- print-shop export and preflight (issue 13) ----------------------------------------------
        print()
        print(table(shop_and_preflight(work, ours[5556][1], args.repeat)))
        # -- batch ---------------------------------------------------------------------------
        print()
        sizes = [a for s in BATCH_SIZES for a in ("--size", s)]
        batch = [str(TOKENGEN), "batch", str(CATALOGUE), *sizes, "--copies", "1000", "--force", "-o", str(work / "batch")]
        serial = parallel = None
        for _ in range(max(args.repeat, 5)):  # alternate, so load from elsewhere hits both alike
            runs = timed([*batch, "-j", "1"], 1), timed(batch, 1)
            serial = runs[0] if serial is None or runs[0].seconds < serial.seconds else serial
            parallel = runs[1] if parallel is None or runs[1].seconds < parallel.seconds else parallel
        assert serial is not None and parallel is not None
        ceiling = _parallel_ceiling(cores)
        print(table([["batch of 12 sizes × 18,000 tokens", "wall s", "peak MB"],
                     ["serial (-j 1)", f"{serial.seconds:.2f}", f"{serial.rss_mb:.0f}"],
                     [f"parallel ({cores} processes)", f"{parallel.seconds:.2f}", f"{parallel.rss_mb:.0f}"],
                     ["speed-up (target ≥ 1.7× on 2 cores)", f"{serial.seconds / parallel.seconds:.2f}×", ""],
                     [f"this machine's ceiling: pure-Python loop, {cores} processes", f"{ceiling:.2f}×", ""]]))
        # -- real work (issue 27): photos, distinct faces, chit PNGs, shop files, memory, the page
        print()
        import workloads

        print(workloads.report(work, max(args.repeat, 5)))
        # -- hostile input (issue 10): ratios that must stay near 1 ---------------------------
        print()
        import bench_hostile

        print(bench_hostile.report(work, TOKENGEN, timed, table))
        # -- protograf -----------------------------------------------------------------------
        print()
        if args.no_protograf:
            print("protograf comparison skipped (--no-protograf)")
            return 0
        python, why = protograf_python()
        if python is None:
            print(f"protograf comparison skipped: {PROTOGRAF} did not install: {why}")
            return 0
        rows = [["case", "tokengen s", "protograf s", "time ratio", "tokengen MB", "protograf MB", "memory ratio",
                 "tokengen KB", "protograf KB", "size ratio"]]
        for copies, label in ((1, "18 tokens"), (111, "1,998 tokens")):
            if copies in ours:
                run, out = ours[copies]
            else:
                out = work / f"tokengen-{copies}.pdf"
                run = tokengen_build(copies, out, args.repeat)[0]
            theirs_out = work / f"protograf-{copies}.pdf"
            try:
                theirs = timed([str(python), str(PROTOGRAF_SCRIPT), str(copies), str(theirs_out)], 1)
            except RuntimeError as exc:
                print(f"protograf {label} failed: {exc}")
                continue
            rows.append([label, f"{run.seconds:.2f}", f"{theirs.seconds:.2f}", f"{run.seconds / theirs.seconds:.3f}",
                         f"{run.rss_mb:.0f}", f"{theirs.rss_mb:.0f}", f"{run.rss_mb / theirs.rss_mb:.2f}",
                         f"{kb(out):,.0f}", f"{kb(theirs_out):,.0f}", f"{kb(out) / kb(theirs_out):.2f}"])
        print(f"tokengen vs {PROTOGRAF} (ratio = tokengen / protograf; below 1 is better for tokengen)")
        print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
