"""The CPython block engine (zxmonopoly.z80.blocks) against the interpreter it stands in for.

Every Z80 test also runs on ``python-blocks`` (tests/z80/engines.py); here random programs,
which run into their data, write over their own code and meet every opcode, run side by side
on the block engine and on the interpreter alone, in runs of random lengths, with the host
changing memory between runs and the interrupt line raised now and then: after every run the
two must agree on every register, T-state, marker and byte of memory.
"""

from __future__ import annotations

import random

import pytest

from tests.z80.engines import make_z80
from zxmonopoly.z80 import Z80, _engine_py, blocks, state
from zxmonopoly.z80.blocks import BlockEngine


def _interpreter_only(cpu: Z80) -> Z80:
    """``cpu`` with its runs on the interpreter's run_free, never the block engine."""
    cpu._bind()
    cpu._run_free = _engine_py.run_free
    return cpu


def _program(rng: random.Random) -> bytearray:
    """64K of random code: mostly the common opcodes, every prefix, some jumps and loops."""
    memory = bytearray(rng.randbytes(0x10000))
    common = [0x00, 0x01, 0x06, 0x0E, 0x11, 0x21, 0x23, 0x2B, 0x3E, 0x46, 0x4F, 0x77, 0x7E,
              0x80, 0x88, 0x90, 0xA0, 0xAF, 0xB8, 0xC5, 0xD1, 0x10, 0x18, 0x20, 0x28, 0xC3,
              0xCD, 0xC9, 0xCB, 0xDD, 0xED, 0xFD, 0x37, 0x3F, 0x27, 0x08, 0xD9, 0xE3, 0x36]
    for addr in range(0x8000, 0x9000):
        if rng.random() < 0.6:
            memory[addr] = rng.choice(common)
    return memory


def _pair(seed: int) -> tuple[Z80, Z80, random.Random]:
    rng = random.Random(seed)
    memory = _program(rng)
    ours = make_z80(memory, "python-blocks")
    theirs = _interpreter_only(Z80(bytearray(memory), engine="python"))
    regs = {name: rng.getrandbits(16) for name in ("af", "bc", "de", "hl", "ix", "iy", "af_")}
    regs["ix"] = 0x8000 + rng.randrange(0x1000)  # indexed writes into the code, sometimes
    regs.update(pc=0x8000 + rng.randrange(0x1000), sp=0xF000,
                rom_top=rng.choice((0, 0, 0x4000)))
    for cpu in (ours, theirs):
        for name, value in regs.items():
            setattr(cpu, name, value)
    return ours, theirs, rng


def _same(ours: Z80, theirs: Z80, where: str) -> None:
    """Every slot of the state and every byte of memory, but two scratch slots: ENTRY_T (T
    where the last engine call began: the block engine calls the interpreter at other
    T-states than a run of the interpreter alone, and nothing reads the slot after the call
    that set it) and FETCH_ADJ (what LD R,A moved R by, from R's count within a call: the
    Spectrum's engines read and clear it as they leave a run; the bare CPU never does)."""
    a, b = list(ours.state), list(theirs.state)
    for scratch in (state.ENTRY_T, state.FETCH_ADJ):
        a[scratch] = b[scratch] = 0
    assert a == b, where
    assert ours.memory == theirs.memory, where


@pytest.mark.parametrize("seed", range(int(__import__("os").environ.get("BLOCK_SEEDS", "40"))))
def test_random_programs_match_the_interpreter(seed: int) -> None:
    ours, theirs, rng = _pair(seed)
    for n in range(60):
        until = ours.tstates + rng.choice((1, 5, 30, 100, 400, 3000, 20000))
        kind = rng.random()
        if kind < 0.1:  # the host writes somewhere in the code
            addr, value = 0x8000 + rng.randrange(0x1000), rng.getrandbits(8)
            ours.memory[addr] = theirs.memory[addr] = value
        elif kind < 0.15:
            mode = rng.choice((1, 2))
            for cpu in (ours, theirs):
                cpu.iff1 = cpu.iff2 = 1
                cpu.im = mode
                cpu.interrupt(0xFF)
        reasons = (ours.run(until), theirs.run(until))
        assert reasons[0] == reasons[1], f"seed {seed}, run {n}"
        _same(ours, theirs, f"seed {seed}, run {n}")


