"""DriveThruCards' file recipe (issue 43): PDF/X-1a:2003 with a US output condition.

``dtc-poker`` writes PDF 1.4 labelled ``GTS_PDFXVersion (PDF/X-1a:2003)``, its colours converted to
the bundled CGATS TR 006 profile and its output intent naming that condition with the profile
embedded. Preflight checks the edition the profile asks for. Everything is read back with pikepdf.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from tokengen.colour import default_icc_path, icc_version
from tokengen.errors import CatalogueError
from tokengen.outputs.export import export
from tokengen.preflight.checks import preflight
from tokengen.sources.catalogue import load_catalogue
from tokengen.sources.profiles import load_profiles

ROOT = Path(__file__).resolve().parents[2]
POKER = ROOT / "examples" / "poker-cards" / "cards.yaml"
TR006 = default_icc_path().parent / "tokengen-tr006.icc"


@pytest.fixture(scope="module")
def dtc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    [pdf] = export(load_catalogue(POKER), load_profiles()["dtc-poker"], tmp_path_factory.mktemp("dtc"))
    return pdf


@pytest.fixture(scope="module")
def generic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``single-pages`` export: PDF/X-1a:2001 with FOGRA39."""
    [pdf] = export(load_catalogue(POKER), load_profiles()["single-pages"], tmp_path_factory.mktemp("generic"))
    return pdf


def test_the_bundled_us_profile_is_a_v2_cmyk_output_profile():
    head = TR006.read_bytes()[:128]
    assert (head[12:16], head[16:20], head[8]) == (b"prtr", b"CMYK", 2)
    assert icc_version(TR006) < 4


def test_dtc_poker_is_pdfx_1a_2003_with_the_us_condition(dtc: Path):
    with pikepdf.open(dtc) as pdf:
        assert pdf.pdf_version == "1.4"
        info = pdf.docinfo
        assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1a:2003"
        assert "/GTS_PDFXConformance" not in info  # the 2003 edition has no conformance key
        assert str(info["/Trapped"]) == "/False"
        [intent] = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX"
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 006"
        assert str(intent.RegistryName) == "http://www.color.org"
        assert "GRACoL" in str(intent.OutputCondition)
        assert intent.DestOutputProfile.read_bytes() == TR006.read_bytes()
        assert len(pdf.pages) > 2
        for page in pdf.pages:
            trim = [float(v) for v in page.obj.TrimBox]
            bleed = [float(v) for v in page.obj.BleedBox]
            assert [round(b - t, 3) for b, t in zip(bleed[:2], trim[:2], strict=True)] == [-9.0, -9.0]  # 1/8 in bleed
            assert round(trim[2] - trim[0], 3) == 180.0 and round(trim[3] - trim[1], 3) == 252.0  # 2.5 x 3.5 in


def test_dtc_poker_passes_its_preflight(dtc: Path):
    checks = preflight(dtc, load_profiles()["dtc-poker"])
    assert [c.name for c in checks if not c.passed] == []
    pdfx = next(c for c in checks if c.name == "pdfx")
    assert pdfx.message.startswith("PDF/X-1a:2003: version"), pdfx.message


def test_preflight_checks_the_edition_the_profile_asks_for(dtc: Path, generic: Path):
    wrong = next(c for c in preflight(generic, load_profiles()["dtc-poker"]) if c.name == "pdfx")
    assert not wrong.passed
    assert "labelled PDF/X-1a:2001 (/GTS_PDFXVersion 'PDF/X-1:2001'); the profile asks for PDF/X-1a:2003" in wrong.message
    other = next(c for c in preflight(dtc, load_profiles()["single-pages"]) if c.name == "pdfx")
    assert not other.passed
    assert "labelled PDF/X-1a:2003 (/GTS_PDFXVersion 'PDF/X-1a:2003'); the profile asks for PDF/X-1a:2001" in other.message


def test_a_2003_label_above_pdf_1_4_fails(dtc: Path, tmp_path: Path):
    with pikepdf.open(dtc) as pdf:
        pdf.save(tmp_path / "v15.pdf", force_version="1.5")
    check = next(c for c in preflight(tmp_path / "v15.pdf", load_profiles()["dtc-poker"]) if c.name == "pdfx")
    assert not check.passed and "PDF version 1.5; PDF/X-1a:2003 allows at most 1.4" in check.message


def test_a_user_profile_extending_dtc_poker_keeps_the_us_profile(tmp_path: Path):
    """The bundled ``icc:`` is found relative to the file that names it, not the user's file."""
    (tmp_path / "mine.yaml").write_text("my-dtc:\n  extends: dtc-poker\n  ink_limit: 260\n", "utf-8")
    profile = load_profiles(tmp_path / "mine.yaml")["my-dtc"]
    assert profile.icc == TR006.resolve() and profile.pdfx == "x1a-2003"


def test_x1a_2003_needs_cmyk(tmp_path: Path):
    (tmp_path / "mine.yaml").write_text("rgb-x:\n  extends: tgc-poker\n  output: single-pages\n  pdfx: x1a-2003\n", "utf-8")
    with pytest.raises(CatalogueError, match=r"rgb-x\.pdfx: x1a-2003 \(PDF/X-1a\) needs colour: cmyk"):
        load_profiles(tmp_path / "mine.yaml")
