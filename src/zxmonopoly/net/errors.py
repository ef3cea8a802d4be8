"""The net package's exception root, in a module of its own so that the protocol (below the
lockstep node) and everything above derive from it."""

from __future__ import annotations


class NetError(Exception):
    """Network play cannot start or go on; the text says why, in one line. The root of the
    package's errors (ProtocolError, JoinCodeError, JoinError, DesyncError, NetOptionsError),
    so a caller catches this one."""
