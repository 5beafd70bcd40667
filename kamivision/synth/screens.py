"""Phone screens and the proportions of KAMI 2's layout on them, for drawing screens (the
renderer, ``kamivision render`` and the benchmarks); the reader finds the layout by looking
at the picture, and never imports this table.

All proportions are fractions of the screen width, measured on real screenshots
(``docs/recognition.md``): on 16:9 phones the board starts at the top of the screen and
the footer (one row of four buttons, then the palette) at ``1.612 W``; on iPhone X class
phones a status strip of ``0.112 W`` sits above the board, the footer starts at
``1.7404 W`` with the buttons in a 2 x 2 block ``0.297 W`` wide, and a home-indicator
strip of ``0.109 W`` closes the screen.  The board box is the screen's width wide and
``TRIANGLE_ASPECT`` times that tall; the footer is drawn over its last row.

Tested in tests/synth/test_render.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..board import KAMI2_COLUMNS, KAMI2_ROWS, TRIANGLE_ASPECT  # noqa: F401  (the board's size: re-exported for the renderer's callers)

#: Footer top minus board top, in screen widths, on 16:9 phones (one row of buttons).
CLASSIC_BOARD_ABOVE_FOOTER = 1.612
#: The same on phones with the 2 x 2 button block: their board shows a little more of row 28.
NOTCH_BOARD_ABOVE_FOOTER = 1.6284
#: Width of the 2 x 2 button block (the four-button row is ``0.4 W``).
NOTCH_BUTTONS = 0.297


@dataclass(frozen=True, slots=True)
class Device:
    """A phone screen and the proportions of its layout (fractions of the width)."""

    name: str
    width: int
    height: int
    style: str  # "classic" (16:9, one row of buttons) or "notch" (2 x 2 buttons)
    top: float = 0.0  # status strip above the board
    footer_top: float = CLASSIC_BOARD_ABOVE_FOOTER
    footer_bottom: Optional[float] = None  # None: to the bottom of the screen
    buttons: float = 0.4  # width of the button block
    nav_bar: str = ""  # "home" (iPhone X indicator) or "android" (three buttons)
    board_width: float = 1.0  # the board's width over the screen's: above 1, cropped at both sides
    #: A translucent navigation bar this tall (screen widths) over the bottom of the footer.
    nav_overlay: float = 0.0
    #: The button that shows the counter: its slot in the block, left to right and top to
    #: bottom (-1: the game's own, the second of a row and the last of a 2 x 2 block).
    counter: int = -1
    #: The status strip above the board: "" pale (the game's background, or black with
    #: ``nav_bar`` "android"), "black", or "cutout" (pale with a black camera cut-out).
    strip: str = ""


_IPHONE_X_FOOTER = 0.112 + NOTCH_BOARD_ABOVE_FOOTER  # 1.7404

#: On tall Android phones (measured at 886 x 1920) the footer is 0.1952 W high, the status
#: strip 0.0688 W, and the board's box reaches 0.0062 of its width under the footer's top.
_TALL_FOOTER, _TALL_STATUS, _UNDER_FOOTER = 0.1952, 0.0688, 0.0062


def _tall_android(name: str, width: int, height: int, nav_overlay: float = 0.0) -> Device:
    """A tall Android phone laid out as the measured 886 x 1920 one: the same status strip
    and footer (in screen widths), the board scaled to fill the height between them and
    cropped at both sides.  Only the 886 x 1920 proportions are measured; other heights
    are this rule applied to them (a guess until a screenshot confirms it)."""
    footer_top = height / width - _TALL_FOOTER
    board_width = (footer_top - _TALL_STATUS) / (TRIANGLE_ASPECT - _UNDER_FOOTER)
    return Device(name, width, height, "classic", _TALL_STATUS, footer_top, None, 0.4, "", board_width, nav_overlay)


def _iphone_x_class(name: str, width: int, height: int) -> Device:
    """A newer iPhone: the iPhone X's proportions (measured at 1125 x 2436) at its own size;
    their screens have the same shape within 0.1 %, which is the reason to expect it."""
    return Device(name, width, height, "notch", 0.112, _IPHONE_X_FOOTER, 2.0559, NOTCH_BUTTONS, "home")


def _tablet(name: str, width: int, height: int) -> Device:
    """A 4:3 tablet: the footer a row of four buttons 0.125 W high at the bottom, the board
    scaled to the height above it and centred with the background at both sides (a
    letterbox).  A guess: no tablet screenshot has been seen."""
    footer_top = height / width - 0.125
    board_width = footer_top / (TRIANGLE_ASPECT - _UNDER_FOOTER)
    return Device(name, width, height, "classic", 0.0, footer_top, None, 0.4, "", board_width)


DEVICES: dict[str, Device] = {
    d.name: d
    for d in [
        Device("iphone-se", 640, 1136, "classic"),
        Device("iphone-8", 750, 1334, "classic"),
        Device("iphone-8-plus", 1242, 2208, "classic"),
        Device("android-1080p", 1080, 1920, "classic"),
        Device("iphone-x", 1125, 2436, "notch", 0.112, _IPHONE_X_FOOTER, 2.0559, NOTCH_BUTTONS, "home"),
        Device("iphone-xr", 828, 1792, "notch", 0.112, _IPHONE_X_FOOTER, 2.0559, NOTCH_BUTTONS, "home"),
        # An Android phone with a notch: a dark status strip, the board 1.625 W above the footer.
        Device("android-notch", 1080, 2280, "notch", 0.07, 1.6950, 2.0111, NOTCH_BUTTONS, "android"),
        # A tall Android phone (about 19.5:9), measured on real 886 x 1920 screenshots: the
        # game scales the board to the height between a status strip of 0.0688 W and the
        # footer at 1.9718 W, so it is 1.1817 W wide and both sides are cropped (columns 0
        # and 9 show about a quarter of their width).
        Device("android-tall", 886, 1920, "classic", 0.0688, 1.9718, None, 0.4, "", 1.1817),
        _tall_android("android-2340", 1080, 2340),
        _tall_android("android-2400", 1080, 2400),
        # A 19:9 phone with the translucent three-button navigation bar over the footer.
        _tall_android("android-2280-nav", 1080, 2280, nav_overlay=0.105),
        _iphone_x_class("iphone-12", 1170, 2532),
        _iphone_x_class("iphone-14-pro", 1179, 2556),
        _iphone_x_class("iphone-12-pro-max", 1284, 2778),
        _iphone_x_class("iphone-14-pro-max", 1290, 2796),
        _tablet("tablet-4x3", 1536, 2048),
    ]
}
DEFAULT_DEVICE = "iphone-8"


def random_device(rng) -> Device:
    """A screen no phone table limits, drawn from ``rng`` (``numpy.random.Generator``), for
    testing the reader on layouts it was never shown: a width of 480 to 1600 pixels and a
    shape from 4:3 to 22:9; a status strip of 0 to 9 % of the height (pale, black, or pale
    with a camera cut-out); the buttons as a row of four or a 2 x 2 block, of several
    widths, with the counter in any slot; the footer 0.12 to 0.38 widths high, ending at
    the screen's bottom or above a gesture strip (a pill on the background, or Android's
    three buttons on black), or under a translucent three-button bar; and the board filling
    the width, letterboxed (a tablet) or cropped at the sides (a tall phone).  The board
    ends within about a hundredth of its width of the footer's top, as on every real
    screen seen."""
    while True:
        w = int(rng.integers(480, 1601))
        h = int(round(w * rng.uniform(4 / 3, 22 / 9)))
        top = float(rng.choice([0.0, rng.uniform(0.02, 0.09) * h / w]))
        strip = str(rng.choice(["", "black", "cutout"])) if top else ""
        bottom_kind = str(rng.choice(["none", "home", "android", "overlay"]))
        bottom = float(rng.uniform(0.04, 0.11)) if bottom_kind in ("home", "android") else 0.0
        row = bool(rng.random() < 0.6)
        buttons = float(rng.uniform(0.3, 0.45) if row else rng.uniform(0.22, 0.34))
        under = float(rng.uniform(-0.012, 0.006))  # footer top - board box bottom, in board widths
        fill = rng.random()
        if fill < 0.5:  # the board fills the width; the footer takes what is left
            board_width = 1.0
            footer_top = top + TRIANGLE_ASPECT + under
        else:  # the footer's height is the phone's; the board is scaled to the height left
            footer_h = float(rng.uniform(0.12, 0.38))
            footer_top = h / w - bottom - footer_h
            board_width = (footer_top - top) / (TRIANGLE_ASPECT + under)
        footer_h = h / w - bottom - footer_top
        if not (0.12 <= footer_h <= 0.4 and 0.8 <= board_width <= 1.22):
            continue
        if not row and footer_h < 0.2:  # a 2 x 2 block needs room for two rows of icons
            continue
        footer_bottom = None if bottom == 0 else h / w - bottom
        nav = {"home": "home", "android": "android"}.get(bottom_kind, "")
        overlay = float(rng.uniform(0.08, min(0.15, footer_h))) if bottom_kind == "overlay" else 0.0
        return Device(
            f"random-{w}x{h}",
            w,
            h,
            "classic" if row else "notch",
            top,
            footer_top,
            footer_bottom,
            buttons,
            nav,
            board_width,
            overlay,
            int(rng.integers(0, 4)),
            strip,
        )


def button_slots(device: Device, buttons) -> list[tuple[float, float, float, float]]:
    """The button block's slots, left to right and top to bottom: a row of four, or 2 x 2."""
    bx, by, bw, bh = buttons
    if device.style == "classic":
        return [(bx + k * bw / 4, by, bw / 4, bh) for k in range(4)]
    hw, hh = bw / 2, bh / 2
    return [(bx, by, hw, hh), (bx + hw, by, hw, hh), (bx, by + hh, hw, hh), (bx + hw, by + hh, hw, hh)]


def counter_slot(device: Device) -> int:
    """The counter's slot: the device's, or the game's own (second of a row, last of 2 x 2)."""
    if device.counter >= 0:
        return device.counter
    return 1 if device.style == "classic" else 3
