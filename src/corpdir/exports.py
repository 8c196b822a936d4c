"""Names a package offers, each imported from its module when first asked for (PEP 562).

``corpdir.cache``, ``corpdir.client`` and ``corpdir.config`` name their public parts at the
top while importing none of them: `corpdir lookup` reads the cache without pydantic's
models, and the TUI paints its first screen before any is built (docs/performance.md).
``corpdir.spec`` does the same with its own four lines: the bottom layer imports no other
corpdir module (tests/spec/test_import_hygiene.py).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's (~14 M instructions of a lookup): docs/performance.md, "`corpdir lookup`"
if TYPE_CHECKING:
    from typing import Any, Callable


def lazy(package: str, exports: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: name -> the module that defines it."""

    def __getattr__(name: str) -> Any:
        if name in exports:
            from importlib import import_module  # here: the importlib package is ~2 M instructions of `corpdir lookup`

            return getattr(import_module(exports[name]), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
