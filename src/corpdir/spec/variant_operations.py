"""Which operations each variant of the interface has (spec section 9): plain data, apart
from :mod:`corpdir.spec.variants` and its value rules (which import pydantic), so the TUI's
first screen knows which keys to offer before any model is imported."""

from __future__ import annotations

ALL_OPERATIONS = frozenset(
    [f"U{i}" for i in range(1, 12)]
    + [f"D{i}" for i in range(1, 6)]
    + [f"X{i}" for i in range(1, 9)]
    + ["F1", "P1", "P2", "P3", "N1"]
    + [f"H{i}" for i in range(1, 7)]
    + ["L1"]
)
A_OPERATIONS = frozenset([f"U{i}" for i in range(1, 6)] + [f"D{i}" for i in range(1, 6)])
B_OPERATIONS = A_OPERATIONS | frozenset(
    [f"U{i}" for i in range(6, 11)] + ["X1", "X2", "X5", "X6", "X7", "X8", "F1"]
)
OPERATIONS = {"A": A_OPERATIONS, "B": B_OPERATIONS, "C": ALL_OPERATIONS}
