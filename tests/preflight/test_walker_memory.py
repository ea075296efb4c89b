"""The walker keeps a page's summary only for content streams that other pages use too: a sheet
of distinct pages holds none of them once read (the 100,008-token sheet's 1,251 pages held
about 50 MB), while pages sharing one stream still parse it once."""

from __future__ import annotations

from pathlib import Path

import pikepdf

from tokengen.preflight.pdfwalk import Budget, Limits, Walker, open_pdf


def three_pages(path: Path) -> Path:
    """Pages 1 and 2 share one content stream; page 3 has its own."""
    pdf = pikepdf.new()
    shared = pdf.make_stream(b"0 0 1 rg 10 10 50 50 re f")
    own = pdf.make_stream(b"1 0 0 rg 20 20 30 30 re f")
    for contents in (shared, shared, own):
        pdf.pages.append(pikepdf.Page(pikepdf.Dictionary(Type=pikepdf.Name.Page, MediaBox=[0, 0, 100, 100],
                                                         Contents=contents)))
    pdf.save(path)
    return path


def test_only_shared_page_streams_keep_their_summary(tmp_path: Path):
    pdf = open_pdf(three_pages(tmp_path / "three.pdf"), Limits())
    try:
        walker = Walker(pdf, Budget(Limits()), 300)
        walker.count_placements(pdf.pages)
        summaries = [walker.page(page, n) for n, page in enumerate(pdf.pages, 1)]
        assert summaries[0] is summaries[1]  # the shared stream parsed once
        assert summaries[2] is not summaries[0]
        assert len(walker.pages) == 1
        assert [s.ink for s in summaries] == [summaries[0].ink] * 2 + [summaries[2].ink]
    finally:
        pdf.close()


def test_without_the_first_pass_every_page_summary_is_kept(tmp_path: Path):
    pdf = open_pdf(three_pages(tmp_path / "three.pdf"), Limits())
    try:
        walker = Walker(pdf, Budget(Limits()), 300)
        summaries = [walker.page(page, n) for n, page in enumerate(pdf.pages, 1)]
        assert summaries[0] is summaries[1]
        assert len(walker.pages) == 2
    finally:
        pdf.close()
