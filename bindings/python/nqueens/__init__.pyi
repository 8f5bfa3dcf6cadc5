# Type stubs of the module nqueens (bindings/python/nqueens/__init__.py).
import os
from typing import Iterator, NamedTuple, Optional, Tuple, Union

__version__: str
MAX_N: int

_Part = Union[str, Tuple[int, int], None]
_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

class TooLongError(ValueError):
    estimate: Estimate
    def __init__(self, message: str, estimate: Estimate) -> None: ...

class Engine(NamedTuple):
    name: str
    summary: str
    max_n: int
    lists: bool
    steps: bool
    units: bool
    gpu: bool

class Estimate(NamedTuple):
    n: int
    engine: str
    seconds: float
    low: Optional[float]
    high: Optional[float]
    threads: int
    method: str
    samples: int

class Count:
    n: int
    engine: str
    total: Optional[int]
    unique: Optional[int]
    nodes: int
    seconds: float
    threads: int
    complete: bool
    units: Optional[int]
    recorded: Optional[int]
    ran: Optional[int]
    def _repr_html_(self) -> str: ...

class Board(Tuple[int, ...]):
    base: int
    def _repr_svg_(self) -> str: ...

class Masks(NamedTuple):
    down: int
    down_right: int
    down_left: int
    free: int
    ruled: int
    to_try: int

class Step(NamedTuple):
    step: int
    event: str
    row: int
    col: int
    queens: Tuple[int, ...]
    text: str
    reason: Tuple[str, ...]
    by_row: Optional[int]
    flags: Optional[Tuple[str, str, str]]
    masks: Optional[Masks]
    def _repr_svg_(self) -> str: ...

def engines() -> list[Engine]: ...
def count(n: int, engine: str = ..., threads: Optional[int] = ...,
          part: _Part = ..., force: bool = ...,
          checkpoint: Optional[_Path] = ..., max_units: Optional[int] = ...,
          kernel: Optional[str] = ...) -> Count: ...
def estimate(n: int, engine: str = ..., threads: Optional[int] = ...,
             part: _Part = ..., seconds: Optional[float] = ...) -> Estimate: ...
def solutions(n: int, engine: Optional[str] = ..., one_based: bool = ...,
              unique: bool = ...) -> Iterator[Board]: ...
def trace(n: int, engine: str = ..., limit: Optional[int] = ...,
          one_based: bool = ...) -> Iterator[Step]: ...
def lesson(height: int = ...) -> object: ...
