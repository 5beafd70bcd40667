"""Files in and out: loading images safely, writing outputs atomically.

Nothing here changes a library's global settings: the image size limit is checked on the
image's header before its pixels are decoded.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import stat
import tempfile
import threading
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .errors import ImageError, InputError, OutputError, OutputExistsError

if TYPE_CHECKING:
    import numpy as np

#: The largest image read, a side and in all: no phone's or tablet's screenshot is larger
#: than about 3000 pixels on its long side (a 12.9-inch iPad: 2048 x 2732), and a photo
#: of a screen from a 12 MP camera fits.  Larger ones (and decompression bombs) are
#: refused from their header, before a pixel is decoded: decoding alone would take
#: seconds and a gigabyte.
MAX_SIDE = 4096
MAX_PIXELS = 4096 * 3072
MIN_SIDE = 200  # pixels; a smaller image cannot show a KAMI board
MAX_FILE_BYTES = 100_000_000  # larger inputs (a board file, an image) are refused unread


def check_input(path: str | os.PathLike, error: type[Exception] = InputError) -> Path:
    """``path`` if it is a regular, readable file of at most :data:`MAX_FILE_BYTES`; else
    ``error`` naming it and the problem.  Checked before anything is opened, so that a
    FIFO or a device never blocks a read."""
    path = Path(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot be read ({exc.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise error(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise error(f"{path}: is not a regular file")
    if not os.access(path, os.R_OK):
        raise error(f"{path}: cannot be read (permission denied)")
    if info.st_size > MAX_FILE_BYTES:
        raise error(f"{path}: is {info.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} allowed")
    return path


def check_output(path: str | os.PathLike, overwrite: bool, inputs: tuple = ()) -> Path:
    """``path`` if a file can be written there: not one of ``inputs``, in a folder that
    exists and is writable, not an existing folder, and not an existing file unless
    ``overwrite``.  Checked before any work, so that no work is lost to a bad output."""
    path = Path(path)
    for given in (g for g in inputs if g is not None):
        same_name = os.path.abspath(path) == os.path.abspath(given)
        if same_name or (path.exists() and Path(given).exists() and path.samefile(given)):
            raise OutputError(f"{path}: refusing to overwrite the input itself")
    if path.is_dir():
        raise OutputError(f"{path}: is a folder; give a file name")
    if path.exists() and not stat.S_ISREG(path.stat().st_mode):
        raise OutputError(f"{path}: is not a regular file (a device, pipe or socket): refusing to replace it")
    if path.exists() and not overwrite:
        raise OutputExistsError(f"{path}: already exists (use --force to overwrite)")
    _check_folder(path.parent, path)
    return path


def check_output_folder(path: str | os.PathLike, overwrite: bool) -> Path:
    """``path`` if a folder of outputs can be put there: its parent exists and is
    writable, and ``path`` is absent, or (with ``overwrite``) a writable folder."""
    path = Path(path)
    if path.exists():
        if not path.is_dir():
            raise OutputError(f"{path}: exists and is not a folder")
        if not overwrite and any(path.iterdir()):
            raise OutputExistsError(f"{path}: is a folder that is not empty (use --force to write into it)")
        _check_folder(path, path)
    _check_folder(path.parent, path)
    return path


def _check_folder(folder: Path, target: Path) -> None:
    """``folder`` exists and a file can be made in it: tried, with a temporary file that
    is removed at once (``os.access`` says yes to root everywhere, even in ``/proc`` or on
    a read-only file system, and a long search would be lost at the end)."""
    if not folder.is_dir():
        raise OutputError(f"{target}: folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"{target}: folder {folder} is not writable")
    try:
        fd, probe = tempfile.mkstemp(prefix=".kamivision-probe.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(
            f"{target}: cannot write in folder {folder} ({error.strerror or type(error).__name__})"
        ) from None
    os.close(fd)
    os.unlink(probe)


def write_folder_atomic(
    path: str | os.PathLike, files: dict[str, bytes], overwrite: bool = False, stale=lambda name: False
) -> Path:
    """Write ``files`` (name -> bytes) into the folder ``path`` all or nothing: into a
    temporary folder beside it, then renamed into place (a new folder) or moved in file
    by file (an existing one, with ``overwrite``; files there whose names ``stale``
    accepts and that this run did not write are then removed, so that an earlier run's
    extra pictures do not stay).  On any error nothing is left behind."""
    with Staged(overwrite) as staged:
        staged.folder(path, files, stale)
        return staged.commit()[0]


def _temp_folder(path: Path, files: dict[str, bytes]) -> Path:
    """``files`` written (and flushed) into a temporary folder beside ``path``."""
    tmp = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent))
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o777 & ~mask)
        for name, data in files.items():
            with open(tmp / name, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp / name, 0o666 & ~mask)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return tmp


def _move_folder(tmp: Path, path: Path, files: dict[str, bytes], stale) -> None:
    """The temporary folder ``tmp`` into place at ``path``: renamed (a new folder), or its
    files moved in and the stale ones of an earlier run removed."""
    if not path.exists():
        os.rename(tmp, path)
        return
    for name in files:
        os.replace(tmp / name, path / name)
    for old in path.iterdir():  # an earlier run's pictures that this run has not
        if old.name not in files and stale(old.name):
            old.unlink()
    shutil.rmtree(tmp, ignore_errors=True)


def parse_json(text: str, origin: str, error: type[Exception]):
    """The JSON value of a file's ``text``, or ``error`` naming ``origin`` in one line:
    not JSON, nested too deeply, an integer too long for Python to read (over 4,300
    digits), or a key given twice in one object (the last would silently win)."""
    import json

    def unique(pairs):
        keys = [key for key, _ in pairs]
        for key in keys:
            if keys.count(key) > 1:
                raise _DuplicateKey(key)
        return dict(pairs)

    try:
        return json.loads(text, object_pairs_hook=unique)
    except json.JSONDecodeError as exc:
        raise error(f"{origin}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except _DuplicateKey as exc:
        raise error(f"{origin}: the key {str(exc.args[0])[:40]!r} is given twice in one object") from None
    except RecursionError:
        raise error(f"{origin}: JSON nested too deeply") from None
    except ValueError as exc:  # an integer of more digits than Python converts
        raise error(f"{origin}: not usable JSON ({str(exc).splitlines()[0][:80]})") from None


class _DuplicateKey(Exception):
    pass


def load_image(path: str | os.PathLike) -> np.ndarray:
    """The image at ``path`` as an RGB uint8 array of shape (H, W, 3), or
    :class:`ImageError` naming the file and the problem.

    Images of more than :data:`MAX_PIXELS` pixels, or :data:`MAX_SIDE` a side, are refused
    from their header, before their pixels are decoded (a decompression bomb costs nothing).
    """
    path = check_input(path, ImageError)
    return decode_image(path, str(path))


def decode_image(source: Path | bytes, name: str) -> np.ndarray:
    """:func:`load_image` for a file already checked, or for bytes in memory (an upload);
    ``name`` is what the error messages call it."""
    import io

    import numpy as np
    from PIL import Image, ImageOps

    max_pixels, max_side = MAX_PIXELS, MAX_SIDE  # read when called: tests lower them
    too_large = f"too large for a screenshot (more than {max_pixels:,} pixels): take a screenshot, or scale it down"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(source) if isinstance(source, bytes) else source) as im:
                if im.width * im.height > max_pixels:
                    raise ImageError(f"{name}: image is {im.width}x{im.height}, {too_large}")
                if max(im.size) > max_side:
                    raise ImageError(
                        f"{name}: image is {im.width}x{im.height}, larger than any phone's screenshot "
                        f"(at most {max_side} pixels a side here)"
                    )
                im.load()
                # A photo of the screen, or a screenshot passed through an editor, may be
                # stored sideways with an EXIF orientation: read it the right way up.
                upright = ImageOps.exif_transpose(im)
                rgb = np.asarray(upright.convert("RGB"))
    except ImageError:
        raise
    except Image.DecompressionBombError:  # Pillow's own, far larger, limit
        raise ImageError(f"{name}: image is {too_large}") from None
    except (OSError, SyntaxError, ValueError) as error:
        reason = str(error).split("\n")[0] or type(error).__name__
        if "cannot identify image file" in reason:
            reason = "not an image kamivision can read (PNG, JPEG, WebP, GIF, BMP, TIFF, …)"
        raise ImageError(f"{name}: {reason}") from None
    if rgb.shape[1] < MIN_SIDE or rgb.shape[0] < MIN_SIDE:
        raise ImageError(f"{name}: image is {rgb.shape[1]}x{rgb.shape[0]}, too small for a KAMI screenshot")
    return np.ascontiguousarray(rgb)


def write_atomic(path: str | os.PathLike, data: bytes | list, overwrite: bool = False) -> Path:
    """Write ``data`` (bytes, or a list of bytes-like parts) to ``path`` through a
    temporary file and a rename.

    Raises :class:`OutputExistsError` when ``path`` exists and ``overwrite`` is false, so
    nothing the user has is replaced without being asked, and :class:`OutputError` (one
    line) when the system refuses the write (a full disk, a read-only file system); what
    was there is then untouched.  A symbolic link to a file is written through: the file
    it names gets the new bytes, the link stays.
    """
    with Staged(overwrite) as staged:
        staged.file(path, data)
        return staged.commit()[0]


def _temp_file(path: Path, data: bytes | list) -> Path:
    """``data`` written (and flushed to disk) into a temporary file beside ``path``, with
    the usual mode under the umask (mkstemp makes it private)."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as handle:
            for part in data if isinstance(data, list) else (data,):
                handle.write(part)
            handle.flush()
            os.fsync(handle.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return Path(tmp)


def _place(tmp: Path, path: Path, overwrite: bool) -> None:
    """The temporary file ``tmp`` renamed to ``path``; without ``overwrite``, by a link
    that refuses a file created there meanwhile (:class:`OutputExistsError`)."""
    if not overwrite:
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise OutputExistsError(f"{path}: already exists (use --force to overwrite)") from None
        except OSError:  # a file system without hard links
            os.replace(tmp, path)
            return
        os.unlink(tmp)
    else:
        os.replace(tmp, path)


@contextlib.contextmanager
def signals_held():
    """Ctrl-C and SIGTERM held back for the block, then handled as they would have been:
    for a few renames that must all happen, or none.  (Their handlers are swapped for
    ones that only note the signal: blocking it in this thread would not do, for the
    system may hand a signal to any other thread, and Python then acts on it here.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    noted: list[int] = []
    before = {
        signum: signal.signal(signum, lambda signum, frame: noted.append(signum))
        for signum in (signal.SIGINT, signal.SIGTERM)
    }
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        if noted:
            handler = before[noted[0]]
            if callable(handler):
                handler(noted[0], None)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), noted[0])


class Staged:
    """Several outputs written all or none: each is first written in full beside its
    place (a temporary file or folder, flushed to disk), and only when all are ready are
    they renamed into place, with Ctrl-C and SIGTERM held back for those renames.  An
    error or an interrupt before then leaves nothing behind, and what was there before
    untouched.  Use as a context manager; :meth:`commit` at the end of the block."""

    def __init__(self, overwrite: bool):
        self.overwrite = overwrite
        self._plan: list[tuple[Path, Path, Callable[[], None]]] = []  # (output, temporary, put it in place)

    def __enter__(self) -> "Staged":
        return self

    def __exit__(self, *exc) -> None:
        for _, tmp, _ in self._plan:  # what was not committed
            if tmp.is_dir():
                shutil.rmtree(tmp, ignore_errors=True)
            elif os.path.lexists(tmp):
                tmp.unlink()

    def file(self, path: str | os.PathLike, data: bytes | list) -> None:
        """Stage ``data`` for the file ``path``: refused (:class:`OutputExistsError`) when
        it exists and overwriting was not asked; a symbolic link to a file is written
        through (the file it names gets the new bytes, the link stays)."""
        named = check_output(path, self.overwrite)
        target = Path(os.path.realpath(named)) if named.is_symlink() else named
        tmp = _failing_as(named, lambda: _temp_file(target, data))
        self._plan.append((named, tmp, lambda: _place(tmp, target, self.overwrite)))

    def folder(self, path: str | os.PathLike, files: dict[str, bytes], stale=lambda name: False) -> None:
        """Stage ``files`` for the folder ``path`` (see :func:`write_folder_atomic`)."""
        path = check_output_folder(path, self.overwrite)
        tmp = _failing_as(path, lambda: _temp_folder(path, files))
        self._plan.append((path, tmp, lambda: _move_folder(tmp, path, files, stale)))

    def commit(self) -> list[Path]:
        """Every staged output into its place; the paths, in the order staged."""
        done = []
        with signals_held():
            while self._plan:
                path, _, place = self._plan[0]
                _failing_as(path, place)
                self._plan.pop(0)
                done.append(path)
        return done


def _failing_as(path: Path, work: Callable):
    """``work()``, a refusal by the system (a full disk, a read-only file system) said in
    one line naming ``path`` (:class:`OutputError`)."""
    try:
        return work()
    except OSError as error:
        raise OutputError(f"{path}: cannot be written ({error.strerror or type(error).__name__})") from None
