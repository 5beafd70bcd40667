"""The 15-puzzle's pattern databases as files in the user's cache folder: which sets
there are, building them, reading them, checking and removing them.

Two partitions of the tiles (by goal cell; the empty cell's goal is cell 0):

- **6-6-3** (Korf and Felner 2002): two 6-tile tables and a 3-tile one, a byte per
  placement, 11.5 MB.  Built by the first run that needs them, in about 25 s on two
  cores, with under 200 MB of memory.
- **7-8**: the top half's seven tiles and the bottom half's eight.  With the reflection
  about the diagonal (the left and right halves) they prune about ten times more of the
  search.  The 8-tile table has 518,918,400 placements, so it is kept at 4 bits each (the
  value's excess over the tiles' Manhattan distance, halved: see ``_patterns.h``): 288
  MB on disk.  Its build takes about 1.5 GB of memory and a few minutes, so it is made
  only when asked (``kamivision tables build``), never on the way to an answer.

A file is a 128-byte header (what it is, its version, its partition, the body's SHA-256,
then zeros) and the tables one after the other.  It is written whole through a temporary
file and a rename, and read with ``mmap``: its pages come from the system's page cache,
mapped in tens of milliseconds and shared by every process.  Its digest is checked after
the build, and again whenever the file has changed since (its size, time or inode: kept
beside it in ``<file>.checked``), not at each start (hashing 288 MB takes half a second); ``kamivision
tables status --verify`` checks it whatever the mark says.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from ..errors import KamiError

try:
    from . import _patterns
except ImportError:  # built without a C compiler: the Python IDA* is used instead
    _patterns = None

AVAILABLE = _patterns is not None
VERSION = 2
MAGIC = b"kamivision-pdb\n\0"
HEADER = struct.Struct("<16sII16s32s")  # magic, version, body bytes, partition name, SHA-256 of the body
HEADER_BYTES = 128


@dataclass(frozen=True)
class Partition:
    """A partition of the tiles 1 to 15 into patterns, and how its tables are kept."""

    name: str
    groups: tuple[tuple[int, ...], ...]
    packed: bool  # 4 bits a placement (built a level at a time), else a byte

    def placements(self, group: tuple[int, ...]) -> int:
        size = 1
        for i in range(len(group)):
            size *= 16 - i
        return size

    def table_bytes(self) -> list[int]:
        return [(self.placements(g) + 1) // 2 if self.packed else self.placements(g) for g in self.groups]

    @property
    def file_name(self) -> str:
        return f"slide-patterns-{self.name}-v{VERSION}.bin"

    @property
    def build_memory(self) -> int:
        """The build's peak memory in bytes (the tables it holds, besides the interpreter)."""
        if not self.packed:  # (placement, empty cell) a byte, the groups built two at a time
            sizes = sorted((16 * self.placements(g) for g in self.groups), reverse=True)
            return sum(sizes[:2]) + sum(self.table_bytes())
        largest = max(self.placements(g) for g in self.groups)
        words = (largest + 63) // 64
        return 2 * largest + 16 * words + sum(self.table_bytes())


SMALL = Partition("6-6-3", ((1, 2, 3, 5, 6, 7), (4, 8, 9, 12, 13, 14), (10, 11, 15)), packed=False)
LARGE = Partition("7-8", ((1, 2, 3, 4, 5, 6, 7), (8, 9, 10, 11, 12, 13, 14, 15)), packed=True)
PARTITIONS = (LARGE, SMALL)  # the best first


