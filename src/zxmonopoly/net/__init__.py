"""Network play: one exact Spectrum on every peer, keys exchanged frame by frame (lockstep).

``Host(machine).start()`` listens (127.0.0.1 unless ``bind=``) and prints a join code;
``Peer(machine, address, port, code).join()`` joins it. Both step a headless
:class:`~zxmonopoly.spectrum.Spectrum48`: ``await node.run(frames)`` (or ``node.advance(keys)``
from a window's loop). docs/network.md describes the protocol, its bounds and its faults.
"""

from .host import Host
from .lockstep import (
    RELEASED,
    DesyncError,
    Keys,
    NetError,
    Node,
    TapeFile,
    machine_digest,
)
from .peer import JoinError, Peer, parse_address
from .protocol import (
    DEFAULT_PORT,
    MAX_DELAY,
    MAX_SLOTS,
    MAX_SPECTATORS,
    MIN_DELAY,
    JoinCodeError,
    ProtocolError,
    Timeouts,
    new_join_code,
    normal_code,
)

__all__ = ["DEFAULT_PORT", "MAX_DELAY", "MAX_SLOTS", "MAX_SPECTATORS", "MIN_DELAY",
           "RELEASED", "DesyncError", "Host", "JoinCodeError", "JoinError", "Keys", "NetError",
           "Node", "Peer", "ProtocolError", "TapeFile", "Timeouts", "machine_digest",
           "new_join_code", "normal_code", "parse_address"]
