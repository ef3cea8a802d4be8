"""Which Z80 engine the Spectrum runs on, and compiling the JIT without making anyone wait.

The CPython Spectrum engine starts at once and runs about 11 times real time: enough for the
window and for short headless runs. The numba engine runs tens of times faster but its first
compile takes half a minute or more on a small machine (numba keeps the result in its on-disk
cache). So:

- :func:`choose_machine_engine` is the one rule for headless runs (docs/spectrum.md,
  "Which engine"): an engine asked for wins; no numba, or a run known to be short, is python;
  a JIT already in numba's cache is used; a run known to be long compiles it; else python.
- :class:`BackgroundJit` is the window's way: it plays on python while a separate, low-priority
  process compiles the JIT into the cache; a thread of the window's process then loads it from
  the cache, and the window moves the machine over at a frame boundary
  (:meth:`~zxmonopoly.spectrum.Spectrum48.set_engine`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from zxmonopoly import JIT_FIRST_COMPILE
from zxmonopoly.z80.cpu import default_engine, jit_available

from .ula import ENGINES

#: Runs of fewer frames than this stay on python: importing numba and loading even a cached
#: engine (1-3 s) costs more than python spends on them (1,500 frames, 30 s of Spectrum time,
#: take python about 3 s).
SHORT_RUN_FRAMES = 1_500
#: Runs of at least this many frames (20 minutes of Spectrum time, several minutes on python)
#: compile the JIT when numba's cache does not hold it: the compile pays for itself.
LONG_RUN_FRAMES = 60_000
#: The generated Spectrum engines: ``_engine_py`` and ``_engine_jit`` in this package
#: (tools/gen_z80.py, from the Z80's description and ula.py).
SPECTRUM_ENGINES = ENGINES
#: The module of the generated Spectrum engine compiled by numba.
SPECTRUM_JIT_MODULE = SPECTRUM_ENGINES + "_jit"


def requested_engine(engine: str | None) -> str | None:
    """The engine asked for: ``engine`` (``--engine``), else ``$ZXMONOPOLY_ENGINE``, else None."""
    if engine:
        return engine
    if os.environ.get("ZXMONOPOLY_ENGINE"):
        return default_engine()  # validates the variable
    return None


def spectrum_jit_cached() -> bool:
    """Whether numba's on-disk cache holds the Spectrum engine for this source (imports numba)."""
    if not jit_available():
        return False
    import importlib

    from zxmonopoly.z80.cpu import _has_cache

    module = importlib.import_module(SPECTRUM_JIT_MODULE)
    return _has_cache(module, SPECTRUM_JIT_MODULE.rsplit(".", 1)[1])


def spectrum_jit_estimate() -> str:
    """How long the Spectrum JIT's cold compile takes, as users are told: the last one measured
    beside this cache, else this release's measured figure (imports numba)."""
    import importlib

    from zxmonopoly.z80.jitbuild import compile_estimate

    return compile_estimate(importlib.import_module(SPECTRUM_JIT_MODULE))


def choose_machine_engine(engine: str | None, frames: int | None = None) -> str:
    """The engine a headless Spectrum runs ``frames`` frames on (None: length unknown).

    An engine asked for (``engine`` or ``$ZXMONOPOLY_ENGINE``) wins. Otherwise python when
    numba is missing or the run is shorter than :data:`SHORT_RUN_FRAMES`; jit when numba's
    cache already holds it or the run is at least :data:`LONG_RUN_FRAMES`; python otherwise.
    """
    asked = requested_engine(engine)
    if asked:
        return asked
    if frames is not None and frames < SHORT_RUN_FRAMES:
        return "python"  # decided before numba is even imported
    if not jit_available():
        return "python"
    if spectrum_jit_cached():
        return "jit"
    if frames is not None and frames >= LONG_RUN_FRAMES:
        return "jit"
    return "python"


def compile_spectrum_jit() -> None:
    """Compile the Spectrum engine into numba's cache (what the background process runs)."""
    from zxmonopoly.memory_map import ROM_SIZE
    from zxmonopoly.spectrum.machine import Spectrum48

    Spectrum48(rom=bytes(ROM_SIZE), engine="jit").run_frames(1)


