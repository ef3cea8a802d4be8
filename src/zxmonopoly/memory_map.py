"""The 48K's memory map: where the ROM, the RAM and the screen are, and how large.

A leaf (it imports nothing), as :mod:`zxmonopoly.clock` is for time, so that the file formats
(``tape/``, ``snapshot/``), the assembler (``asm/``), the machine (``spectrum/``), the harness
and the tools take the same numbers from one place. Facts: ``shared/reference/spectrum_facts.md``
§2.1 (memory map), §2.2 (screen addressing).
"""

from __future__ import annotations

MEMORY_SIZE = 0x10000  # the Z80's 64K address space
ROM_SIZE = 0x4000  # 16,384: the ROM at 0x0000-0x3FFF (writes there are ignored)
RAM_START = ROM_SIZE  # 0x4000: RAM from the end of the ROM to the top of memory
RAM_SIZE = MEMORY_SIZE - RAM_START  # 49,152: 0x4000-0xFFFF

#: The 16K the ULA shares with the CPU (contended memory): 0x4000-0x7FFF.
CONTENDED_START = 0x4000
CONTENDED_SIZE = 0x4000

#: The display file: 192 lines of 32 bytes (8 pixels each), in the 48K's interleaved order.
DISPLAY_FILE = 0x4000
DISPLAY_FILE_SIZE = 0x1800  # 6,144
#: The attribute file right after it: 24 rows of 32 cells, one byte each (ink, paper,
#: BRIGHT, FLASH).
ATTR_FILE = DISPLAY_FILE + DISPLAY_FILE_SIZE  # 0x5800
ATTR_FILE_SIZE = 0x300  # 768
ATTR_END = ATTR_FILE + ATTR_FILE_SIZE  # 0x5B00: the printer buffer follows
#: The whole screen, display file then attributes, as ``SAVE "x" SCREEN$`` writes it.
SCREEN_SIZE = DISPLAY_FILE_SIZE + ATTR_FILE_SIZE  # 6,912
#: The printer buffer (256 bytes), then the ROM's system variables.
PRINTER_BUFFER = ATTR_END
