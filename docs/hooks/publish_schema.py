"""mkdocs hook: publish the event schema with the site, from the package itself.

docs/event-json.md links to ``schemas/event.schema.json``; this adds that file to the
site from ``src/uscf_ratings/schemas/``, so there is no copy to keep in step.

mkdocs is imported inside the hook only: pytest imports this file (``--doctest-modules``
over ``docs``) where mkdocs may not be installed.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mkdocs.structure.files import Files

SCHEMA = (Path(__file__).resolve().parents[2]
          / "src" / "uscf_ratings" / "schemas" / "event.schema.json")


def on_files(files: Files, config: Any) -> Files:
    from mkdocs.structure.files import File

    files.append(File.generated(config, "schemas/event.schema.json", abs_src_path=str(SCHEMA)))
    return files
