"""The FUSE Z80 test vectors (testdata/fuse-z80), run on every engine: the bare CPU's
and the Spectrum's (``tests/z80/engines.py``).

Each vector sets all registers (MEMPTR too) and some memory, runs until a T-state count and
gives the expected registers, final T-states and changed memory. Memory starts as the FUSE
harness leaves it: DE AD BE EF repeated; ports read as the high byte of the port address.
The event traces (memory and port accesses with their times) are parsed for later use: the
core's public API does not report individual accesses.
"""

from __future__ import annotations

import pytest

from tests.z80.engines import WALK_T, make_z80
from tests.z80.fuse_vectors import (
    FUSE_DIR,
    FUSE_TEST_COUNT,
    INITIAL_FILL,
    Event,
    Vector,
    apply_blocks,
    load_vectors,
)
from tests.z80.helpers import REGISTERS, disassemble, memory_diff, register_table

# Where we follow later hardware research than these vectors (2018-07-10): when a block
# instruction repeats, X/Y come from PC bits 11/13 and MEMPTR = PC+1, and INxR/OTxR also redo
# H and P/V (David Banks 2018; the project's spectrum_facts.md, sections 1.4 and 1.5).
# Each entry replaces the FUSE value with the one those rules give, worked out by hand.
NEWER_THAN_FUSE: dict[str, dict[str, int]] = {
    # INIR, B 0A->09, v=0A, k=v+C+1=4B: H=C=0, P=parity(((k&7)^B)^(B&7))=parity(0B)=0.
    "edb2_1": {"af": 0x8A00, "memptr": 0x0001},  # FUSE: F=0C, MEMPTR=0A41
    # OTIR, B 03->02, v=9D, k=v+L=11A, N=1: C=1, H=(B&0F==0)=0, P=parity((2^2)^1)=0.
    "edb3_1": {"af": 0x3403, "memptr": 0x0001},  # FUSE: F=17, MEMPTR=02E1
    # CPDR at PC=7A45: X and Y from PC's bits 11 and 13, both set.
    "edb9_2": {"af": 0xFFAF},  # FUSE: F=A7
    # INDR: the flags agree; MEMPTR = PC+1.
    "edba_1": {"memptr": 0x0001},  # FUSE: MEMPTR=069E
    # OTDR, B 04->03, v=B6, k=v+L=185, N=1: C=1, H=(B&0F==0)=0, P=parity((5^3)^2)=0.
    "edbb_1": {"af": 0x0903, "memptr": 0x0001},  # FUSE: F=17, MEMPTR=033A
}


def _params():
    if not (FUSE_DIR / "tests.in").is_file():
        return [pytest.param(None, id="missing")]  # fails: the vectors belong to the clone
    return [pytest.param(v, id=v.name) for v in load_vectors()]


def run_vector(vector: Vector, engine: str, start: int = 0) -> list[str]:
    """Run one vector on ``engine`` from T-state ``start``; return what differs (empty when
    it passes).

    On a Spectrum engine (tests.z80.engines: contention off, all memory RAM, ports answered as
    the vectors say) a ``start`` inside the screen's lines makes it walk every machine cycle.
    """
    memory = bytearray(INITIAL_FILL)
    apply_blocks(memory, vector.memory)
    initial = bytes(memory)
    cpu = make_z80(memory, engine, read_port=lambda port: port >> 8)
    for name, value in vector.registers.items():
        setattr(cpu, name, value)
    cpu.q = 0
    cpu.tstates = start
    cpu.run(start + vector.until)

    actual = {name: int(getattr(cpu, name)) for name in REGISTERS}
    expected = {**vector.expected_registers, **NEWER_THAN_FUSE.get(vector.name, {})}
    problems = []
    if actual != expected:
        problems.append(register_table(expected, actual))
    if cpu.tstates - start != vector.expected_tstates:
        problems.append(f"tstates: expected {vector.expected_tstates}, got {cpu.tstates - start}")
    expected_memory = bytearray(initial)
    apply_blocks(expected_memory, vector.expected_memory)
    if memory != expected_memory:
        problems.append("memory differs:\n" + memory_diff(expected_memory, memory))
    if problems:
        code = disassemble(initial, vector.registers["pc"])
        problems.insert(0, f"FUSE test {vector.name!r} ({code}) on the {engine} engine "
                           f"from T={start}")
    return problems


@pytest.mark.parametrize("vector", _params())
def test_fuse_vector(vector: Vector | None, z80_engine: str) -> None:
    if vector is None:
        pytest.fail(f"FUSE vectors not found in {FUSE_DIR}", pytrace=False)
    problems = run_vector(vector, z80_engine)
    if z80_engine.startswith("spectrum"):  # the fast path above, the cycle walk here
        problems += run_vector(vector, z80_engine, WALK_T)
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


def test_vectors_parse() -> None:
    vectors = load_vectors()
    assert len(vectors) == FUSE_TEST_COUNT
    assert len({v.name for v in vectors}) == FUSE_TEST_COUNT
    first = vectors[0]
    assert first.name == "00"
    assert first.until == 1
    assert first.expected_registers["pc"] == 0x0001
    assert first.expected_registers["r"] == 0x01
    assert first.expected_tstates == 4
    assert first.events == (Event(0, "MC", 0x0000, None), Event(4, "MR", 0x0000, 0x00))
    by_name = {v.name: v for v in vectors}
    assert by_name["02_1"].expected_memory == ((0x6B65, b"\x13"),)
    assert by_name["02_1"].expected_registers["memptr"] == 0x1366
    for name, registers in NEWER_THAN_FUSE.items():
        fuse = by_name[name].expected_registers
        assert all(fuse[reg] != value for reg, value in registers.items()), name
