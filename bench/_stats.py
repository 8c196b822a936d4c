"""Figures for bench scripts: median and p95 of samples, printed the same way everywhere."""

from __future__ import annotations

import statistics
from typing import Sequence


def summary(samples: Sequence[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def report(label: str, seconds: Sequence[float], baseline: Sequence[float] | None = None, unit: str = "ms") -> str:
    scale = {"ms": 1e3, "us": 1e6, "s": 1.0}[unit]
    median, p95 = summary(seconds)
    line = f"{label:<48} median {median * scale:9.3f} {unit}   p95 {p95 * scale:9.3f} {unit}   n={len(seconds)}"
    if baseline:
        base_median, _ = summary(baseline)
        line += f"   ratio to baseline {median / base_median:6.2f}"
    print(line, flush=True)
    return line
