"""The linters and the type checker run as part of the tests, so CI keeps the code clean."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    result = run(sys.executable, "-m", "ruff", "check", "src", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_finds_nothing():
    result = run(sys.executable, "-m", "mypy")
    assert result.returncode == 0, result.stdout + result.stderr


def test_nothing_reads_outside_the_repository():
    """The project stands alone: no source or test names the shared folder beside the repository."""
    forbidden = ("../shared", f"{ROOT.parent}/")  # the shared folder, and any absolute path beside the repo
    offenders = [str(path.relative_to(ROOT)) for folder in ("src", "tests", "benchmarks", "docs")
                 for path in (ROOT / folder).rglob("*") if path.suffix in (".py", ".md", ".js", ".html")
                 and path != Path(__file__).resolve()
                 and any(word in path.read_text(encoding="utf-8") for word in forbidden)]
    assert offenders == []
