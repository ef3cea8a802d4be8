"""ALU groups against a slow, obviously-correct reference (Hypothesis), on every engine
(the bare CPU's and the Spectrum's: tests/z80/engines.py)."""

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.z80.engines import ENGINE_PARAMS as ENGINES
from tests.z80.engines import make_z80
from zxmonopoly.z80 import Z80

byte = st.integers(0, 255)
ZERO = bytes(65536)


def bit(v: int, n: int) -> int:
    return (v >> n) & 1


def parity_even(v: int) -> int:
    return 1 if bin(v & 0xFF).count("1") % 2 == 0 else 0


def flags(*, s, z, y, h, x, pv, n, c) -> int:
    return s << 7 | z << 6 | y << 5 | h << 4 | x << 3 | pv << 2 | n << 1 | c


def ref_alu(op: str, a: int, v: int, cin: int) -> tuple[int, int]:
    """(result, F) of an 8-bit ALU operation, from the definitions, one flag at a time."""
    sa = a - 256 if a > 127 else a
    sv = v - 256 if v > 127 else v
    if op in ("ADD", "ADC"):
        c = cin if op == "ADC" else 0
        full = a + v + c
        res = full & 0xFF
        h = 1 if (a & 15) + (v & 15) + c > 15 else 0
        ov = 1 if not -128 <= sa + sv + c <= 127 else 0
        return res, flags(s=bit(res, 7), z=int(res == 0), y=bit(res, 5), h=h, x=bit(res, 3),
                          pv=ov, n=0, c=int(full > 255))
    if op in ("SUB", "SBC", "CP"):
        c = cin if op == "SBC" else 0
        full = a - v - c
        res = full & 0xFF
        h = 1 if (a & 15) - (v & 15) - c < 0 else 0
        ov = 1 if not -128 <= sa - sv - c <= 127 else 0
        xy = v if op == "CP" else res  # CP takes X and Y from the operand
        f = flags(s=bit(res, 7), z=int(res == 0), y=bit(xy, 5), h=h, x=bit(xy, 3), pv=ov, n=1,
                  c=int(full < 0))
        return (a if op == "CP" else res), f
    res = {"AND": a & v, "XOR": a ^ v, "OR": a | v}[op]
    return res, flags(s=bit(res, 7), z=int(res == 0), y=bit(res, 5), h=int(op == "AND"),
                      x=bit(res, 3), pv=parity_even(res), n=0, c=0)


ALU_OPS = {"ADD": 0x80, "ADC": 0x88, "SUB": 0x90, "SBC": 0x98, "AND": 0xA0, "XOR": 0xA8,
           "OR": 0xB0, "CP": 0xB8}


@cache
def _cpu(engine: str) -> Z80:
    """One CPU per engine, reset for each example (building one costs more than a run)."""
    return make_z80(bytearray(65536), engine)


def run_one(engine: str, code: bytes, **regs) -> Z80:
    """Run ``code`` at 0 (memory otherwise zero) from a reset CPU with ``regs`` set: one step."""
    cpu = _cpu(engine)
    cpu.memory[:] = ZERO
    cpu.memory[0: len(code)] = code
    cpu.reset()
    for k, v in regs.items():
        setattr(cpu, k, v)
    cpu.step()
    return cpu


@pytest.mark.parametrize("eng", ENGINES)
@pytest.mark.parametrize("name", list(ALU_OPS))
@settings(max_examples=150, deadline=None)
@given(a=byte, v=byte, f=byte)
def test_alu_register_operand(eng, name, a, v, f):
    cpu = run_one(eng, bytes([ALU_OPS[name]]), a=a, b=v, f=f)  # op B
    res, rf = ref_alu(name, a, v, f & 1)
    assert (cpu.a, cpu.f) == (res, rf), f"{name} A={a:02X} v={v:02X} F={f:02X}"



@pytest.mark.parametrize("eng", ENGINES)
@pytest.mark.parametrize("name", list(ALU_OPS))
@settings(max_examples=60, deadline=None)
@given(a=byte, v=byte, f=byte)
def test_alu_immediate(eng, name, a, v, f):
    cpu = run_one(eng, bytes([ALU_OPS[name] | 0x46, v]), a=a, f=f)  # op n
    assert (cpu.a, cpu.f) == ref_alu(name, a, v, f & 1)


@pytest.mark.parametrize("eng", ENGINES)
@settings(max_examples=150, deadline=None)
@given(v=byte, f=byte, inc=st.booleans())
def test_inc_dec(eng, v, f, inc):
    cpu = run_one(eng, bytes([0x04 if inc else 0x05]), b=v, f=f)
    res = (v + (1 if inc else -1)) & 0xFF
    h = int((v & 15) == 15) if inc else int((v & 15) == 0)
    pv = int(v == 0x7F) if inc else int(v == 0x80)
    want = flags(s=bit(res, 7), z=int(res == 0), y=bit(res, 5), h=h, x=bit(res, 3), pv=pv,
                 n=0 if inc else 1, c=f & 1)
    assert (cpu.b, cpu.f) == (res, want)


