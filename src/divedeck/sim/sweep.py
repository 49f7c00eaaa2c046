"""``divedeck sweep``: the same simulation over a cross product of variants, in one comparison report.

A variant sets game options (``--vary num_players=2,3,4``) or numbers of the game's default data that the game
declares may be varied (``Metrics.data_fields``: ``--vary deck.panic=2,4,6``): those are written as data files
beside the report (``<report>-data/``) and played through the game's file option, so the report names each file
with its sha256. Each quantity of each variant is compared with the first variant's (Welch's z for means, a
two-proportion z for pooled rates); the p-values are Holm-adjusted over every comparison in the report, and those
under 0.05 are marked.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .. import __version__
from ..engine.declaration import DataField
from ..engine.errors import ConfigError
from ..engine.registry import get_game
from . import report as rp
from .options import option_text, options_text, typed_options
from .runner import GameResult, SimulationSpec, game_seed, simulate
from .stats import holm, proportions_p, welch_p

SIGNIFICANT = 0.05
MAX_VARIANTS = 64


@dataclass(frozen=True)
class Vary:
    """One ``--vary KEY=...``: the values of ``key`` (as typed), or an integer range ``low..high``."""

    key: str
    values: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None

    @property
    def is_range(self) -> bool:
        return self.low is not None

    def listed(self, points: int | None = None) -> tuple[str, ...]:
        """Its values; a range gives every whole number in it, or ``points`` of them spread evenly."""
        if not self.is_range:
            return self.values
        assert self.low is not None and self.high is not None
        count = self.high - self.low + 1
        if points is None or count <= points:
            return tuple(str(v) for v in range(self.low, self.high + 1))
        return tuple(dict.fromkeys(str(round(self.low + i * (self.high - self.low) / (points - 1)))
                                   for i in range(points)))


def parse_vary(text: str) -> Vary:
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key or not values.strip():
        raise ConfigError(f"--vary needs KEY=V1,V2,... or KEY=LOW..HIGH, not {text!r}")
    if ".." in values and "," not in values:
        low_text, _, high_text = values.partition("..")
        try:
            low, high = int(low_text), int(high_text)
        except ValueError:
            raise ConfigError(f"--vary {text}: a range is two whole numbers, LOW..HIGH") from None
        if high < low:
            raise ConfigError(f"--vary {text}: the range's end is below its start")
        return Vary(key, low=low, high=high)
    listed = tuple(v.strip() for v in values.split(",") if v.strip())
    if not listed:
        raise ConfigError(f"--vary {text}: no values")
    return Vary(key, listed)


def data_field(game_name: str, key: str) -> DataField | None:
    metrics = get_game(game_name).metrics
    return next((f for f in (metrics.data_fields if metrics else ()) if f.name == key), None)


def check_keys(game_name: str, varies: Sequence[Vary], options: dict[str, Any]) -> None:
    """Every key an option of the game or a data field it declares; one data field per file option, and none
    beside the same option given with -o."""
    game = get_game(game_name)
    names = {o["name"] for o in game.options()}
    fields = [f.name for f in (game.metrics.data_fields if game.metrics else ())]
    used_files: dict[str, str] = {}
    for vary in varies:
        field = data_field(game_name, vary.key)
        if field is None and vary.key not in names:
            raise ConfigError(f"--vary {vary.key}: {game.title} has no option or data field {vary.key!r} "
                              f"(options: {', '.join(sorted(names))}; data fields: {', '.join(fields) or 'none'})")
        if field is not None:
            if field.option in used_files or field.option in options:
                raise ConfigError(f"--vary {vary.key} writes the {field.option} data file, which "
                                  f"{used_files.get(field.option, '-o ' + field.option)} sets too")
            used_files[field.option] = f"--vary {vary.key}"
            for value in vary.listed():
                if not value.lstrip("-").isdigit() or not field.low <= int(value) <= field.high:
                    raise ConfigError(f"--vary {vary.key}={value}: a whole number from {field.low} to "
                                      f"{field.high} ({field.help})")
    if len({vary.key for vary in varies}) != len(varies):
        raise ConfigError("--vary names the same key twice")


def variant_grid(varies: Sequence[Vary], points: int | None = None) -> list[dict[str, str]]:
    grid = [dict(zip([v.key for v in varies], combination, strict=True))
            for combination in itertools.product(*(v.listed(points) for v in varies))]
    if len(grid) > MAX_VARIANTS:
        raise ConfigError(f"{len(grid)} variants: at most {MAX_VARIANTS} (fewer values, or fewer --vary)")
    return grid


def variant_name(variant: dict[str, str]) -> str:
    return " ".join(f"{key}={value}" for key, value in variant.items())


def variant_options(game_name: str, base: dict[str, Any], variant: dict[str, str],
                    data_dir: Path | None) -> dict[str, Any]:
    """The options a variant plays with; its data fields written as files in ``data_dir`` (deterministic names:
    ``deck.panic-3.toml``)."""
    options = dict(base)
    for key, value in variant.items():
        field = data_field(game_name, key)
        if field is None:
            options[key] = value
            continue
        if data_dir is None:
            raise ConfigError(f"--vary {key} writes a data file: it needs a folder for it")
        data_dir.mkdir(parents=True, exist_ok=True)
        path = data_dir / f"{key}-{value}.toml"
        try:
            text = field.write(int(value))
        except ValueError as error:
            raise ConfigError(f"--vary {key}={value}: {error}") from None
        path.write_text(text, encoding="utf-8")
        options[field.option] = str(path)
    return options


def check_variants(game_name: str, base: dict[str, Any], grid: Sequence[dict[str, str]], seats: int,
                   data_dir: Path | None) -> list[dict[str, Any]]:
    """Each variant's options, checked before anything is played (a bad value or player count fails at once)."""
    game = get_game(game_name)
    checked = []
    for variant in grid:
        options = variant_options(game_name, base, variant, data_dir)
        config = game.make_config(options)
        if game.num_players(config) != seats:
            raise ConfigError(f"variant {variant_name(variant)} has {game.num_players(config)} seats; --seats "
                              f"names {seats} (vary the players with --seats in separate runs)")
        checked.append(options)
    return checked


