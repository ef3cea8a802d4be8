"""Sinclair BASIC program text: tokenise a listing into program bytes and decode it back.

Program format (``shared/reference/spectrum_facts.md`` §6): each line is its number (2 bytes,
big-endian), the length of the rest (2 bytes, little-endian), the text with keywords as one-byte
tokens and every number followed by 0x0E and its hidden 5-byte value, then 0x0D.
"""

from __future__ import annotations

import math
from fractions import Fraction

#: Token bytes 0xA5..0xFF, in code order (§6.3).
TOKENS: tuple[str, ...] = (
    "RND", "INKEY$", "PI", "FN", "POINT", "SCREEN$", "ATTR", "AT", "TAB", "VAL$", "CODE", "VAL",
    "LEN", "SIN", "COS", "TAN", "ASN", "ACS", "ATN", "LN", "EXP", "INT", "SQR", "SGN", "ABS",
    "PEEK", "IN", "USR", "STR$", "CHR$", "NOT", "BIN", "OR", "AND", "<=", ">=", "<>", "LINE",
    "THEN", "TO", "STEP", "DEF FN", "CAT", "FORMAT", "MOVE", "ERASE", "OPEN #", "CLOSE #",
    "MERGE", "VERIFY", "BEEP", "CIRCLE", "INK", "PAPER", "FLASH", "BRIGHT", "INVERSE", "OVER",
    "OUT", "LPRINT", "LLIST", "STOP", "READ", "DATA", "RESTORE", "NEW", "BORDER", "CONTINUE",
    "DIM", "REM", "FOR", "GO TO", "GO SUB", "INPUT", "LOAD", "LIST", "LET", "PAUSE", "NEXT",
    "POKE", "PRINT", "PLOT", "RUN", "SAVE", "RANDOMIZE", "IF", "CLS", "DRAW", "CLEAR", "RETURN",
    "COPY",
)
FIRST_TOKEN = 0xA5
#: LIST (the ROM's PO-TOKENS) puts a space before tokens from OR on that start with a letter,
#: unless a space was just printed, and one after tokens ending in a letter or '$' except the
#: first three (RND, INKEY$, PI), which take no argument.
FIRST_SPACED = 0xC5
FIRST_TRAILING = 0xA8
TOKEN_CODES: dict[str, int] = {word: FIRST_TOKEN + i for i, word in enumerate(TOKENS)}
assert len(TOKENS) == 0x100 - FIRST_TOKEN
#: K mode (the editor at a statement's place): a letter key gives the statement whose token
#: is the letter's code + K_MODE_OFFSET, NEW for A to COPY for Z (§3.5).
K_MODE_OFFSET = 0xA5
K_MODE_KEYWORDS: dict[str, str] = {
    chr(code): TOKENS[code + K_MODE_OFFSET - FIRST_TOKEN] for code in range(ord("A"), ord("Z") + 1)}

NUMBER_MARK = 0x0E
ENTER = 0x0D
REM = TOKEN_CODES["REM"]
BIN = TOKEN_CODES["BIN"]

# Spectrum characters that differ from ASCII, and the text we write for them.
_CHAR_TO_TEXT = {0x60: "£", 0x7F: "©"}
_TEXT_TO_CHAR = {v: k for k, v in _CHAR_TO_TEXT.items()}

# Keywords as the tokeniser looks for them: longest first so that "INKEY$" wins over "IN";
# words with an inner space also match without it ("GOTO").
_MATCHES: list[tuple[str, int]] = sorted(
    [(w, c) for w, c in TOKEN_CODES.items()]
    + [(w.replace(" ", ""), c) for w, c in TOKEN_CODES.items() if " " in w],
    key=lambda wc: -len(wc[0]),
)


class BasicError(ValueError):
    """A listing that cannot be tokenised, or program bytes that cannot be decoded."""


