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
    divide,
    perft,
)

__version__ = "0.1.0"
