"""Export writers: one per kind of output, each a :data:`~tokengen.outputs.writers.base.Writer`
(a :class:`~tokengen.outputs.writers.base.Job` in, a
:class:`~tokengen.outputs.writers.base.Planned` out), chosen by the profile's ``output`` from
:data:`WRITERS`. A new kind of output is a new writer here and its name in the profiles' schema
(``output`` in ``profiles.schema.json`` and :data:`tokengen.sources.profiles.OUTPUTS`)."""

from __future__ import annotations

from .base import Job, Planned, Writer
from .chits import chits
from .cutfiles import cricut, cut_dxf, cut_svg
from .pages import single_pages
from .sheets import sheets
from .tabletop import tabletop

#: The profile's ``output`` → its writer.
WRITERS: dict[str, Writer] = {
    "sheets": sheets,
    "cut-svg": cut_svg,
    "cut-dxf": cut_dxf,
    "cricut": cricut,
    "single-pages": single_pages,
    "png": chits,
    "tts": tabletop,
}

__all__ = ["WRITERS", "Job", "Planned", "Writer"]
