"""Generated art files (hypothesis): any damage to a PNG or JPEG is one :class:`RenderError` naming
the file, or a picture that loads; never another exception (an internal error, exit 70).

Seeds are small valid files of several modes; hypothesis truncates them, overwrites bytes and
splices in chunk-like runs. ``make fuzz`` runs many more examples (``HYPOTHESIS_PROFILE=fuzz``).
"""

from __future__ import annotations

import io
import os
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from tokengen.errors import RenderError
from tokengen.faces.art import ArtLibrary
from tokengen.geometry.imposition import Rect

EXAMPLES = int(os.environ.get("FUZZ_SCALE", "1")) * 60


def _seed(fmt: str, mode: str) -> bytes:
    im = Image.linear_gradient("L").resize((24, 16)).convert(mode)
    buffer = io.BytesIO()
    kwargs = {"progressive": True} if fmt == "JPEG" and mode == "RGB" else {}
    im.save(buffer, fmt, **kwargs)
    return buffer.getvalue()


SEEDS = [_seed("PNG", m) for m in ("1", "L", "LA", "P", "RGB", "RGBA", "I;16")] + [_seed("JPEG", m) for m in ("L", "RGB", "CMYK")]


@st.composite
def damaged(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "overwrite", "insert"]))
        at = draw(st.integers(0, max(0, len(data) - 1)))
        if kind == "truncate":
            del data[at:]
        elif kind == "overwrite":
            chunk = draw(st.binary(min_size=1, max_size=8))
            data[at:at + len(chunk)] = chunk
        else:
            data[at:at] = draw(st.binary(min_size=1, max_size=16))
    return bytes(data)


@settings(max_examples=EXAMPLES)
@given(damaged(), st.sampled_from(["rgb", "cmyk"]))
def test_damaged_art_is_a_render_error_or_a_picture(data: bytes, model: str):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "art.bin"
        path.write_bytes(data)
        library = ArtLibrary(model)
        try:
            image = library.load(path, Rect(0, 0, 2, 2))  # tiny printed size: the resampling path too
        except RenderError as exc:
            assert str(exc).startswith(f"{path}: ") and "\n" not in str(exc)
            return
        assert image.width > 0 and image.height > 0
