"""``palabre log export --gif/--apng/--webp``: a real game's file, drawn by the boards,
written by Pillow, decoded back by Pillow and compared with what the board renders."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat
from PySide6.QtCore import QRect
from PySide6.QtGui import QFont, QFontMetrics, QImage, QPainter

from client.logs.verifier import verify_file
from client.sessions.replay import Replay
from tests.client.test_replay import pointed_game
from ui.animation import MAX_ANIMATION_PIXELS, Animator, Shot, caption_lines, to_pillow
from ui.board_render import BoardRenderer
from ui.cards import result_card, result_words
from ui.entry import main
from ui.text_fit import MIN_PIXELS, WRAP, draw_fitted

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

SIZE = 240


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Discorder between A and B: arrows and rings at plies 2 and 3, B's chat at 3, then A
    resigns at ply 7 (``tests.client.test_replay.pointed_game``)."""
    return pointed_game(tmp_path_factory.mktemp("pointed")).paths["B"]


@pytest.fixture(scope="module")
def replay(game_file: Path) -> Replay:
    return Replay.build(verify_file(game_file))


def decoded(path: Path) -> tuple[str, list[Image.Image], list[int]]:
    with Image.open(path) as image:
        fmt = image.format or ""
        frames, delays = [], []
        for frame in ImageSequence.Iterator(image):
            frames.append(frame.convert("RGB"))
            delays.append(int(frame.info["duration"]))
    return fmt, frames, delays


def export(game_file: Path, *options: str) -> int:
    return main(["log", "export", str(game_file), *options, "--size", str(SIZE)])


def drawn(replay: Replay, shots: list[Shot], **kwargs: Any) -> list[Image.Image]:
    animator = Animator(replay, SIZE, **kwargs)
    try:
        return [to_pillow(animator.draw(shot)) for shot in shots]
    finally:
        animator.close()


def difference(a: Image.Image, b: Image.Image) -> float:
    return max(ImageStat.Stat(ImageChops.difference(a, b)).mean)


@pytest.mark.parametrize(
    ("option", "suffix", "fmt"),
    [
        ("--apng", ".png", "PNG"),
        ("--webp", ".webp", "WEBP"),
        ("--gif", ".gif", "GIF"),
    ],
)
def test_every_frame_decodes_to_the_board_of_its_ply(
    game_file: Path, replay: Replay, tmp_path: Path, option: str, suffix: str, fmt: str
) -> None:
    out = tmp_path / f"game{suffix}"
    assert export(game_file, option, str(out)) == 0
    kind, frames, delays = decoded(out)
    assert kind == fmt
    shots = [Shot("ply", ply) for ply in range(replay.plies + 1)] + [Shot("result")]
    assert len(frames) == len(shots) == 9
    assert delays == [1400] + [700] * 6 + [1400, 2800]
    expected = drawn(replay, shots)
    assert frames[0].size == (SIZE, expected[0].height) and expected[0].height > SIZE
    for index, (frame, picture) in enumerate(zip(frames, expected, strict=True)):
        if fmt == "GIF":  # 256 colours: close, not exact
            assert difference(frame, picture) < 4, index
        else:  # lossless
            assert frame.tobytes() == picture.tobytes(), index
    # Each frame is its own ply's: nearer to it than to its neighbours'.
    for ply in range(1, replay.plies):
        here = difference(frames[ply], expected[ply])
        assert here < difference(frames[ply], expected[ply - 1]), ply
        assert here < difference(frames[ply], expected[ply + 1]), ply


def test_frames_show_the_pointing_and_the_chat_of_their_ply(replay: Replay) -> None:
    renderer = BoardRenderer(replay.engine, SIZE)
    frames = drawn(replay, [Shot("ply", 2), Shot("ply", 3)])
    for frame, ply in zip(frames, (2, 3), strict=True):
        state = replay.frames[ply]
        assert state.marks  # A's arrow and rings at ply 2, at ply 3 its second POINT
        board = frame.crop((0, 0, SIZE, SIZE))
        marked = to_pillow(renderer.grab(state.engine_state, state.last_move, state.marks))
        bare = to_pillow(renderer.grab(state.engine_state, state.last_move, ()))
        assert board.tobytes() == marked.tobytes() != bare.tobytes()
        # The arrows and rings are in A's colour (seat 1, red) where the bare board has none.
        red = sum(1 for r, g, b in marked.get_flattened_data() if r > 180 and g < 110 and b < 120)
        assert red > sum(
            1 for r, g, b in bare.get_flattened_data() if r > 180 and g < 110 and b < 120
        )
    renderer.close()
    assert caption_lines(replay, 3)[1:] == ["B: look at d4"]
    assert caption_lines(replay, 2)[1:] == []
    # The chat is written in the strip: two lines of text at ply 3, one at ply 2.
    two = ink_height(frames[1].crop((0, SIZE, SIZE, frames[1].height)))
    one = ink_height(frames[0].crop((0, SIZE, SIZE, frames[0].height)))
    assert two > one * 3 // 2, (two, one)


def ink_height(strip: Image.Image) -> int:
    """From the first row of dark text to the last."""
    grey = strip.convert("L")
    width, height = grey.size
    inked = [y for y in range(height) if any(grey.getpixel((x, y)) < 100 for x in range(width))]
    return inked[-1] - inked[0] + 1


