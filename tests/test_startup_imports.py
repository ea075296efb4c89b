"""Start-up (issue 39): a plain build imports only what it draws with.

Measured as the modules a fresh ``tokengen build`` process has imported when it ends (never a
time): none of the libraries only other commands use (DXF, PDF reading and rendering,
workbooks, the page's server), nor LittleCMS for an RGB sheet, nor the standee builder.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: Imported by some command, never by a plain RGB build of the default sheet.
NOT_FOR_A_PLAIN_BUILD = ("ezdxf", "pikepdf", "pypdfium2", "openpyxl", "tokengen.web", "starlette", "uvicorn",
                         "PIL.ImageCms", "tokengen.outputs.standees", "tokengen.preflight")


def test_a_plain_build_leaves_other_commands_libraries_unimported(tmp_path: Path) -> None:
    code = ("import sys\n"
            "from tokengen.cli import main\n"
            "try:\n"
            f"    code = main(['build', {str(ROOT / 'token_defs.yaml')!r}, '-o', {str(tmp_path / 'sheet.pdf')!r}])\n"
            "except SystemExit as exc:\n"
            "    code = exc.code\n"
            "assert not code, code\n"
            "print(' '.join(sorted(sys.modules)))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=tmp_path)
    loaded = run.stdout.split()
    assert (tmp_path / "sheet.pdf").stat().st_size > 0
    assert [m for m in loaded if m.startswith(NOT_FOR_A_PLAIN_BUILD)] == []
