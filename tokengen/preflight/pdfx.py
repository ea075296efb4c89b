"""PDF/X-1a (2001 or 2003) for the CMYK print profiles: post-processing of an export, and the key check.

A profile with ``pdfx: x1a`` (PDF/X-1a:2001) or ``pdfx: x1a-2003`` (PDF/X-1a:2003) has its PDF
rewritten by :func:`convert` (pikepdf) after ReportLab drew it, and ``tokengen preflight`` fails
such a file when :func:`problems` finds anything, including a file labelled with the other edition.

What the two editions ask, and what tokengen does about it:

* PDF version: PDF/X-1a:2001 (ISO 15930-1:2001) builds on PDF 1.3, PDF/X-1a:2003 (ISO 15930-4:2003)
  on PDF 1.4. We write the header each edition names (1.3 or 1.4). Nothing we draw needs 1.4, and
  the 1.4 features that 2003 admits but X-1a forbids (transparency) are checked on their own.
* Info dictionary: for 2001 ``/GTS_PDFXVersion (PDF/X-1:2001)`` and ``/GTS_PDFXConformance
  (PDF/X-1a:2001)``; for 2003 ``/GTS_PDFXVersion (PDF/X-1a:2003)`` alone (the 2003 edition names
  the conformance level in the version key and has no conformance key). Both: ``/Trapped /False``
  (we do not trap), ``/Title``, ``/CreationDate`` and ``/ModDate``; a document ``/ID`` in the trailer.
* One ``/OutputIntents`` entry, ``/S /GTS_PDFX``, naming the printing condition
  (``OutputConditionIdentifier``, ``RegistryName``, ``Info``) with the CMYK ICC profile the
  colour pipeline converts to embedded as ``DestOutputProfile`` (:func:`output_intent`).
* A TrimBox on every page (BleedBox too; tokengen's CMYK profiles set both).
* Only DeviceCMYK, DeviceGray and spot colours; fonts embedded; no transparency, no encryption.
  ReportLab already refuses non-CMYK colour in a CMYK profile and embeds the bundled fonts;
  :func:`problems` and the preflight checks verify all of it on the written file.

The output stays deterministic: the document ID is derived from the content (qpdf's
deterministic ID), and ReportLab's invariant dates are kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: The labels written into the Info dictionary (ISO 15930-1:2001, 6.2.3).
VERSION = "PDF/X-1:2001"
CONFORMANCE = "PDF/X-1a:2001"
#: The ``/GTS_PDFXVersion`` label of PDF/X-1a:2003 (ISO 15930-4:2003), which has no conformance key.
VERSION_2003 = "PDF/X-1a:2003"
#: The ``/GTS_PDFXVersion`` label each profile ``pdfx:`` value asks for.
LABELS = {"x1a": VERSION, "x1a-2003": VERSION_2003}
#: Highest PDF version each PDF/X-1a edition allows, by its ``/GTS_PDFXVersion`` label.
MAX_VERSION = {"PDF/X-1:2001": "1.3", "PDF/X-1a:2003": "1.4"}
#: The edition each ``/GTS_PDFXVersion`` label stands for, as messages name it (the 2001
#: edition labels its version ``PDF/X-1:2001`` and its conformance ``PDF/X-1a:2001``).
EDITION = {"PDF/X-1:2001": CONFORMANCE, "PDF/X-1a:2003": "PDF/X-1a:2003"}
#: Total ink limit when the profile gives none, % (the default CMYK profile is built for 300 %).
DEFAULT_INK_LIMIT = 300.0  # as tokengen.colour.INK_LIMIT (not imported: preflight starts without Pillow)


@dataclass(frozen=True)
class OutputIntent:
    """The printing condition a PDF/X file is made for.

    Attributes:
        icc: path of the CMYK output ICC profile (embedded as ``DestOutputProfile``).
        identifier: ``OutputConditionIdentifier``, a name in the ICC registry (``FOGRA39``).
        condition: ``OutputCondition``, the condition in words.
        registry: ``RegistryName``, where the identifier is defined.
        info: ``Info``, a human-readable name of the profile.
    """

    icc: Path
    identifier: str
    condition: str
    registry: str
    info: str


def output_intent(profile: Any) -> OutputIntent:
    """The output intent of a print profile: the CMYK output profile its colours were converted
    to (:func:`tokengen.colour.output_profile`: the profile's ``icc:`` file, else the bundled
    FOGRA39 profile, ISO 12647-2 offset on coated paper; see ``tokengen/data/icc/README.md``)."""
    from ..colour import output_profile

    out = output_profile(getattr(profile, "icc", None))
    return OutputIntent(icc=out.path, identifier=out.condition, condition=out.info, registry=out.registry, info=out.description)


def ink_limit(profile: Any) -> float:
    """The total ink limit of ``profile`` in % (its ``ink_limit`` key; 300 when it has none)."""
    value = getattr(profile, "ink_limit", None)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) and value > 0 else DEFAULT_INK_LIMIT


def wanted(profile: Any) -> bool:
    """True when ``profile`` asks for PDF/X-1a of either edition (``pdfx: x1a`` or ``x1a-2003``)."""
    return getattr(profile, "pdfx", "none") in LABELS


def edition(profile: Any) -> str | None:
    """The edition ``profile`` asks for, as messages name it (``"PDF/X-1a:2001"``,
    ``"PDF/X-1a:2003"``), or None when it asks for no PDF/X."""
    label = LABELS.get(getattr(profile, "pdfx", "none"))
    return EDITION[label] if label else None


def convert(source: Path, target: Path, profile: Any) -> None:
    """Rewrite the PDF ``source`` as PDF/X-1a into ``target``, in the edition the profile's ``pdfx``
    names (2001: PDF 1.3; 2003: PDF 1.4; see the module docstring).

    Pages keep their content and boxes (the profile's ``boxes: true`` draws TrimBox and
    BleedBox; :func:`problems` reports a page without them) and lose any page-level
    transparency group.

    Raises:
        ExportError: the PDF cannot be read or written.
    """
    import pikepdf

    from ..errors import ExportError

    intent = output_intent(profile)
    label = LABELS.get(getattr(profile, "pdfx", "none"), VERSION)
    try:
        with pikepdf.open(source) as pdf:
            icc = pdf.make_stream(intent.icc.read_bytes())
            icc.N = 4
            pdf.Root.OutputIntents = pikepdf.Array([pikepdf.Dictionary(
                Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
                OutputConditionIdentifier=pikepdf.String(intent.identifier), OutputCondition=pikepdf.String(intent.condition),
                RegistryName=pikepdf.String(intent.registry), Info=pikepdf.String(intent.info), DestOutputProfile=icc)])
            info = pdf.docinfo
            info[pikepdf.Name.GTS_PDFXVersion] = pikepdf.String(label)
            if label == VERSION:
                info[pikepdf.Name.GTS_PDFXConformance] = pikepdf.String(CONFORMANCE)
            elif "/GTS_PDFXConformance" in info:
                del info["/GTS_PDFXConformance"]
            info[pikepdf.Name.Trapped] = pikepdf.Name("/False")
            for key in ("/Title", "/CreationDate", "/ModDate"):
                if key not in info:
                    info[pikepdf.Name(key)] = pikepdf.String("tokengen" if key == "/Title" else "D:20000101000000+00'00'")
            for page in pdf.pages:  # boxes come from the drawing (profile key boxes); preflight checks them
                if "/Group" in page.obj:
                    del page.obj["/Group"]
            pdf.save(target, force_version=MAX_VERSION[label], deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
                     compress_streams=True)
    except (pikepdf.PdfError, OSError) as exc:
        raise ExportError(f"{source}: cannot write {EDITION[label]}: {exc}") from None


def problems(pdf: Any, path: Path | None = None, wanted_edition: str | None = None) -> list[tuple[int | None, str]]:
    """What keeps an open pikepdf ``pdf`` from being PDF/X-1a (2001 or 2003): (page, problem)
    pairs, page None for problems of the whole document. Empty when the file has every key.

    ``wanted_edition`` (``"PDF/X-1a:2001"`` or ``"PDF/X-1a:2003"``, :func:`edition`) is the
    edition the print profile asks for: a file labelled with the other edition is a problem.
    None accepts either.

    Checked: the label's edition against ``wanted_edition``; the PDF version for the edition
    (2001: 1.3, 2003: 1.4); ``GTS_PDFXVersion`` (and for 2001 ``GTS_PDFXConformance``),
    ``Trapped`` True or False, ``Title``, ``CreationDate``,
    ``ModDate``; the trailer ``/ID``; no encryption; exactly one ``/GTS_PDFX`` output intent with
    an ``OutputConditionIdentifier`` and, when embedded, a CMYK output (``prtr``) ICC profile of
    version 2 (header byte 8 below 4: PDF 1.3 and 1.4 predate ICC v4);
    a TrimBox or ArtBox on every page. Transparency, colour spaces and fonts are their own checks.
    """
    version, limit, found = _info_problems(pdf, wanted_edition)
    found += _intent_problems(pdf, version, limit)
    return [(None, problem) for problem in found] + [
        (number, "no TrimBox (or ArtBox); PDF/X needs one on every page")
        for number, page in enumerate(pdf.pages, 1) if "/TrimBox" not in page.obj and "/ArtBox" not in page.obj]


def _info_problems(pdf: Any, wanted_edition: str | None = None) -> tuple[str, str, list[str]]:
    """The PDF/X label (checked against ``wanted_edition``, see :func:`problems`), the highest PDF version it allows and the problems of the document's
    Info dictionary, version, trailer ``/ID`` and encryption (see :func:`problems`)."""
    import pikepdf

    found: list[str] = []
    info = pdf.trailer.get("/Info")
    info = info if isinstance(info, pikepdf.Dictionary) else pikepdf.Dictionary()
    version = _text(info, "/GTS_PDFXVersion")
    if not version:
        found.append("no /GTS_PDFXVersion in the Info dictionary: not labelled PDF/X")
    elif version not in MAX_VERSION:
        found.append(f"/GTS_PDFXVersion is {version!r}, which labels neither PDF/X-1a:2001 ('PDF/X-1:2001') "
                     "nor PDF/X-1a:2003 ('PDF/X-1a:2003')")
    elif wanted_edition is not None and EDITION[version] != wanted_edition:
        found.append(f"labelled {EDITION[version]} (/GTS_PDFXVersion {version!r}); the profile asks for {wanted_edition}")
    if version == VERSION and _text(info, "/GTS_PDFXConformance") != CONFORMANCE:
        found.append(f"/GTS_PDFXConformance is {_text(info, '/GTS_PDFXConformance')!r}, expected {CONFORMANCE!r}")
    limit = MAX_VERSION.get(version, "1.3")
    if tuple(int(x) for x in str(pdf.pdf_version).split(".")[:2]) > tuple(int(x) for x in limit.split(".")):
        found.append(f"PDF version {pdf.pdf_version}; {EDITION.get(version, CONFORMANCE)} allows at most {limit}")
    return version, limit, found + _document_problems(pdf, info)


def _document_problems(pdf: Any, info: Any) -> list[str]:
    """The problems of the Info keys PDF/X needs besides its label (``Trapped``, ``Title``, the
    dates), of the trailer's ``/ID`` and of encryption (see :func:`problems`)."""
    found: list[str] = []
    trapped = info.get("/Trapped")
    if trapped is None or str(trapped) not in ("/True", "/False"):
        found.append(f"/Trapped is {str(trapped) if trapped is not None else 'missing'}; PDF/X needs /True or /False")
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not _text(info, key):
            found.append(f"no {key[1:]} in the Info dictionary")
    if "/ID" not in pdf.trailer:
        found.append("no document /ID in the trailer")
    if pdf.is_encrypted:
        found.append("the file is encrypted; PDF/X forbids encryption")
    return found