def cache_folder() -> Path:
    """``$KAMIVISION_CACHE``, else ``$XDG_CACHE_HOME/kamivision``, else ``~/.cache/kamivision``."""
    if os.environ.get("KAMIVISION_CACHE"):
        return Path(os.environ["KAMIVISION_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "kamivision"


class DatabaseError(KamiError):
    """A database file that cannot be used (damaged, of another version, unreadable): a
    :class:`~kamivision.errors.KamiError`, so that it reaches the user as one line."""


@dataclass
class Loaded:
    """A partition's tables, ready for the search (``bytes`` or slices of the file's mmap)."""

    partition: Partition
    tables: list


def _header(partition: Partition, body: int, digest: bytes) -> bytes:
    return HEADER.pack(MAGIC, VERSION, body, partition.name.encode(), digest).ljust(HEADER_BYTES, b"\0")


def rebuild_command(partition: Partition) -> str:
    """The command that builds the partition's file again."""
    return "kamivision tables build --force" + ("" if partition.packed else " --small")


def path_of(partition: Partition, folder: Optional[Path] = None) -> Path:
    return (folder if folder is not None else cache_folder()) / partition.file_name


def load(partition: Partition, folder: Optional[Path] = None) -> Optional[Loaded]:
    """The partition's tables from its file, mapped, or ``None`` when there is no file;
    :class:`DatabaseError` when the file is there but cannot be used."""
    path = path_of(partition, folder)
    try:
        handle = open(path, "rb")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise DatabaseError(f"{path}: cannot be read ({error.strerror})") from None
    with handle:
        sizes = partition.table_bytes()
        head = handle.read(HEADER_BYTES)
        if len(head) < HEADER_BYTES:
            raise DatabaseError(f"{path}: cut short (rebuild it: {rebuild_command(partition)})")
        magic, version, body, name, digest = HEADER.unpack_from(head)
        if magic != MAGIC or version != VERSION or name.rstrip(b"\0") != partition.name.encode():
            raise DatabaseError(f"{path}: not a version-{VERSION} {partition.name} database")
        if body != sum(sizes) or os.fstat(handle.fileno()).st_size != HEADER_BYTES + body:
            raise DatabaseError(f"{path}: cut short or of another size (rebuild it: {rebuild_command(partition)})")
        # MAP_POPULATE maps every page now, from the page cache (tens of milliseconds for
        # 288 MB), where first touches during the search would cost a fault each.
        if hasattr(mmap, "MAP_SHARED"):
            populate = getattr(mmap, "MAP_POPULATE", 0)
            mapped = mmap.mmap(handle.fileno(), 0, flags=mmap.MAP_SHARED | populate, prot=mmap.PROT_READ)
        else:  # Windows
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
        identity = _identity(os.fstat(handle.fileno()))
    view, tables, at = memoryview(mapped), [], HEADER_BYTES
    if _checked(path) != identity:  # changed since its digest was last checked: check it now
        if hashlib.sha256(view[HEADER_BYTES:]).digest() != digest:
            raise DatabaseError(
                f"{path}: damaged, its tables do not match their digest (rebuild it: {rebuild_command(partition)})"
            )
        _mark_checked(path, identity)
    for size in sizes:
        tables.append(view[at : at + size])
        at += size
    return Loaded(partition, tables)


def _identity(stat: os.stat_result) -> str:
    return f"{stat.st_size} {stat.st_mtime_ns} {stat.st_ino}"


def _checked(path: Path) -> Optional[str]:
    """The identity (size, time, inode) the file had when its digest was last found right."""
    try:
        return path.with_name(path.name + ".checked").read_text().strip()
    except (OSError, UnicodeDecodeError):
        return None


def _mark_checked(path: Path, identity: str) -> None:
    """Remember that the file, as it is now, matches its digest, so that the next runs map
    it without hashing it (a second for 288 MB); a file written or replaced since has
    another identity and is checked again."""
    from ..files import write_atomic

    try:
        write_atomic(path.with_name(path.name + ".checked"), identity.encode(), overwrite=True)
    except Exception:  # noqa: BLE001 - a read-only cache only costs the check next time
        pass


def verify(partition: Partition, folder: Optional[Path] = None) -> Optional[bool]:
    """Whether the file's body matches the digest in its header (``None``: no file)."""
    path = path_of(partition, folder)
    if not path.is_file():
        return None
    with open(path, "rb") as handle:
        head = handle.read(HEADER_BYTES)
        if len(head) < HEADER_BYTES:
            return False
        digest = HEADER.unpack_from(head)[4]
        return hashlib.file_digest(handle, "sha256").digest() == digest


def build(
    partition: Partition,
    folder: Optional[Path] = None,
    threads: Optional[int] = None,
    progress: Callable[[str], None] = lambda text: None,
) -> Path:
    """Build the partition's tables and write them to their file (replacing one there);
    ``progress`` gets a line a level (packed tables) or a pattern.  Ctrl-C stops a packed
    build within a second or so and leaves no file behind."""
    started = time.perf_counter()
    tables = compute(partition, threads, progress)
    path = write(partition, tables, folder)
    progress(
        f"{partition.name}: {path.stat().st_size / 1e6:.1f} MB written to {path} in {time.perf_counter() - started:.0f} s"
    )
    return path


def compute(
    partition: Partition, threads: Optional[int] = None, progress: Callable[[str], None] = lambda text: None
) -> list:
    """The partition's tables, in the order of its groups."""
    if not AVAILABLE:
        raise DatabaseError("the compiled pattern databases are not built (no C compiler at install)")
    from ..solver.settings import usable_cpus

    threads = threads or usable_cpus()
    started = time.perf_counter()
    if partition.packed:
        built = {}
        for group in sorted(partition.groups, key=len, reverse=True):  # the largest while the memory is free
            built[group] = _build_packed(group, partition.placements(group), threads, progress, started)
        return [built[group] for group in partition.groups]
    from concurrent.futures import ThreadPoolExecutor

    progress(f"{partition.name}: {len(partition.groups)} patterns, {threads} at a time")
    with ThreadPoolExecutor(max(1, min(len(partition.groups), threads))) as pool:  # the build runs without the GIL
        return list(pool.map(lambda group: _patterns.build(bytes(group)), partition.groups))


def write(partition: Partition, tables: list, folder: Optional[Path] = None) -> Path:
    """Write the tables to the partition's file, atomically, and read the file back."""
    from ..files import write_atomic

    digest = hashlib.sha256()
    for table in tables:
        digest.update(table)
    body = sum(len(t) for t in tables)
    path = path_of(partition, folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, [_header(partition, body, digest.digest()), *tables], overwrite=True)
    if not verify(partition, folder):
        raise DatabaseError(f"{path}: written, but does not read back as written (a failing disk?)")
    _mark_checked(path, _identity(path.stat()))
    return path


def _build_packed(group, size: int, threads: int, progress, started: float) -> bytearray:
    """Breadth-first search over (placement, empty cell's component), a level at a time,
    each level in slices (so that Ctrl-C is seen within a second or so) by the compiled
    ``level`` (see ``_patterns_level.c``)."""
    words = (size + 63) // 64
    visited, packed = bytearray(2 * size), bytearray((size + 1) // 2)
    frontier, following, zeros = bytearray(8 * words), bytearray(8 * words), bytes(8 * words)
    goal = bytes(group)
    _patterns.seed(goal, visited, frontier)
    step = max(4096, words // 32)
    depth, valued, clipped = 0, 1, 0
    while True:
        following[:] = zeros
        states = 0
        for first in range(0, words, step):
            reached, found, over = _patterns.level(
                goal, depth, visited, frontier, following, packed, threads, first, first + step
            )
            valued, states, clipped = valued + reached, states + found, clipped + over
        progress(
            f"{len(group)} tiles: {depth + 1} move{'s' * (depth > 0)}, {valued / size:6.1%} of {size:,} placements, "
            f"{time.perf_counter() - started:.0f} s"
        )
        if states == 0:
            break
        frontier, following = following, frontier
        depth += 1
    if valued != size:
        raise DatabaseError(f"the {len(group)}-tile build reached {valued:,} of {size:,} placements")
    if clipped:  # admissible all the same (a smaller value), but say so
        progress(f"{len(group)} tiles: {clipped:,} values above what 4 bits hold, kept lower")
    return packed


def clear(folder: Optional[Path] = None) -> list[Path]:
    """Remove every pattern database file (this version's and older ones, and the marks of
    their checked digests); the paths removed."""
    folder = folder if folder is not None else cache_folder()
    removed = []
    for path in sorted(folder.glob("slide-patterns-*")) if folder.is_dir() else ():
        path.unlink()
        removed.append(path)
    return removed


def memory_available() -> Optional[int]:
    """The memory the system can give without swapping, in bytes (``None``: unknown)."""
    try:
        with open("/proc/meminfo") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


class PatternTables:
    """The best tables in ``folder`` (a cache: :func:`cache_folder` by default), loaded
    once per object: 7-8 when its file is there, else 6-6-3, built now (about 25 s) if
    need be.  ``partitions`` narrows the choice (a benchmark of one set).  A run that
    solves many boards (a collection) holds one object and passes it to every solve."""

    def __init__(self, folder: Optional[Path] = None, partitions: Optional[tuple[Partition, ...]] = None):
        self.folder = Path(folder) if folder is not None else cache_folder()
        self.partitions = partitions
        self._loaded: Optional[Loaded] = None

    def get(self, announce: Callable[[str], None] = lambda text: print(text, file=sys.stderr)) -> Loaded:
        if self._loaded is not None:
            return self._loaded
        if not AVAILABLE:
            raise DatabaseError("the compiled pattern databases are not built (no C compiler at install)")
        partitions = self.partitions or PARTITIONS
        for partition in partitions:
            try:
                self._loaded = load(partition, self.folder)
            except DatabaseError as error:
                announce(f"{error}: using the next tables")
                continue
            if self._loaded is not None:
                return self._loaded
        if SMALL not in partitions:
            raise DatabaseError(f"the {partitions[0].name} pattern databases are not built: kamivision tables build")
        path = path_of(SMALL, self.folder)
        announce(f"building the 15-puzzle's 6-6-3 pattern databases once (under a minute; kept in {path}) ...")
        tables = compute(SMALL)
        try:
            write(SMALL, tables, self.folder)
        except Exception as error:  # noqa: BLE001 - a read-only cache only costs the rebuild next time
            announce(f"could not keep the pattern databases in {path}: {error}")
        self._loaded = Loaded(SMALL, tables)
        return self._loaded