Progress = Callable[[int], None]


@dataclass
class VariantRun:
    variant: dict[str, str]
    options: dict[str, Any]
    spec: SimulationSpec
    results: list[GameResult]


def run_variants(game_name: str, bots: Sequence[str], base: dict[str, Any], grid: Sequence[dict[str, str]],
                 options_list: Sequence[dict[str, Any]], games: int, seed: int, rotate: bool,
                 workers: int | None, progress: Progress | None = None) -> list[VariantRun]:
    """Every variant on the same seed: variant k plays the same deals as the first where its options allow."""
    runs = []
    for variant, options in zip(grid, options_list, strict=True):
        spec = SimulationSpec(game_name, tuple(bots), options, seed, rotate, measure=True)
        runs.append(VariantRun(variant, options, spec, simulate(spec, games, workers, progress)))
    return runs


def used_by_everyone(name: str, measured: Sequence[dict[str, rp.Quantity]], runs: Sequence[VariantRun]) -> bool:
    """A 'win share of the players who used it' whose users are nearly every player in every variant: it is
    everyone's share (1/seats), whatever the variant, and tells nothing."""
    return name.endswith(".win") and measured[0][name].group.endswith(".win") and all(
        m[name].trials >= 0.98 * len(run.results) * len(run.spec.bots) for m, run in zip(measured, runs,
                                                                                          strict=True))


def comparisons(runs: Sequence[VariantRun]) -> tuple[list[str], list[dict[str, Any]]]:
    """Each quantity of each variant, and its difference from the first variant with a Holm-adjusted p-value."""
    measured = [rp.quantities(run.spec, run.results) for run in runs]
    names = [name for name in measured[0] if all(name in m for m in measured)
             and not used_by_everyone(name, measured, runs)]
    raw: list[float] = []
    cells: list[tuple[int, int]] = []
    rows = []
    for row_index, name in enumerate(names):
        first = measured[0][name]
        row: dict[str, Any] = {"name": name, "label": first.label, "unit": first.unit, "group": first.group,
                               "variants": []}
        for k, m in enumerate(measured):
            q = m[name]
            cell = q.to_json()
            if k:
                if q.pooled:
                    p = proportions_p(q.successes, q.trials, first.successes, first.trials)
                else:
                    p = welch_p(q.values, first.values)
                cell["p_value"] = p
                raw.append(p)
                cells.append((row_index, k))
            row["variants"].append(cell)
        rows.append(row)
    for (row_index, k), adjusted in zip(cells, holm(raw), strict=True):
        cell = rows[row_index]["variants"][k]
        cell["p_holm"] = adjusted
        cell["significant"] = adjusted < SIGNIFICANT
    return names, rows


