"""The benchmark suite of uscf-ratings: ``python -m bench`` from the repository root.

``run.py`` is the command line and the table, ``figures.py`` measures one figure per
function, ``peers.py`` adapts the peer libraries, ``profiling.py`` says where the time
goes (``--profile``) and ``progress.py`` shows progress and carries what an interruption
(Ctrl-C) leaves finished. Results: ``results/latest.json``. See docs/performance.md.
"""
