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
            templates.leaf(op, table)  # raises TemplateError when there is none
            # ... and cycles within the Z80's range: 4 T (NOP) to 23 T (INC (IX+d))
            fetch = templates.FETCH1 if table == "main" else templates.FETCH2
            total = templates.cycle_total(fetch + templates.cycles(op, table), taken=True)
            assert 4 <= total <= 23, (op.text, total)


def _leaves():
    """Every table entry's leaf, with its table, and the generic CB and DDCB pieces."""
    from zxmonopoly.z80 import isa, templates

    for table, entries in (("main", isa.MAIN), ("cb", isa.CB), ("ed", isa.ED),
                           ("dd", isa.DD), ("dd", isa.FD)):
        for op in entries:
            if op is not None and op.mnemonic not in (isa.PREFIX, isa.PREFIX_NOP):
                yield op.text, templates.leaf(op, table).lines
    yield "CB generic", templates.cb_generic()
    yield "DDCB generic", templates.ddcb_generic("ix")


def test_timing_is_described_once_by_the_cycle_lists():
    """No template adds T-states of its own: only the cycle lists count them (issue 19)."""
    import re

    adds_t = re.compile(r"^\s*t\s*[+-]=")  # (``t = t0``, the re-run of an IN, counts nothing)
    for name, lines in _leaves():
        bad = [x for x in lines if adds_t.match(x)]
        assert not bad, f"{name} sets T itself: {bad}"


def test_conditional_cycles_need_a_marker():
    """A leaf whose cycles depend on a condition must say in which branch they are taken."""
    import pytest

    from zxmonopoly.z80 import templates

    gen = load_generator()
    specs = [*templates.FETCH1, "pc:3", ("?", "NZ", ["pc:1*5"])]
    with pytest.raises(templates.TemplateError):
        gen.finish(gen.BARE, templates.Leaf(["pc = 0"]), specs)
    with pytest.raises(templates.TemplateError):
        gen.finish(gen.BARE, templates.Leaf([templates.T_TAKEN]), templates.FETCH1)
    taken = gen.finish(gen.BARE, templates.Leaf(["if f:", "    " + templates.T_TAKEN, "else:",
                                                 "    " + templates.T_HERE]), specs)
    assert taken == ["if f:", "    t += 12", "else:", "    t += 7"]
    walked = gen.finish(gen.MACHINE, templates.Leaf(["if f:", "    " + templates.T_TAKEN]),
                        specs)
    assert "    pass" in walked and not any("@T" in x for x in walked)


def test_bare_t_states_are_the_cycle_totals():
    """Each fixed-time instruction adds its cycle list's total in the bare engines (LD A,(nn):
    13; DD-prefixed LD IXH,n: 11; ED LD (nn),HL: 20; CB SET 0,(HL): 15)."""
    from zxmonopoly.z80 import isa, templates

    gen = load_generator()
    for table, entries, code, total in (("main", isa.MAIN, 0x3A, 13), ("dd", isa.DD, 0x26, 11),
                                        ("ed", isa.ED, 0x63, 20), ("cb", isa.CB, 0xC6, 15)):
        op = entries[code]
        fetch = templates.FETCH1 if table == "main" else templates.FETCH2
        specs = fetch + templates.cycles(op, table)
        assert templates.cycle_total(specs) == total, op.text
        assert gen.finish(gen.BARE, templates.leaf(op, table), specs)[-1] == f"t += {total}"


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


def _covered(text: str) -> dict[str, set[int]]:
    """Opcodes named by the case comments of a generated engine, per table."""
    gen = load_generator()
    seen: dict[str, set[int]] = {}
    for line in text.splitlines():
        m = gen.CASE_COMMENT.match(line)
        if not m:
            continue
        head = m[2].split("  ")[0].split()
        table = head[0].lower() if len(head) == 2 else "main"
        first, _, last = head[-1].partition("-")
        seen.setdefault(table, set()).update(range(int(first, 16), int(last or first, 16) + 1))
    return seen


def test_generated_engines_name_each_opcode_case():
    """Each case of a generated engine opens with its opcode(s) and mnemonic(s) (issue 19),
    in the CPython engines and the numba ones alike (their source passes through ast)."""
    gen = load_generator()
    for name in gen.OUTPUTS:
        text = (gen.PACKAGE_DIR / name).read_text()
        seen = _covered(text)
        tables = ("main", "ed", "dd", "fd") if "jit" in name else ("main", "cb", "ed", "dd", "fd")
        for table in tables:
            assert seen.get(table) == set(range(256)), (name, table)
        assert "# 3A  LD A,(nn)" in text and "# ED B0  LDIR" in text, name
        assert "# DD 26  LD IXH,n" in text and "# FD 26  LD IYH,n" in text, name
    python = (gen.PACKAGE_DIR / "z80/_engine_py.py").read_text()
    assert "# CB C6  SET 0,(HL)" in python and "# 08  EX AF,AF'" in python
