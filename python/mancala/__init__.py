"""The mancala arena's rules and engine loop for Python bots."""

from ._native import (
    GAMES,
    GameOverError,
    GameRecord,
    IllegalMoveError,
    MancalaError,
    MoveError,
    Outcome,
    Position,
    PositionError,
    ProtocolError,
    Side,
    Tablebase,
    divide,
    perft,
    solve,
    tablebase,
)

__version__ = "0.1.0"

from .engine import run_engine  # noqa: E402
from .limits import Limits  # noqa: E402
from . import options  # noqa: E402
from .options import Button, Check, Combo, Spin, String  # noqa: E402

__all__ = [
    "GAMES",
    "GameOverError",
    "GameRecord",
    "IllegalMoveError",
    "Limits",
    "MancalaError",
    "MoveError",
    "Outcome",
    "Position",
    "PositionError",
    "ProtocolError",
    "Side",
    "Tablebase",
    "divide",
    "options",
    "Button",
    "Check",
    "Combo",
    "Spin",
    "String",
    "perft",
    "run_engine",
    "solve",
    "tablebase",
]
