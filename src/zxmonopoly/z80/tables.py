"""Precomputed flag tables used by both engines (Zilog NMOS flag behaviour).

Index layouts: ``SZ53[v]``/``SZ53P[v]`` for a byte; ``ADC_F``/``SBC_F`` at
``(carry << 16) | (a << 8) | v``; ``CP_F`` at ``(a << 8) | v``; ``INC_F``/``DEC_F`` at the
result. X and Y (bits 3 and 5) come from the result, except CP where they come from the
operand (spectrum_facts §1.4).
"""

from __future__ import annotations

import numpy as np

FC, FN, FPV, FX, FH, FY, FZ, FS = 1, 2, 4, 8, 16, 32, 64, 128


def _sz53(v: np.ndarray) -> np.ndarray:
    return (v & (FS | FY | FX)) | np.where(v == 0, FZ, 0)


def _parity(v: np.ndarray) -> np.ndarray:
    bits = np.zeros_like(v)
    for k in range(8):
        bits ^= (v >> k) & 1
    return np.where(bits == 0, FPV, 0)


def build() -> dict[str, np.ndarray]:
    """All tables as uint8 numpy arrays."""
    v = np.arange(256, dtype=np.int64)
    sz53 = _sz53(v)
    sz53p = sz53 | _parity(v)
    idx = np.arange(1 << 17, dtype=np.int64)
    cy, a, x = idx >> 16, (idx >> 8) & 0xFF, idx & 0xFF
    res = a + x + cy
    r8 = res & 0xFF
    adc = (_sz53(r8) | (((a & 0xF) + (x & 0xF) + cy) & FH)
           | ((((a ^ ~x) & (a ^ res)) & 0x80) >> 5) | ((res >> 8) & 1))
    res = a - x - cy
    r8 = res & 0xFF
    sbc = (_sz53(r8) | (((a & 0xF) - (x & 0xF) - cy) & FH)
           | ((((a ^ x) & (a ^ res)) & 0x80) >> 5) | np.where(res < 0, FC, 0) | FN)
    cp = (sbc[: 1 << 16] & ~(FX | FY)) | (x[: 1 << 16] & (FX | FY))
    inc = sz53 | np.where((v & 0xF) == 0, FH, 0) | np.where(v == 0x80, FPV, 0)
    dec = sz53 | np.where((v & 0xF) == 0xF, FH, 0) | np.where(v == 0x7F, FPV, 0) | FN
    out = {"SZ53": sz53, "SZ53P": sz53p, "ADC_F": adc, "SBC_F": sbc, "CP_F": cp,
           "INC_F": inc, "DEC_F": dec}
    return {k: t.astype(np.uint8) for k, t in out.items()}


#: Order in which the engines take the tables as arguments.
ORDER = ("SZ53", "SZ53P", "ADC_F", "SBC_F", "CP_F", "INC_F", "DEC_F")

ARRAYS: dict[str, np.ndarray] = build()
#: Where each table starts in PACKED.
OFFSETS: dict[str, int] = dict(zip(
    ORDER, np.cumsum([0] + [ARRAYS[k].size for k in ORDER[:-1]]).tolist(), strict=True))
#: All the tables end to end, in ORDER: the numba engines take this one array, since each
#: array a compiled function is passed costs it seven words on the stack a call.
PACKED: np.ndarray = np.concatenate([ARRAYS[k] for k in ORDER])
#: The same tables as Python lists: indexing a list is the fastest lookup in CPython.
LISTS: dict[str, list[int]] = {k: t.tolist() for k, t in ARRAYS.items()}
