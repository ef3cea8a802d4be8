"""Reading a user's file safely: a regular file of bounded size, refused in one line otherwise.

``/dev/zero``, a pipe or a huge file would otherwise be read until memory runs out.
"""

from __future__ import annotations

import os
import stat


def read_regular(path: str | os.PathLike[str], limit: int, what: str) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, else ``OSError`` saying why.

    The error's ``strerror`` is the reason in words ("not a regular file ...", "… bytes is too
    large for a tape (at most …)"), for messages of the form ``NAME: cannot read: REASON``.
    Devices and pipes are refused before any read; the size is checked before and while
    reading (a file may grow).
    """
    info = os.stat(path)
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(21, "is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise OSError(0, "not a regular file (a device or a pipe?)")
    if info.st_size > limit:
        raise OSError(0, f"{info.st_size:,} bytes is too large for a {what} (at most "
                         f"{limit:,})")
    with open(path, "rb") as handle:
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise OSError(0, f"too large for a {what} (at most {limit:,} bytes)")
    return data
