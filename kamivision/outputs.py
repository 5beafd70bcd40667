"""The pictures of a screenshot's answer, written to files: checked before any work (so
that a long solve never ends in a file that cannot be written), then written atomically,
all or none."""

from __future__ import annotations

import os
from pathlib import Path

from .errors import KamiError


def check_picture_outputs(source: Path, output: Path, steps, gif, force: bool) -> None:
    """Every picture output can be written (before any work): not the screenshot, in a
    writable folder, not an existing file (or folder with files) unless ``force``."""
    from .files import check_output, check_output_folder

    check_output(output, force, inputs=(source,))
    check_suffix(output, (".png", ".jpg", ".jpeg"))
    named = [("-o", output)] + [(flag, path) for flag, path in (("--gif", gif), ("--steps", steps)) if path is not None]
    for i, (flag, path) in enumerate(named):
        for other_flag, other in named[:i]:
            if os.path.abspath(path) == os.path.abspath(other):
                raise KamiError(f"{path}: named by both {other_flag} and {flag}; give each output its own name")
    if gif is not None:
        check_output(gif, force, inputs=(source, output))
        check_suffix(gif, (".gif",))
    if steps is not None:
        check_output_folder(steps, force)
        # A file there under a step picture's name would be overwritten by the steps, or
        # removed as an earlier run's.
        for path, what in ((source, "the screenshot"), (output, "the -o picture"), (gif, "the GIF")):
            if (
                path is not None
                and os.path.abspath(Path(path).parent) == os.path.abspath(steps)
                and is_step_picture(Path(path).name)
            ):
                raise KamiError(
                    f"{path}: {what} is in the --steps folder under a step picture's name; give --steps another folder"
                )


def check_suffix(path: Path, suffixes: tuple[str, ...]) -> None:
    """The file's name ends in one of ``suffixes`` (its format follows the name)."""
    if path.suffix.lower() not in suffixes:
        raise KamiError(f"{path}: the file's name must end in {' or '.join(suffixes)} (its format follows the name)")


def is_step_picture(name: str) -> bool:
    """A name :func:`write_pictures` gives a step picture (``step-07.png``, ``solved.png``)."""
    return name == "solved.png" or (name.startswith("step-") and name.endswith(".png") and name[5:-4].isdigit())


def write_pictures(result, output: Path, steps, gif, force: bool) -> list[Path]:
    """Write the overlay, the step pictures and the GIF, all or none: every picture is
    made and written beside its place first, then all are renamed into place at once
    (:class:`~kamivision.files.Staged`), so that a write that fails (a
    :class:`KamiError` naming the output), or Ctrl-C while the pictures are made, leaves
    none of them, and what was there before untouched."""
    from .files import Staged
    from .overlay import gif_bytes, picture_bytes, png_bytes

    with Staged(force) as staged:
        staged.file(output, picture_bytes(result.overlay(), output.suffix))
        if steps is not None or gif is not None:
            frames = result.steps()
            if steps is not None:
                names = [f"step-{i:02d}.png" if i < len(frames) else "solved.png" for i in range(1, len(frames) + 1)]
                staged.folder(
                    steps, {name: png_bytes(frame) for name, frame in zip(names, frames)}, stale=is_step_picture
                )
            if gif is not None:
                staged.file(gif, gif_bytes(frames))
        return staged.commit()
