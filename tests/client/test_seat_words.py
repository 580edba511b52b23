"""An engine's sentence with its seats named: one seat, and a side's seats as Forbans lists
them ("Vert (seats 2, 4)"), which a player reads as the names of who sits there."""

from __future__ import annotations

from client.rules.seat_words import with_seat_names

NAMES = {1: "Ana", 2: "Bot 2 of Ana (normal)", 3: "Bea", 4: "Bot 4 of Cy (normal)"}.get


def test_one_seat_and_a_sides_seats_are_named() -> None:
    said = with_seat_names("Seat 4 resigned for Vert (seats 2, 4): Bleu (seats 1, 3) wins.", NAMES)
    assert said == (
        "Bot 4 of Cy (normal) resigned for Vert (Bot 2 of Ana (normal), Bot 4 of Cy (normal)): "
        "Bleu (Ana, Bea) wins."
    )
    assert with_seat_names("seats 1 and 3 win; seat 2 loses", NAMES) == (
        "Ana and Bea win; Bot 2 of Ana (normal) loses"
    )


def test_seats_it_cannot_all_name_keep_their_numbers() -> None:
    assert with_seat_names("Bleu (seats 1, 9) wins; seat 9 is out", NAMES) == (
        "Bleu (seats 1, 9) wins; seat 9 is out"
    )
