"""Build the optional compiled A* core; everything else is in pyproject.toml.

The extension is optional: without a C compiler the install still succeeds and the solver
runs its pure-Python search (same results, about a thousand times slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "kamivision.solver._core",
            ["kamivision/solver/_core.c"],
            extra_compile_args=["-O3"],
            optional=True,
        )
    ]
)
