"""Default limits per run (issue: hostile input), in a module of their own so the command line
can show them as option defaults without importing the builder, Pillow or the exporter. Each
can be raised on the command line; :mod:`tokengen.outputs.build`, :mod:`tokengen.faces.art` and
:mod:`tokengen.outputs.export` re-export the ones they use under their old names."""

#: Most tokens one build places (``--max-tokens``).
MAX_TOKENS = 200_000
#: Most pages one build writes (``--max-pages``).
MAX_PAGES = 5_000
#: Resolution (DPI) above which art is resampled down by default (``max_dpi`` in profiles).
MAX_DPI = 600
#: Pixels of art one build embeds in all, after resampling (``--max-art-pixels``); pictures are
#: decoded one at a time and released once embedded, so this bounds the work and the PDF's size,
#: not the memory. 250 Mpx: 100 distinct photos on 2.5 in tokens at 600 DPI (1500 x 1500 px,
#: 2.25 Mpx each) fit; 600 DPI art on a 1 in token is 0.36 Mpx.
MAX_ART_PIXELS = 250_000_000
#: One picture may hold this share of ``--max-art-pixels`` (and at least 50 Mpx, the default):
#: raising the option lets a larger photo through, a fifth of the value given.
PICTURE_SHARE = 5
#: Largest PNG written, in pixels (40 MP: a 2.5 in token with 1/8 in bleed at 2400 DPI is
#: 6,600 px square = 43.6 MP and is refused; 1 in at 2400 DPI, 9 MP, passes). Raise it with
#: ``--max-pixels``. One image at a time is held in memory: about 7 bytes per pixel at the peak.
MAX_PNG_PIXELS = 40_000_000
#: Largest total of PNG pixels per export run (bounds time and disk); ``--max-total-pixels``.
MAX_PNG_TOTAL_PIXELS = 400_000_000
#: Smallest token size accepted from a catalogue, pt (1/8 in, about 3 mm: smaller cannot be cut
#: or read). There is no largest: a size that does not fit the page is a layout error.
MIN_SIZE = 9.0
#: Largest SVG art file, bytes (8 MiB, as a YAML file): a detailed illustration is far smaller.
MAX_SVG_BYTES = 8 * 1024 * 1024
#: Most elements one SVG picture may hold, and most shapes it may draw once its ``<use>`` copies
#: are made (``--max-svg-elements``): an icon has tens, a detailed illustration a few thousand;
#: svglib reads about 4,000 a second, so the limit bounds the time too.
MAX_SVG_ELEMENTS = 20_000
#: Most attributes one SVG element may carry (fixed): a drawn element needs a few tens; svglib's
#: handling of many grows faster than their count (100,000 on one <rect> ran past 150 s).
MAX_SVG_ATTRIBUTES = 256
#: Numbers of path data (``d``, ``points``) one SVG picture may hold per element of
#: ``--max-svg-elements`` (20,000 elements: 200,000 numbers, about 100,000 segments, 1.5 s to
#: draw); counted while the file is parsed, before svglib reads them (a one-<path> file of
#: 1,500,000 segments took 18.9 s and 453 MB).
SVG_PATH_NUMBERS_PER_ELEMENT = 10
#: Largest number (pt, a scale or any other) an SVG picture may give once svglib has read it
#: (fixed): ReportLab cannot write one above 1e20 into a PDF, and no drawing needs 1e9 pt
#: (350 km); its width and height must also be at least :data:`MIN_SVG_SIZE` pt.
MAX_SVG_NUMBER = 1e9
MIN_SVG_SIZE = 0.01
#: Most code points one font's cmap may map (``--max-font-code-points``): ReportLab holds each
#: in a dict when it loads the font, about 250 bytes apiece (1,114,112, every code point of
#: Unicode, takes 275 MB). The largest text fonts map under 70,000; a last-resort font that
#: maps all of Unicode needs the limit raised.
MAX_FONT_CODE_POINTS = 200_000
#: Most template elements one any-game catalogue draws: token designs × (face + back elements).
#: Each is checked and drawn per design (10,000 designs × 200 elements each side ran past 150 s);
#: a fixed limit: 1,000 designs of 100 elements, or 10,000 of 10, fit.
MAX_DESIGN_ELEMENTS = 100_000

#: Preflight's work budget per file (:class:`tokengen.preflight.pdfwalk.Limits`, flags ``--max-…``
#: of ``tokengen preflight`` and ``tokengen preview``): file size in MiB, pages, form and image
#: placements, content-stream operators, MiB decoded per stream and in all, characters checked.
PREFLIGHT_LIMITS = {"file_mb": 1024, "pages": 5_000, "placements": 500_000, "operators": 1_000_000,
                    "stream_mb": 64, "decoded_mb": 1024, "chars": 2_000_000}
#: Address space of the process rendering a preview (MiB, ``--max-render-mb``) and the longest
#: one page may take, wall-clock, so at most as much CPU (s, ``--max-render-seconds``): a page
#: tokengen writes renders in well under a second at 100 DPI; a page that passes preflight but
#: asks pdfium for much more (a tiling pattern painted with itself ran 20.5 s under the old 60 s
#: default) is stopped after 10 s with the flag named.
RENDER_MEMORY_MB = 1536
RENDER_SECONDS = 10

#: Most pages one board is tiled over (an 8 × 8 grid: a 1.5 m board on Letter); fixed
#: (:func:`tokengen.geometry.tiling.tileable`).
MAX_TILES = 64

#: Largest table fetched from a ``tokens:`` link, MiB (``--max-fetch-mb``): a published sheet of
#: 10,000 rows (the most tokens a catalogue lists) of 40 short cells is about 4 MiB as CSV.
MAX_FETCH_MB = 16
#: Longest wait, s, for a ``tokens:`` link's server to connect or to send its next bytes
#: (``--max-fetch-seconds``); a server that stops sending is given up after this long.
FETCH_SECONDS = 30
