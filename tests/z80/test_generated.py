"""The committed engines are exactly what tools/gen_z80.py makes from the description."""

from tests.z80.generator import load_generator


def test_committed_engines_match_the_generator():
    gen = load_generator()
    for name, make in gen.OUTPUTS.items():
        committed = (gen.PACKAGE_DIR / name).read_text()
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


def test_the_generator_knows_only_the_z80():
    """The 48K's timing, ports and devices come from spectrum/ula.py, not from the generator."""
    from tests.z80.generator import ROOT

    text = (ROOT / "tools" / "gen_z80.py").read_text()
    for fact in ("14335", "14336", "224", "0x4000", "0xC000", "keys", "joy", "out_log", "tape_",
                 "ula_out", "0xFE"):
        assert fact not in text, f"tools/gen_z80.py names {fact!r}: it belongs in spectrum/ula.py"


def test_each_engine_lives_beside_what_it_runs():
    gen = load_generator()
    assert sorted(gen.OUTPUTS) == ["spectrum/_engine_jit.py", "spectrum/_engine_py.py",
                                   "z80/_engine_jit.py", "z80/_engine_py.py"]
    from zxmonopoly.spectrum import engine, ula

    assert engine.SPECTRUM_ENGINES == "zxmonopoly.spectrum._engine"
    assert gen.MACHINE.machine is ula and gen.BARE.machine is None
