"""The committed engines are exactly what tools/gen_z80.py makes from the description."""

from tests.z80.generator import ROOT, load_generator


def test_committed_engines_match_the_generator():
    gen = load_generator()
    for name, make in gen.OUTPUTS.items():
        committed = (ROOT / "src" / "zxmonopoly" / "z80" / name).read_text()
        assert committed == make(), f"{name} is stale: run python tools/gen_z80.py"


def test_every_table_entry_has_a_template():
    from zxmonopoly.z80 import isa, templates

    for table, entries in (("main", isa.MAIN), ("cb", isa.CB), ("ed", isa.ED),
                           ("dd", isa.DD), ("dd", isa.FD)):
        for op in entries:
            if op is None or op.mnemonic in (isa.PREFIX, isa.PREFIX_NOP):
                continue
            leaf = templates.leaf(op, table)
            assert leaf.lines or leaf.tstates, op.text
