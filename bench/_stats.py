"""Figures for bench scripts: median and p95 of samples, printed the same way everywhere."""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path
from typing import Sequence

CLEAN_VENV = Path(__file__).parent / "out" / "cleanvenv"


def clean_python() -> str:
    """The interpreter of a clean venv (made once in bench/out): the baseline for `python -c
    pass`. The interpreter itself runs a site hook on this machine that loads a certificate
    bundle (40-100 ms, 140 M instructions, against 14-18 ms and 39 M in a venv)."""
    python = CLEAN_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(CLEAN_VENV)], check=True)
    return str(python)


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
