"""Files in and out: loading images safely, writing outputs atomically.

Nothing here changes a library's global settings: the image size limit is checked on the
image's header before its pixels are decoded.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import ImageError, OutputExistsError

if TYPE_CHECKING:
    import numpy as np

MAX_PIXELS = 40_000_000  # decompression-bomb guard: larger images are refused
MIN_SIDE = 200  # pixels; a smaller image cannot show a KAMI board


def load_image(path: str | os.PathLike) -> np.ndarray:
    """The image at ``path`` as an RGB uint8 array of shape (H, W, 3), or
    :class:`ImageError` naming the file and the problem.

    Images of more than :data:`MAX_PIXELS` pixels are refused from their header, before
    their pixels are decoded (a decompression bomb costs nothing).
    """
    import numpy as np
    from PIL import Image

    path = Path(path)
    if not path.exists():
        raise ImageError(f"{path}: no such file")
    if path.is_dir():
        raise ImageError(f"{path}: is a folder, not an image")
    too_large = ImageError(f"{path}: image is too large (more than {MAX_PIXELS:,} pixels)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(path) as im:
                if im.width * im.height > MAX_PIXELS:
                    raise too_large
                im.load()
                rgb = np.asarray(im.convert("RGB"))
    except Image.DecompressionBombError:  # Pillow's own, far larger, limit
        raise too_large from None
    except (OSError, SyntaxError, ValueError) as error:
        reason = str(error).split("\n")[0] or type(error).__name__
        if "cannot identify image file" in reason:
            reason = "not an image file Pillow can read"
        raise ImageError(f"{path}: {reason}") from None
    if rgb.shape[1] < MIN_SIDE or rgb.shape[0] < MIN_SIDE:
        raise ImageError(f"{path}: image is {rgb.shape[1]}x{rgb.shape[0]}, too small for a KAMI screenshot")
    return np.ascontiguousarray(rgb)


def write_atomic(path: str | os.PathLike, data: bytes, overwrite: bool = False) -> Path:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    Raises :class:`OutputExistsError` when ``path`` exists and ``overwrite`` is false, so
    nothing the user has is replaced without being asked.
    """
    path = Path(path)
    if path.exists() and not overwrite:
        raise OutputExistsError(f"{path}: already exists (use --force to overwrite)")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise OutputExistsError(f"{path}: folder {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        # mkstemp makes the file private (0600); give it the usual mode under the umask.
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if not overwrite:
            # link() refuses an existing target, so a file created meanwhile is not clobbered.
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise OutputExistsError(f"{path}: already exists (use --force to overwrite)") from None
            except OSError:
                os.replace(tmp, path)
                return path
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path
