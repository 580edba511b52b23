"""``palabre log export FILE --html OUT``: the replay page, opened in headless Chromium
(Debian's ``chromium``) as a person would: what it shows at a few plies, compared with the
board the client draws, and its buttons and keys driven through the page's own script.

Chromium runs with a new profile folder and no network; ``--dump-dom`` gives the page after
its script ran, ``--screenshot`` what it draws, ``--virtual-time-budget`` lets its timers
(the play button) run without waiting for them.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from client.bots import RandomBot
from client.logs.verifier import verify_file
from client.sessions.replay import Replay
from engines import find_engine
from tests.client.gamelogs import LoggedTable
from tests.client.test_replay import pointed_game
from ui.animation import to_pillow
from ui.board_render import BoardRenderer
from ui.entry import main

pytestmark = [pytest.mark.gui, pytest.mark.filterwarnings("error")]

SIZE = 400
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)"
)


@pytest.fixture(scope="module")
def game_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Discorder: A's arrows and rings at plies 2 and 3, B's chat at 3, A resigns at 7."""
    return pointed_game(tmp_path_factory.mktemp("pointed")).paths["B"]


@pytest.fixture(scope="module")
def page(game_file: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("page") / "game.html"
    code = main(["log", "export", str(game_file), "--html", str(out), "--size", str(SIZE)])
    assert code == 0
    return out


def chromium(tmp_path: Path, url: str, *options: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    profile = tmp_path / f"chromium-{len(list(tmp_path.iterdir()))}"
    profile.mkdir()
    command = [
        CHROMIUM,
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        *options,
        url,
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    return result


def dom(tmp_path: Path, url: str, *options: str) -> str:
    return chromium(tmp_path, url, "--dump-dom", *options).stdout


def text_of(html: str, element_id: str) -> str:
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</', html, re.S)
    assert match, element_id
    return unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip()


@needs_chromium
def test_the_page_shows_the_ply_its_address_names_with_its_chat_and_the_verdict(
    page: Path, game_file: Path, tmp_path: Path
) -> None:
    html = dom(tmp_path, page.as_uri() + "#ply=3")
    assert text_of(html, "where") == "3/7"
    caption = text_of(html, "caption")
    assert "ply 3/7 · A: f5" in caption and "B: look at d4" in caption
    assert "Arrows and rings: A" in caption
    shown = re.findall(r'<figure data-ply="(\d+)"(?! hidden)', html)
    assert shown == ["3"]  # one board shown, the others hidden
    here = re.findall(r'<li class="ply here" data-ply="(\d+)">', html)
    assert here == ["3"]
    report = verify_file(game_file).report
    verified = text_of(html, "verified")
    assert "Verified: valid and complete" in verified
    assert hashlib.sha256(game_file.read_bytes()).hexdigest() in html
    assert f"{report.signatures} signatures verified" in html
    assert "Jaune resigned; Noir wins" in html
    # Chat sits in the move list right after the ply it was said at.
    items = re.findall(r'<li class="(\w+)[^"]*" data-ply="(\d+)">', html)
    chat = items.index(("chat", "3"))
    assert items[chat - 1] == ("ply", "3")
    # Nothing reaches out: no address outside the page itself.
    assert not re.search(r'(src|href)="(https?:|//)', page.read_text(encoding="utf-8"))


@needs_chromium
@pytest.mark.parametrize("ply", [0, 3, 6])
def test_a_screenshot_of_the_page_is_the_board_the_client_draws(
    page: Path, game_file: Path, tmp_path: Path, ply: int
) -> None:
    shot = tmp_path / f"ply{ply}.png"
    chromium(
        tmp_path,
        page.as_uri() + f"#ply={ply}&board",
        f"--screenshot={shot}",
        f"--window-size={SIZE},{SIZE}",
    )
    with Image.open(shot) as image:
        seen = image.convert("RGB")
    assert seen.size == (SIZE, SIZE)
    replay = Replay.build(verify_file(game_file))
    renderer = BoardRenderer(replay.engine, SIZE)
    boards = {}
    for n in {max(ply - 1, 0), ply, min(ply + 1, replay.plies)}:
        frame = replay.frames[n]
        boards[n] = to_pillow(renderer.grab(frame.engine_state, frame.last_move, frame.marks))
    renderer.close()

    def apart(n: int) -> float:
        return sum(ImageStat.Stat(ImageChops.difference(seen, boards[n])).mean) / 3

    def matching(n: int, where: Image.Image) -> int:
        """Pixels of ``where`` at which the screenshot is (nearly) board ``n``'s."""
        near = largest(ImageChops.difference(seen, boards[n])).point(lambda v: v < 24 and 255)
        return sum(1 for level in ImageChops.multiply(near, where).get_flattened_data() if level)

    # A browser draws the SVG with its own fonts and edges: close to the client's board
    # overall; and on the grid, where this ply's board and a neighbour's differ (the last
    # move's square, a piece), it is this ply's.  The texts above and below the grid (the
    # score, the pegs left) no browser draws with Qt's font and layout: left out.
    grid = Image.new("L", seen.size, 0)
    grid.paste(255, (0, SIZE * 5 // 100, SIZE, SIZE * 77 // 100))  # Discorder's 8 x 7 cells
    assert apart(ply) < 6, apart(ply)
    for n in boards:
        if n != ply:
            changed = largest(ImageChops.difference(boards[ply], boards[n]))
            where = ImageChops.multiply(changed.point(lambda level: level > 40 and 255), grid)
            mine, theirs = matching(ply, where), matching(n, where)
            assert mine > 2 * theirs + 50, (ply, n, mine, theirs)


def largest(difference: Image.Image) -> Image.Image:
    """Each pixel's largest difference over red, green and blue."""
    red, green, blue = difference.split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


DRIVE = """
<script>
const seen = [];
const where = () => document.getElementById("where").textContent + " " + location.hash;
const key = k => document.dispatchEvent(new KeyboardEvent("keydown", {key: k, bubbles: true}));
const click = id => document.getElementById(id).click();
click("next"); click("next"); seen.push(where());
key("ArrowRight"); seen.push(where());
key("ArrowLeft"); key("ArrowLeft"); seen.push(where());
key("End"); seen.push(where());
click("next"); seen.push(where());
key("Home"); seen.push(where());
click("previous"); seen.push(where());
click("last"); click("first"); seen.push(where());
document.querySelector("#moves li.chat").click(); seen.push(where());
document.querySelector("#moves li[data-ply='5']").click(); seen.push(where());
location.hash = "#ply=2";
setTimeout(() => {
  seen.push(where());
  click("play");
  setTimeout(() => { seen.push(where()); document.getElementById("log").textContent =
    seen.join("|"); }, 9000);
}, 50);
</script>
<pre id="log"></pre>
</body>"""


@needs_chromium
def test_the_buttons_keys_and_moves_step_through_the_game(page: Path, tmp_path: Path) -> None:
    """The page's own script, driven by clicks and key presses dispatched in the page."""
    driven = tmp_path / "driven.html"
    driven.write_text(page.read_text(encoding="utf-8").replace("</body>", DRIVE), encoding="utf-8")
    html = dom(tmp_path, driven.as_uri(), "--virtual-time-budget=20000")
    steps = text_of(html, "log").split("|")
    assert steps == [
        "2/7 #ply=2",
        "3/7 #ply=3",
        "1/7 #ply=1",
        "7/7 #ply=7",
        "7/7 #ply=7",  # past the end: stays
        "0/7 #ply=0",
        "0/7 #ply=0",
        "0/7 #ply=0",
        "3/7 #ply=3",  # the chat line: the position it was said at
        "5/7 #ply=5",
        "2/7 #ply=2",  # the address changed: the page follows
        "7/7 #ply=7",  # play ran to the end and stopped
    ]
    assert text_of(html, "play") == "▷"


def test_the_boards_share_their_drawing(page: Path, game_file: Path) -> None:
    """Each group Qt draws is kept once: the page is far smaller than its boards apart."""
    replay = Replay.build(verify_file(game_file))
    renderer = BoardRenderer(replay.engine, SIZE)
    whole = sum(
        len(renderer.svg(frame.engine_state, frame.last_move, frame.marks))
        for frame in replay.frames
    )
    renderer.close()
    text = page.read_text(encoding="utf-8")
    assert text.count("<figure") == replay.plies + 1 and '<svg xmlns="' in text
    assert len(text.encode()) < whole / 3, (len(text), whole)


HOSTILE = '<img src=x onerror="document.title=1"><script>document.title=2</script>'


@needs_chromium
def test_a_logs_text_is_shown_as_text_never_run(tmp_path: Path) -> None:
    """Names and chat are a stranger's: the page shows them, the browser runs none of it."""
    engine = find_engine("discorder")
    names = ["<b>Ann</b>", "Bob"]
    table = LoggedTable(tmp_path / "game", names, engine, bots="none")
    bots = {name: RandomBot(seat) for seat, name in enumerate(names, 1)}
    for ply in range(2):
        name = names[ply % 2]
        if ply == 1:
            table.act("Bob", table.tables["Bob"].chat(HOSTILE, table.router.now))
        state = table.tables[name].head.engine_state
        move = bots[name].choose(engine, state)
        table.act(name, table.tables[name].move(move, table.router.now))
    table.close()
    out = tmp_path / "hostile.html"
    assert main(["log", "export", str(table.paths["Bob"]), "--html", str(out)]) == 0
    html = dom(tmp_path, out.as_uri() + "#ply=1")
    assert "<title>Discorder — Bob.palabre</title>" in html  # no script changed it
    assert "<img" not in html and "<b>Ann</b>" not in html
    assert "&lt;b&gt;Ann&lt;/b&gt;" in html and "&lt;img src=x" in html
    assert f"Bob: {HOSTILE}" in text_of(html, "caption")
