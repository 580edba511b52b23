#!/usr/bin/env python3
"""Move client/'s flat modules into sub-packages and rewrite every name of them (issue 22).

Usage: python codemod/apply.py [--moves codemod/moves.toml] [--dry-run] [--no-format] [--strict]

Run from the root of any checkout of palabre (a clean work tree: the moves are ``git mv``).
codemod/moves.toml lists ``"client.old" = "client.package.old"``, one line per file, and the
one-line docstring of each sub-package.  The codemod:

1. checks the list: each listed file must be at its old place or already at its new one
   (else it stops, naming the file); it names every module of client/ the list leaves out
   (those stay where they are);
2. creates each sub-package's ``__init__.py`` (its docstring from ``[packages]``), when missing;
3. ``git mv``s each file still at its old place;
4. rewrites, in every file git tracks (Python, Markdown, TOML, shell, ...), each dotted name
   ``client.old`` (imports, ``python -m``, registry and monkeypatch strings, mypy and
   import-linter module names) and each path ``client/old.py``, with word boundaries so that
   ``client.table`` never touches ``client.table_view``; ``from client import a, b`` is split
   into one import per new package;
5. appends codemod/contracts.toml to pyproject.toml (the sub-packages' import-linter contracts)
   unless its first contract is there already;
6. sorts and formats the Python files it changed (``ruff check --select I --fix`` and
   ``ruff format``), so that long imports are wrapped as the project's style says.

Running it again on its own result changes nothing: no new name starts with an old one and a
dot (the codemod refuses such a list), moved files are skipped and contracts are not added
twice.  It ends by naming the lines that build a client/ module name or path at run time
(``f"client.{name}"``, ``(ROOT / "client").glob(...)``), which no rewrite can see: check those by
hand.  Exit codes: 0 done, 1 the list does not fit the checkout (the message names the file),
or ``--strict`` and a module of client/ the list leaves out.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

ROOT = Path.cwd()
HERE = Path(__file__).resolve().parent
SKIPPED = {"codemod/moves.toml", "codemod/apply.py", "codemod/contracts.toml"}
CONTRACTS = HERE / "contracts.toml"


class MovesDoNotFit(Exception):
    """The list and the checkout disagree: the message names the file."""


@dataclass(frozen=True)
class Moves:
    packages: dict[str, str]  # sub-package -> its docstring
    moves: dict[str, str]  # old module -> new module


def read_moves(path: Path) -> Moves:
    config = tomllib.loads(path.read_text(encoding="utf-8"))
    moves = Moves(packages=dict(config["packages"]), moves=dict(config["moves"]))
    for new in moves.moves.values():
        package = new.rpartition(".")[0]
        if package not in moves.packages:
            raise MovesDoNotFit(f"{path}: {new} is in no package of [packages]")
        for other in moves.moves:
            if new.startswith(other + "."):
                raise MovesDoNotFit(f"{path}: {new} starts with {other}: a rerun would move it")
    return moves


def module_file(module: str) -> Path:
    return Path(*module.split(".")).with_suffix(".py")


def check_checkout(moves: Moves) -> list[tuple[Path, Path]]:
    """The files still to move; raises when a listed file is in neither place."""
    to_move = []
    for old, new in moves.moves.items():
        old_path, new_path = module_file(old), module_file(new)
        if (ROOT / old_path).exists() and (ROOT / new_path).exists():
            raise MovesDoNotFit(f"{old_path} and {new_path} both exist")
        if (ROOT / old_path).exists():
            to_move.append((old_path, new_path))
        elif not (ROOT / new_path).exists():
            raise MovesDoNotFit(f"{old_path}: listed in moves.toml but not in this checkout")
    return to_move


def unlisted(moves: Moves) -> list[str]:
    """client/'s flat modules the list does not move (they stay where they are)."""
    listed = set(moves.moves)
    return sorted(
        f"client.{path.stem}"
        for path in (ROOT / "client").glob("*.py")
        if path.name not in ("__init__.py", "__main__.py") and f"client.{path.stem}" not in listed
    )


def dotted_pattern(moves: Mapping[str, str]) -> re.Pattern[str]:
    names = sorted((old.removeprefix("client.") for old in moves), key=len, reverse=True)
    return re.compile(r"(?<![\w.])client\.(" + "|".join(map(re.escape, names)) + r")(?!\w)")


