"""Layout of the CPU state array shared by the engines, and the run loop's exit reasons.

The engines keep registers in locals while they run and exchange them with Python through
one integer array (a list for the CPython engine, ``numpy.int64`` for the JIT engine), so
devices and the public :class:`~zxmonopoly.z80.cpu.Z80` API never call into the loop.
"""

from __future__ import annotations

# Registers and visible state, in the order the generated code loads them.
A, F, B, C, D, E, H, L = range(8)
A_, F_, B_, C_, D_, E_, H_, L_ = range(8, 16)
IX, IY, SP, PC = 16, 17, 18, 19
I, R = 20, 21  # R holds all 8 bits as seen by LD A,R
MEMPTR = 22
IFF1, IFF2, IM, HALTED = 23, 24, 25, 26
T = 27  # T-states, counted up from wherever the owner last set them
Q = 28  # F after the last instruction if it changed flags, else 0 (for SCF/CCF)
AFTER_EI = 29  # 1: the last step was EI or a prefix, so no interrupt at this boundary
AFTER_LDAIR = 30  # 1: the last instruction was LD A,I or LD A,R (NMOS P/V quirk)

# The maskable interrupt line: asserted while T < INT_END. INT_DATA is the byte on the bus
# during acknowledge; INT_ACK_CLEARS drops the line when the interrupt is accepted (a device
# that holds it until acknowledged) rather than leaving it to T reaching INT_END (the ULA).
INT_END, INT_DATA, INT_ACK_CLEARS = 31, 32, 33
ROM_TOP = 34  # writes below this address are ignored (0 for a bare CPU)
IO_EXIT = 35  # 1: every port access returns to Python (callbacks); 2: IO_LOG, below
IN_READY, IN_VALUE = 36, 37  # a port value supplied by Python for the pending IN
PORT, PORT_VALUE = 38, 39  # the port (and value written) of the access that caused an exit
# The numba engines' own, during a run: where a prefix function (tools/z80gen/emit_numba.py)
# leaves the loop's markers that it changed for the main function to reload, EI's T-state
# (``ei_at``), LD A,I's (``ldair_at``), the last flag change's (``qt``), and R as the loop
# counts it (unmasked) with the bit 7 LD R,A wrote (``r7``).
JIT_EI_AT, JIT_LDAIR_AT, JIT_QT = 40, 41, 42
JIT_R_RAW, JIT_R7 = 45, 46
# The engines' own, during a run: the T-state it started at, or the end of a DD/FD prefix the
# next opcode ignored that opened it (Q from before the run still holds there).
ENTRY_T = 43

# The Spectrum engines: the last byte written to an even port (border, MIC, EAR), the count of
# entries in the port-write log, and the EAR input level from a tape (0 or 1).
ULA_OUT, OUT_N, EAR_IN = 48, 49, 50
# A playing tape: on/off, the tape time at frame T 0, the next edge, the end of the edges the
# tape may play before it stops by itself, and the level before the first edge.
TAPE_ON, TAPE_T0, TAPE_POS, TAPE_END, TAPE_LEVEL0 = 51, 52, 53, 54, 55

# Watches the Spectrum engines check after every instruction and interrupt while the watch
# bit (2) is set throughout the breakpoint map: WATCH_N entries of WATCH_STRIDE slots from
# WATCH_TABLE, each (address, width 1|2, lo, hi, inside): the byte or word there (SP when the
# address is -1) must be in lo..hi (inside 1) or outside it (inside 0), else EXIT_WATCH.
WATCH_N = 56
# Opcode fetches (M1 cycles: a prefix is one, as R counts them) since the state was cleared,
# which the Spectrum engines add up as they leave a run (RZX recordings count frames by them),
# and what moved R without a fetch during the run (the interrupt's acknowledge, LD R,A).
FETCHES, FETCH_ADJ = 57, 58
# The Spectrum engines' log of port reads (RZX): IN_MODE 0 off, 1 every IN's value is written to
# the machine's ``in_log`` (while IN_N < IN_END; IN_N counts on past it), 2 every IN reads the
# next value of ``in_log`` instead of the devices (0xFF past IN_END; IN_N counts on).
IN_MODE, IN_N, IN_END = 59, 60, 61
IN_OFF, IN_RECORD, IN_REPLAY = 0, 1, 2
# IO_EXIT while the port-read log is on: the INs go through it (and OUTs as ever), behind the
# test of IO_EXIT every port access makes anyway, so that the log costs a run without it
# nothing.
IO_LOG = 2
WATCH_TABLE = 64
WATCH_STRIDE = 5
WATCH_ENTRIES = 8
WATCH_BIT = 2

SIZE = WATCH_TABLE + WATCH_STRIDE * WATCH_ENTRIES

# Exit reasons returned by the engines.
EXIT_LIMIT = 0  # T reached the limit
EXIT_BREAK = 1  # PC reached an address marked in the breakpoint map
EXIT_PORT_IN = 2  # an IN needs a value from Python; the instruction has not run yet
EXIT_PORT_OUT = 3  # an OUT ran; Python may now see PORT and PORT_VALUE
EXIT_LOG_FULL = 4  # the port-write log is full; Python must empty it (OUT_N = 0) and go on
EXIT_WATCH = 5  # the last instruction (or interrupt) broke a watch of the WATCH_TABLE

EXIT_NAMES = {EXIT_LIMIT: "limit", EXIT_BREAK: "break", EXIT_PORT_IN: "port-in",
              EXIT_PORT_OUT: "port-out", EXIT_LOG_FULL: "log-full",
              EXIT_WATCH: "watch"}