def encode_number(value: int | float | Fraction) -> bytes:
    """The hidden 5-byte form: integer form for whole numbers within ±65535, else floating."""
    if value == int(value) and -65535 <= value <= 65535:
        v = int(value)
        sign = 0xFF if v < 0 else 0x00
        word = v & 0xFFFF if v < 0 else v
        # Negative integers are stored as 65536 + v with the sign byte 0xFF.
        return bytes([0, sign, word & 0xFF, word >> 8, 0])
    x = Fraction(value)
    negative = x < 0
    x = abs(x)
    exp = math.floor(math.log2(x)) + 1 if x else 0
    # Correct the float log2 estimate so that 0.5 <= x / 2**exp < 1 exactly.
    while x / Fraction(2) ** exp >= 1:
        exp += 1
    while x / Fraction(2) ** exp < Fraction(1, 2):
        exp -= 1
    mantissa = round(x / Fraction(2) ** exp * (1 << 32))
    if mantissa == 1 << 32:
        mantissa >>= 1
        exp += 1
    if not 1 <= exp + 128 <= 255:
        raise BasicError(f"number {value} is out of the Spectrum's range")
    m = mantissa & 0x7FFFFFFF | (0x80000000 if negative else 0)
    return bytes([exp + 128]) + m.to_bytes(4, "big")


def decode_number(data: bytes) -> int | float:
    """The value of a hidden 5-byte number."""
    if len(data) != 5:
        raise BasicError(f"a hidden number has 5 bytes, not {len(data)}")
    if data[0] == 0:
        word = data[2] | data[3] << 8
        return word - 0x10000 if data[1] == 0xFF else word
    m = int.from_bytes(data[1:], "big")
    negative = bool(m & 0x80000000)
    value = (m | 0x80000000) * 2.0 ** (data[0] - 128 - 32)
    return -value if negative else value


def _scan_number(text: str, i: int, binary: bool) -> tuple[int, int | float]:
    """End index and value of the numeric literal starting at ``text[i]``."""
    j = i
    n = len(text)
    if binary:
        while j < n and text[j] in "01":
            j += 1
        return j, int(text[i:j], 2) if j > i else 0
    while j < n and text[j].isdigit():
        j += 1
    if j < n and text[j] == ".":
        j += 1
        while j < n and text[j].isdigit():
            j += 1
    if j < n and text[j] in "eE":
        k = j + 1
        if k < n and text[k] in "+-":
            k += 1
        if k < n and text[k].isdigit():
            while k < n and text[k].isdigit():
                k += 1
            j = k
    literal = text[i:j]
    value: int | float = int(literal) if literal.isdigit() else float(literal)
    return j, value


def _keyword_at(text: str, i: int) -> tuple[str, int] | None:
    """The keyword starting at ``text[i]`` (case-insensitive), if one stands there as a word."""
    upper = text[i:i + 9].upper()
    for word, code in _MATCHES:
        if not upper.startswith(word):
            continue
        end = i + len(word)
        # A keyword made of letters must not run on into a longer name ("TOTAL" is no "TO").
        if word[-1].isalpha() and end < len(text) and text[end].isalnum():
            continue
        if word[0].isalpha() and i > 0 and text[i - 1].isalnum():
            continue
        return text[i:end], code
    return None


def tokenise_line(text: str) -> bytes:
    """Tokenised text of one statement line (without number, length or ENTER)."""
    out = bytearray()
    i = 0
    n = len(text)
    in_string = False
    last_token: int | None = None
    while i < n:
        ch = text[i]
        if in_string:
            out += _char(ch)
            in_string = ch != '"'
            i += 1
            continue
        if ch == '"':
            in_string = True
            out.append(0x22)
            i += 1
            last_token = None
            continue
        if ch == " ":
            # Spaces around keywords are LIST's business, not stored text.
            j = i
            while j < n and text[j] == " ":
                j += 1
            if last_token is not None or (j < n and _keyword_at(text, j)):
                i = j
                continue
            out += b" " * (j - i)
            i = j
            continue
        kw = _keyword_at(text, i)
        if kw is not None:
            word, code = kw
            out.append(code)
            i += len(word)
            last_token = code
            if code == REM:
                out += b"".join(_char(c) for c in text[i:].lstrip(" "))
                break
            continue
        if ch.isdigit() or (ch == "." and i + 1 < n and text[i + 1].isdigit()):
            prev = text[i - 1] if i else " "
            if not (prev.isalnum() or prev == "$"):
                j, value = _scan_number(text, i, last_token == BIN)
                out += text[i:j].encode("ascii") + bytes([NUMBER_MARK]) + encode_number(value)
                i = j
                last_token = None
                continue
        out += _char(ch)
        last_token = None
        i += 1
    if in_string:
        raise BasicError(f"unterminated string in {text!r}")
    return bytes(out)


