"""Helpers for driving our ROM: booting, typing BASIC (keywords as a 48K user types them),
running a command to its report, reading the screen. Facts: spectrum_facts §3.5-§3.7."""

from __future__ import annotations

from dataclasses import dataclass

from zxmonopoly.basic import K_MODE_KEYWORDS
from zxmonopoly.spectrum import Spectrum48
from zxmonopoly.spectrum.keyboard import keys_for_text

EXTEND = "CAPS SHIFT+SYMBOL SHIFT"  # E mode for the next key
SS = "SYMBOL SHIFT"
BREAK = "CAPS SHIFT+SPACE"
ENTER = "ENTER"
BOOT_FRAMES = 20

# (K mode's keywords are zxmonopoly.basic.K_MODE_KEYWORDS: a letter's statement.)
#: Keywords with SYMBOL SHIFT + letter in L mode (§3.6).
SS_KEYWORDS = {"STOP": "A", "STEP": "D", ">=": "E", "TO": "F", "THEN": "G", "AT": "I",
               "<=": "Q", "NOT": "S", "OR": "U", "<>": "W", "AND": "Y"}
#: E mode, letter alone (§3.7).
E_KEYWORDS = {"READ": "A", "BIN": "B", "LPRINT": "C", "DATA": "D", "TAN": "E", "SGN": "F",
              "ABS": "G", "SQR": "H", "CODE": "I", "VAL": "J", "LEN": "K", "USR": "L", "PI": "M",
              "INKEY$": "N", "PEEK": "O", "TAB": "P", "SIN": "Q", "INT": "R", "RESTORE": "S",
              "RND": "T", "CHR$": "U", "LLIST": "V", "COS": "W", "EXP": "X", "STR$": "Y",
              "LN": "Z"}
#: E mode, letter with SYMBOL SHIFT (§3.7).
E_SHIFT_KEYWORDS = {"BRIGHT": "B", "PAPER": "C", "ATN": "E", "CIRCLE": "H", "IN": "I",
                    "VAL$": "J", "SCREEN$": "K", "ATTR": "L", "INVERSE": "M", "OVER": "N",
                    "OUT": "O", "ASN": "Q", "VERIFY": "R", "MERGE": "T", "FLASH": "V",
                    "ACS": "W", "INK": "X", "BEEP": "Z"}
#: E mode, SYMBOL SHIFT + digit (§3.7).
E_DIGIT_KEYWORDS = {"FORMAT": "0", "DEF FN": "1", "FN": "2", "LINE": "3", "OPEN #": "4",
                    "CLOSE #": "5", "MOVE": "6", "ERASE": "7", "POINT": "8", "CAT": "9"}
STATEMENT_LETTERS = {word: letter for letter, word in K_MODE_KEYWORDS.items()}


@dataclass(frozen=True)
class Rom:
    """An assembled ROM: the 16K image and its symbol values."""

    image: bytes
    symbols: dict[str, int]

    def __getitem__(self, name: str) -> int:
        return self.symbols[name]


def boot(rom: Rom) -> Spectrum48:
    """Power on with our ROM and run until the editor waits for a key."""
    m = Spectrum48(rom=rom.image, engine="python")
    m.rom_symbols = rom.symbols  # type: ignore[attr-defined]
    m.run_frames(BOOT_FRAMES)
    return m


def keys_for_keyword(word: str, k_mode: bool) -> list[str]:
    """The key combinations that enter keyword ``word`` (in K mode or in L mode)."""
    if k_mode and word in STATEMENT_LETTERS:
        return [STATEMENT_LETTERS[word]]
    if word in SS_KEYWORDS:
        return [f"{SS}+{SS_KEYWORDS[word]}"]
    if word in E_KEYWORDS:
        return [EXTEND, E_KEYWORDS[word]]
    if word in E_SHIFT_KEYWORDS:
        return [EXTEND, f"{SS}+{E_SHIFT_KEYWORDS[word]}"]
    if word in E_DIGIT_KEYWORDS:
        return [EXTEND, f"{SS}+{E_DIGIT_KEYWORDS[word]}"]
    raise KeyError(f"no key sequence known for keyword {word!r}")


def is_keyword(part: str) -> bool:
    return part in STATEMENT_LETTERS or part in SS_KEYWORDS or part in E_KEYWORDS or \
        part in E_SHIFT_KEYWORDS or part in E_DIGIT_KEYWORDS


def type_basic(m: Spectrum48, *parts: str) -> None:
    """Type a line: each part a keyword (entered by its keys) or text (typed in L mode).

    A statement keyword is typed as its K-mode letter when it starts a statement (first, or
    after text ending in ":" or a line number).
    """
    combos: list[str | tuple[str, ...]] = []
    k_mode = True
    for part in parts:
        if is_keyword(part):
            combos += keys_for_keyword(part, k_mode)
            k_mode = part == "THEN"
        else:
            combos += keys_for_text(part)
            stripped = part.rstrip()
            k_mode = stripped.endswith(":") or (k_mode and stripped.isdigit()) or \
                (k_mode and not stripped)
    m.type_keys(combos)


def run_command(m: Spectrum48, *parts: str, max_frames: int = 300) -> list[str]:
    """Type a line, press ENTER, run until the editor is back; return the screen text."""
    type_basic(m, *parts)
    press_enter(m, max_frames)
    return screen(m)


def press_enter(m: Spectrum48, max_frames: int = 300) -> bool:
    """Press ENTER and run until the main loop is back in the editor (True) or the budget ends."""
    main_loop = m.rom_symbols["main_loop"]  # type: ignore[attr-defined]
    m.keyboard.press(ENTER)
    reached = m.run_until(pc=main_loop, max_frames=2)
    m.keyboard.release(ENTER)  # (held on, it would repeat: a PAUSE would end)
    if not reached:
        reached = m.run_until(pc=main_loop, max_frames=max_frames)
    m.run_frames(3)
    return reached


def screen(m: Spectrum48) -> list[str]:
    """The 24 screen lines, trailing spaces removed."""
    return [line.rstrip() for line in m.screen_text()]


def report_line(m: Spectrum48) -> str:
    """The report shown in the lower screen (row 22)."""
    return screen(m)[22]


def frames(m: Spectrum48) -> int:
    """The FRAMES system variable (3 bytes)."""
    mem = m.memory
    return mem[23672] | mem[23673] << 8 | mem[23674] << 16


def word(m: Spectrum48, address: int) -> int:
    return m.memory[address] | m.memory[address + 1] << 8


def edit_line(m: Spectrum48) -> bytes:
    """The bytes of the edit line, up to its ENTER (E_LINE .. WORKSP - 2)."""
    start, end = word(m, 23641), word(m, 23649) - 2
    return bytes(m.memory[start:end])


def program(m: Spectrum48) -> bytes:
    """The program area, PROG .. VARS."""
    return bytes(m.memory[word(m, 23635):word(m, 23627)])