def build(runs: Sequence[VariantRun], base: dict[str, Any], seats_text: str, varies: Sequence[str],
          games: int, seed: int, data_dir_name: str | None) -> dict[str, Any]:
    first = runs[0].spec
    game = get_game(first.game)
    _, rows = comparisons(runs)
    measured = [rp.quantities(run.spec, run.results) for run in runs]
    everyone = [name.split(".")[-2] for name in measured[0] if used_by_everyone(name, measured, runs)]
    options = typed_options(first.game, base)
    command = (f"divedeck sweep {first.game} --games {games} --seed {seed} --seats {seats_text}"
               + "".join(f" --vary {v}" for v in varies) + (" --rotate" if first.rotate else "")
               + "".join(f" -o {name}={option_text(value)}" for name, value in options.items()))
    variants = []
    for run in runs:
        files = rp.data_files(first.game, run.options)
        if data_dir_name:
            for f in files:
                if f["option"] != "(default)" and run.variant and Path(run.options[f["option"]]).parent.name:
                    f["file"] = f"{data_dir_name}/{f['file']}"
        variants.append({"name": variant_name(run.variant), "variant": {key: json_value(text) for key, text in
                                                                        run.variant.items()}, "data_files": files})
    comparisons_made = sum(1 for row in rows for cell in row["variants"] if "p_holm" in cell)
    sweep = {
        "format": "divedeck-sweep", "divedeck": __version__, "game": first.game, "title": game.title,
        "games": games, "seed": seed, "seats": list(first.bots), "rotate": first.rotate, "options": options,
        "options_text": options_text(options), "command": command, "variants": variants, "quantities": rows,
        "comparisons": comparisons_made,
        "notes": [f"Each variant played {games} games on the same seed. A value marked * differs from the first "
                  f"variant's with a Holm-adjusted p-value under {SIGNIFICANT} (Holm over all {comparisons_made} "
                  "comparisons in this report; Welch's z for means, a two-proportion z for pooled rates)."]
        + ([f"Nearly every player used {', '.join(everyone)} in every variant: the win share of those who used "
            "it is everyone's, so it is left out."] if everyone else []),
    }
    sweep["figures"] = sweep_figures(sweep)
    return sweep


def json_value(text: str) -> Any:
    """A swept value as the JSON of what it is: 8 (a number), true (a flag), "distance" (a word)."""
    if text in ("true", "false"):
        return text == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def swept_numbers(sweep: dict[str, Any]) -> tuple[str, list[float]] | None:
    """The one swept key and its values when a sweep varies one number: then its figures are curves."""
    keys = {key for v in sweep["variants"] for key in v["variant"]}
    if len(keys) != 1:
        return None
    key = keys.pop()
    values = [v["variant"][key] for v in sweep["variants"]]
    if not all(isinstance(x, int | float) and not isinstance(x, bool) for x in values) or len(values) < 3:
        return None
    return key, [float(x) for x in values]


