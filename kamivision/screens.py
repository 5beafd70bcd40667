"""Phone screens and the proportions of KAMI 2's layout on them, shared by the renderer
(which draws them) and the reader (which expects them).

All proportions are fractions of the screen width, measured on real screenshots
(``docs/recognition.md``): on 16:9 phones the board starts at the top of the screen and
the footer (one row of four buttons, then the palette) at ``1.612 W``; on iPhone X class
phones a status strip of ``0.112 W`` sits above the board, the footer starts at
``1.7404 W`` with the buttons in a 2 x 2 block ``0.297 W`` wide, and a home-indicator
strip of ``0.109 W`` closes the screen.  The board box is the screen's width wide and
``TRIANGLE_ASPECT`` times that tall; the footer is drawn over its last row.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

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


_IPHONE_X_FOOTER = 0.112 + NOTCH_BOARD_ABOVE_FOOTER  # 1.7404

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
    ]
}
DEFAULT_DEVICE = "iphone-8"

#: The KAMI 2 board: 29 rows of 10 triangles (``docs/board-format.md``).
KAMI2_ROWS, KAMI2_COLUMNS = 29, 10
