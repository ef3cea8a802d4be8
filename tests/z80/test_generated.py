"""The committed engines are exactly what tools/gen_z80.py makes from the description, and the
generator's parts (tools/z80gen) each do their job."""

import ast
import re

import pytest

from tests.z80.generator import ROOT, load_generator, part


def _python():
    """The CPython emitter's dialect."""
    return part("emit_python").PYTHON


def _bare_target():
    """A bare CPython engine being generated."""
    return part("cycles").Target(part("variant").BARE, _python())


def test_committed_engines_match_the_generator():
    gen = load_generator()
    for name, make in {**gen.OUTPUTS, **gen.PIECES}.items():
        committed = (gen.PACKAGE_DIR / name).read_text()
        assert committed == make(), f"{name} is stale: run python tools/gen_z80.py"


def test_every_table_entry_has_a_template():
    from zxmonopoly.z80 import isa, machine_cycles, templates

    for table, entries in (("main", isa.MAIN), ("cb", isa.CB), ("ed", isa.ED),
                           ("dd", isa.DD), ("dd", isa.FD)):
        for op in entries:
            if op is None or op.mnemonic in (isa.PREFIX, isa.PREFIX_NOP):
                continue
            templates.leaf(op, table, _python())  # raises TemplateError when there is none
            # ... and cycles within the Z80's range: 4 T (NOP) to 23 T (INC (IX+d))
            fetch = machine_cycles.FETCH1 if table == "main" else machine_cycles.FETCH2
            total = machine_cycles.cycle_total(fetch + machine_cycles.cycles(op, table),
                                               taken=True)
            assert 4 <= total <= 23, (op.text, total)


def _leaves():
    """Every table entry's leaf, with its table, and the generic CB and DDCB pieces."""
    from zxmonopoly.z80 import isa, templates

    for table, entries in (("main", isa.MAIN), ("cb", isa.CB), ("ed", isa.ED),
                           ("dd", isa.DD), ("dd", isa.FD)):
        for op in entries:
            if op is not None and op.mnemonic not in (isa.PREFIX, isa.PREFIX_NOP):
                yield op.text, templates.leaf(op, table, _python()).lines
    yield "CB generic", templates.cb_generic(_python())
    yield "DDCB generic", templates.ddcb_generic("ix", _python())


def test_timing_is_described_once_by_the_cycle_lists():
    """No template adds T-states of its own: only the cycle lists count them (issue 19)."""
    import re

    adds_t = re.compile(r"^\s*t\s*[+-]=")  # (``t = t0``, the re-run of an IN, counts nothing)
    for name, lines in _leaves():
        bad = [x for x in lines if isinstance(x, str) and adds_t.match(x)]
        assert not bad, f"{name} sets T itself: {bad}"


def test_conditional_cycles_need_a_marker():
    """A leaf whose cycles depend on a condition must say in which branch they are taken."""
    from zxmonopoly.z80 import templates
    from zxmonopoly.z80.machine_cycles import FETCH1

    finish, variant = part("leaves").finish, part("variant")
    bare = _bare_target()
    specs = [*FETCH1, "pc:3", ("?", "NZ", ["pc:1*5"])]
    with pytest.raises(templates.TemplateError):
        finish(bare, templates.Leaf(["pc = 0"]), specs)
    with pytest.raises(templates.TemplateError):
        finish(bare, templates.Leaf([templates.T_TAKEN]), FETCH1)
    taken = finish(bare, templates.Leaf(["if f:", "    " + templates.T_TAKEN, "else:",
                                         "    " + templates.T_HERE]), specs)
    assert taken.lines == ["if f:", "    t += 12", "else:", "    t += 7"]
    assert taken.t_after is None  # (its markers said where)
    machine = part("cycles").Target(variant.MACHINE, _python())
    walked = finish(machine, templates.Leaf(["if f:", "    " + templates.T_TAKEN]), specs)
    assert walked.lines[-2:] == ["if f:", "    pass"]  # (after the walk)
    assert all(isinstance(x, str) for x in walked.lines)


def test_bare_t_states_are_the_cycle_totals():
    """Each fixed-time instruction adds its cycle list's total in the bare engines (LD A,(nn):
    13; DD-prefixed LD IXH,n: 11; ED LD (nn),HL: 20; CB SET 0,(HL): 15)."""
    from zxmonopoly.z80 import isa, machine_cycles, templates

    finish = part("leaves").finish
    for table, entries, code, total in (("main", isa.MAIN, 0x3A, 13), ("dd", isa.DD, 0x26, 11),
                                        ("ed", isa.ED, 0x63, 20), ("cb", isa.CB, 0xC6, 15)):
        op = entries[code]
        fetch = machine_cycles.FETCH1 if table == "main" else machine_cycles.FETCH2
        specs = fetch + machine_cycles.cycles(op, table)
        assert machine_cycles.cycle_total(specs) == total, op.text
        done = finish(_bare_target(), templates.leaf(op, table, _python()), specs)
        assert done.t_after == total and not done.sets_q
        assert done.lines[-1] == f"t += {total}"


