"""The designer reports' figures: matplotlib drawn to SVG text, to be inlined in one HTML file.

The same data gives the same bytes: no date in the SVG's metadata, a fixed ``svg.hashsalt`` for its ids, text kept
as text (``svg.fonttype: none``), and the figure objects made directly (no pyplot, no global figure state).
matplotlib is the ``report`` extra (``pip install "divedeck[report]"``).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from ..engine.errors import DivedeckError

_RC = {"svg.hashsalt": "divedeck", "svg.fonttype": "none", "font.size": 9, "axes.spines.top": False,
       "axes.spines.right": False, "axes.grid": True, "grid.alpha": 0.3, "axes.axisbelow": True}
COLOURS = ("#1f6fb4", "#e07b22", "#2a9d55", "#c8363c", "#7d55b5", "#8a5a44", "#d45fb0", "#6b6b6b")
WIDTH = 6.4


def _matplotlib() -> Any:
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:  # pragma: no cover - the extra is in the dev group
        raise DivedeckError('reports draw with matplotlib: install the report extra (pip install '
                            '"divedeck[report]", or uv sync --extra report)') from None
    return matplotlib, Figure


def new_figure(columns: int = 1, rows: int = 1, height: float = 2.8, width: float = WIDTH) -> tuple[Any, Any]:
    _, figure_type = _matplotlib()
    figure = figure_type(figsize=(width, height * rows), layout="constrained")
    axes = figure.subplots(rows, columns, squeeze=False)
    return figure, [ax for row in axes for ax in row]


def to_svg(figure: Any) -> str:
    matplotlib, _ = _matplotlib()
    buffer = io.StringIO()
    with matplotlib.rc_context(_RC):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]  # the XML prolog and doctype do not belong inside HTML


def styled(draw: Any) -> Any:
    """Run ``draw`` (which makes and fills a figure) under the report's style; return its SVG."""
    matplotlib, _ = _matplotlib()
    with matplotlib.rc_context(_RC):
        figure = draw()
        return to_svg(figure)


def bars(ax: Any, labels: Sequence[str], values: Sequence[float], lows: Sequence[float] | None = None,
         highs: Sequence[float] | None = None, colour: str = COLOURS[0], offset: float = 0.0, width: float = 0.7,
         label: str | None = None) -> None:
    positions = [i + offset for i in range(len(labels))]
    errors = None
    if lows is not None and highs is not None:
        errors = [[max(0.0, v - lo) for v, lo in zip(values, lows, strict=True)],
                  [max(0.0, hi - v) for v, hi in zip(values, highs, strict=True)]]
    ax.bar(positions, values, width=width, color=colour, yerr=errors, capsize=3, label=label,
           error_kw={"elinewidth": 1, "ecolor": "#333333"})
    ax.set_xticks(range(len(labels)), labels)


def points(ax: Any, labels: Sequence[str], values: Sequence[float], lows: Sequence[float],
           highs: Sequence[float], colour: str = COLOURS[0], offset: float = 0.0, label: str | None = None) -> None:
    """Estimates as dots with their intervals, on an axis fitted to them: bars from 0 would hide 153 against 155."""
    positions = [i + offset for i in range(len(labels))]
    errors = [[max(0.0, v - lo) for v, lo in zip(values, lows, strict=True)],
              [max(0.0, hi - v) for v, hi in zip(values, highs, strict=True)]]
    ax.errorbar(positions, values, yerr=errors, fmt="o", color=colour, capsize=3, label=label, elinewidth=1,
                markersize=5)
    ax.set_xticks(range(len(labels)), labels)


def far_from_zero(series: Sequence[dict[str, Any]]) -> bool:
    """Every interval lies well away from 0 (the lowest end above half the highest): bars from 0 would hide the
    differences, dots on a fitted axis show them."""
    lows = [v for one in series for v in (one.get("low") or one["values"])]
    highs = [v for one in series for v in (one.get("high") or one["values"])]
    return bool(lows) and min(lows) > 0 and min(lows) > 0.5 * max(highs)


def slanted(ax: Any) -> None:
    """Long tick labels at a slant, anchored at their end so that none is cut off."""
    for text in ax.get_xticklabels():
        text.set_rotation(30)
        text.set_horizontalalignment("right")
        text.set_rotation_mode("anchor")


def histogram(ax: Any, values: Sequence[float], colour: str = COLOURS[0], label: str | None = None,
              step: bool = False) -> None:
    if not values:
        return
    low, high = min(values), max(values)
    whole = all(float(v).is_integer() for v in values)
    if whole and high - low <= 60:
        edges: Any = [low - 0.5 + i for i in range(int(high - low) + 2)]
    else:
        edges = 30 if high > low else 1
    ax.hist(values, bins=edges, color=colour, alpha=0.85 if not step else 1.0, label=label,
            histtype="step" if step else "bar", linewidth=1.4 if step else 0.5, edgecolor=None if step else "white")
