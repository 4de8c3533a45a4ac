"""Numba's cache is dropped when a kernel changes (batch/compiled.drop_stale_caches):
Numba itself checks only the file a function is defined in, so a caller's cached machine
code would keep the old kernel inlined."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numba", reason="the compiled path needs the [fast] extra (numba)")

from uscf_ratings.batch.compiled import SOURCES, drop_stale_caches  # noqa: E402


def _tree(tmp_path: Path) -> tuple[list[Path], list[Path], Path]:
    """Two source folders, each with a cached function, and the stamp's place."""
    sources, cached = [], []
    for folder in ("core", "batch"):
        source = tmp_path / folder / "module.py"
        (source.parent / "__pycache__").mkdir(parents=True)
        source.write_text("def kernel(): return 1\n")
        sources.append(source)
        for suffix in (".nbi", ".1.nbc"):
            path = source.parent / "__pycache__" / f"module.kernel-1.py311{suffix}"
            path.write_bytes(b"machine code")
            cached.append(path)
    return sources, cached, tmp_path / "batch" / "__pycache__" / "kernels.sha256"


def test_a_changed_source_drops_every_cache_and_an_unchanged_one_keeps_them(tmp_path: Path):
    sources, cached, stamp = _tree(tmp_path)
    assert drop_stale_caches(sources, stamp)  # no stamp yet: the cache's sources unknown
    assert not any(path.exists() for path in cached)
    for path in cached:  # Numba compiles again and caches
        path.write_bytes(b"machine code")
    assert not drop_stale_caches(sources, stamp)
    assert all(path.exists() for path in cached)

    sources[0].write_text("def kernel(): return 2\n")  # a kernel changes
    assert drop_stale_caches(sources, stamp)
    assert not any(path.exists() for path in cached)  # its callers' caches too


def test_the_sources_are_every_file_the_compiled_code_holds():
    names = {(path.parent.name, path.name) for path in SOURCES}
    assert names == {("core", "blending.py"), ("core", "constants.py"), ("core", "kernels.py"),
                     ("core", "norms.py"), ("core", "procedure.py"), ("core", "records.py"),
                     ("batch", "compiled.py"), ("batch", "engine.py"), ("batch", "chain.py")}
    assert all(path.is_file() for path in SOURCES)
    # every module of the package that compiles a function inlines the kernels
    compiling = {path for path in SOURCES[0].parents[1].rglob("*.py")
                 if "numba.njit" in path.read_text()}
    assert compiling <= set(SOURCES), compiling - set(SOURCES)


def test_sources_that_cannot_be_read_change_nothing(tmp_path: Path):
    sources, cached, stamp = _tree(tmp_path)
    assert not drop_stale_caches([*sources, tmp_path / "missing.py"], stamp)
    assert all(path.exists() for path in cached) and not stamp.exists()
