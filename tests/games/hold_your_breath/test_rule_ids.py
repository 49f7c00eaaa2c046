"""Every rule ID of Hold Your Breath! has a test whose name carries it and whose docstring cites it, and is
written in docs/games/hold-your-breath.md."""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
DOC = HERE.parents[2] / "docs" / "games" / "hold-your-breath.md"

RULE_IDS = (
    [f"HYB-C{n}" for n in range(1, 4)]
    + [f"HYB-R{n}" for n in (1, 2, 3, 10, 11, 12, 13, 14, 20, 21, 22, 23, 24, 25, 26, 30, 31, 32, 33, 34, 40, 41)]
    + [f"HYB-A{n}" for n in range(1, 35)]
    + [f"HYB-I{n}" for n in range(1, 10)]
)


def rule_tests() -> dict[str, list[tuple[str, str]]]:
    """Rule ID -> (test name, docstring) of every test function of this folder whose name carries the ID."""
    found: dict[str, list[tuple[str, str]]] = {}
    for path in HERE.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_HYB_"):
                prefix, number = node.name.split("_")[2][0], node.name.split("_")[2][1:]
                rule = f"HYB-{prefix}{number}"
                found.setdefault(rule, []).append((node.name, ast.get_docstring(node) or ""))
    return found


def test_every_rule_id_has_a_test_citing_it() -> None:
    found = rule_tests()
    missing = [rule for rule in RULE_IDS if rule not in found]
    assert missing == []
    uncited = [name for rule, tests in found.items() for name, doc in tests if rule not in doc]
    assert uncited == []
    unknown = sorted(set(found) - set(RULE_IDS))
    assert unknown == []


def test_every_rule_id_is_in_the_documentation() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert [rule for rule in RULE_IDS if rule not in text] == []
