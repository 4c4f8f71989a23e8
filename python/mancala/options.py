"""UMI options a bot declares in the handshake (``option name ... type ...``)
and the values ``setoption`` gives them.

Pass them to :func:`mancala.run_engine` as a dict, name to declaration::

    run_engine(choose, name="Greedy", options={
        "Depth": Spin(default=2, min=1, max=8),
        "Random Tiebreak": Check(default=True),
        "Style": Combo(default="solid", vars=["solid", "wild"]),
        "Book": String(default=""),
        "Clear Cache": Button(on_press=cache.clear),
    })

The current values reach ``choose`` as ``limits.options`` (a dict keyed by
the declared names). Names are compared case-insensitively, as in UCI.
"""

from __future__ import annotations

from typing import Callable, List, Optional, Sequence, Union

Value = Union[int, bool, str, None]


class OptionSpec:
    """One option's type, default and accepted values."""

    default: Value = None

    def declaration(self, name: str) -> str:
        """The handshake line, ``option name <name> type ...``."""
        raise NotImplementedError

    def parse(self, name: str, value: Optional[str]) -> Value:
        """The value of ``setoption name <name> value <value>``; raises
        ``ValueError`` naming what is wrong."""
        raise NotImplementedError


class Spin(OptionSpec):
    """An integer between ``min`` and ``max``."""

    def __init__(self, default: int, min: int, max: int):
        if not min <= default <= max:
            raise ValueError(f"spin needs min <= default <= max, got {min}, {default}, {max}")
        self.default, self.min, self.max = int(default), int(min), int(max)

    def declaration(self, name: str) -> str:
        return f"option name {name} type spin default {self.default} min {self.min} max {self.max}"

    def parse(self, name: str, value: Optional[str]) -> int:
        if value is None:
            raise ValueError(f"option {name} needs a value")
        try:
            n = int(value, 10)
        except ValueError:
            raise ValueError(f"option {name}: {value!r} is not an integer") from None
        if not self.min <= n <= self.max:
            raise ValueError(f"option {name}: {n} is outside {self.min}..{self.max}")
        return n


class Check(OptionSpec):
    """``true`` or ``false``."""

    def __init__(self, default: bool = False):
        self.default = bool(default)

    def declaration(self, name: str) -> str:
        return f"option name {name} type check default {'true' if self.default else 'false'}"

    def parse(self, name: str, value: Optional[str]) -> bool:
        if value == "true":
            return True
        if value == "false":
            return False
        raise ValueError(f"option {name}: expected true or false, got {value!r}")


class Combo(OptionSpec):
    """One of a fixed list of words."""

    def __init__(self, default: str, vars: Sequence[str]):
        self.vars: List[str] = list(vars)
        if default not in self.vars:
            raise ValueError(f"combo default {default!r} is not one of {self.vars}")
        self.default = default

    def declaration(self, name: str) -> str:
        return f"option name {name} type combo default {self.default}" + "".join(
            f" var {v}" for v in self.vars
        )

    def parse(self, name: str, value: Optional[str]) -> str:
        if value not in self.vars:
            raise ValueError(f"option {name}: {value!r} is not one of {' '.join(self.vars)}")
        return value


class String(OptionSpec):
    """Free text (``<empty>`` on the wire is the empty string)."""

    def __init__(self, default: str = ""):
        self.default = default

    def declaration(self, name: str) -> str:
        return f"option name {name} type string default {self.default or '<empty>'}"

    def parse(self, name: str, value: Optional[str]) -> str:
        return "" if value is None else value


class Button(OptionSpec):
    """An action: ``setoption name <name>`` (no value) calls ``on_press()``."""

    def __init__(self, on_press: Optional[Callable[[], None]] = None):
        self.on_press = on_press

    def declaration(self, name: str) -> str:
        return f"option name {name} type button"

    def parse(self, name: str, value: Optional[str]) -> None:
        if value is not None:
            raise ValueError(f"option {name} is a button: it takes no value")
        if self.on_press is not None:
            self.on_press()
        return None
