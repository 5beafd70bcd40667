"""Screenshot -> board.

One module per stage: :mod:`~kamivision.vision.layout` finds the footer, the palette
swatches and the board's box (:mod:`~kamivision.vision.alone` the box of a picture of the
board alone, with no footer); :mod:`~kamivision.vision.cells` fits the lattice, samples
every cell and classifies it against the palette with a confidence;
:mod:`~kamivision.vision.par` reads the moves-left counter; :mod:`~kamivision.vision.reader`
runs them in order.  Thresholds live in :class:`VisionSettings`.
"""

from .layout import ScreenLayout, find_layout
from .reader import (
    READ_PIXELS,
    Recognition,
    load_screenshot,
    recognize,
    recognize_file,
    within_read_pixels,
)
from .settings import VisionSettings

__all__ = [
    "READ_PIXELS",
    "Recognition",
    "ScreenLayout",
    "VisionSettings",
    "find_layout",
    "load_screenshot",
    "recognize",
    "recognize_file",
    "within_read_pixels",
]
