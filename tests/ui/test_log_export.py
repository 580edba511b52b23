"""``palabre log export``: the board at a ply, drawn by the Qt boards, as PNG or SVG."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from engines import find_engine
from tests.client.gamelogs import LoggedTable, records_of, rewrite
from ui.entry import main

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    paths = {}
    for game, seats in (("consensus", 4), ("discorder", 2), ("forbans", 2), ("cognes", 3)):
        directory = tmp_path_factory.mktemp(game)
        table = LoggedTable(directory, [f"P{i}" for i in range(seats)], find_engine(game), seed=4)
        paths[game] = table.close()["P1"]
    return paths


@pytest.mark.parametrize("game", ["consensus", "discorder", "forbans", "cognes"])
def test_export_png_draws_the_board_at_the_ply(
    qapp: object, logs: dict[str, Path], tmp_path: Path, game: str
) -> None:
    out = tmp_path / f"{game}.png"
    assert (
        main(["log", "export", str(logs[game]), "--ply", "3", "--png", str(out), "--size", "320"])
        == 0
    )
    image = QImage(str(out))
    assert not image.isNull()
    assert (image.width(), image.height()) == (320, 320)
    assert len({image.pixel(x, y) for x in range(0, 320, 8) for y in range(0, 320, 8)}) > 4


def test_export_pictures_differ_between_plies(
    qapp: object, logs: dict[str, Path], tmp_path: Path
) -> None:
    pictures = []
    for ply in (0, 1, 0):
        out = tmp_path / f"p{len(pictures)}.png"
        assert (
            main(["log", "export", str(logs["consensus"]), "--ply", str(ply), "--png", str(out)])
            == 0
        )
        pictures.append(QImage(str(out)))
    assert pictures[0] == pictures[2] and pictures[0] != pictures[1]
    assert pictures[0].width() == 800  # the default size


def test_export_svg_is_an_svg_document(qapp: object, logs: dict[str, Path], tmp_path: Path) -> None:
    from PySide6.QtSvg import QSvgRenderer

    out = tmp_path / "board.svg"
    assert main(["log", "export", str(logs["discorder"]), "--ply", "2", "--svg", str(out)]) == 0
    text = out.read_text()
    assert "<svg" in text and "discorder/1, position after ply 2" in text
    renderer = QSvgRenderer(str(out))
    assert renderer.isValid()
    assert 'width="211.667mm"' in text  # 800 CSS pixels (96 per inch): the default size


def test_export_refuses_a_missing_ply_a_bad_log_or_an_unwritable_file(
    qapp: object, logs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = str(logs["consensus"])
    assert main(["log", "export", log, "--ply", "100000", "--png", str(tmp_path / "x.png")]) == 2
    assert "this log holds plies 0 to" in capsys.readouterr().err
    junk = tmp_path / "junk"
    junk.write_bytes(b"junk")
    assert main(["log", "export", str(junk), "--ply", "1", "--png", str(tmp_path / "y.png")]) == 2
    assert "is not a palabre log" in capsys.readouterr().err
    missing_dir = tmp_path / "no" / "such" / "dir" / "z.png"
    assert main(["log", "export", log, "--ply", "1", "--png", str(missing_dir)]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_export_of_a_log_with_problems_warns_and_still_draws(
    qapp: object, logs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cut = rewrite(tmp_path / "cut.palabre", records_of(logs["consensus"])[:30])
    assert main(["log", "export", str(cut), "--ply", "2", "--png", str(tmp_path / "c.png")]) == 0
    assert "warning:" in capsys.readouterr().err and (tmp_path / "c.png").exists()
