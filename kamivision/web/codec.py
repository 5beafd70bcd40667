"""What the web processes and the workers keep in Redis, as data that cannot run code.

Sessions, answers and the solves' jobs (RQ's job records and their reports) go to Redis as
JSON, not as pickles: a pickle runs whatever it names when it is loaded, so anyone who
could write to Redis could run code in every web process and worker.  JSON holds only
numbers, strings, lists and maps; on top of it, this module tags what JSON lacks:

* tuples, sets and maps whose keys are not strings;
* numpy arrays (dtype, shape and the bytes in base64; never ``object`` arrays);
* bytes, paths, and floats that JSON has no word for (infinity, NaN);
* kamivision's own data classes and enums, by name, from a fixed list
  (:data:`TYPES`).  Loading one sets its fields and calls nothing of the class (no
  ``__init__``, no ``__post_init__``), so a forged entry can make only kamivision's
  plain data, with the wrong values at worst, which the code then checks as it checks
  any input.

Anything else is refused when stored (:class:`TypeError`) and when loaded
(:class:`CodecError`): a name that is not on the list, a field the class does not
have, a tag that is not known.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import importlib
import json
import math
from pathlib import Path, PurePath
from typing import Any

import numpy as np

#: The modules whose data classes and enums may be kept in Redis: everything a session,
#: an answer and a solve's job hold.
MODULES = (
    "kamivision.board",
    "kamivision.check.doubt",
    "kamivision.geometry",
    "kamivision.limits",
    "kamivision.check.parcheck",
    "kamivision.review.model",
    "kamivision.solver",
    "kamivision.solver.core",
    "kamivision.solver.notes",
    "kamivision.vision.bar",
    "kamivision.vision.buttons",
    "kamivision.vision.layout",
    "kamivision.vision.palette",
    "kamivision.vision.reader",
    "kamivision.vision.settings",
    "kamivision.web.jobs",
    "kamivision.web.sessions",
)


class CodecError(ValueError):
    """An entry in Redis that is not what kamivision stores (damaged, or forged)."""


def _types() -> dict[str, type]:
    found: dict[str, type] = {}
    for name in MODULES:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ != name:
                continue
            if dataclasses.is_dataclass(value) or issubclass(value, enum.Enum):
                found[f"{name}.{value.__qualname__}"] = value
    return found


_TYPES: dict[str, type] | None = None


def types() -> dict[str, type]:
    """The classes that may be stored, by their full names (made on first use)."""
    global _TYPES
    if _TYPES is None:
        _TYPES = _types()
    return _TYPES


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


# ---------------------------------------------------------------- storing


def dumps(value: Any) -> bytes:
    """``value`` as JSON bytes (:class:`TypeError` for what may not be stored)."""
    return json.dumps(_encode(value), separators=(",", ":"), allow_nan=False).encode()


def _encode(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return {"!enum": _known(type(value)), "value": _encode(value.value)}
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else {"!float": repr(value)}
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            raise TypeError("an array of Python objects cannot be stored")
        data = np.ascontiguousarray(value)
        return {"!array": [data.dtype.str, list(data.shape), base64.b64encode(data.tobytes()).decode()]}
    if isinstance(value, (bytes, bytearray)):
        return {"!bytes": base64.b64encode(bytes(value)).decode()}
    if isinstance(value, PurePath):
        return {"!path": str(value)}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, tuple):
        return {"!tuple": [_encode(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"!set" if isinstance(value, set) else "!frozenset": [_encode(v) for v in value]}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("!") for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {"!map": [[_encode(k), _encode(v)] for k, v in value.items()]}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {
            "!data": _known(type(value)),
            "fields": {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)},
        }
    raise TypeError(f"a {type(value).__name__} cannot be stored")


def _known(cls: type) -> str:
    name = _name(cls)
    if types().get(name) is not cls:
        raise TypeError(f"{name} is not among the types kept in Redis (kamivision.web.codec.MODULES)")
    return name


# ---------------------------------------------------------------- loading


def loads(data: bytes | str) -> Any:
    """What :func:`dumps` stored; :class:`CodecError` for anything else."""
    try:
        raw = json.loads(data)
    except (ValueError, UnicodeDecodeError) as error:
        raise CodecError(f"not JSON ({error})") from None
    return _decode(raw)


def _decode(raw: Any) -> Any:
    if raw is None or isinstance(raw, (bool, int, float, str)):
        return raw
    if isinstance(raw, list):
        return [_decode(v) for v in raw]
    if not isinstance(raw, dict):
        raise CodecError(f"a {type(raw).__name__} is not stored")
    tags = [k for k in raw if k.startswith("!")]
    if not tags:
        return {k: _decode(v) for k, v in raw.items()}
    if len(tags) != 1:
        raise CodecError(f"tags {tags} in one map")
    tag = tags[0]
    body = raw[tag]
    try:
        if tag == "!tuple":
            return tuple(_decode(v) for v in _list(body))
        if tag in ("!set", "!frozenset"):
            items = [_decode(v) for v in _list(body)]
            return set(items) if tag == "!set" else frozenset(items)
        if tag == "!map":
            return {_decode(k): _decode(v) for k, v in _list(body)}
        if tag == "!float":
            if body not in ("inf", "-inf", "nan"):
                raise CodecError(f"not a float: {body!r}")
            return float(body)
        if tag == "!bytes":
            return base64.b64decode(body, validate=True)
        if tag == "!path":
            if not isinstance(body, str):
                raise CodecError("a path that is not a string")
            return Path(body)
        if tag == "!array":
            dtype, shape, data = _list(body)
            kind = np.dtype(dtype)
            if kind.hasobject:
                raise CodecError("an array of Python objects")
            return np.frombuffer(base64.b64decode(data, validate=True), dtype=kind).reshape(shape).copy()
        if tag == "!enum":
            return _type(body, enum.Enum)(_decode(raw["value"]))
        if tag == "!data":
            return _data(_type(body, None), raw["fields"])
    except CodecError:
        raise
    except (TypeError, ValueError, KeyError) as error:
        raise CodecError(f"a damaged {tag[1:]} ({error})") from None
    raise CodecError(f"an unknown tag {tag!r}")


def _list(body: Any) -> list:
    if not isinstance(body, list):
        raise CodecError("a list was expected")
    return body


def _type(name: Any, base: type | None) -> type:
    cls = types().get(name) if isinstance(name, str) else None
    if cls is None or (base is not None and not issubclass(cls, base)):
        raise CodecError(f"{name!r} is not a type kamivision keeps in Redis")
    if base is None and not dataclasses.is_dataclass(cls):
        raise CodecError(f"{name!r} is not a data class")
    return cls


def _data(cls: type, fields: Any) -> Any:
    """An instance of the data class ``cls`` with ``fields`` set, none of its code run."""
    if not isinstance(fields, dict):
        raise CodecError(f"{_name(cls)}: its fields are not a map")
    known = {f.name: f for f in dataclasses.fields(cls)}
    strange = set(fields) - set(known)
    if strange:
        raise CodecError(f"{_name(cls)} has no field {sorted(strange)[0]!r}")
    missing = set(known) - set(fields)
    if missing:
        raise CodecError(f"{_name(cls)}: field {sorted(missing)[0]!r} is missing")
    obj = object.__new__(cls)
    for name, raw in fields.items():
        object.__setattr__(obj, name, _decode(raw))
    return obj
