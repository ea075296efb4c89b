"""tokengen: turn a YAML catalogue of game tokens into print-ready PDF sheets."""

from . import _startup

_startup.quiet_start()  # first: Ctrl-C while the tokengen command imports is one line, exit 130

__version__ = "0.1.0"

from .build import BuildOptions, BuildResult, build_pdf  # noqa: E402
from .catalogue import load_catalogue  # noqa: E402
from .errors import CatalogueError, ExportError, LayoutError, RenderError, TokengenError, UsageError  # noqa: E402
from .imposition import SheetSpec, impose  # noqa: E402
from .model import Catalogue, Token  # noqa: E402

__all__ = [
    "__version__", "BuildOptions", "BuildResult", "build_pdf", "load_catalogue", "SheetSpec", "impose",
    "Catalogue", "Token", "TokengenError", "CatalogueError", "LayoutError", "RenderError", "ExportError", "UsageError",
]

from .rules import Finding, Report, check_catalogue, resolve_targets  # noqa: E402

__all__ += ["Finding", "Report", "check_catalogue", "resolve_targets"]

# print-shop export and preflight (issue 5). The functions keep their module names
# (tokengen.export.export, tokengen.preflight.preflight) so the submodules are not shadowed.
from .preflight import Check  # noqa: E402
from .profiles import Profile, get_profile, load_profiles  # noqa: E402

__all__ += ["Check", "Profile", "get_profile", "load_profiles"]
