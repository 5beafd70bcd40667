"""Build the optional compiled parts (the KAMI A* core, the sliding puzzle's pattern
databases); everything else is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and the solver
runs its pure-Python search (same results, about a thousand times slower).
"""

import platform

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
            extra_compile_args=FLAGS + THREADS,
            extra_link_args=THREADS,
            optional=True,
        ),
        # The 4 x 4 sliding puzzle's pattern databases and IDA* (kamivision.puzzles.patterns).
        Extension(
            "kamivision.puzzles._patterns",
            ["kamivision/puzzles/_patterns.c"],
            extra_compile_args=FLAGS,
            optional=True,
        ),
    ]
)