def test_the_block_engine_runs_the_workload_in_blocks() -> None:
    """The benchmark's workload: blocks translated, the interpreter used only for the tail of
    a run, and the result the interpreter's."""
    from zxmonopoly.bench_workload import make_cpu

    ours, theirs = make_cpu("python"), _interpreter_only(make_cpu("python"))
    for _ in range(30):
        for cpu in (ours, theirs):
            cpu.run(cpu.tstates + 10_000)
    _same(ours, theirs, "workload")
    engine = ours._run_free.__self__
    assert isinstance(engine, BlockEngine)
    assert {0x8012, 0x804E, 0x803C} <= set(engine.spans)


def _blocks_of(cpu: Z80) -> BlockEngine:
    engine = cpu._run_free.__self__
    assert isinstance(engine, BlockEngine)
    return engine


def test_a_write_over_the_next_instruction_is_run() -> None:
    """LD (HL),n over an opcode after it in the same block: the new opcode runs."""
    memory = bytearray(0x10000)
    # LD HL,8006h; LD (HL),3Ch (INC A over the second NOP); NOP; NOP; JR back to the start
    memory[0x8000:0x8009] = bytes([0x21, 0x06, 0x80, 0x36, 0x3C, 0x00, 0x00, 0x18, 0xF7])
    reference = _interpreter_only(Z80(bytearray(memory), engine="python"))
    cpu = make_z80(memory, "python-blocks")
    for c in (cpu, reference):
        c.pc, c.a = 0x8000, 0
        c.run(200)
    _same(cpu, reference, "self-modifying loop")
    assert cpu.a == 5  # the INC A written over the NOP ran on each pass (40 T a pass)
    assert _blocks_of(cpu).translations[0x8000] >= 2  # translated again after the write


def test_the_host_changing_code_between_runs_is_seen() -> None:
    memory = bytearray(0x10000)
    memory[0x8000:0x8003] = bytes([0x3C, 0x18, 0xFD])  # INC A; JR back
    cpu = make_z80(memory, "python-blocks")
    cpu.pc, cpu.a = 0x8000, 0
    cpu.run(1600)  # 100 passes of 16 T
    assert cpu.a == 100
    memory[0x8000] = 0x3D  # DEC A
    cpu.run(cpu.tstates + 1600)
    assert cpu.a == 0


def test_code_that_keeps_rewriting_itself_goes_to_the_interpreter() -> None:
    """A loop storing into its own operand: retranslated a few times, then interpreted."""
    memory = bytearray(0x10000)
    # loop: LD A,(8001h) is replaced by: INC (HL) with HL at the LD A,n's operand; JR loop
    memory[0x8000:0x8005] = bytes([0x3E, 0x00, 0x34, 0x18, 0xFB])  # LD A,n; INC (HL); JR
    cpu = make_z80(memory, "python-blocks")
    reference = _interpreter_only(Z80(bytearray(memory), engine="python"))
    for c in (cpu, reference):
        c.pc, c.hl = 0x8000, 0x8001
        c.run(30_000)
    _same(cpu, reference, "rewriting loop")
    engine = _blocks_of(cpu)
    assert engine.translations[0x8000] == blocks.RETRANSLATIONS


def test_a_port_access_stops_at_the_callback() -> None:
    """IN and OUT run on the interpreter: the callbacks see every access, in order."""
    memory = bytearray(0x10000)
    # LD A,1; OUT (FEh),A; IN A,(FEh); INC A; JR back to the OUT
    memory[0x8000:0x8009] = bytes([0x3E, 0x01, 0xD3, 0xFE, 0xDB, 0xFE, 0x3C, 0x18, 0xF9])
    seen: list[tuple[str, int]] = []
    cpu = make_z80(memory, "python-blocks", read_port=lambda p: (seen.append(("in", p)), 7)[1],
                   write_port=lambda p, v: seen.append(("out", v)))
    cpu.pc = 0x8000
    cpu.run(500)
    assert seen[:4] == [("out", 1), ("in", 0x01FE), ("out", 8), ("in", 0x08FE)]
    assert cpu.state[state.T] >= 500