def test_from_to_and_the_title_card(game_file: Path, replay: Replay, tmp_path: Path) -> None:
    out = tmp_path / "part.gif"
    assert export(game_file, "--animation", str(out), "--from", "2", "--to", "4") == 0
    kind, frames, delays = decoded(out)
    assert kind == "GIF" and len(frames) == 3 + 1 and delays == [1400, 700, 1400, 2800]
    expected = drawn(replay, [Shot("ply", 2), Shot("ply", 4)], first=2, last=4)
    assert difference(frames[0], expected[0]) < 4 and difference(frames[2], expected[1]) < 4
    out = tmp_path / "titled.webp"
    assert export(game_file, "--webp", str(out), "--title-card") == 0
    _, frames, delays = decoded(out)
    assert len(frames) == replay.plies + 3 and delays[0] == 2800
    animator = Animator(replay, SIZE, title="2026-12-01")
    title = to_pillow(animator.draw(Shot("title")))
    animator.close()
    assert frames[0].size == title.size and difference(frames[0], title) < 1
    assert frames[0].tobytes() != frames[-1].tobytes()


@pytest.mark.parametrize("size", [64, 120, 240, 600])
def test_the_result_card_and_long_captions_are_never_cut(replay: Replay, size: int) -> None:
    """Issue 20: the last frame cut the result ("Seat 2 wins by holdi…"): now it wraps."""
    long = "Seat 2 wins by holding the centre square for three full rounds " * 3
    for text in (result_words(replay), long, "B: " + "d4 " * 60):
        image = QImage(size, size // 3, QImage.Format.Format_RGB32)
        painter = QPainter(image)
        box = QRect(4, 4, size - 8, size // 3 - 8)
        font = draw_fitted(painter, box, text, 40)
        painter.end()
        if font.pixelSize() > MIN_PIXELS or size >= 240:
            bounds = QFontMetrics(font).boundingRect(box, int(WRAP), text)
            assert box.contains(bounds), (size, text)
    card = result_card(replay, size, size + 40)
    assert (card.width(), card.height()) == (size, size + 40)
    assert result_words(replay) == "Jaune resigned; Noir wins, after 7 plies."
    assert QFont().pixelSize() != 0  # a font is there to measure with


def test_names_and_folders_are_checked(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 20: ``--png x.jpg`` wrote PNG bytes under a .jpg name; an unwritable file said
    "cannot write" without why."""
    for options, words in (
        (["--png", str(tmp_path / "x.jpg"), "--ply", "1"], "x.jpg: the file will hold a PNG"),
        (["--gif", str(tmp_path / "x.png")], "ending in .gif"),
        (["--animation", str(tmp_path / "x.bmp")], "end it in .gif, .png or .webp"),
        (["--html", str(tmp_path / "x.png")], "ending in .html or .htm"),
        (["--gif", str(tmp_path / "x.gif"), "--ply", "2"], "leave --ply out"),
        (["--png", str(tmp_path / "x.png"), "--ply", "1", "--delay", "100"], "only for anim"),
        (["--html", str(tmp_path / "x.html"), "--from", "2"], "only for animations"),
        (["--gif", str(tmp_path / "x.gif"), "--delay", "5"], "--delay must be from 10"),
        (["--gif", str(tmp_path / "x.gif"), "--from", "4", "--to", "2"], "0 <= from <= to"),
        (["--png", str(tmp_path / "x.png")], "give it with --ply N"),
    ):
        with pytest.raises(SystemExit) as exit_info:
            export(game_file, *options)
        assert exit_info.value.code == 2
        assert words in capsys.readouterr().err, options
    assert list(tmp_path.iterdir()) == []
    assert export(game_file, "--gif", str(tmp_path / "x.gif"), "--to", "9") == 2
    assert "plies 0 to 7: --to 9 is not in it" in capsys.readouterr().err
    for options in (
        ["--png", str(tmp_path / "no" / "such" / "x.png"), "--ply", "1"],
        ["--gif", str(tmp_path / "no" / "x.gif")],
        ["--html", str(tmp_path / "no" / "x.html")],
    ):
        assert export(game_file, *options) == 2
        assert "No such file or directory" in capsys.readouterr().err
    # A folder in the way: the reason, and nothing of ours left beside it.
    (tmp_path / "taken.gif").mkdir()
    assert export(game_file, "--gif", str(tmp_path / "taken.gif")) == 2
    assert "Is a directory" in capsys.readouterr().err
    assert [p.name for p in tmp_path.iterdir()] == ["taken.gif"]
    # An older file of that name survives a failed write, and is replaced by a good one.
    old = tmp_path / "old.svg"
    old.write_text("old")
    assert export(game_file, "--svg", str(old), "--ply", "3") == 0
    assert "<svg" in old.read_text()


def test_an_animation_too_large_is_refused_before_anything_is_drawn(
    game_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``MAX_ANIMATION_PIXELS``: 9 frames at 8000 px, and their 888-pixel caption strip,
    would hold 9 × 8000 × 8888 pixels."""
    out = tmp_path / "huge.gif"
    code = main(["log", "export", str(game_file), "--gif", str(out), "--size", "8000"])
    assert code == 2
    err = capsys.readouterr().err
    assert "9 frames of 8000 × 8888 pixels are more than an animation may hold" in err
    assert "choose fewer plies with --from/--to, or a smaller --size" in err
    assert not out.exists()
    assert 9 * 8000 * 8888 > MAX_ANIMATION_PIXELS > 102 * 600 * 636  # 100 plies at 600 px