def test_a_finished_leaf_hands_its_t_states_and_q_as_values():
    """What the interpreter adds after an instruction's lines comes back as values (the block
    engine counts them over a run of instructions): ADD A,B adds 4 T and marks Q after its
    lines on the bare engines; a machine engine walks the cycles before them instead."""
    from zxmonopoly.z80 import isa, templates
    from zxmonopoly.z80.machine_cycles import FETCH1, cycles

    finish, variant = part("leaves").finish, part("variant")
    op = isa.MAIN[0x80]
    specs = FETCH1 + cycles(op, "main")
    bare = finish(_bare_target(), templates.leaf(op, "main", _python()), specs)
    assert (bare.t_after, bare.sets_q) == (4, True)
    assert bare.lines == [*bare.body, "t += 4", "qt = t"]
    assert "t" not in part("analysis").names_used(bare.body)[0]
    machine = part("cycles").Target(variant.MACHINE, _python())
    walked = finish(machine, templates.leaf(op, "main", _python()), specs)
    assert walked.t_after is None and walked.sets_q and walked.lines[-1] == "qt = t"


def test_markers_are_objects_indented_as_lines():
    """A template indents a marker as it indents a line; anything but levels of four spaces
    is refused, and a marker is never text."""
    from zxmonopoly.z80 import templates

    marker = "        " + templates.Exit(3)
    assert isinstance(marker, templates.Exit) and marker.depth == 2 and marker.reason == 3
    assert marker.pad + "pass" == "        pass"
    assert templates.indent(["x = 1", templates.T_TAKEN], 1)[1].depth == 1
    for bad in ("  ", "\t", "x   "):
        with pytest.raises(templates.TemplateError):
            bad + templates.T_HERE  # noqa: B018
    assert not isinstance(templates.T_HERE, str)


def test_the_generator_asks_python_what_code_reads():
    """``analysis`` reads names per line and finds markers inside loops by the parser: a
    marker's line names nothing, the ``{pK}`` fields of the block engine are names too."""
    from zxmonopoly.z80 import templates

    analysis = part("analysis")
    lines = ["if pc == {p1}:", "    " + templates.Exit(2), "x = pc  # not t", "t += 4"]
    assert analysis.names_by_line(lines) == [{"pc", "p1"}, set(), {"x", "pc"}, {"t"}]
    assert analysis.names_used(lines) == ({"pc", "p1", "t"}, {"x", "t"})
    exits = analysis.markers_in_loops(
        ["while x:", "    " + templates.Exit(1), "else:", "    " + templates.Exit(2)],
        lambda m: isinstance(m, templates.Exit))
    assert [m.reason for m in exits] == [1]  # (a loop's else is no part of the loop)


def test_the_generator_knows_only_the_z80():
    """The 48K's timing, ports and devices come from spectrum/ula.py, not from the generator."""
    for path in _generator_sources():
        text = path.read_text()
        for fact in ("14335", "14336", "224", "0x4000", "0xC000", "keys", "joy", "out_log",
                     "tape_", "ula_out", "0xFE"):
            assert fact not in text, f"{path.name} names {fact!r}: it belongs in spectrum/ula.py"


def _generator_sources():
    """The generator's command and every module of its package."""
    return [ROOT / "tools" / "gen_z80.py", *sorted((ROOT / "tools" / "z80gen").glob("*.py"))]


def test_no_generated_line_is_rewritten():
    """The emitters expand the templates' helpers; nothing searches or re-parses generated
    code to change it (issue 27): no regular expressions, no AST transformer or unparse; and
    nothing reads a line's text to decide what to do (issue 44): markers are objects, what an
    instruction adds after its lines are values, and names come from the parser."""
    for path in _generator_sources():
        text = path.read_text()
        for habit in ("import re\n", "re.compile", "re.sub", "NodeTransformer", "ast.unparse",
                      ".replace(", ".startswith(", ".endswith(", ".strip(", ".lstrip("):
            assert habit not in text, f"{path.name} uses {habit!r}"