# Which quantities get a figure, by group, and how: shares in %; against the swept value when it is one number.
def sweep_figures(sweep: dict[str, Any]) -> list[dict[str, Any]]:
    groups: dict[str, list[dict[str, Any]]] = {}
    for row in sweep["quantities"]:  # one figure per group and unit: decisions and minutes do not share an axis
        groups.setdefault(f"{row['group']}|{row['unit']}", []).append(row)
    figures = []
    names = [v["name"] for v in sweep["variants"]]
    curve = swept_numbers(sweep)
    for key, rows in groups.items():
        group = key.partition("|")[0]
        rows = rows[:12]
        scale = 100 if rows[0]["unit"] == "share" else 1
        series = []
        for k, name in enumerate(names):
            cells = [row["variants"][k] for row in rows]
            series.append({"name": name, "values": [c["value"] * scale for c in cells],
                           "low": [c["ci95_low"] * scale for c in cells],
                           "high": [c["ci95_high"] * scale for c in cells]})
        labels = [rp.short_name(row["name"]) for row in rows]
        title = rows[0]["label"] if len(rows) == 1 else rp.group_label(sweep["game"], group)
        ylabel = "%" if scale == 100 else rows[0]["unit"]
        figure_id = f"sweep_{group}_{rows[0]['unit']}"
        if curve is not None:  # each quantity of the group as a line over the swept value, its interval a band
            lines = [{"name": label if len(rows) > 1 else "",
                      "values": [c["value"] * scale for c in row["variants"]],
                      "low": [c["ci95_low"] * scale for c in row["variants"]],
                      "high": [c["ci95_high"] * scale for c in row["variants"]]} for label, row in zip(labels, rows,
                                                                                                     strict=True)]
            figures.append({"id": figure_id, "kind": "curves", "title": f"{title} against {curve[0]} (95% bands)",
                            "x": curve[1], "xlabel": curve[0], "ylabel": ylabel, "series": lines[:6],
                            "reference": None})
            continue
        figures.append({"id": figure_id, "kind": "bars", "title": f"{title} (95% intervals)",
                        "ylabel": ylabel, "labels": labels, "series": series, "reference": None})
    return figures


def render_html(sweep: dict[str, Any]) -> str:
    names = [v["name"] for v in sweep["variants"]]
    body = [f"<h1>{html.escape(sweep['title'])}: sweep of {len(names)} variants</h1>",
            f"<p>{sweep['games']} games a variant, seed {sweep['seed']}, seats "
            f"<code>{html.escape(','.join(sweep['seats']))}</code>, base options "
            f"<code>{html.escape(sweep['options_text'])}</code>. The first variant is the baseline.</p>"]
    body += [f"<p class=\"note\">{html.escape(note)}</p>" for note in sweep["notes"]]
    body.append("<h2>Every quantity, per variant</h2>")
    header = ["quantity", *names]
    table_rows = []
    for row in sweep["quantities"]:
        cells: list[Any] = [rp.Raw(f"{html.escape(row['label'])}<br><small>{html.escape(row['name'])}</small>")]
        for cell in row["variants"]:
            text = html.escape(rp.quantity_text({**cell, "unit": row["unit"]}))
            if cell.get("significant"):
                text = f"<span class=\"sig\">{text} *</span><br><small>p(Holm) {cell['p_holm']:.2g}</small>"
            cells.append(rp.Raw(text))
        table_rows.append(cells)
    body.append(rp.table(header, table_rows))
    body.append("<h2>Side by side</h2><div class=\"grid\">")
    for figure in sweep["figures"]:
        body.append(f"<figure><figcaption>{html.escape(figure['title'])}</figcaption>\n{rp.draw(figure)}</figure>")
    body.append("</div>")
    body.append("<h2>How to reproduce it</h2>")
    body.append(f"<p><code>{html.escape(sweep['command'])}</code> with divedeck {html.escape(sweep['divedeck'])} "
                "gives this page byte for byte.</p>")
    body.append(rp.table(["variant", "data files (sha256)"], [
        [v["name"], rp.Raw("<br>".join(f"{html.escape(f['file'])}: <small>{f['sha256']}</small>"
                                                          for f in v["data_files"]))] for v in sweep["variants"]]))
    return rp.page(f"{sweep['title']} sweep", body)


def per_variant_csv(sweep: dict[str, Any]) -> str:
    import csv
    import io

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["variant", "quantity", "value", "ci95_low", "ci95_high", "p_holm", "significant"])
    for row in sweep["quantities"]:
        for variant, cell in zip(sweep["variants"], row["variants"], strict=True):
            writer.writerow([variant["name"], row["name"], cell["value"], cell["ci95_low"], cell["ci95_high"],
                             cell.get("p_holm", ""), option_text(cell.get("significant", False))])
    return buffer.getvalue()


def round_seed(seed: int, round_number: int) -> int:
    """The seed of a later round's games (tuning): fresh deals, reproducible from the run's seed."""
    return game_seed(seed, 1_000_000 + round_number)
