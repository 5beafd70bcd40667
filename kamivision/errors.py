"""The one exception hierarchy of kamivision.

Everything raised on purpose derives from :class:`KamiError`.  Only the CLI turns
these into a one-line message on stderr and exit code 1.

Tested in tests/test_cli.py, tests/test_files.py.
"""

from __future__ import annotations


class KamiError(Exception):
    """Base class of every error kamivision raises on purpose."""


class BoardFileError(KamiError, ValueError):
    """A board file (or board object) is malformed: the message names the file and the problem."""


class InvalidMoveError(KamiError, ValueError):
    """A move names a blank cell, a cell off the board, or a color outside the palette."""


class OutputExistsError(KamiError):
    """An output file exists and overwriting it was not asked for."""


class ImageError(KamiError, ValueError):
    """An input image cannot be read, or is not a KAMI screenshot."""


class InputError(KamiError, ValueError):
    """An input path is missing, not a regular file, unreadable or too large."""


class OutputError(KamiError):
    """An output cannot be written where asked (no such folder, not writable, the input)."""
