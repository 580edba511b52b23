"""Invites and addresses: printed, pasted back, and every malformed part named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from net.errors import InviteError
from net.invite import (
    DEFAULT_PORT,
    Invite,
    check_secret,
    format_table_id,
    new_secret,
    parse_address,
    parse_invite,
    parse_table_id,
)

TABLE = bytes(range(16))
FP = "HRXC-PGGL-3EYW-E6PK-5LKN-4QXI"
TEXT = f"palabre://192.168.1.23:7000/{format_table_id(TABLE)}#{FP}"


def test_invite_prints_and_parses_back() -> None:
    invite = Invite(("192.168.1.23", "10.0.0.5", "fe80::1", "host.local"), 7001, TABLE, FP)
    text = str(invite)
    assert text.startswith("palabre://192.168.1.23,10.0.0.5,[fe80::1],host.local:7001/")
    assert text.endswith(f"#{FP}")
    assert parse_invite(text) == invite
    assert parse_invite(f"  {text}\n") == invite


def test_invite_is_case_and_dash_tolerant() -> None:
    lowered = TEXT.replace(FP, FP.lower().replace("-", "")).replace(
        format_table_id(TABLE), format_table_id(TABLE).upper()
    )
    assert parse_invite(lowered) == parse_invite(TEXT)
    assert parse_invite(TEXT.replace("palabre://", "PALABRE://")) == parse_invite(TEXT)


def test_an_invite_carries_its_secret_percent_encoded() -> None:
    secret = new_secret()
    assert len(secret) == 26 and secret == secret.lower() and secret != new_secret()
    invite = Invite(("192.168.1.23",), 7000, TABLE, FP, secret)
    assert str(invite) == TEXT.replace("#", f"?s={secret}#")
    assert parse_invite(str(invite)) == invite
    typed = Invite(("192.168.1.23",), 7000, TABLE, FP, "thé à 5h #1/2 ?%")
    assert "?s=th%C3%A9%20%C3%A0%205h%20%231%2F2%20%3F%25#" in str(typed)
    assert parse_invite(str(typed)) == typed
    assert str(typed.public()) == TEXT and typed.public().secret is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("short", "a table secret has 8 to 64 characters \\(this one has 5\\)"),
        ("x" * 65, "has 65"),
        (" padded secret", "without spaces at either end"),
        ("tab\tinside", "printable"),
    ],
)
def test_bad_secrets_are_explained(text: str, message: str) -> None:
    with pytest.raises(InviteError, match=message):
        check_secret(text)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("?x=1", "only \\?s=SECRET"),
        ("?s=abcdefgh&t=1", "only \\?s=SECRET"),
        ("?s=abc", "the invite's secret: a table secret has 8 to 64"),
        ("?s=%FF%FEabcdefgh", "the invite's secret"),
    ],
)
def test_bad_secret_parts_of_an_invite(query: str, message: str) -> None:
    with pytest.raises(InviteError, match=message):
        parse_invite(TEXT.replace("#", f"{query}#"))


@given(st.binary(min_size=16, max_size=16))
def test_any_table_id_round_trips(table: bytes) -> None:
    assert parse_table_id(format_table_id(table)) == table
    assert len(format_table_id(table)) == 26


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("192.168.1.23:7000", "an invite starts with palabre://"),
        ("http://192.168.1.23:7000/x#y", "an invite starts with palabre://"),
        (TEXT.split("#")[0], "no #FINGERPRINT"),
        (TEXT.replace(f"/{format_table_id(TABLE)}", ""), "no /TABLE"),
        (TEXT.replace(":7000", ""), "no ADDRESS:PORT"),
        (TEXT.replace("192.168.1.23", ""), "no ADDRESS:PORT"),
        (TEXT.replace(":7000", ":0"), "the port '0' is not a number from 1 to 65535"),
        (TEXT.replace(":7000", ":65536"), "the port '65536'"),
        (TEXT.replace(":7000", ":70x"), "the port '70x'"),
        (TEXT.replace("192.168.1.23", "192.168.1.300"), "'192.168.1.300' is not an IPv4 address"),
        (
            TEXT.replace("192.168.1.23", "fe80::1"),
            r"IPv6 address in an invite is written in \[brackets\]",
        ),
        (TEXT.replace("192.168.1.23", "[fe80::zz]"), "is not an IPv6 address"),
        (TEXT.replace("192.168.1.23", "bad_host!"), "is not an address or host name"),
        (TEXT.replace("192.168.1.23", "a,,b"), "'' is not an address or host name"),
        (TEXT.replace(format_table_id(TABLE), "abc"), "the table id 'abc' is not 26"),
        (TEXT.replace(format_table_id(TABLE), "1" * 26), "is not 26 letters and digits 2-7"),
        (TEXT.replace(format_table_id(TABLE), "aaaaaaaaaaaaaaaaaaaaaaaaab"), "bad last letter"),
        (TEXT.replace(FP, FP[:-1]), "the host fingerprint in the invite: .* is not a fingerprint"),
        (TEXT.replace(FP, ""), "the host fingerprint in the invite"),
        (
            "palabre://" + ",".join(["10.0.0.1"] * 9) + f":7000/{format_table_id(TABLE)}#{FP}",
            "at most 8",
        ),
    ],
)
def test_bad_invites_say_which_part_is_wrong(text: str, message: str) -> None:
    with pytest.raises(InviteError, match=message):
        parse_invite(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("192.168.1.23", ("192.168.1.23", DEFAULT_PORT)),
        ("192.168.1.23:7100", ("192.168.1.23", 7100)),
        ("Laptop.Local:7100", ("laptop.local", 7100)),
        ("[fe80::1]:7100", ("fe80::1", 7100)),
        ("[fe80::1]", ("fe80::1", DEFAULT_PORT)),
        ("fe80::1", ("fe80::1", DEFAULT_PORT)),
        (" 10.0.0.9 ", ("10.0.0.9", DEFAULT_PORT)),
    ],
)
def test_plain_addresses(text: str, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no address was given"),
        ("10.0.0.9:", "the port ''"),
        ("10.0.0.9:port", "the port 'port'"),
        ("[fe80::1", "opens a \\[ but does not close it"),
        ("[fe80::1]7000", "expected :PORT after the \\]"),
        ("999.1.1.1", "is not an IPv4 address"),
        ("a b", "is not an address or host name"),
    ],
)
def test_bad_addresses(text: str, message: str) -> None:
    with pytest.raises(InviteError, match=message):
        parse_address(text)


@given(st.text(max_size=120))
def test_arbitrary_text_only_gives_invite_errors(text: str) -> None:
    for parse in (parse_invite, parse_address):
        try:
            parse(text)
        except InviteError as error:
            assert str(error)
