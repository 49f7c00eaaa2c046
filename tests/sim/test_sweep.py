"""divedeck sweep: variants from --vary (options, or a data field the game declares), their cross product, one
comparison report with Holm-corrected differences from the first variant."""

from __future__ import annotations

import hashlib
import json

import pytest
from typer.testing import CliRunner

from divedeck.cli import app
from divedeck.engine import get_game
from divedeck.engine.errors import ConfigError
from divedeck.games.hold_your_breath.cards import load_deck
from divedeck.sim import sweep


def test_vary_reads_lists_and_ranges_and_makes_the_cross_product() -> None:
    assert sweep.parse_vary("num_players=2,3").listed() == ("2", "3")
    assert sweep.parse_vary("deck.panic=2..5").listed() == ("2", "3", "4", "5")
    assert sweep.parse_vary("max_depth=100..200").listed(points=3) == ("100", "150", "200")
    grid = sweep.variant_grid([sweep.parse_vary("a=1,2"), sweep.parse_vary("b=x,y,z")])
    assert len(grid) == 6 and grid[0] == {"a": "1", "b": "x"} and grid[-1] == {"a": "2", "b": "z"}
    for bad in ("num_players", "=3", "x=5..2", "x=a..b"):
        with pytest.raises(ConfigError):
            sweep.parse_vary(bad)


def test_keys_must_be_options_or_declared_data_fields() -> None:
    with pytest.raises(ConfigError, match="no option or data field 'wings'"):
        sweep.check_keys("snorkeling", [sweep.parse_vary("wings=1,2")], {})
    with pytest.raises(ConfigError, match="from 0 to 8"):
        sweep.check_keys("hold-your-breath", [sweep.parse_vary("deck.panic=3,9")], {})
    with pytest.raises(ConfigError, match="sets too"):
        sweep.check_keys("hold-your-breath", [sweep.parse_vary("deck.panic=3,4")], {"cards": "mine.toml"})


def test_the_panic_data_field_writes_a_legal_68_card_deck(tmp_path) -> None:
    field = get_game("hold-your-breath").metrics.data_fields[0]
    for copies in (0, 2, 8):
        path = tmp_path / f"p{copies}.toml"
        path.write_text(field.write(copies))
        table = load_deck(str(path))
        panics = sum(n for icon, n in zip(table.face_icon, table.face_copies, strict=True) if icon == "panic")
        assert panics == 4 * copies and table.deck_size == 68


def test_a_sweep_marks_significant_differences_and_writes_its_data_files(tmp_path) -> None:
    out = tmp_path / "s.html"
    done = CliRunner().invoke(app, ["sweep", "hold-your-breath", "--vary", "deck.panic=1,7", "--games", "60",
                                    "--seats", "greedy,greedy", "--workers", "1", "--out", str(out)])
    assert done.exit_code == 0, done.output
    built = json.loads(out.with_suffix(".json").read_text())
    assert [v["name"] for v in built["variants"]] == ["deck.panic=1", "deck.panic=7"]
    uses = next(row for row in built["quantities"] if row["name"] == "played.panic")
    assert uses["variants"][1]["value"] > uses["variants"][0]["value"]
    assert uses["variants"][1]["significant"] and "p_holm" not in uses["variants"][0]
    assert built["comparisons"] == sum(1 for row in built["quantities"] for cell in row["variants"] if "p_holm" in cell)
    written = tmp_path / "s-data" / "deck.panic-7.toml"
    assert built["variants"][1]["data_files"] == [{"option": "cards", "file": "s-data/deck.panic-7.toml",
                                                   "sha256": hashlib.sha256(written.read_bytes()).hexdigest()}]
    page = out.read_text()
    assert "<svg" in page and "class=\"sig\"" in page and str(tmp_path) not in page
    assert out.with_suffix(".csv").read_text().startswith("variant,quantity,value")


def test_a_sweep_refuses_a_bad_variant_before_playing(tmp_path) -> None:
    done = CliRunner().invoke(app, ["sweep", "snorkeling", "--vary", "target_score=10,0", "--games", "50000",
                                    "--out", str(tmp_path / "s.html")])
    assert done.exit_code != 0 and not (tmp_path / "s.html").exists()
