"""File names every system accepts (issue 28): one test per rule of ``net.safe_names``, any
text gives a safe name, and the name is the same whichever system makes it.

Python's own reading of Windows names (``pathlib.PureWindowsPath``) is the second opinion:
a safe name is one part with no drive, and not a reserved device."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path, PurePosixPath, PureWindowsPath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from net.safe_names import MAX_NAME_BYTES, RESERVED_NAMES, is_safe_file_name, safe_file_name

ROOT = Path(__file__).resolve().parents[2]


def windows_accepts(name: str) -> bool:
    path = PureWindowsPath(name)
    return path.name == name and not path.drive and not path.is_reserved()


@pytest.mark.parametrize("char", list('<>:"/\\|?*'))
def test_characters_windows_refuses_are_replaced(char: str) -> None:
    name = safe_file_name(f"Ana{char}Bo")
    assert name == "Ana_Bo"
    assert windows_accepts(name) and PurePosixPath(name).name == name


@pytest.mark.parametrize("char", ["\x00", "\x01", "\t", "\n", "\x1f", "\x7f", "\x85", "\ud800"])
def test_control_characters_and_lone_surrogates_are_replaced(char: str) -> None:
    name = safe_file_name(f"a{char}b")
    assert name == "a_b"
    name.encode("utf-8")  # a lone surrogate would not encode


@pytest.mark.parametrize(
    ("text", "expected"), [("game.", "game"), ("game. . ", "game"), ("  .hidden", "hidden")]
)
def test_dots_and_spaces_at_either_end_are_removed(text: str, expected: str) -> None:
    assert safe_file_name(text) == expected


@pytest.mark.parametrize("text", ["", ".", "..", " . ", "...", "   "])
def test_a_name_is_never_empty(text: str) -> None:
    assert safe_file_name(text) == "game"
    assert safe_file_name(text, suffix=".json") == "game.json"
    assert safe_file_name(text, fallback="table") == "table"
    assert safe_file_name(text, fallback="..") == "game"


@pytest.mark.parametrize("device", sorted(RESERVED_NAMES))
@pytest.mark.parametrize("shape", ["{}", "{}.txt", "{}.tar.gz", "{} .log"])
def test_reserved_device_names_in_any_case_and_with_any_extension(device: str, shape: str) -> None:
    for text in (shape.format(device), shape.format(device.lower()), shape.format(device.title())):
        assert PureWindowsPath(text).is_reserved()  # Python agrees it is a device
        name = safe_file_name(text)
        assert name == "_" + text
        assert windows_accepts(name)


def test_names_that_only_start_like_a_device_are_kept() -> None:
    for text in ("CONSOLE", "com10", "LPT0", "auxiliary.txt", "nullable"):
        assert safe_file_name(text) == text


def test_reserved_with_a_suffix_is_still_reserved() -> None:
    assert safe_file_name("nul", suffix=".palabre-log") == "_nul.palabre-log"


@pytest.mark.parametrize("char", ["a", "é", "€", "漢", "😀", "한"])
def test_long_names_are_cut_on_a_character_boundary_to_255_bytes(char: str) -> None:
    name = safe_file_name(char * 400, suffix=".palabre-log")
    assert name.endswith(".palabre-log")
    stem = name.removesuffix(".palabre-log")
    assert set(stem) == {char}  # whole characters only
    for form in ("NFC", "NFD"):  # macOS's HFS+ keeps NFD: 한 takes 9 bytes there, not 3
        assert len(unicodedata.normalize(form, name).encode("utf-8")) <= MAX_NAME_BYTES
    longer = unicodedata.normalize("NFD", name + char).encode("utf-8")
    assert len(longer) > MAX_NAME_BYTES  # cut no more than needed


def test_a_cut_does_not_leave_a_trailing_dot_or_space() -> None:
    name = safe_file_name("a" * 253 + ". .xyz")  # 259 bytes: cut after ". "
    assert name == "a" * 253


def test_names_are_nfc() -> None:
    assert safe_file_name("Ame\u0301lie") == "Amélie"


def test_safe_names_are_kept_as_they_are() -> None:
    for name in ("Ana & Bo", "2026-12-01-cognes-Ana-Bo.palabre-log", "Zoé", "a.b.c"):
        assert safe_file_name(name) == name


@settings(deadline=None, max_examples=200)
@given(st.text(), st.text(max_size=20), st.text(max_size=10))
def test_any_text_gives_a_safe_name(text: str, suffix: str, fallback: str) -> None:
    name = safe_file_name(text, suffix=suffix, fallback=fallback)
    assert is_safe_file_name(name)
    assert windows_accepts(name) and PurePosixPath(name).name == name
    assert name not in (".", "..")
    assert safe_file_name(name) == name  # made once, kept as it is when made again


def test_the_same_name_on_every_system() -> None:
    """A file named on Linux copies to Windows and macOS: the module gives the same names when
    Python believes it runs on each of them."""
    texts = ["Ana/Bo", "con.txt", "é" * 300, "a. ", "x\x00y", "漢字?", ""]
    code = (
        "import json, sys; sys.platform = sys.argv[1]\n"
        "from net.safe_names import safe_file_name\n"
        "print(json.dumps([safe_file_name(t, suffix='.json') for t in json.loads(sys.argv[2])]))"
    )
    names = {
        system: json.loads(
            subprocess.run(
                [sys.executable, "-c", code, system, json.dumps(texts)],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
                timeout=30,
            ).stdout
        )
        for system in ("linux", "win32", "darwin")
    }
    assert names["win32"] == names["darwin"] == names["linux"]
    assert names["linux"] == [safe_file_name(text, suffix=".json") for text in texts]
