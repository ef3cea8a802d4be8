"""Golden cases: tests/asm/cases/NAME.asm next to NAME.bin, NAME.lst and/or NAME.err.

``.bin`` is the binary, ``.lst`` the listing, ``.err`` every diagnostic as printed (errors
and warnings; a case with an error in it must fail). Set ZXMONOPOLY_UPDATE_GOLDEN=1 to
rewrite the expected files from the current output (then read the diff before committing).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from zxmonopoly.asm import AsmError, Assembler
from zxmonopoly.asm.output import listing_text

CASES_DIR = Path(__file__).parent / "cases"
CASES = sorted(CASES_DIR.glob("*.asm"))
UPDATE = os.environ.get("ZXMONOPOLY_UPDATE_GOLDEN") == "1"


def run(case: Path) -> tuple[bytes | None, str | None, str]:
    """Binary, listing and diagnostics text of a case (display names relative to cases/)."""
    asm = Assembler(display_root=CASES_DIR)
    try:
        program = asm.assemble_file(case)
    except AsmError as exc:
        return None, None, "".join(d.format() + "\n" for d in exc.diagnostics)
    diags = "".join(d.format() + "\n" for d in program.diagnostics)
    return program.binary(), listing_text(program), diags


def test_there_are_cases_of_every_kind() -> None:
    kinds = {s for c in CASES for s in (".bin", ".lst", ".err") if c.with_suffix(s).exists()}
    assert kinds == {".bin", ".lst", ".err"} and len(CASES) >= 25


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.stem)
def test_case(case: Path) -> None:
    binary, listing, diags = run(case)
    bin_file, lst_file, err_file = (case.with_suffix(s) for s in (".bin", ".lst", ".err"))
    if UPDATE:
        if binary is not None:
            bin_file.write_bytes(binary)
        if listing is not None and lst_file.exists():
            lst_file.write_text(listing)
        if diags:
            err_file.write_text(diags)
        elif err_file.exists():
            err_file.unlink()
    assert bin_file.exists() or err_file.exists(), f"{case.name} has no expected output"
    if err_file.exists():
        assert diags == err_file.read_text()
    else:
        assert diags == "", diags
    if bin_file.exists():
        assert binary is not None, diags
        assert binary == bin_file.read_bytes()
    else:
        assert binary is None, f"{case.name} assembled but has no .bin"
    if lst_file.exists():
        assert listing == lst_file.read_text()