def _opcode_bytes(key: int, rng: random.Random) -> bytes:
    """The instruction of a ``_blocks_py`` key with random operand bytes."""
    operands = bytes(rng.getrandbits(8) for _ in range(3))
    if key < 256:
        return bytes([key]) + operands
    prefix = (0xCB, 0xED, 0xDD, 0xFD)[key // 256 - 1]
    return bytes([prefix, key & 0xFF]) + operands


@pytest.mark.parametrize("table", range(5), ids=("main", "cb", "ed", "dd", "fd"))
def test_every_opcode_matches_the_interpreter(table: int) -> None:
    """Each opcode (and each DDCB/FDCB operation) at the head of a block, with random
    operands, registers and flags, then whatever random code follows it: four times each."""
    from zxmonopoly.z80 import _blocks_py

    rng = random.Random(table)
    keys = [k for k in range(256 * table, 256 * table + 256) if _blocks_py.KIND[k]]
    for key in keys:
        ops = range(256) if key & 0xFF == 0xCB and table >= 3 else (None,)
        for op in ops:
            for trial in range(4 if op is None else 1):
                memory = bytearray(rng.randbytes(0x10000))
                code = bytearray(_opcode_bytes(key, rng))
                if op is not None:
                    code[3] = op
                memory[0x8000:0x8000 + len(code)] = code
                ours = make_z80(memory, "python-blocks")
                theirs = _interpreter_only(Z80(bytearray(memory), engine="python"))
                regs = {name: rng.getrandbits(16) for name in
                        ("af", "bc", "de", "hl", "ix", "iy", "af_", "bc_", "de_", "hl_")}
                regs.update(pc=0x8000, sp=rng.getrandbits(16), r=rng.getrandbits(8),
                            i=rng.getrandbits(8), memptr=rng.getrandbits(16),
                            q=rng.choice((0, regs["af"] & 0xFF)))
                for cpu in (ours, theirs):
                    for name, value in regs.items():
                        setattr(cpu, name, value)
                until = rng.choice((1, 30, 200))
                assert ours.run(until) == theirs.run(until)
                _same(ours, theirs, f"key {key:#05x} op {op} trial {trial}")


def test_a_cpu_keeps_at_most_max_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_BLOCKS every block is dropped and made again: the same results."""
    from zxmonopoly.bench_workload import make_cpu

    monkeypatch.setattr(blocks, "MAX_BLOCKS", 3)
    ours, theirs = make_cpu("python"), _interpreter_only(make_cpu("python"))
    for _ in range(5):
        for cpu in (ours, theirs):
            cpu.run(cpu.tstates + 10_000)
        assert len(_blocks_of(ours).spans) <= 3
    _same(ours, theirs, "three blocks at most")


def test_a_block_has_at_most_max_lines() -> None:
    """48 DDCB operations in a row make several blocks, none past MAX_LINES by more than
    one instruction's lines."""
    memory = bytearray(0x10000)
    memory[0x8000:0x8000 + 4 * 48] = bytes([0xDD, 0xCB, 0x01, 0x06]) * 48  # RLC (IX+1)
    source, size = blocks.block_source(memory, 0x8000) or ("", 0)
    assert 0 < size < 4 * 48
    assert source.count("\n") < blocks.MAX_LINES + 100


def test_each_piece_names_only_its_own_operand_bytes() -> None:
    """A translated instruction's code (``_blocks_py.TEXT``) is filled in with ``format``: its
    only fields are its own operand bytes (``{pK}``, K an offset inside the instruction),
    never a brace of Python's, and filled in it compiles, and the instructions noted as
    writing (``WRITES``, from the template's calls of the dialect's ``write``) are the ones
    whose code notes a write over translated code."""
    import string

    from zxmonopoly.z80 import _blocks_py as B

    for key, text in enumerate(B.TEXT):
        fields = {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
        assert fields <= {f"p{k}" for k in range(1, B.LENGTH[key])}, key
        source = text.format(p1="0x12", p2="0x34", p3="0x56")
        compile("def piece():\n" + "\n".join("    " + x for x in [*source.split("\n"), "pass"]),
                f"key {key}", "exec")
        assert B.WRITES[key] == ("SMC.append(" in text), key
    assert sum(B.WRITES) > 50