def _compile_command() -> list[str]:
    """The command line of the background compile: this interpreter, this package's source."""
    return [sys.executable, "-c",
            "import os, sys\n"
            "if hasattr(os, 'nice'): os.nice(19)\n"
            f"sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r})\n"
            "from zxmonopoly.spectrum.engine import compile_spectrum_jit\n"
            "compile_spectrum_jit()\n"]


class BackgroundJit:
    """Get the Spectrum JIT ready without stopping the caller: compiled elsewhere, loaded here.

    :meth:`start` starts a thread that imports numba and, when the cache is cold, runs
    :func:`compile_spectrum_jit` in a separate process at the lowest CPU priority (the window
    keeps its core and never stutters), then loads the engine from the cache. ``state`` moves
    through ``"waiting"``, ``"compiling"``, ``"loading"`` to ``"ready"`` (or ``"failed"``,
    with ``error``); :meth:`ready` is what the caller polls between frames.
    """

    def __init__(self) -> None:
        self.state = "waiting"
        self.error = ""
        self.compile_seconds: float | None = None  # the background compile's wall time
        self.estimate = JIT_FIRST_COMPILE  # what the compile will take, measured (before it)
        self._process: subprocess.Popen[bytes] | None = None
        self._thread: threading.Thread | None = None
        self._cancelled = False

    def start(self) -> None:
        """Start getting the JIT ready (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="zxmonopoly-jit",
                                            daemon=True)
            self._thread.start()

    def ready(self) -> bool:
        """True once the JIT is loaded in this process: ``set_engine("jit")`` is instant."""
        return self.state == "ready"

    def _work(self) -> None:
        try:
            if not spectrum_jit_cached():
                self.estimate = spectrum_jit_estimate()
                self.state = "compiling"
                if not self._compile():
                    return
            if self._cancelled:
                return
            self.state = "loading"
            self._load()
            self.state = "ready"
        except Exception as exc:  # noqa: BLE001 - reported by the owner; python plays on
            self.error = f"{type(exc).__name__}: {exc}"
            self.state = "failed"

    def _compile(self) -> bool:
        """Run the compile in its own process; False (and ``error``) if it failed."""
        t0 = time.monotonic()
        with tempfile.TemporaryFile() as log:
            # A session of its own: the compile's worker processes (jitbuild) are in its
            # process group, and a cancel stops them with it (a SIGTERM ends the compile's
            # process before its own clean-up would stop them).
            self._process = subprocess.Popen(_compile_command(), stdin=subprocess.DEVNULL,
                                             stdout=log, stderr=log,
                                             start_new_session=hasattr(os, "killpg"))
            status = self._process.wait()
            if self._cancelled:
                return False
            if status != 0:
                log.seek(0)
                lines = log.read().decode(errors="replace").strip().splitlines()
                self.error = f"the compile exited with status {status}" + (
                    f": {lines[-1]}" if lines else "")
                self.state = "failed"
                return False
        self.compile_seconds = time.monotonic() - t0
        return True

    def _load(self) -> None:
        """Load the compiled engine from numba's cache into this process."""
        from zxmonopoly.memory_map import ROM_SIZE
        from zxmonopoly.spectrum.machine import Spectrum48

        Spectrum48(rom=bytes(ROM_SIZE), engine="jit")  # binds the cached code, runs nothing

    def cancel(self) -> None:
        """Stop a compile still running (the window closed first), its worker processes
        with it; the next start redoes it."""
        self._cancelled = True
        process = self._process
        if process is None or process.poll() is not None:
            return
        _signal_group(process, signal.SIGTERM)
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            pass
        # What is left of the group (a worker that outlived the compile's process, or that
        # process itself), at once.
        _signal_group(process, getattr(signal, "SIGKILL", signal.SIGTERM))
        process.wait()


def _signal_group(process: subprocess.Popen[bytes], number: int) -> None:
    """Send ``number`` to the process's group (its session's, POSIX), else to it alone."""
    if hasattr(os, "killpg"):
        try:
            os.killpg(process.pid, number)
        except ProcessLookupError:  # every process of the group has ended
            pass
    elif process.poll() is None:
        process.terminate()


__all__ = ["LONG_RUN_FRAMES", "SHORT_RUN_FRAMES", "BackgroundJit",
           "choose_machine_engine", "compile_spectrum_jit", "requested_engine",
           "spectrum_jit_cached", "spectrum_jit_estimate"]
