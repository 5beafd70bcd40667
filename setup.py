"""Build the optional compiled parts (the KAMI A* core, the 15-puzzle's pattern databases
and IDA*, Safe Zone's A*); everything else is in pyproject.toml.

The extensions are optional: without a C compiler the install still succeeds and the
solvers run their pure-Python searches (same results, many times slower).
"""

import platform
from glob import glob

from setuptools import Extension, setup

# Bit counting is the inner loop's staple: use the CPU's instruction where there is one
# (every x86-64 CPU of the last fifteen years has it; other machines keep the default).
FLAGS = ["-O3"] + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else [])
# The A* shares its expansions with a second thread (POSIX threads; elsewhere it runs on one).
THREADS = [] if platform.system() == "Windows" else ["-pthread"]

setup(
    ext_modules=[
        Extension(
            "kamivision.solver._core",
            ["kamivision/solver/_core/_core.c"],
            # The unity file includes the others: a change to any of them rebuilds the core.
            depends=sorted(p for p in glob("kamivision/solver/_core/*.[ch]") if not p.endswith("/_core.c")),
            extra_compile_args=FLAGS + THREADS,
            extra_link_args=THREADS,
            optional=True,
        ),
        # The 4 x 4 sliding puzzle's pattern databases and IDA* (kamivision.puzzles.patterns).
        Extension(
            "kamivision.puzzles._patterns",
            ["kamivision/puzzles/_patterns/_patterns.c"],
            # One translation unit as well: its parts are included by _patterns.c.
            depends=["kamivision/solver/_core/status.h"]
            + sorted(p for p in glob("kamivision/puzzles/_patterns/*.[ch]") if not p.endswith("/_patterns.c")),
            extra_compile_args=FLAGS + THREADS,
            extra_link_args=THREADS,
            optional=True,
        ),
        # Safe Zone's A* (kamivision.puzzles.safezone), for boards of at most 64 cells.
        Extension(
            "kamivision.puzzles._safezone",
            ["kamivision/puzzles/_safezone/_safezone.c"],
            depends=["kamivision/solver/_core/status.h"]
            + sorted(p for p in glob("kamivision/puzzles/_safezone/*.c") if not p.endswith("/_safezone.c")),
            extra_compile_args=FLAGS,
            optional=True,
        ),
    ]
)