def _intent_problems(pdf: Any, version: str, limit: str) -> list[str]:
    """The problems of the document's ``/GTS_PDFX`` output intent for the PDF/X label
    ``version`` and the PDF version ``limit`` (see :func:`problems`)."""
    import pikepdf

    found: list[str] = []
    intents = [i for i in (pdf.Root.get("/OutputIntents") or []) if isinstance(i, pikepdf.Dictionary) and str(i.get("/S", "")) == "/GTS_PDFX"]
    if len(intents) != 1:
        found.append(f"{len(intents) or 'no'} /GTS_PDFX output intent{'s' if intents else ''}; PDF/X needs exactly one")
    for intent in intents[:1]:
        if not str(intent.get("/OutputConditionIdentifier", "")):
            found.append("the output intent has no OutputConditionIdentifier")
        dest = intent.get("/DestOutputProfile")
        if dest is None and not str(intent.get("/RegistryName", "")):
            found.append("the output intent has neither a DestOutputProfile nor a RegistryName")
        if isinstance(dest, pikepdf.Stream):
            found += _profile_problems(dest, version, limit)
    return found


def _profile_problems(dest: Any, version: str, limit: str) -> list[str]:
    """The problem of an output intent's embedded ICC profile (a pikepdf stream): not a CMYK
    output (``prtr``) profile, or newer than version 2."""
    head = _icc_head(dest)
    if head is None or head[12:16] != b"prtr" or head[16:20] != b"CMYK":
        return ["the DestOutputProfile is not a CMYK output (prtr) ICC profile"]
    if head[8] >= 4:  # PDF 1.3 and 1.4 embed ICC v2 profiles; ICC v4 came with PDF 1.5
        return [f"the DestOutputProfile is an ICC v{head[8]}.{head[9] >> 4} profile; "
                f"{EDITION.get(version, CONFORMANCE)} (PDF {limit}) needs an ICC v2 profile"]
    return []


def _text(info: Any, key: str) -> str:
    """The text of ``key`` in a pikepdf Info dictionary, "" when missing or unreadable."""
    value = info.get(key)
    try:
        return str(value) if value is not None else ""
    except Exception:  # noqa: BLE001
        return ""


def _icc_head(stream: Any) -> bytes | None:
    """The first 128 bytes (the header) of an ICC profile stream, decoded within a small cap."""
    from .pdfwalk import Budget, Limits, decode

    try:
        return decode(stream, Budget(Limits(stream_mb=16, decoded_mb=16)), "the output intent's ICC profile")[:128]
    except Exception:  # noqa: BLE001 - an unreadable profile is reported as not CMYK
        return None
