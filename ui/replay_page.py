"""The replay page: one self-contained HTML file that steps through a game.

Anyone can open it — no network, no palabre: every position is an inline SVG drawn by the
game's own board widget (``ui.board_render``, arrows and rings included), and a few lines
of plain script show one at a time.  Beside the board: the players, the move list with the
chat in place (a click goes to that ply), buttons and the keyboard (← → Home End, Space
plays), and what ``palabre verify`` found when the page was made: the verdict, the file's
SHA-256 digest, how many records and signatures were checked, the result and every
problem.  The page reads and writes the ply in its address (``page.html#ply=12``), so a link
can point at a position; ``#ply=12&board`` shows the board alone, at the page's size, to
embed it or take a picture of it.

Everything the log holds (names, chat, results) is escaped: a log is a stranger's text.
The boards share their drawing (``Boards``): each group Qt wrote is kept once and used by
every board that has it, so the page grows by what each ply changes, not by a whole board.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import UTC, datetime
from html import escape
from pathlib import Path

from client.sessions.replay import Replay
from ui.animation import caption_lines
from ui.board_render import BoardRenderer
from ui.cards import game_title, result_words, verdict_words
from ui.move_list import move_line
from ui.side_marks import side_glyph
from ui.theme import side_colour, text_on

__all__ = ["PageBuilder", "file_date", "file_digest", "replay_page"]

SCRIPT = """
const plies = document.querySelectorAll("#board figure").length - 1;
let ply = 0, timer = null;
function show(n) {
  ply = Math.max(0, Math.min(plies, n));
  document.querySelectorAll("#board figure").forEach(f => f.hidden = f.dataset.ply != ply);
  document.querySelectorAll("#moves li").forEach(li => li.classList.toggle("here",
    li.dataset.ply == ply && li.classList.contains("ply")));
  const caption = document.querySelector("#board figure[data-ply='" + ply + "'] figcaption");
  document.getElementById("where").textContent = ply + "/" + plies;
  document.getElementById("caption").textContent = caption ? caption.textContent : "";
  const here = document.querySelector("#moves li.here");
  if (here) here.scrollIntoView({block: "nearest"});
  const address = "#ply=" + ply + (document.body.classList.contains("board-only") ? "&board" : "");
  if (location.hash != address) history.replaceState(null, "", address);
}
function play(on) {
  clearInterval(timer); timer = null;
  if (on) { if (ply >= plies) show(0); timer = setInterval(() => ply < plies ? show(ply + 1)
    : play(false), 900); }
  document.getElementById("play").textContent = timer ? "❚❚" : "▷";
}
function fromAddress() {
  document.body.classList.toggle("board-only", /[#&]board(&|$)/.test(location.hash));
  const m = /ply=(\\d+)/.exec(location.hash);
  show(m ? parseInt(m[1], 10) : 0);
}
document.getElementById("first").onclick = () => show(0);
document.getElementById("previous").onclick = () => show(ply - 1);
document.getElementById("play").onclick = () => play(!timer);
document.getElementById("next").onclick = () => show(ply + 1);
document.getElementById("last").onclick = () => show(plies);
document.querySelectorAll("#moves li").forEach(li => li.onclick = () => show(+li.dataset.ply));
document.addEventListener("keydown", e => {
  const keys = {ArrowLeft: () => show(ply - 1), ArrowRight: () => show(ply + 1),
    Home: () => show(0), End: () => show(plies), " ": () => play(!timer)};
  if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
});
window.addEventListener("hashchange", fromAddress);
fromAddress();
"""

STYLE = """
body { font: 15px/1.4 sans-serif; margin: 1em; color: #222; background: #fafafa; }
h1 { font-size: 1.3em; margin: 0 0 .3em; }
#game { display: flex; gap: 1.5em; flex-wrap: wrap; align-items: flex-start; }
#board { width: min(90vw, 70vh, SIZEpx); }
#board figure { margin: 0; }
#board svg { width: 100%; height: auto; display: block; }
#board figcaption { display: none; }
nav { display: flex; gap: .3em; align-items: center; margin: .4em 0; }
nav button { font-size: 1.1em; min-width: 2.4em; }
#caption { min-height: 2.8em; margin: .2em 0; white-space: pre-line; }
#side { flex: 1; min-width: 18em; max-width: 34em; }
#moves { max-height: 60vh; overflow-y: auto; padding-left: 0; list-style: none;
  border: 1px solid #ccc; background: #fff; margin: .3em 0; }
#moves li { padding: .1em .5em; cursor: pointer; }
#moves li.chat, #moves li.note { font-style: italic; padding-left: 2em; }
#moves li.here { background: #ffd54f; }
.seat { display: inline-block; width: 1.1em; height: 1.1em; margin-right: .4em; text-align: center;
        line-height: 1.1em; font-size: .8em; border-radius: 2px; }
#verified { border-left: 4px solid VERDICT; padding: .2em .8em; background: #fff; }
#verified code { word-break: break-all; }
.problem { color: #b00020; }
.undone { text-decoration: line-through; }
#sprite { position: absolute; width: 0; height: 0; overflow: hidden; }
body.board-only { margin: 0; }
body.board-only h1, body.board-only #players, body.board-only nav, body.board-only #caption,
body.board-only #side { display: none; }
body.board-only #board { width: SIZEpx; }
"""

VERDICT_COLOURS = {0: "#2e7d32", 3: "#b26a00"}
ID = re.compile(r'\bid="([^"]+)"')


def file_date(path: Path) -> str:
    """The day the log was last written, as the title card and the page give it."""
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return ""
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%d")


def file_digest(path: Path) -> str:
    """The SHA-256 of the file as it is now (hex), or "" if it cannot be read."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as file:
            for block in iter(lambda: file.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return ""
    return digest.hexdigest()


def _swatch(game: str, seat: int | None) -> str:
    """A square of the colour of ``seat``'s pieces on the board of ``game``, with its mark."""
    if not seat:
        return ""
    colour = side_colour(game, seat)
    # The side's shape on its colour, in black or white: the seats apart without colour.
    shape, ink = side_glyph(game, seat), text_on(colour).name()
    return f'<span class="seat" style="background:{colour.name()};color:{ink}">{shape}</span>'


class Boards:
    """The boards of one page, their drawing shared: every group of an SVG that Qt wrote
    (a square, a piece, a label) is kept once, in a hidden sprite, and each board refers to
    its groups with ``<use>``.  Between two plies only a few groups change, so a 100-ply
    page holds little more than one board and the few groups each ply changed."""

    def __init__(self) -> None:
        self.parts: dict[str, str] = {}
        """Each distinct group, by its text, and its id."""

    def board(self, svg: bytes, ply: int) -> str:
        """An SVG document as an element of the page."""
        text = svg.decode("utf-8")
        text = text[text.index("<svg") :]
        split = _split(text)
        if split is None:  # not the shape Qt writes plainly: kept whole, its ids its own
            return _own_ids(text, ply)
        head, groups, tail = split
        uses = []
        for group in groups:
            name = self.parts.setdefault(group, f"s{len(self.parts)}")
            uses.append(f'<use href="#{name}"/>')
        return head + "".join(uses) + tail

    def sprite(self) -> str:
        groups = "".join(
            group.replace("<g ", f'<g id="{name}" ', 1) for group, name in self.parts.items()
        )
        return f'<svg xmlns="http://www.w3.org/2000/svg" id="sprite"><defs>{groups}</defs></svg>'


GROUP = re.compile(r"<g\b[^>]*>|</g>")


def _split(text: str) -> tuple[str, list[str], str] | None:
    """Qt's SVG as (the document up to its outer group's opening, the groups inside, the
    rest); None when it has definitions or ids (gradients, clips) or deeper groups."""
    if "id=" in text or not re.search(r"<defs>\s*</defs>", text):
        return None
    tags = list(GROUP.finditer(text))
    if not tags or not tags[0].group().startswith("<g") or tags[-1].group() != "</g>":
        return None
    groups, depth, start = [], 0, 0
    for tag in tags[1:-1]:
        opening = tag.group().startswith("<g")
        if opening:
            if depth:
                return None
            start = tag.start()
            depth = 1
        elif depth:
            groups.append(text[start : tag.end()])
            depth = 0
        else:
            return None
    if depth:
        return None
    leftover = text[tags[0].end() : tags[-1].start()]
    for group in groups:
        leftover = leftover.replace(group, "", 1)
    if leftover.strip():  # something between the groups: not plain groups
        return None
    return text[: tags[0].end()], groups, text[tags[-1].start() :]


def _own_ids(text: str, ply: int) -> str:
    """The document whole, its ids prefixed with its ply (Qt numbers them from 1 in every
    document, and one page holds many)."""
    ids = set(ID.findall(text))
    for name in sorted(ids, key=len, reverse=True):
        new = f"p{ply}-{name}"
        text = text.replace(f'id="{name}"', f'id="{new}"').replace(f"#{name})", f"#{new})")
        text = text.replace(f'href="#{name}"', f'href="#{new}"')
    return text


def _verification(replay: Replay, digest: str) -> str:
    report = replay.report
    final = "every ply final" if report.final >= replay.plies else f"final up to ply {report.final}"
    rows = [
        f"<strong>{escape(verdict_words(replay))}</strong>",
        f"File: {escape(Path(report.path).name)}, SHA-256 <code>{escape(digest)}</code>",
        f"{report.records} records, {report.signatures} signatures verified; "
        f"{replay.plies} plies, {final}.",
        f"Result: {escape(result_words(replay))}",
    ]
    rows += [f'<span class="problem">{escape(p.line())}</span>' for p in report.problems]
    return "<br>\n".join(rows)


def _moves(replay: Replay) -> str:
    items = ['<li class="ply" data-ply="0">0. the start</li>']
    game = replay.engine.name
    for line in replay.lines:
        if line.kind == "ply":
            text = move_line(replay, replay.frames[line.ply])
            kind = "ply undone" if line.undone else "ply"  # a move a takeback undid
        else:
            kind = "chat" if line.kind == "chat" else "note"
            text = f"{line.author}: {line.text}" if line.kind == "chat" else line.text
            if line.kind not in ("chat", "problem"):
                text = f"{line.author} {line.text}"
        swatch = _swatch(game, line.seat)
        items.append(f'<li class="{kind}" data-ply="{line.ply}">{swatch}{escape(text)}</li>')
    return "\n".join(items)


class PageBuilder:
    """Draws the page's boards one at a time (``step``), so a window stays responsive; then
    ``text`` is the page."""

    def __init__(self, replay: Replay, size: int, date: str, digest: str | None = None) -> None:
        self.replay, self.size, self.date = replay, size, date
        self.digest = file_digest(Path(replay.report.path)) if digest is None else digest
        self.renderer = BoardRenderer(replay.engine, size)
        self.boards = Boards()
        self.figures: list[str] = []

    @property
    def total(self) -> int:
        return len(self.replay.frames)

    @property
    def done(self) -> int:
        return len(self.figures)

    @property
    def finished(self) -> bool:
        return self.done >= self.total

    def step(self) -> None:
        """Draw the next board."""
        frame = self.replay.frames[self.done]
        svg = self.renderer.svg(frame.engine_state, frame.last_move, frame.marks)
        caption = "\n".join(caption_lines(self.replay, frame.ply))
        if frame.marks:
            caption += "\nArrows and rings: " + ", ".join(m.author for m in frame.marks)
        self.figures.append(
            f'<figure data-ply="{frame.ply}" hidden>{self.boards.board(svg, frame.ply)}'
            f"<figcaption>{escape(caption)}</figcaption></figure>"
        )
        if self.finished:
            self.close()

    def close(self) -> None:
        self.renderer.close()

    def text(self) -> str:
        """The page (every board drawn first)."""
        while not self.finished:
            self.step()
        title = f"{game_title(self.replay)} — {Path(self.replay.report.path).name}"
        game = self.replay.engine.name
        players = ", ".join(
            f"{_swatch(game, p.seat)}seat {p.seat}: {escape(p.name)}" for p in self.replay.players
        )
        colour = VERDICT_COLOURS.get(self.replay.report.exit_code, "#b00020")
        style = STYLE.replace("SIZE", str(self.size)).replace("VERDICT", colour)
        when = f" · {escape(self.date)}" if self.date else ""
        return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>{escape(title)}</title>
<style>{style}</style></head>
<body>
<h1>{escape(title)}</h1>
<p id="players">{players}{when}</p>
<div id="game">
<div>
<div id="board">
{"".join(self.figures)}
</div>
{self.boards.sprite()}
<nav>
<button id="first" title="First: the start (Home)">|◀</button>
<button id="previous" title="Previous ply (←)">◀</button>
<button id="play" title="Play / pause (Space)">▷</button>
<button id="next" title="Next ply (→)">▶</button>
<button id="last" title="Last ply (End)">▶|</button>
<span id="where"></span>
</nav>
<p id="caption"></p>
</div>
<div id="side">
<section id="verified">
{_verification(self.replay, self.digest)}
</section>
<ol id="moves">
{_moves(self.replay)}
</ol>
</div>
</div>
<script>{SCRIPT}</script>
</body></html>
"""


def replay_page(
    replay: Replay,
    size: int,
    date: str,
    progress: Callable[[int, int], None] | None = None,
    digest: str | None = None,
) -> str:
    """The page, as text; ``progress(done, total)`` after each board drawn."""
    builder = PageBuilder(replay, size, date, digest)
    try:
        while not builder.finished:
            builder.step()
            if progress is not None:
                progress(builder.done, builder.total)
    finally:
        builder.close()
    return builder.text()
