"""Animated pictures written by Pillow: GIF, animated PNG and animated WebP.

The frames are drawn by Qt (``ui.animation``) and handed here as Pillow RGB images of one
size, each with how long it is shown; ``write_animation`` encodes them into one file.

* **GIF** holds 256 colours a frame.  Every frame is mapped, without dithering, onto one
  palette made from a sample of the frames, so a square that did not change keeps the same
  index from frame to frame and Pillow stores only the rectangle that changed (a board
  between two plies differs in a few squares and the caption): that keeps a 100-ply game
  at 600 pixels under 2 MB (docs/BENCHMARKS.md).
* **Animated PNG** and **WebP** are lossless: every frame decodes to exactly the pixels
  drawn.

The file is encoded in memory and then written in one piece to a temporary name beside
``out`` and renamed over it, so a failed write (``OSError``, with the system's reason)
leaves no half-written file and never touches an older file of that name.
"""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from PIL import Image

__all__ = ["ANIMATION_FORMATS", "format_of", "write_animation", "write_bytes"]

ANIMATION_FORMATS = {"gif": (".gif",), "apng": (".png", ".apng"), "webp": (".webp",)}
"""Each animation format and the file name suffixes that name it."""

PALETTE_SAMPLES = 12
"""Frames the GIF palette is made from (spread over the game, the cards included)."""


def format_of(path: Path) -> str | None:
    """The animation format that ``path``'s suffix names, if any."""
    suffix = path.suffix.lower()
    for fmt, suffixes in ANIMATION_FORMATS.items():
        if suffix in suffixes:
            return fmt
    return None


def write_animation(
    frames: Sequence[Image.Image], delays_ms: Sequence[int], out: Path, fmt: str
) -> int:
    """Write ``frames`` (RGB, one size) as ``fmt`` into ``out``; the bytes written."""
    if not frames or len(frames) != len(delays_ms):
        raise ValueError("an animation needs one delay per frame, and a frame")
    buffer = io.BytesIO()
    first, rest = frames[0], list(frames[1:])
    durations = list(delays_ms)
    if fmt == "gif":
        palette = _palette(frames)
        mapped = [_on_palette(frame, palette) for frame in frames]
        mapped[0].save(
            buffer,
            "GIF",
            save_all=True,
            append_images=mapped[1:],
            duration=durations,
            loop=0,
            optimize=True,  # unchanged pixels become transparent: they compress away
            disposal=1,
        )
    elif fmt == "apng":
        first.save(buffer, "PNG", save_all=True, append_images=rest, duration=durations, loop=0)
    elif fmt == "webp":
        first.save(
            buffer,
            "WEBP",
            save_all=True,
            append_images=rest,
            duration=durations,
            loop=0,
            lossless=True,
            # Lossless effort: method 2, quality 50 is 3 % bigger than method 4, quality 80
            # and twice as fast (docs/BENCHMARKS.md).
            method=2,
            quality=50,
        )
    else:
        raise ValueError(f"not an animation format: {fmt}")
    return write_bytes(out, buffer.getvalue())


def write_bytes(out: Path, data: bytes) -> int:
    """Write ``data`` to ``out`` whole or not at all (``OSError`` says why); its length."""
    directory = out.parent if str(out.parent) else Path(".")
    handle, temporary = tempfile.mkstemp(prefix=f".{out.name}.", dir=directory)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, out)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(data)


def _palette(frames: Sequence[Image.Image]) -> Image.Image:
    """One 256-colour palette for every frame, from a few frames stacked into one image."""
    step = max(1, len(frames) // PALETTE_SAMPLES)
    sample = [*frames[::step][:PALETTE_SAMPLES], frames[-1]]
    width, height = frames[0].size
    sheet = Image.new("RGB", (width, height * len(sample)))
    for index, frame in enumerate(sample):
        sheet.paste(frame, (0, index * height))
    return sheet.quantize(colors=255, method=Image.Quantize.MEDIANCUT)


def _on_palette(frame: Image.Image, palette: Image.Image) -> Image.Image:
    return frame.quantize(palette=palette, dither=Image.Dither.NONE)