def test_every_state_slot_is_named_in_the_engines():
    """Engines spell state slots by name (st[S.PC], a JIT scratch slot as _QT), never a number;
    the JIT's scratch slots are named in z80/state.py (``_QT`` is ``state.JIT_QT``), apart
    from every other slot there."""
    from zxmonopoly.z80 import state

    gen = load_generator()
    for name in gen.OUTPUTS:
        text = (gen.PACKAGE_DIR / name).read_text()
        assert not re.search(r"\bst\[\d+\]", text), name
        assert "st[S.PC]" in text and "st[S.IN_READY]" in text, name
    scratch = part("emit_numba").SCRATCH
    assert scratch and all(getattr(state, "JIT" + name) == slot for name, slot in scratch.items())
    slots = [getattr(state, s) for _, s in (*part("shell").REGS, *part("shell").CONFIG)]
    assert not set(scratch.values()) & {*slots, state.ENTRY_T, state.R, state.Q}


def test_a_slot_must_exist():
    from zxmonopoly.z80 import templates

    assert templates.slot("MEMPTR") == "st[S.MEMPTR]"
    with pytest.raises(templates.TemplateError, match="no state slot 'WZ'"):
        templates.slot("WZ")


def _mem_reads(tree: ast.AST):
    """Each read of ``mem`` in ``tree`` with the node it is an argument of (or None)."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
                node.value.id == "mem" and isinstance(node.ctx, ast.Load):
            yield node, parents.get(node)


def test_the_numba_engines_widen_every_memory_read():
    """numba types a uint8 shifted left as uint64 (and uint64 with int64 as float64): every
    byte read in a numba engine is inside I64(...), in every function; the CPython engines
    read plain items."""
    gen = load_generator()
    for name in gen.OUTPUTS:
        tree = ast.parse((gen.PACKAGE_DIR / name).read_text())
        reads = list(_mem_reads(tree))
        assert len(reads) > 100, name
        widened = [isinstance(p, ast.Call) and isinstance(p.func, ast.Name) and p.func.id == "I64"
                   for _, p in reads]
        if "jit" in name:
            assert all(widened), (name, [ast.unparse(r) for (r, _), w in zip(reads, widened,
                                                                              strict=True)
                                         if not w][:5])
        else:
            assert not any(widened), name


#: The arrays every instruction reads by a computed index: memory and the flag tables.
_HOT_ARRAYS = {"mem", "SZ53", "SZ53P", "ADC_F", "SBC_F", "CP_F", "INC_F", "DEC_F"}


def test_the_numba_engines_index_memory_and_the_flag_tables_unsigned():
    """numba tests a signed index for a negative one at every access (Python's wraparound) and
    an unsigned one not at all: every read of memory and of a flag table in a numba engine has
    its index inside U64(...) (a slice is a view, made once); the CPython engines index plainly
    (a list's item)."""
    gen = load_generator()
    for name in gen.OUTPUTS:
        tree = ast.parse((gen.PACKAGE_DIR / name).read_text())
        reads = [node for node in ast.walk(tree) if isinstance(node, ast.Subscript)
                 and isinstance(node.value, ast.Name) and node.value.id in _HOT_ARRAYS
                 and isinstance(node.ctx, ast.Load) and not isinstance(node.slice, ast.Slice)]
        tables = {node.value.id for node in reads} - {"mem"}
        assert tables == _HOT_ARRAYS - {"mem"}, (name, tables)
        unsigned = [isinstance(node.slice, ast.Call) and isinstance(node.slice.func, ast.Name)
                    and node.slice.func.id == "U64" for node in reads]
        if "jit" in name:
            assert all(unsigned), (name, [ast.unparse(node) for node, u in
                                          zip(reads, unsigned, strict=True) if not u][:5])
        else:
            assert not any(unsigned), name


@pytest.mark.parametrize("emitter", ["emit_python", "emit_numba"])
def test_each_dialect_steps_pc_and_r_and_signs_bytes_exactly(emitter):
    """Each emitter's spelling of a helper does what the helper says, at every value: PC
    moves and wraps at 64K, R's low 7 bits count, a byte becomes -128..127."""
    module = part(emitter)
    d = module.PYTHON if emitter == "emit_python" else module.NUMBA
    ns = {"R_INC1": [(x + 1) & 0x7F for x in range(256)],
          "R_INC2": [(x + 2) & 0x7F for x in range(256)],
          "SIGNED": [x - 256 if x > 127 else x for x in range(256)], "I64": int, "U64": int}
    for n in (1, 2, -1, -2):
        code = compile("\n".join(d.step_pc(n)), "<step_pc>", "exec")
        for pc in (0, 1, 0x7FFF, 0xFFFE, 0xFFFF):
            scope = {**ns, "pc": pc}
            exec(code, scope)
            assert scope["pc"] == (pc + n) & 0xFFFF, (n, pc)
    for n in (1, 2, -1, -2, "k"):
        code = compile("\n".join(d.step_r(n)), "<step_r>", "exec")
        for r in range(256):
            scope = {**ns, "r": r, "k": 77}
            exec(code, scope)
            step = 77 if n == "k" else n
            assert scope["r"] & 0x7F == (r + step) & 0x7F, (n, r)
    for byte in range(256):
        assert eval(d.signed(str(byte)), ns) == (byte if byte < 128 else byte - 256)
    assert eval(d.mem("3"), {**ns, "mem": bytearray(range(8))}) == 3
    assert eval(d.table("SZ53P", "(2 << 1) | 1"), {**ns, "SZ53P": list(range(10, 20))}) == 15


def test_each_engine_lives_beside_what_it_runs():
    gen, variant = load_generator(), part("variant")
    assert sorted(gen.OUTPUTS) == ["spectrum/_engine_jit.py", "spectrum/_engine_py.py",
                                   "z80/_engine_jit.py", "z80/_engine_py.py"]
    from zxmonopoly.spectrum import engine, ula

    assert engine.SPECTRUM_ENGINES == "zxmonopoly.spectrum._engine"
    assert variant.MACHINE.machine is ula and variant.BARE.machine is None


# A case's comment, as the generator writes it: "# ED B0  LDIR", "# DD 00-08  (prefix ...)".
CASE_COMMENT = re.compile(r"^(\s*)# ((?:CB |ED |DD |FD )?[0-9A-F]{2}(?:-[0-9A-F]{2})?  .*)$")


def _covered(text: str) -> dict[str, set[int]]:
    """Opcodes named by the case comments of a generated engine, per table."""
    seen: dict[str, set[int]] = {}
    for line in text.splitlines():
        m = CASE_COMMENT.match(line)
        if not m:
            continue
        head = m[2].split("  ")[0].split()
        table = head[0].lower() if len(head) == 2 else "main"
        first, _, last = head[-1].partition("-")
        seen.setdefault(table, set()).update(range(int(first, 16), int(last or first, 16) + 1))
    return seen


def test_generated_engines_name_each_opcode_case():
    """Each case of a generated engine opens with its opcode(s) and mnemonic(s) (issue 19),
    in the CPython engines and the numba ones alike."""
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


def _boolish(node: ast.expr) -> bool:
    """Whether an expression is a bool by its form: a comparison, not, and/or of such, a bool."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, bool)
    if isinstance(node, ast.Compare) or (isinstance(node, ast.UnaryOp)
                                         and isinstance(node.op, ast.Not)):
        return True
    return isinstance(node, ast.BoolOp) and all(_boolish(v) for v in node.values)


def _bool_constants_mixed(source: str) -> list[str]:
    """Locals of a function assigned True or False and elsewhere a value not a bool by form."""
    mixed = []
    for func in ast.walk(ast.parse(source)):
        if not isinstance(func, ast.FunctionDef):
            continue
        kinds: dict[str, set[bool]] = {}
        for node in ast.walk(func):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        const = isinstance(node.value, ast.Constant) and isinstance(
                            node.value.value, bool)
                        kinds.setdefault(target.id, set()).add(
                            "const" if const else "bool" if _boolish(node.value) else "other")
        mixed += [f"{func.name}: {name}" for name, seen in kinds.items()
                  if "const" in seen and "other" in seen]
    return mixed


def test_the_numba_engines_compile_without_ssa_and_keep_bool_constants_to_bools():
    """Every numba function of the generated engines compiles with the lean pipeline (no SSA:
    a local's one type unifies all its assignments), and no local takes True or False beside
    a value not a bool by its form (numba 0.68 stores such a constant uncast: LLVM's parser
    fails), as ``ok = True`` beside ``ok = f & 0x40`` did in the cycle walker."""
    gen = load_generator()
    jit = [name for name in gen.OUTPUTS if "jit" in name]
    assert len(jit) == 2
    for name in jit:
        source = (gen.PACKAGE_DIR / name).read_text()
        decorators = re.findall(r"^@njit\((.*)\)$", source, re.M)
        assert decorators and set(decorators) == {
            "cache=True, _nrt=False, pipeline_class=LeanCompiler"}, name
        assert source.count("\ndef ") == len(decorators), name
        assert _bool_constants_mixed(source) == [], name
    old = "def w(f):\n    ok = True\n    if f:\n        ok = f & 0x40\n    return ok\n"
    assert _bool_constants_mixed(old) == ["w: ok"]
    assert _bool_constants_mixed(old.replace("f & 0x40", "(f & 0x40) == 0")) == []
