"""BASIC tokeniser and detokeniser (zxmonopoly.basic)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zxmonopoly import basic


def test_loader_line_bytes_match_the_standard_layout() -> None:
    # spectrum_facts.md §6.3: FD digits 0E+5, 3A, EF 22 22 AF, 3A, F9 C0 digits 0E+5, 0D.
    listing = '10 CLEAR 32767: LOAD ""CODE : RANDOMIZE USR 32768'
    program = basic.tokenise(listing)
    body = (b"\xfd" + b"32767\x0e\x00\x00\xff\x7f\x00" + b":" + b'\xef""\xaf' + b":"
            + b"\xf9\xc0" + b"32768\x0e\x00\x00\x00\x80\x00" + b"\x0d")
    assert program == bytes([0, 10, len(body), 0]) + body
    assert basic.detokenise(program) == listing


@pytest.mark.parametrize("listing", [
    '10 CLEAR 32767: LOAD ""CODE : RANDOMIZE USR 32768',
    '20 PRINT "hello";a$: GO TO 10',
    "30 IF a<=b THEN LET total=BIN 101",
    "40 REM anything: PRINT 1",
    '50 PRINT INKEY$;PI;RND: OPEN #2: LET x=a OR b',
    "60 FOR i=1 TO 10 STEP 2: NEXT i",
    '70 PRINT AT 0,0;"£©": BORDER 1: POKE 23606,0',
    "9999 LET x=1.5E3: LET y=.25",
])
def test_listings_round_trip(listing: str) -> None:
    assert basic.detokenise(basic.tokenise(listing)) == listing


def test_tokeniser_accepts_other_spacing_and_goto() -> None:
    assert basic.tokenise("10 GOTO 10") == basic.tokenise("10 GO TO 10")
    assert basic.tokenise("10 clear 1:load\"\"code") == basic.tokenise('10 CLEAR 1: LOAD ""CODE')


def test_names_are_not_split_into_keywords() -> None:
    # "TOTAL" holds "TO" and "AT" but is a variable name.
    assert basic.tokenise_line("LET total=1").count(basic.TOKEN_CODES["TO"]) == 0


def test_hidden_numbers() -> None:
    assert basic.encode_number(0) == bytes(5)
    assert basic.encode_number(65535) == bytes([0, 0, 0xFF, 0xFF, 0])
    assert basic.encode_number(-1) == bytes([0, 0xFF, 0xFF, 0xFF, 0])
    assert basic.encode_number(0.5) == bytes([0x80, 0, 0, 0, 0])
    assert basic.encode_number(-2.5) == bytes([0x82, 0xA0, 0, 0, 0])
    assert basic.tokenise_line("BIN 101")[-5:] == basic.encode_number(5)


@given(st.integers(-65535, 65535))
def test_integers_decode(v: int) -> None:
    assert basic.decode_number(basic.encode_number(v)) == v


@given(st.floats(min_value=1e-30, max_value=1e30))
def test_floats_decode_closely(v: float) -> None:
    assert basic.decode_number(basic.encode_number(v)) == pytest.approx(v, rel=1e-9)


@pytest.mark.parametrize(("listing", "message"), [
    ("CLEAR 1", "does not start with a line number"),
    ("0 CLS", "line number 0 is not in 1..9999"),
    ("20 CLS\n10 CLS", "line 10 does not follow line 20"),
    ('10 PRINT "x', "unterminated string"),
])
def test_tokeniser_errors(listing: str, message: str) -> None:
    with pytest.raises(basic.BasicError, match=message):
        basic.tokenise(listing)


def test_detokenise_stops_at_the_variables_area_and_checks_lengths() -> None:
    program = basic.tokenise("10 CLS") + b"\x80"
    assert basic.detokenise(program) == "10 CLS"
    with pytest.raises(basic.BasicError, match="does not end at ENTER"):
        basic.detokenise(bytes([0, 10, 5, 0, 0xFB, 0x0D]))