def _char(ch: str) -> bytes:
    code = _TEXT_TO_CHAR.get(ch, ord(ch))
    if code > 0xFF:
        raise BasicError(f"character {ch!r} has no Spectrum code")
    return bytes([code])


def tokenise(listing: str) -> bytes:
    """Program bytes of a listing: one ``NUMBER text`` line per text line."""
    out = bytearray()
    previous = 0
    for raw in listing.splitlines():
        if not raw.strip():
            continue
        number_text, _, text = raw.strip().partition(" ")
        if not number_text.isdigit():
            raise BasicError(f"line {raw!r} does not start with a line number")
        number = int(number_text)
        if not 1 <= number <= 9999:
            raise BasicError(f"line number {number} is not in 1..9999")
        if number <= previous:
            raise BasicError(f"line {number} does not follow line {previous}")
        previous = number
        body = tokenise_line(text) + bytes([ENTER])
        out += bytes([number >> 8, number & 0xFF, len(body) & 0xFF, len(body) >> 8]) + body
    return bytes(out)


def detokenise_line(body: bytes) -> str:
    """The text LIST shows for one line's tokenised text (ENTER excluded)."""
    out: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        b = body[i]
        if b == NUMBER_MARK:
            i += 6
            continue
        if b >= FIRST_TOKEN:
            word = TOKENS[b - FIRST_TOKEN]
            text = "".join(out)
            if b >= FIRST_SPACED and word[0].isalpha() and text and not text.endswith(" "):
                out.append(" ")
            out.append(word)
            if b >= FIRST_TRAILING and (word[-1].isalpha() or word[-1] == "$"):
                out.append(" ")
            i += 1
            if b == REM:
                out.extend(_text_char(c) for c in body[i:])
                break
            continue
        out.append(_text_char(b))
        i += 1
    return "".join(out).rstrip(" ")


def _text_char(b: int) -> str:
    if b in _CHAR_TO_TEXT:
        return _CHAR_TO_TEXT[b]
    if 0x20 <= b < 0x7F:
        return chr(b)
    raise BasicError(f"byte ${b:02X} has no text form")


def detokenise(program: bytes) -> str:
    """The listing of program bytes, one ``NUMBER text`` line each (variables area ignored)."""
    lines: list[str] = []
    i = 0
    while i < len(program):
        if program[i] & 0xC0:
            break  # the variables area starts here
        if i + 4 > len(program):
            raise BasicError(f"truncated line header at offset {i}")
        number = program[i] << 8 | program[i + 1]
        length = program[i + 2] | program[i + 3] << 8
        body = program[i + 4:i + 4 + length]
        if len(body) != length or not body or body[-1] != ENTER:
            raise BasicError(f"line {number} at offset {i}: length {length} does not end at ENTER")
        lines.append(f"{number} {detokenise_line(body[:-1])}")
        i += 4 + length
    return "\n".join(lines)


def loader_listing(clear: int | None, entry: int, line: int = 10, screen: bool = False) -> str:
    """The canonical listing of a loader: CLEAR below the code, LOAD ""SCREEN$ when the tape
    has a loading screen, LOAD ""CODE, RANDOMIZE USR."""
    clear_part = f"CLEAR {clear}: " if clear is not None else ""
    screen_part = 'LOAD ""SCREEN$ : ' if screen else ""
    return f'{line} {clear_part}{screen_part}LOAD ""CODE : RANDOMIZE USR {entry}'
