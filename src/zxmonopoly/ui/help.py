"""The F1 overlay: a picture of the Spectrum keyboard with PC equivalents and function keys."""

from __future__ import annotations

import pygame

from zxmonopoly.spectrum.keyboard import HALF_ROWS, SYMBOL_SHIFT_KEYS

#: The keyboard's four rows, left to right, built from the matrix's half-rows.
KEYBOARD_ROWS: tuple[tuple[str, ...], ...] = tuple(
    HALF_ROWS[left] + tuple(reversed(HALF_ROWS[right]))
    for left, right in ((3, 4), (2, 5), (1, 6), (0, 7))
)
#: What a PC user presses for the keys that are not on the key with the same name.
PC_LABELS = {"CAPS SHIFT": "Shift", "SYMBOL SHIFT": "Ctrl/Alt", "ENTER": "Enter",
             "SPACE": "Space"}
SHORT_NAMES = {"CAPS SHIFT": "CS", "SYMBOL SHIFT": "SS", "ENTER": "ENT", "SPACE": "SPC"}
#: The SYMBOL SHIFT symbol on each key.
SYMBOLS = {key: char for char, key in SYMBOL_SHIFT_KEYS.items() if char != "↑"}
#: The Monopoly game's keys (booklet part C), marked on the picture.
GAME_KEYS = {"M": "Mortgage", "H": "Houses", "R": "Rent", "O": "Owners", "T": "Trade",
             "D": "Dice", "C": "Credit", "A": "Assets", "F": "Fast", "B": "Flat",
             "X": "Retire", "Y": "Yes", "N": "No/none",
             "P": "Deed", "Q": "Quit", "5": "cursor", "8": "cursor", "SPACE": "details",
             "ENTER": "select"}
FUNCTION_HELP = ("Esc menu (open files, tape, snapshots, speed, sound, joystick, status line)",
                 "F1 help   F2 save snapshot   F3 load snapshot   F5 reset   F6 tape play/stop",
                 "F7/Pause pause   F9 record a script   Shift+F9 record RZX   F10 quit",
                 "F11 fullscreen   F12 turbo",
                 "Monopoly (green): M H R O T D menu, C credit, A assets, F fast computer turns,",
                 "B flat board, X retire (option), CS+5/CS+8 cursor, CS+SPACE ends the game",
                 "Backspace = DELETE   arrows = CS+5..8   BREAK = Shift+Space   "
                 "punctuation typed = SYM+key")


def draw_help(surface: pygame.Surface) -> None:
    """Draw the keyboard picture over ``surface``."""
    width, height = surface.get_size()
    shade = pygame.Surface((width, height), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 200))
    surface.blit(shade, (0, 0))
    unit = max(8, min(width // 12, height // 8))
    font = pygame.font.Font(None, max(10, unit // 2))
    small = pygame.font.Font(None, max(9, unit // 3))
    top = unit // 2
    for r, row in enumerate(KEYBOARD_ROWS):
        left = (width - 43 * unit // 4) // 2 + r * unit // 4
        for c, key in enumerate(row):
            rect = pygame.Rect(left + c * unit + 2, top + r * unit + 2, unit - 4, unit - 4)
            colour = ((30, 120, 30) if key in GAME_KEYS
                      else (200, 40, 40) if key in PC_LABELS else (60, 60, 60))
            pygame.draw.rect(surface, colour, rect, border_radius=3)
            pygame.draw.rect(surface, (220, 220, 220), rect, 1, border_radius=3)
            label = font.render(SHORT_NAMES.get(key, key), True, (255, 255, 255))
            surface.blit(label, label.get_rect(center=(rect.centerx, rect.centery - unit // 8)))
            hint = PC_LABELS.get(key) or SYMBOLS.get(key, "")
            if hint:
                text = small.render(hint, True, (255, 80, 80) if key in SYMBOLS else (255, 255, 0))
                surface.blit(text, text.get_rect(midbottom=(rect.centerx, rect.bottom - 1)))
            if key in GAME_KEYS:
                text = small.render(GAME_KEYS[key], True, (160, 255, 160))
                surface.blit(text, text.get_rect(midtop=(rect.centerx, rect.top + 1)))
    y = top + 4 * unit + unit // 4
    for line in FUNCTION_HELP:
        text = small.render(line, True, (255, 255, 255))
        surface.blit(text, text.get_rect(midtop=(width // 2, y)))
        y += text.get_height() + 2
