"""The reader's tunable thresholds, in one frozen object made once and passed down."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class VisionSettings:
    """Thresholds of the screenshot reader (``docs/recognition.md`` says how each was set).

    Tests and experiments pass their own instead of changing module globals.
    """

    #: Weight of Lab lightness against a and b when clustering: lighting varies lightness
    #: across the board more than hue.
    lightness_weight: float = 0.7
    #: A paper cell's grain, relative to the board's, counts as this many Lab units.
    grain_weight: float = 20.0
    #: A class of cells this flat (grain relative to the board's) is background, not paper.
    blank_grain: float = 0.45
    #: Cells whose confidence (0..1) is below this are listed as uncertain.
    uncertain: float = 0.25
    #: A cell the screen shows less than this share of (a board cropped at the sides) is
    #: uncertain, whatever it looks like.
    hidden: float = 0.25
    #: A cell whose sampled pixels are this share or more foreign (ink, digits, a cursor)
    #: is uncertain, and does not shape the color clusters.
    marked: float = 0.3
    #: Pixels closer than this share of a column's width to a cell's edge are not sampled.
    cell_margin: float = 0.18
    #: A cell measured over fewer pixels than this (the half cells of rows 0 and 28 on a
    #: small screenshot) has its confidence scaled down in proportion.
    min_pixels: int = 100
    #: The lattice's vertical offset is searched within this share of the screen width.
    offset_span: float = 0.03


DEFAULT_SETTINGS = VisionSettings()
