"""A project: a whole game's catalogues (tokens, cards, a board, …) in one file.

```yaml
title: My Game
parts: [tokens.yaml, cards.yaml, board.yaml]
```

Read through the one schema layer (``project.schema.json``); each part is a path relative to the
project's folder, checked to exist (at its line) before anything is built.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import CatalogueError
from . import schemas
from .yamlsrc import read_yaml

#: A top-level ``parts:`` key at the start of a line: a project, not a catalogue.
_PARTS = re.compile(rb"^parts\s*:", re.M)


@dataclass(frozen=True)
class Project:
    """A project file: its ``path``, ``title`` and ``author``, and its ``parts`` (absolute
    catalogue paths, in print order)."""

    path: Path
    title: str
    author: str
    parts: tuple[Path, ...]


def is_project(path: str | Path) -> bool:
    """True when ``path`` is a YAML file with a top-level ``parts:`` key (a project), read as
    bytes without parsing (a catalogue never has that key)."""
    path = Path(path)
    if path.suffix.lower() not in (".yaml", ".yml") or not path.is_file():
        return False
    with open(path, "rb") as handle:
        return bool(_PARTS.search(handle.read(1 << 20)))


def load_project(path: str | Path) -> Project:
    """Read and check a project file.

    Raises:
        CatalogueError: the file is not a project (schema), or a part is missing, naming its line.
    """
    path = Path(path)
    data, lines = read_yaml(path)
    schemas.check(path, data, lines, "project")
    parts = []
    for index, part in enumerate(data["parts"]):
        full = (path.parent / part).resolve()
        if not full.is_file():
            raise CatalogueError(path, f"no catalogue {part} (looked for {full})", line=lines.get(("parts", index)), field=f"parts[{index}]")
        parts.append(full)
    return Project(path, data.get("title") or path.stem, data.get("author", ""), tuple(parts))
