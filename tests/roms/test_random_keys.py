"""Random typing never wedges the ROM: afterwards it still counts frames and shows a cursor."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from zxmonopoly.memory_map import ATTR_FILE

from .romkit import BREAK, boot, frames

# Any key and shifted key, but not those that let random text reach memory or the tape:
# O (POKE), S (SAVE) and E mode (USR, OUT...) are left out.
PLAIN = [k for k in "ABCDEFGHIJKLMNPQRTUVWXYZ0123456789"] + ["SPACE", "ENTER"]
KEYS = PLAIN + [f"SYMBOL SHIFT+{k}" for k in "ABCDEFGHIKLMNPQRTUVWXYZ1234567890"] \
    + [f"CAPS SHIFT+{k}" for k in "0123456789"]
CURSORS = set("KLCEG")


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=st.lists(st.sampled_from(KEYS), max_size=40),
       holds=st.lists(st.integers(1, 4), min_size=40, max_size=40))
def test_random_keys_leave_a_working_editor(rom, keys, holds):
    m = boot(rom)
    for key, hold in zip(keys, holds[:len(keys)], strict=True):
        m.tap(key, hold=hold, gap=2)
    # Stop whatever runs: BREAK, any key (ends a PAUSE), BREAK again.
    m.tap(BREAK, hold=4, gap=4)
    m.tap("CAPS SHIFT+0", hold=2, gap=4)
    m.tap(BREAK, hold=4, gap=10)
    before = frames(m)
    m.run_frames(20)
    assert frames(m) - before == 20
    text = m.screen_text()
    df_sz = m.memory[23659]
    cursors = [text[row][col] for row in range(24 - df_sz, 24) for col in range(32)
               if m.memory[ATTR_FILE + 32 * row + col] & 0x80]
    assert len(cursors) == 1 and cursors[0] in CURSORS
