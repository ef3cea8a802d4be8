"""One exception root per package (issue 44, item 7): every exception class a package defines
derives from its root, so a caller catches the root; a ValueError (or KeyError) as a second
base where a caller outside relies on it, as documented on the class."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import zxmonopoly

#: Each package and its root (docs/architecture.md, "Errors").
ROOTS = {
    "z80": "zxmonopoly.z80.errors.Z80Error",
    "spectrum": "zxmonopoly.spectrum.errors.SpectrumError",
    "tape": "zxmonopoly.tape.tap.TapeError",
    "snapshot": "zxmonopoly.snapshot.state.SnapshotError",
    "asm": "zxmonopoly.asm.errors.AssemblerError",
    "harness": "zxmonopoly.harness.errors.HarnessError",
    "net": "zxmonopoly.net.errors.NetError",
    "ui": "zxmonopoly.ui.display.WindowError",
    "rules": "zxmonopoly.rules.state.RuleError",
}


def _root(dotted: str) -> type[BaseException]:
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def _exceptions(package: str) -> list[type[BaseException]]:
    """Every exception class defined in the package's modules (generated engines left out:
    they define none)."""
    found = []
    root = importlib.import_module(f"zxmonopoly.{package}")
    for info in pkgutil.walk_packages(root.__path__, f"zxmonopoly.{package}."):
        if info.name.rsplit(".", 1)[-1].startswith("_engine"):
            continue
        module = importlib.import_module(info.name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == info.name:
                found.append(value)
    return found


def test_every_package_is_listed() -> None:
    packages = {info.name for info in pkgutil.iter_modules(zxmonopoly.__path__) if info.ispkg}
    assert packages - {"data"} == set(ROOTS)


@pytest.mark.parametrize("package", ROOTS)
def test_every_exception_of_a_package_derives_from_its_root(package: str) -> None:
    if package == "ui":
        pytest.importorskip("pygame")
    root = _root(ROOTS[package])
    found = _exceptions(package)
    assert root in found
    strays = [f"{cls.__module__}.{cls.__name__}" for cls in found if not issubclass(cls, root)]
    assert strays == []


def test_the_roots_stand_apart() -> None:
    """No root derives from another's (a caller's ``except`` takes one package's errors)."""
    roots = [_root(dotted) for dotted in ROOTS.values()]
    for one in roots:
        assert [other for other in roots if other is not one and issubclass(one, other)] == []


def test_a_missing_symbol_is_a_harness_error_and_still_a_key_error() -> None:
    from zxmonopoly.harness import Session
    from zxmonopoly.harness.errors import HarnessError, SymbolError

    symbols = Session(boot=False).symbols
    with pytest.raises(SymbolError, match="no symbol 'no_such_thing' in ") as info:
        symbols["no_such_thing"]
    assert isinstance(info.value, HarnessError) and isinstance(info.value, KeyError)
    assert str(info.value).startswith("no symbol")  # not KeyError's quoted repr
    assert "no_such_thing" not in symbols and symbols.get("no_such_thing") is None


def test_a_script_s_errors_are_caught_by_the_roots() -> None:
    from zxmonopoly.harness import script

    assert ValueError not in script.STEP_ERRORS and KeyError not in script.STEP_ERRORS
    assert script.STEP_ERRORS == script.SETUP_ERRORS


def test_a_script_with_an_unknown_symbol_fails_without_a_traceback(tmp_path) -> None:
    from zxmonopoly.harness import run_script

    path = tmp_path / "s.zxs"
    path.write_text("wait 1\nexpect peek 0x4000 = 0\n", encoding="utf-8")
    assert run_script(path, engine="python").passed
    bad_map = tmp_path / "bad.sym.json"
    bad_map.write_text("[1, 2]", encoding="utf-8")
    path.write_text("symbols bad.sym.json\nwait 1\n", encoding="utf-8")
    result = run_script(path, engine="python")
    assert not result.passed and "not a symbol map" in result.message
