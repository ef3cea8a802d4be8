"""The disassembler covers every opcode of every table, from the same description."""

from zxmonopoly.z80 import isa
from zxmonopoly.z80.disasm import decode, disassemble


def _all_encodings():
    """One byte string per opcode of every table, operands filled with sample values."""
    for code in range(256):
        yield bytes([code, 0x12, 0x34, 0x56])
        yield bytes([0xCB, code])
        yield bytes([0xED, code, 0x12, 0x34])
        for p in (0xDD, 0xFD):
            yield bytes([p, code, 0x85, 0x34])
            yield bytes([p, 0xCB, 0x85, code])


def test_every_opcode_decodes_to_text_and_length():
    seen = 0
    for raw in _all_encodings():
        ins = decode(raw + bytes(4), 0)
        assert ins.text and 1 <= ins.length <= 4
        assert ins.data == raw[: ins.length]
        seen += 1
    assert seen == 256 * 7


def test_lengths_agree_with_the_forms_table():
    for form in isa.forms():
        raw = bytearray()
        for b in form.encoding:
            raw += bytes([0x05, 0x00]) if b == "nn" else bytes([b if isinstance(b, int) else 5])
        ins = decode(bytes(raw) + bytes(4), 0)
        assert ins.length == form.length, form.op.text
        if form.op.canonical:
            assert ins.op == form.op


def test_operands_are_filled_in():
    mem = bytes.fromhex("DD3605FE" "18FE" "FDCBFF46" "ED4C" "DD00" "C7") + bytes(8)
    texts = [i.text for i in disassemble(mem, 0, 15)]
    assert texts == ["LD (IX+5),$FE", "JR $0004", "BIT 0,(IY-1)", "DEFB $ED,$4C ; NEG",
                     "DEFB $DD ; prefix without effect", "NOP", "RST $00"]


def test_table_sizes():
    # 252 unprefixed instructions + 4 prefixes; 256 CB; 78 ED (incl. duplicates);
    # DD/FD: 85 instructions each that use IX/IY, the rest prefixes without effect.
    assert sum(op.mnemonic == isa.PREFIX for op in isa.MAIN) == 4
    assert sum(op is not None for op in isa.ED) == 78
    dd = [op for op in isa.DD if op.mnemonic not in (isa.PREFIX, isa.PREFIX_NOP)]
    assert len(dd) == 85
    assert [op.text for op in isa.FD if op.mnemonic == "EX"] == ["EX (SP),IY"]