def path_pattern(moves: Mapping[str, str]) -> re.Pattern[str]:
    names = sorted((old.removeprefix("client.") for old in moves), key=len, reverse=True)
    return re.compile(r"(?<![\w./-])client/(" + "|".join(map(re.escape, names)) + r")\.py(?!\w)")


FROM_CLIENT = re.compile(
    r"^(?P<indent>[ \t]*)from client import (?P<names>[^()\\#\n]+?)"
    r"(?P<comment>[ \t]*#.*)?[ \t]*$",
    re.M,
)


def split_from_client(text: str, moves: Mapping[str, str]) -> str:
    """``from client import a, b as c`` -> one import per new package (unmoved names stay)."""

    def rewrite(match: re.Match[str]) -> str:
        by_package: dict[str, list[str]] = {}
        for item in match["names"].split(","):
            name = item.split()[0]
            new = moves.get(f"client.{name}")
            package = new.rpartition(".")[0] if new else "client"
            by_package.setdefault(package, []).append(item.strip())
        indent, comment = match["indent"], match["comment"] or ""
        return "\n".join(
            f"{indent}from {package} import {', '.join(items)}{comment}"
            for package, items in sorted(by_package.items())
        )

    return FROM_CLIENT.sub(rewrite, text)


def rewrite_text(text: str, moves: Mapping[str, str]) -> str:
    short = {old.removeprefix("client."): new for old, new in moves.items()}
    text = split_from_client(text, moves)
    text = dotted_pattern(moves).sub(lambda m: short[m[1]], text)
    return path_pattern(moves).sub(lambda m: module_file(short[m[1]]).as_posix(), text)


LIMIT = 100  # pyproject's [tool.ruff] line-length
BULLET = re.compile(r"(\* |- |\d+\. |\.\. |>>> |:|\"\"\"|\'\'\')")


def wrap_block(block: list[str], comment: bool) -> list[str]:
    """Lines of one docstring or comment block, those over ``LIMIT`` wrapped at a space.

    The words that no longer fit go to the start of the next line when it carries on the same
    paragraph (same indent, not a bullet, not the closing quotes), else to a line of their own.
    """
    out = list(block)
    i = 0
    while i < len(out):
        line = out[i]
        indent = line[: len(line) - len(line.lstrip())]
        prefix = indent + "# " if comment else indent
        cut = line.rfind(" ", len(prefix) + 1, LIMIT + 1)
        if len(line) <= LIMIT or "noqa" in line or cut <= len(prefix):
            i += 1
            continue
        head, rest = line[:cut].rstrip(), line[cut + 1 :].strip()
        out[i] = head
        nxt = out[i + 1] if i + 1 < len(out) else ""
        body = nxt[len(prefix) :]
        carries_on = (
            nxt.startswith(prefix)
            and body[:1] not in ("", " ", "\t")
            and not BULLET.match(body)
            and '"""' not in rest
            and "'''" not in rest
        )
        if carries_on:
            out[i + 1] = f"{prefix}{rest} {body}"
        else:
            out.insert(i + 1, prefix + rest)
        i += 1
    return out


def prose_blocks(text: str) -> list[tuple[int, int, bool]]:
    """(first, last, is_comment) line indexes of the docstrings and comment blocks."""
    blocks = [
        (node.lineno - 1, node.end_lineno - 1, False)
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
        and node.end_lineno is not None
    ]
    strings = [
        node
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    ]
    inside = {
        n for node in strings for n in range(node.lineno - 1, (node.end_lineno or node.lineno))
    }
    lines = text.split("\n")
    n = 0
    while n < len(lines):
        if n not in inside and lines[n].lstrip().startswith("#"):
            first = n
            indent = lines[n][: len(lines[n]) - len(lines[n].lstrip())]
            while n + 1 < len(lines) and lines[n + 1].startswith(indent + "#"):
                n += 1
            blocks.append((first, n, True))
        n += 1
    return sorted(blocks, reverse=True)


def wrap_long_prose(text: str) -> str:
    """The text with its docstrings' and comments' lines over ``LIMIT`` wrapped."""
    lines = text.split("\n")
    if all(len(line) <= LIMIT for line in lines):
        return text
    for first, last, comment in prose_blocks(text):
        block = lines[first : last + 1]
        if any(len(line) > LIMIT for line in block):
            lines[first : last + 1] = wrap_block(block, comment)
    return "\n".join(lines)


def tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True)
    return [Path(name) for name in out.stdout.decode().split("\0") if name]


def git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


def make_packages(moves: Moves, dry_run: bool) -> None:
    for package, doc in moves.packages.items():
        init = ROOT / Path(*package.split(".")) / "__init__.py"
        if init.exists():
            continue
        print(f"create {init.relative_to(ROOT)}")
        if not dry_run:
            init.parent.mkdir(parents=True, exist_ok=True)
            init.write_text(f'"""{doc}"""\n', encoding="utf-8")
            git("add", str(init.relative_to(ROOT)))


def rewrite_repository(moves: Moves, dry_run: bool) -> list[Path]:
    changed = []
    for path in tracked_files():
        if path.as_posix() in SKIPPED or not (ROOT / path).is_file():
            continue
        try:
            text = (ROOT / path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a picture, a game file: no module names in it
        new = rewrite_text(text, moves.moves)
        if new != text and path.suffix == ".py":
            new = wrap_long_prose(new)
        if new != text:
            changed.append(path)
            if not dry_run:
                (ROOT / path).write_text(new, encoding="utf-8")
    return changed


SUSPECT = re.compile(
    r"""f["']client[./]\{|["']client\.["'] *\+|["']client/["'] *\+|/ *["']client["'] *\)\.glob\("""
)


def suspects() -> list[str]:
    """Lines that build a client/ module name or path at run time: the rewrite cannot see them."""
    found = []
    for path in tracked_files():
        if path.suffix != ".py" or path.as_posix() in SKIPPED or not (ROOT / path).is_file():
            continue
        for number, line in enumerate((ROOT / path).read_text(encoding="utf-8").split("\n"), 1):
            if SUSPECT.search(line):
                found.append(f"{path}:{number}: {line.strip()}")
    return found


def add_contracts(dry_run: bool) -> bool:
    pyproject = ROOT / "pyproject.toml"
    text = pyproject.read_text(encoding="utf-8")
    contracts = CONTRACTS.read_text(encoding="utf-8")
    first_name = re.search(r'^name = ".*"$', contracts, re.M)
    assert first_name is not None, f"{CONTRACTS} has no contract"
    if first_name[0] in text:
        return False
    if not dry_run:
        pyproject.write_text(text.rstrip("\n") + "\n" + contracts, encoding="utf-8")
    return True


def format_python(paths: list[Path]) -> None:
    files = [str(p) for p in paths if p.suffix == ".py" and (ROOT / p).exists()]
    if not files:
        return
    ruff = Path(sys.executable).with_name("ruff")
    tool = [str(ruff)] if ruff.exists() else [sys.executable, "-m", "ruff"]
    subprocess.run([*tool, "check", "--quiet", "--select", "I", "--fix", *files], cwd=ROOT)
    subprocess.run([*tool, "format", "--quiet", *files], cwd=ROOT, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=Path, default=HERE / "moves.toml", help="the list")
    parser.add_argument(
        "--dry-run", action="store_true", help="say what would change, change nothing"
    )
    parser.add_argument("--no-format", action="store_true", help="leave ruff out")
    parser.add_argument(
        "--strict", action="store_true", help="exit 1 when a module of client/ is not listed"
    )
    args = parser.parse_args(argv)
    try:
        moves = read_moves(args.moves)
        to_move = check_checkout(moves)
    except MovesDoNotFit as error:
        print(f"codemod: {error}", file=sys.stderr)
        return 1
    left_out = unlisted(moves)
    for module in left_out:
        print(f"not in moves.toml, left in place: {module}")
    if left_out and args.strict:
        print("codemod: --strict: list every module of client/ in moves.toml", file=sys.stderr)
        return 1
    make_packages(moves, args.dry_run)
    for old_path, new_path in to_move:
        print(f"git mv {old_path} {new_path}")
        if not args.dry_run:
            git("mv", str(old_path), str(new_path))
    changed = rewrite_repository(moves, args.dry_run)
    for path in changed:
        print(f"rewrote {path}")
    if add_contracts(args.dry_run):
        print("pyproject.toml: added the contracts of codemod/contracts.toml")
        changed.append(Path("pyproject.toml"))
    if not args.dry_run and not args.no_format:
        format_python(changed)
    for line in suspects():
        print(f"check by hand (a name built at run time): {line}")
    print(f"moved {len(to_move)} files, rewrote {len(changed)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
