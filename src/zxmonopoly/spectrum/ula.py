"""The Spectrum 48K's part of its generated engines: the machine ``tools/gen_z80.py`` plugs in.

The generator knows the Z80 and a small machine interface; this module is the 48K's answer to
it, as lines of Python for the generated loop (numba's subset: ints and arrays), every number
taken from :mod:`.timing`:

* memory contention: which addresses are contended (:func:`contended`), the delay of an access
  starting at T (:data:`DELAY`, from the table the engine takes as ``CONT``), and the window of
  T-states in which an instruction can meet any (:data:`WINDOW_FROM`, :data:`WINDOW_TO`,
  :data:`CONTENDED_NOW`);
* the 4-T I/O cycle, contended by port address (:func:`io_cycle`, spectrum_facts §2.6);
* what an IN reads when no callback takes it (:func:`port_in`: the ULA's keyboard half-rows and
  the tape's EAR level, the Kempston joystick, the floating bus) and what an OUT does
  (:func:`port_out`: the ULA's log of port-0xFE writes, for border and beeper);
* the log of port reads an RZX recording keeps, written or replayed (:func:`port_in_logged`);
* the locals it keeps in the CPU's state array between runs (:data:`REGS`) and the arrays its
  engines take after the Z80's tables (:data:`ARGS`).

A 128K, or a fix to the ULA, changes this module and timing.py, not the generator. The engines
made with it are this package's ``_engine_py.py`` and ``_engine_jit.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from zxmonopoly.memory_map import (
    ATTR_FILE,
    CONTENDED_SIZE,
    CONTENDED_START,
    DISPLAY_FILE,
    MEMORY_SIZE,
)
from zxmonopoly.z80 import state

from . import timing

if TYPE_CHECKING:
    from zxmonopoly.z80.templates import Dialect, Line, Marker

#: What the generated modules say they are, and are made from.
TITLE = "the Spectrum (contention, ULA ports)"
SOURCE = "spectrum/ula.py"
#: The engines generated with it: ``_engine_py`` and ``_engine_jit`` in this package.
ENGINES = f"{__package__}._engine"

#: Locals of the generated loop that the machine keeps in the state array between runs: the
#: last byte written to the ULA, the port-write log's length, the EAR input, the tape's state,
#: the port-read log's mode, position and end. Each is (local, the name of its slot in
#: :mod:`zxmonopoly.z80.state`).
REGS = [("ula_out", "ULA_OUT"), ("out_n", "OUT_N"), ("ear_in", "EAR_IN"), ("tape_on", "TAPE_ON"),
        ("tape_t0", "TAPE_T0"), ("tape_pos", "TAPE_POS"), ("tape_end", "TAPE_END"),
        ("tape_level0", "TAPE_LEVEL0"), ("in_mode", "IN_MODE"), ("in_n", "IN_N"),
        ("in_end", "IN_END")]
#: The arrays an engine takes after the Z80's tables: the contention delay at each T-state of
#: the frame (``CONT``; a tracing engine takes ``TRACE`` instead), the keyboard's half-rows,
#: the Kempston port, the port-0xFE log (T, value pairs), the tape's edge times and the log of
#: port reads (bytes).
ARGS = ("CONT", "keys", "joy", "out_log", "tape", "in_log")

#: The length of a segment of the JIT's contention array (the delays, then each block pass's
#: tables: timing.with_pass_tables).
CONTENTION_SPAN = timing.CONTENTION_SPAN
#: An instruction starting before this T-state cannot meet contention (the first contended
#: T-state less 64, more than any instruction takes); nor one starting at or after WINDOW_TO.
WINDOW_FROM = timing.CONTENDED_FROM - 64
WINDOW_TO = timing.CONTENDED_TO
#: Whether an instruction starting at ``t`` can meet contention: inside the window, and not
#: where a line's contended T-states are behind it and the next line's at least 24 T away (no
#: instruction takes longer, uncontended).
CONTENDED_NOW = (f"{WINDOW_FROM} < t < {WINDOW_TO} and not ({timing.DISPLAY_LINE_TSTATES} <= "
                 f"(t - {timing.CONTENDED_FROM}) % {timing.LINE_TSTATES} <= "
                 f"{timing.LINE_TSTATES - 24})")


def delay(t: str = "t") -> str:
    """The delay of a contended access starting at T-state ``t``."""
    return f"CONT[{t}]"


#: The statement that delays a contended access starting now.
DELAY = f"t += {delay()}"


#: Contended memory is one aligned 16K: an address is in it when its top two bits say so.
_CONTENDED_MASK = MEMORY_SIZE - CONTENDED_SIZE
#: The high bytes of the addresses just below contended memory and at its end.
_BELOW_HIGH = (CONTENDED_START >> 8) - 1
_LAST_HIGH = ((CONTENDED_START + CONTENDED_SIZE) >> 8) - 1


def contended(address: str) -> str:
    """The test that memory at ``address`` is contended (0x4000-0x7FFF)."""
    return f"({address} & 0x{_CONTENDED_MASK:04X}) == 0x{CONTENDED_START:04X}"


def uncontended(address: str) -> str:
    """The test that memory at ``address`` is not contended."""
    return f"({address} & 0x{_CONTENDED_MASK:04X}) != 0x{CONTENDED_START:04X}"


def ir_uncontended(i: str) -> str:
    """The test that the IR address an instruction puts on the bus (I in the high byte) is not
    contended."""
    return f"({i} & 0x{_CONTENDED_MASK >> 8:02X}) != 0x{CONTENDED_START >> 8:02X}"


def word_uncontended(high: str) -> str:
    """The test that neither byte of a word is contended, from ``high``, the high byte of its
    address (the word at the last address below contended memory reaches into it)."""
    return f"not (0x{_BELOW_HIGH:02X} <= {high} <= 0x{_LAST_HIGH:02X})"


def io_cycle(check: list[str]) -> list[str]:
    """The 4-T I/O cycle on ``port_``, starting at ``tio = t``; ``check`` is one contention
    check (the delay, or a tracing engine's record of it).

    The ULA's ports (A0 low) add the delay before the cycle's first T-state and before its
    second; a port in 0x4000-0x7FFF is treated as a contended address as well (§2.6).
    """
    return [
        "tio = t",
        "if (port_ & 1) == 0:",
        "    if " + contended("port_") + ":",
        *("        " + x for x in check),
        "    t += 1",
        *("    " + x for x in check),
        "    t += 3",
        "elif " + contended("port_") + ":",
        *("    " + x for x in [*check, "t += 1"] * 4),
        "else:",
        "    t += 4",
    ]


def _bus_sample(trace: bool) -> list[str]:
    """``ft`` = the T-state at which an IN from a port nobody answers samples the bus.

    Fuse's model (docs/spectrum.md, "The floating bus"): the port cycle that starts at ``tio``
    is 1 T then 2 T before the read, and the 4th T follows it; a port in 0x4000-0x7FFF is
    contended before each of those T-states, as :func:`io_cycle` walks it. The contention table
    is a function of T, so the same sums from ``tio`` give the read's T on the fast path too.
    """
    if trace:  # a tracing engine delays nothing
        return ["ft = tio + 3"]
    return [
        "ft = tio + 3",
        f"if {contended('port')} and {WINDOW_FROM} < tio < {WINDOW_TO}:",
        "    ft = tio + CONT[tio] + 1",
        "    ft += CONT[ft] + 1",
        "    ft += CONT[ft] + 1",
        "    ft += CONT[ft]",
    ]


def port_in_logged(d: Dialect, trace: bool = False, maybe: bool = False) -> list[str]:
    """What an IN reads into ``v`` with the port-read log on (``io_exit`` is
    :data:`zxmonopoly.z80.state.IO_LOG`): the devices' answer (:func:`port_in`), logged
    (``in_mode`` IN_RECORD), or instead the logged values in turn (IN_REPLAY): an RZX
    recording's frames are those values.

    Off, a CPython engine never comes here: the test of ``io_exit`` that every IN makes sends
    it to :func:`port_in`, so the log costs nothing. A numba engine comes here on or off
    (``maybe``: the logging tests the mode too; ``Dialect.port_log_apart``).
    """
    record = ["if in_n < in_end:", "    in_log[in_n] = v", "in_n += 1"]
    if maybe:
        record = [f"if in_mode == {state.IN_RECORD}:", *("    " + x for x in record)]
    return [
        f"if in_mode == {state.IN_REPLAY}:",
        "    v = 0xFF",
        "    if in_n < in_end:",
        "        v = int(in_log[in_n])",
        "    in_n += 1",
        "else:",
        *("    " + x for x in port_in(d, trace)),
        *("    " + x for x in record),
    ]


def port_in(d: Dialect, trace: bool = False) -> list[str]:
    """What an IN from ``port`` reads into ``v`` (at the I/O cycle that started at ``tio``),
    spelled in the engine's dialect ``d`` (``trace``: for an engine that records contention
    instead of delaying)."""
    rows = [x for k in range(8) for x in (f"if (k & {1 << k:#04x}) == 0:",
                                           f"    v = v & int(keys[{k}])")]
    line, col = timing.LINE_TSTATES, timing.DISPLAY_LINE_TSTATES
    # The byte the ULA fetches at column x_ of screen line ``line``: its attribute, its pixels.
    attribute = f"0x{ATTR_FILE:04X} + ((line >> 3) << 5) + x_"
    pixels = (f"0x{DISPLAY_FILE:04X} + ((line & 0xC0) << 5) + ((line & 7) << 8) "
              "+ ((line & 0x38) << 2) + x_")
    return [
        "if (port & 1) == 0:",  # the ULA: keyboard half-rows, EAR in on bit 6
        "    if tape_on:",  # the tape's level now: edges up to this T-state have passed
        "        now_ = tape_t0 + tio + 1",
        "        while tape_pos < tape_end and tape[tape_pos] <= now_:",
        "            tape_pos += 1",
        "        ear_in = (tape_level0 ^ tape_pos) & 1",
        "    k = port >> 8",
        "    v = 0x1F",
        *("    " + x for x in rows),
        "    v = (v & 0x1F) | 0xA0 | ((((ula_out >> 4) & 1) ^ ear_in) << 6)",
        "elif (port & 0xE0) == 0:",  # Kempston joystick (A5, A6, A7 low)
        "    v = int(joy[0])",
        "else:",  # floating bus: what the ULA is fetching when the IN samples the bus
        "    v = 0xFF",
        *("    " + x for x in _bus_sample(trace)),
        f"    ft -= {timing.DISPLAY_TSTATES}",
        "    if ft >= 0:",
        f"        line = ft // {line}",
        f"        col = ft - line * {line}",
        f"        if line < {timing.DISPLAY_LINES} and col < {col} and 2 <= (col & 7) <= 5:",
        "            x_ = ((col >> 3) << 1) + (((col & 7) - 2) >> 1)",
        "            if col & 1:",
        f"                v = {d.mem(attribute)}",
        "            else:",
        f"                v = {d.mem(pixels)}",
    ]


def port_out(log_full_exit: Marker) -> list[Line]:
    """What an OUT of ``v`` to ``port`` does: the ULA (A0 low) takes it and logs it with its
    T-state; ``log_full_exit`` (the generator's marker) leaves the loop when the log is full."""
    return [
        "if (port & 1) == 0:",
        "    ula_out = v",
        "    out_log[out_n] = tio + 1",
        "    out_log[out_n + 1] = v",
        "    out_n += 2",
        "    if out_n > len(out_log) - 2:",
        "        " + log_full_exit,
    ]