ROTS = ["RLC", "RRC", "RL", "RR", "SLA", "SRA", "SLL", "SRL"]


def ref_rot(name: str, v: int, cin: int) -> tuple[int, int]:
    bits = [bit(v, k) for k in range(8)]  # bits[0] is bit 0
    if name in ("RLC", "RL", "SLA", "SLL"):
        cout = bits[7]
        low = {"RLC": bits[7], "RL": cin, "SLA": 0, "SLL": 1}[name]
        res = ((v << 1) & 0xFF) | low
    else:
        cout = bits[0]
        high = {"RRC": bits[0], "RR": cin, "SRA": bits[7], "SRL": 0}[name]
        res = (v >> 1) | (high << 7)
    return res, flags(s=bit(res, 7), z=int(res == 0), y=bit(res, 5), h=0, x=bit(res, 3),
                      pv=parity_even(res), n=0, c=cout)


@pytest.mark.parametrize("eng", ENGINES)
@pytest.mark.parametrize("k", range(8))
@settings(max_examples=60, deadline=None)
@given(v=byte, f=byte)
def test_cb_rotates_and_shifts(eng, k, v, f):
    cpu = run_one(eng, bytes([0xCB, k << 3 | 2]), d=v, f=f)  # rot D
    assert (cpu.d, cpu.f) == ref_rot(ROTS[k], v, f & 1)


@pytest.mark.parametrize("eng", ENGINES)
@pytest.mark.parametrize("k", range(8))
@settings(max_examples=40, deadline=None)
@given(v=byte, f=byte)
def test_ddcb_rotates_with_register_copy(eng, k, v, f):
    # DDCB with a register copy: the result goes to memory and to E.
    mem_addr = 0x8005
    code = bytes([0xDD, 0xCB, 0x05, k << 3 | 3])
    memory = bytearray(65536)
    memory[:4] = code
    memory[mem_addr] = v
    cpu = make_z80(memory, eng)
    cpu.ix, cpu.f = 0x8000, f
    cpu.step()
    res, rf = ref_rot(ROTS[k], v, f & 1)
    assert (memory[mem_addr], cpu.e, cpu.f, cpu.tstates) == (res, res, rf, 23)


def ref_daa(a: int, f: int) -> tuple[int, int]:
    """DAA as a BCD adjustment, spelled out (spectrum_facts §1.6)."""
    n, h, c = bit(f, 1), bit(f, 4), bit(f, 0)
    corr = 0
    if h or (a & 0x0F) > 9:
        corr += 0x06
    if c or a > 0x99:
        corr += 0x60
    res = (a - corr if n else a + corr) & 0xFF
    return res, flags(s=bit(res, 7), z=int(res == 0), y=bit(res, 5), h=bit(a ^ res, 4),
                      x=bit(res, 3), pv=parity_even(res), n=n, c=int(c or a > 0x99))


@pytest.mark.parametrize("eng", ENGINES)
@settings(max_examples=250, deadline=None)
@given(a=byte, f=byte)
def test_daa(eng, a, f):
    cpu = run_one(eng, b"\x27", a=a, f=f)
    assert (cpu.a, cpu.f) == ref_daa(a, f)


@pytest.mark.parametrize("eng", ENGINES)
@settings(max_examples=150, deadline=None)
@given(hl=st.integers(0, 0xFFFF), rr=st.integers(0, 0xFFFF), f=byte,
       op=st.sampled_from(["ADD", "ADC", "SBC"]))
def test_16bit_arithmetic(eng, hl, rr, f, op):
    code = {"ADD": b"\x19", "ADC": b"\xed\x5a", "SBC": b"\xed\x52"}[op]
    cpu = run_one(eng, code, hl=hl, de=rr, f=f)
    c = f & 1 if op != "ADD" else 0
    full = hl + rr + c if op != "SBC" else hl - rr - c
    res = full & 0xFFFF
    hi = res >> 8
    if op == "ADD":
        h = int((hl & 0xFFF) + (rr & 0xFFF) > 0xFFF)
        want = (f & 0xC4) | (hi & 0x28) | h << 4 | int(full > 0xFFFF)
    else:
        shl = hl - 65536 if hl > 32767 else hl
        srr = rr - 65536 if rr > 32767 else rr
        if op == "ADC":
            h = int((hl & 0xFFF) + (rr & 0xFFF) + c > 0xFFF)
            ov = int(not -32768 <= shl + srr + c <= 32767)
            cy = int(full > 0xFFFF)
        else:
            h = int((hl & 0xFFF) - (rr & 0xFFF) - c < 0)
            ov = int(not -32768 <= shl - srr - c <= 32767)
            cy = int(full < 0)
        want = flags(s=bit(hi, 7), z=int(res == 0), y=bit(hi, 5), h=h, x=bit(hi, 3), pv=ov,
                     n=int(op == "SBC"), c=cy)
    assert (cpu.hl, cpu.f, cpu.memptr) == (res, want, (hl + 1) & 0xFFFF)
