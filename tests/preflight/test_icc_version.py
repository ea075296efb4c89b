"""PDF/X-1a:2001 wants an ICC v2 output profile (it builds on PDF 1.3, which predates ICC v4).

The export refuses a shop's v4 ``icc:`` for a ``pdfx: x1a`` profile (exit 2), and ``tokengen
preflight`` fails a PDF/X-1a file whose output intent embeds a v4 profile (exit 1). The v4
profile is the bundled FOGRA39 one with only its header's version bytes (8–11) set to 4.3.
"""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest
from PIL import ImageCms

from tests.conftest import CATALOGUE
from tokengen.colour import default_icc_path, icc_version


def v4_copy(folder: Path) -> Path:
    """The bundled FOGRA39 profile with its header version set to 4.3 (nothing else changed)."""
    data = bytearray(default_icc_path().read_bytes())
    assert data[8:12] == bytes([2, 0x20, 0, 0])
    data[8:12] = bytes([4, 0x30, 0, 0])
    path = folder / "shop-v4.icc"
    path.write_bytes(bytes(data))
    return path


@pytest.fixture(scope="module")
def shop_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real ``print-shop`` export (PDF/X-1a:2001 with the bundled v2 profile)."""
    from tokengen.outputs.export import export
    from tokengen.sources.catalogue import load_catalogue
    from tokengen.sources.profiles import load_profiles

    return export(load_catalogue(CATALOGUE), load_profiles()["print-shop"], tmp_path_factory.mktemp("shop"))[0]


def test_versions_read_by_pillow(tmp_path: Path):
    assert icc_version(default_icc_path()) == 2.2
    v4 = v4_copy(tmp_path)
    assert icc_version(v4) == 4.3 and ImageCms.getOpenProfile(str(v4)).profile.xcolor_space.strip() == "CMYK"


def test_export_refuses_a_v4_icc_for_pdfx(tmp_path: Path, run):
    icc = v4_copy(tmp_path)
    profiles = tmp_path / "my.yaml"
    profiles.write_text("my-shop:\n  extends: print-shop\n  icc: shop-v4.icc\n")
    result = run("export", str(CATALOGUE), "--profile", "my-shop", "--profiles", str(profiles), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.stderr == (f"tokengen: error: {profiles}:3: my-shop.icc: {icc}: an ICC v4.3 profile; "
                             "pdfx: x1a (PDF/X-1a:2001, PDF 1.3) needs an ICC v2 profile\n")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_v4_icc_without_pdfx_is_accepted(tmp_path: Path):
    from tokengen.sources.profiles import load_profiles

    v4_copy(tmp_path)
    profiles = tmp_path / "my.yaml"
    profiles.write_text("my-shop:\n  extends: print-shop\n  pdfx: none\n  icc: shop-v4.icc\n")
    assert load_profiles(profiles)["my-shop"].icc == (tmp_path / "shop-v4.icc").resolve()


def test_preflight_fails_a_v4_output_intent(shop_pdf: Path, tmp_path: Path, run):
    bad = tmp_path / "v4.pdf"
    with pikepdf.open(shop_pdf) as pdf:
        (intent,) = pdf.Root.OutputIntents
        intent.DestOutputProfile.write(v4_copy(tmp_path).read_bytes())
        pdf.save(bad)
    with pikepdf.open(bad) as pdf:
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1:2001"
        assert pdf.Root.OutputIntents[0].DestOutputProfile.read_bytes()[8:12] == bytes([4, 0x30, 0, 0])
    result = run("preflight", str(bad), "--profile", "print-shop")
    assert result.exit_code == 1
    assert ("FAIL  pdfx         document: the DestOutputProfile is an ICC v4.3 profile; PDF/X-1a:2001 (PDF 1.3) "
            "needs an ICC v2 profile\n") in result.stdout
    assert result.stderr == f"tokengen: error: {bad}: 1 of 13 preflight checks failed (pdfx)\n"


def test_the_real_export_still_passes(shop_pdf: Path, run):
    result = run("preflight", str(shop_pdf), "--profile", "print-shop")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "13 of 13 checks passed (profile print-shop)" in result.stdout
