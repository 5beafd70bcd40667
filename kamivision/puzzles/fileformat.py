"""What the two puzzle formats check alike: reading the JSON, the ``format`` field, the
grid size, and the optional ``name``, ``par`` and ``optimal`` (``kamivision.safezone/1``
and ``kamivision.slide/1``, ``docs/safe-zone-format.md``, ``docs/tile-slide-format.md``).  Every problem is one
:class:`~kamivision.errors.BoardFileError` line that names the file.

Tested in tests/puzzles/test_safezone.py, tests/puzzles/test_slide.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from ..errors import BoardFileError

#: An optional field the file does not have (``optimal: null`` means proven unsolvable).
ABSENT = object()

Fail = Callable[[str], BoardFileError]


def read_json(path: str | Path) -> tuple[Any, str]:
    """The file's JSON value and the name to give in errors."""
    from ..files import check_input, parse_json

    path = check_input(path, BoardFileError)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BoardFileError(f"{path}: not a text file (UTF-8)") from None
    return parse_json(text, str(path), BoardFileError), str(path)


def integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def header(obj: Any, fmt: str, origin: str, kind: str) -> tuple[Fail, int, int]:
    """Check that ``obj`` is a ``fmt`` object with integer ``rows`` and ``columns`` of at
    least 1; the error maker for ``origin`` and the size."""

    def fail(problem: str) -> BoardFileError:
        return BoardFileError(f"{origin}: {problem}")

    if not isinstance(obj, dict):
        raise fail(f"a {kind} file must be a JSON object")
    if "format" not in obj:
        raise fail(f'no "format" field, expected {fmt!r} (not a {kind} file?)')
    if obj.get("format") != fmt:
        raise fail(f"format is {obj.get('format')!r}, expected {fmt!r}")
    sizes = []
    for key in ("rows", "columns"):
        value = obj.get(key)
        if not integer(value) or value < 1:
            raise fail(f"{key} must be an integer of at least 1, not {value!r}")
        sizes.append(value)
    return fail, sizes[0], sizes[1]


def grid_rows(obj: dict, key: str, rows: int, columns: int, fail: Fail) -> list[list[Any]]:
    """``obj[key]`` as ``rows`` lists of ``columns`` entries (checked, not the entries)."""
    value = obj.get(key)
    if not isinstance(value, list) or len(value) != rows:
        count = len(value) if isinstance(value, list) else "no list of"
        raise fail(f"{key} has {count} rows, expected {rows}")
    for r, row in enumerate(value):
        if not isinstance(row, list) or len(row) != columns:
            count = len(row) if isinstance(row, list) else "no list of"
            raise fail(f"{key} row {r} has {count} cells, expected {columns}")
    return value


def extras(obj: dict, fail: Fail) -> tuple[Optional[str], Optional[int], Any]:
    """``name``, ``par`` and ``optimal`` (ABSENT when the file has none)."""
    par = obj.get("par")
    if par is not None and (not integer(par) or par < 0):
        raise fail(f"par must be a non-negative integer, not {par!r}")
    optimal = obj.get("optimal", ABSENT)
    if optimal is not ABSENT and optimal is not None and (not integer(optimal) or optimal < 0):
        raise fail(f"optimal must be a non-negative integer or null (unsolvable), not {optimal!r}")
    name = obj.get("name")
    if name is not None and not isinstance(name, str):
        raise fail("name must be text")
    return name, par, optimal
