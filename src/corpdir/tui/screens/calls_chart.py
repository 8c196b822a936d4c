"""Answered and missed incoming calls per day, the last 30 days, as a stacked bar chart
(textual-plotext), from the calls in the cache. Escape closes it."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static
from textual_plotext import PlotextPlot

from corpdir.service.calls import daily_counts

if TYPE_CHECKING:
    from corpdir.service.directory import DirectoryService

DAYS = 30


class CallsChart(ModalScreen[None]):
    CSS_PATH = "calls_chart.tcss"
    BINDINGS = [Binding("escape,q,t", "app.pop_screen", "Close", id="chart.close")]

    def __init__(self, service: DirectoryService) -> None:
        super().__init__()
        self.service = service

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="chart-caption")
            yield PlotextPlot(id="chart")

    async def on_mount(self) -> None:
        records = await self.service.calls.cached("incoming")
        today = date.fromtimestamp(self.service.clock())  # the service's clock: a test can stop it
        days = daily_counts(records, today, DAYS)
        answered = sum(a for _, a, _ in days)
        missed = sum(m for _, _, m in days)
        self.query_one("#chart-caption", Static).update(
            f"Incoming calls, {days[0][0]:%m/%d}–{today:%m/%d}: {answered} answered, {missed} missed · Escape closes")
        plot = self.query_one(PlotextPlot)
        plt = plot.plt
        labels = [f"{day:%m/%d}" for day, _, _ in days]
        plt.stacked_bar(labels, [[a for _, a, _ in days], [m for _, _, m in days]], labels=["answered", "missed"],
                        color=["green", "red"])
        plt.title("Answered and missed calls per day")
        plt.xticks([i + 1 for i in range(0, DAYS, 5)], labels[::5])
        busiest = max(a + m for _, a, m in days)  # counts: the axis starts at 0 and ticks whole calls
        plt.ylim(0, max(busiest, 1))
        step = max(1, -(-busiest // 5))
        plt.yticks(list(range(0, max(busiest, 1) + 1, step)))
        plot.refresh()
