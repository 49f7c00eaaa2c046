"""The linters and the type checker run as part of the tests, so CI keeps the code clean."""

from __future__ import annotations

import re
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
    pattern = re.compile(r"\.\./shared|/work/")
    offenders = [str(path.relative_to(ROOT)) for folder in ("src", "tests", "benchmarks")
                 for path in (ROOT / folder).rglob("*.py")
                 if path != Path(__file__).resolve() and pattern.search(path.read_text(encoding="utf-8"))]
    assert offenders == []
