"""Power-on: the first screen, the system variables, the channels, the frame interrupt, the map."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from zxmonopoly.memory_map import ATTR_FILE, PRINTER_BUFFER
from zxmonopoly.spectrum import video

from .romkit import edit_line, frames, screen, word

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE_GOLDENS = os.environ.get("ZXMONOPOLY_UPDATE_GOLDENS") == "1"
COPYRIGHT = "© 2026 zxmonopoly ROM"


def test_boot_shows_the_copyright_line_and_a_flashing_k_cursor(machine):
    text = screen(machine)
    assert text[22] == COPYRIGHT
    assert text[23] == "K"
    assert all(line == "" for line in text[:22])
    assert machine.memory[ATTR_FILE + 23 * 32] & 0x80  # the cursor cell has FLASH
    assert machine.memory[ATTR_FILE + 23 * 32 + 1] == 0x38


@pytest.mark.golden
def test_boot_screen_matches_golden(machine):
    """The boot screen as PNG and as 32x24 text (ZXMONOPOLY_UPDATE_GOLDENS=1 rewrites them)."""
    machine.run_frames(32 - machine.frame % 32)  # FLASH in its normal phase: a fixed picture
    assert not video.flash_swapped(machine.frame)
    rgb = machine.screen_rgb()
    text = "\n".join(machine.screen_text()) + "\n"
    png_path, text_path = GOLDEN_DIR / "boot.png", GOLDEN_DIR / "boot.txt"
    if UPDATE_GOLDENS:
        GOLDEN_DIR.mkdir(exist_ok=True)
        png_path.write_bytes(video.png_bytes(rgb))
        text_path.write_text(text, encoding="utf-8")
    if not png_path.is_file() or not text_path.is_file():
        pytest.fail("boot goldens missing: run with ZXMONOPOLY_UPDATE_GOLDENS=1 to make them")
    assert text == text_path.read_text(encoding="utf-8")
    golden = video.read_png(png_path)
    differ = np.argwhere((golden != rgb).any(axis=2))
    assert not len(differ), f"{len(differ)} pixels differ from boot.png, first at {differ[0]}"


def test_system_variables_have_their_standard_values(machine):
    mem = machine.memory
    assert mem[0x5C00:0x5C08] == bytes([0xFF, 0, 0, 0, 0xFF, 0, 0, 0]) or mem[0x5C00] != 0xFF
    assert mem[23561] == 35 and mem[23562] == 5                     # REPDEL, REPPER
    assert word(machine, 23606) == 0x3C00                           # CHARS
    assert mem[23608] == 64                                         # RASP
    assert word(machine, 23631) == 0x5CB6                           # CHANS
    assert word(machine, 23635) == 23755                            # PROG
    assert word(machine, 23627) == 23755                            # VARS
    assert word(machine, 23641) == 23756                            # E_LINE
    assert word(machine, 23649) == 23758                            # WORKSP
    assert word(machine, 23651) == 23758 and word(machine, 23653) == 23758  # STKBOT, STKEND
    assert mem[23755] == 0x80 and mem[23756] == 0x0D and mem[23757] == 0x80
    assert mem[23624] == 0x38                                       # BORDCR
    assert mem[23693] == 0x38 and mem[23695] == 0x38                # ATTR_P, ATTR_T
    assert mem[23694] == 0 and mem[23696] == 0 and mem[23697] == 0  # MASK_P, MASK_T, P_FLAG
    assert mem[23659] == 2                                          # DF_SZ
    assert word(machine, 23656) == 23698                            # MEM = MEMBOT
    assert word(machine, 23730) == 0xFF57                           # RAMTOP
    assert word(machine, 23732) == 0xFFFF                           # P_RAMT
    assert word(machine, 23675) == 0xFF58                           # UDG
    assert mem[0xFF57] == 0x3E                                      # the GO SUB stack's end
    assert word(machine, 23613) == 0xFF54                           # ERR_SP
    assert mem[23679] == 33 and word(machine, 23680) == PRINTER_BUFFER      # P_POSN, PR_CC
    assert machine.cpu.iy == 0x5C3A
    assert machine.cpu.im == 1 and machine.cpu.i == 0x3F


def test_udgs_start_as_copies_of_a_to_u(machine):
    mem = machine.memory
    font_a = 0x3D00 + (ord("A") - 32) * 8
    assert mem[0xFF58:0xFF58 + 168] == mem[font_a:font_a + 168]


def test_channels_and_streams_are_laid_out_as_on_the_48k(machine):
    mem = machine.memory
    chans = bytes(mem[0x5CB6:0x5CB6 + 21])
    assert chans == bytes.fromhex("F409A8104B" "F409C41553" "810FC41552" "F409C41550" "80")
    assert bytes(mem[23568:23568 + 14]) == bytes([1, 0, 6, 0, 11, 0, 1, 0, 1, 0, 6, 0, 16, 0])


def test_attributes_and_border_after_boot(machine):
    assert set(machine.memory[ATTR_FILE:ATTR_FILE + 22 * 32]) == {0x38}
    assert machine.border_now() == 7


def test_frames_counts_50_per_50_frames(machine):
    before = frames(machine)
    machine.run_frames(50)
    assert frames(machine) - before == 50


def test_frames_carries_into_its_third_byte(machine):
    machine.memory[23672:23675] = bytes([0xFE, 0xFF, 0x00])
    machine.run_frames(3)
    assert frames(machine) == 0x010001


def test_the_interrupt_sets_last_k_and_flags_bit_5(machine, rom):
    """Seen where the editor wakes from HALT, before it takes the key: Q in K mode is PLOT."""
    after_halt = rom["ed_edit_line.wait"] + 2
    machine.keyboard.press("Q")
    for _ in range(3):
        assert machine.run_until(pc=after_halt, max_frames=2)
        if machine.memory[23611] & 0x20:
            break
        machine.step()
    assert machine.memory[23611] & 0x20
    assert machine.memory[23560] == 0xF6
    machine.keyboard.release_all()


def test_key_repeat_follows_repdel_and_repper(machine):
    """A held key gives one code, then after REPDEL frames one every REPPER frames."""
    machine.tap("P")                  # PRINT, then L mode
    counts = []
    machine.keyboard.press("A")
    for _ in range(35 + 5 * 4 + 2):
        machine.run_frames(1)
        counts.append(edit_line(machine).count(ord("a")))
    machine.keyboard.release_all()
    assert counts[0] == 1 and counts[30] == 1
    assert counts[-1] in (5, 6)


def test_fixed_entry_points_are_where_software_expects_them(rom):
    sym = rom.symbols
    assert sym["rst00_start"] == 0x0000 and sym["rst08_error"] == 0x0008
    assert sym["rst10_print_a"] == 0x0010 and sym["rst18_get_char"] == 0x0018
    assert sym["rst20_next_char"] == 0x0020 and sym["rst28_fp_calc"] == 0x0028
    assert sym["rst30_bc_spaces"] == 0x0030 and sym["rst38_mask_int"] == 0x0038
    assert sym["nmi"] == 0x0066 and sym["keyboard_scan_frame"] == 0x02BF
    assert sym["po_none"] == 0x096F and sym["print_out"] == 0x09F4
    assert sym["cls_entry"] == 0x0D6B and sym["add_char"] == 0x0F81
    assert sym["key_input"] == 0x10A8 and sym["chan_data"] == 0x15AF
    assert sym["report_j"] == 0x15C4 and sym["chan_open_entry"] == 0x1601
    assert sym["break_key_entry"] == 0x1F54 and sym["pr_string_entry"] == 0x203C
    assert sym["font"] == 0x3D00
    image = rom.image
    assert image[0x04C2:0x04C6] == bytes([0x21, 0x3F, 0x05, 0xE5])  # SA-BYTES
    assert image[0x0556:0x0559] == bytes([0x14, 0x08, 0x15])        # LD-BYTES
    assert image[0x096F] == 0xC9                                     # PO-NONE: RET


def test_font_is_complete_and_every_glyph_differs(rom):
    font = rom.image[0x3D00:0x4000]
    glyphs = [font[i:i + 8] for i in range(0, 768, 8)]
    assert glyphs[0] == bytes(8)                                 # space
    assert all(any(g) for g in glyphs[1:])                       # every other one has ink
    assert len(set(glyphs)) == 96
    assert all(b & 1 == 0 for b in font)                         # column 7 blank: no glyph
                                                                 # is another's inverse


def test_screen_text_reads_pound_and_copyright(machine):
    assert "©" in screen(machine)[22]
    glyph = machine.memory[0x3D00 + (0x60 - 32) * 8:0x3D00 + (0x60 - 32) * 8 + 8]
    assert any(glyph)                                           # £ has a glyph of its own


def test_nmi_returns_when_nmiadd_is_zero(machine):
    """An NMI at the idle editor returns: the ROM goes on counting frames and shows its cursor."""
    m = machine
    frames = m.memory[23672] | m.memory[23673] << 8
    m.cpu.nmi()
    m.run_frames(20)
    assert (m.memory[23672] | m.memory[23673] << 8) - frames >= 19
    assert "2026 zxmonopoly" in "\n".join(m.screen_text())
