"""Every rule ID that docs/games/*.md defines is cited by a test, and every ID a test cites is defined there.

A doc *defines* a rule where a line starts with its ID in bold (``**SNK-R12 — drawing.**``, ``- **HYB-I4** ...``)
or where a table row's first cell is the ID (``| BRM-A7 | ... |``, the interpretations); everywhere else an ID is
only mentioned. A test *cites* an ID when its function name carries it, with ``_`` for ``-`` (``test_SNK_R12_...``,
a clause letter allowed: ``test_SNK_R13a_...`` cites SNK-R13), or when its docstring names it (``SNK-R13 (a)``).
Every ``tests/**/test_*.py`` is read with ``ast``; nothing is imported, and no list of IDs is kept by hand: a new
game only needs its doc written the same way.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "games"
TESTS = ROOT / "tests"

ID = r"[A-Z]{2,}-[A-Z]+\d+"
# A definition: a bold ID opening a line (or a list item), or an ID alone in a table row's first cell.
DEFINITION = re.compile(rf"^(?:- )?\*\*(?P<bold>{ID})\b|^\|\s*(?P<cell>{ID})\s*\|", re.MULTILINE)
# A declared range in a doc's ID table: | `SNK-A1`..`A27` | ... |, or a single | `SNK-V1` | ... |.
DECLARED = re.compile(r"^\|\s*`(?P<prefix>[A-Z]{2,})-(?P<kind>[A-Z]+)(?P<low>\d+)`"
                      r"(?:\.\.`(?P=kind)(?P<high>\d+)`)?\s*\|", re.MULTILINE)
# A mention anywhere (a docstring, a doc, the code): the ID, and a clause letter written right after it, if any.
MENTION = re.compile(rf"\b(?P<id>{ID})(?P<clause>[a-z])?\b")
HEADING = re.compile(r"^#", re.MULTILINE)


@dataclass(frozen=True)
class Rule:
    id: str
    doc: str  # the doc's file name
    text: str  # the definition: its table row, or its paragraph up to the next definition or heading


@dataclass(frozen=True)
class Function:
    where: str  # path::function
    name: str
    docstring: str

    def name_ids(self) -> list[tuple[str, str]]:
        """The (ID, clause letter) pairs the name carries: ``test_SNK_R13a_x`` -> [("SNK-R13", "a")]."""
        words = self.name.split("_")
        found = []
        for prefix, rest in zip(words, words[1:], strict=False):
            match = re.fullmatch(r"([A-Z]+\d+)([a-z]?)", rest)
            if re.fullmatch(r"[A-Z]{2,}", prefix) and match:
                found.append((f"{prefix}-{match.group(1)}", match.group(2)))
        return found

    def docstring_ids(self) -> set[str]:
        return {match.group("id") for match in MENTION.finditer(self.docstring)}

    def cited(self) -> set[str]:
        return {rule for rule, _ in self.name_ids()} | self.docstring_ids()


@cache
def rules() -> dict[str, Rule]:
    """Every rule ID defined in docs/games/*.md."""
    found: dict[str, Rule] = {}
    for path in sorted(DOCS.glob("*.md")):
        text = path.read_text(encoding="utf-8")
        matches = list(DEFINITION.finditer(text))
        ends = sorted([m.start() for m in matches[1:]] + [m.start() for m in HEADING.finditer(text)] + [len(text)])
        for match in matches:
            rule = match.group("bold") or match.group("cell")
            end = next(e for e in ends if e > match.start())
            if match.group("cell"):
                end = text.find("\n", match.start())
            assert rule not in found, f"{rule} is defined twice: in {found[rule].doc} and {path.name}"
            found[rule] = Rule(rule, path.name, text[match.start():end])
    return found


@cache
def functions() -> list[Function]:
    """Every test function (module level or in a class) of every tests/**/test_*.py."""
    found = []
    for path in sorted(TESTS.rglob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
                where = f"{path.relative_to(ROOT).as_posix()}::{node.name}"
                found.append(Function(where, node.name, ast.get_docstring(node) or ""))
    return found


def citations() -> dict[str, list[Function]]:
    cited: dict[str, list[Function]] = defaultdict(list)
    for test in functions():
        for rule in sorted(test.cited()):
            cited[rule].append(test)
    return cited


def test_every_game_doc_defines_rules_with_one_prefix() -> None:
    """Each docs/games/*.md defines rule IDs (so the pattern above still finds them), all with one game prefix."""
    by_doc: dict[str, set[str]] = defaultdict(set)
    for rule in rules().values():
        by_doc[rule.doc].add(rule.id.split("-")[0])
    docs = sorted(path.name for path in DOCS.glob("*.md"))
    assert docs, "no game docs found"
    assert sorted(by_doc) == docs, f"docs that define no rule ID: {sorted(set(docs) - set(by_doc))}"
    mixed = {doc: sorted(prefixes) for doc, prefixes in by_doc.items() if len(prefixes) != 1}
    assert not mixed, f"docs that define IDs with several prefixes: {mixed}"
    assert len({next(iter(prefixes)) for prefixes in by_doc.values()}) == len(by_doc), "two docs share a prefix"


def test_definitions_fill_the_ranges_each_doc_declares() -> None:
    """Each doc's ID table declares its ranges (``SNK-A1``..``A27``): every defined ID lies in one, and both ends of
    every range are defined, so no definition is written in a form the pattern misses."""
    problems = []
    for path in sorted(DOCS.glob("*.md")):
        defined = {rule.id for rule in rules().values() if rule.doc == path.name}
        ranges = {}
        for match in DECLARED.finditer(path.read_text(encoding="utf-8")):
            low = int(match.group("low"))
            ranges[f"{match.group('prefix')}-{match.group('kind')}"] = (low, int(match.group("high") or low))
        assert ranges, f"{path.name} declares no ID ranges"
        for stem, (low, high) in ranges.items():
            problems += [f"{path.name}: {stem}{n} ends a declared range but is not defined"
                         for n in (low, high) if f"{stem}{n}" not in defined]
        for rule in sorted(defined):
            stem, number = rule.rstrip("0123456789"), int(rule.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ-"))
            low, high = ranges.get(stem, (1, 0))
            if not low <= number <= high:
                problems.append(f"{path.name}: {rule} lies outside the ranges the doc declares")
    assert not problems, "\n".join(problems)


def test_every_rule_id_is_cited_by_a_test() -> None:
    """Every rule the docs define has a test that cites it by name or docstring."""
    cited = citations()
    missing = [f"{rule.id} ({rule.doc})" for rule in rules().values() if rule.id not in cited]
    assert not missing, (
        f"{len(missing)} rule IDs are cited by no test (name a test test_<ID>_... with the ID in its docstring): "
        + ", ".join(missing))


def test_every_cited_rule_id_is_defined() -> None:
    """A test cites only IDs that a doc defines (a cited ID that is not defined is a typo or a deleted rule)."""
    defined = rules()
    unknown = sorted(f"{rule} in {test.where}" for rule, found in citations().items() if rule not in defined
                     for test in found)
    assert not unknown, "tests cite rule IDs that no doc in docs/games defines:\n" + "\n".join(unknown)


def test_a_test_named_after_a_rule_cites_it_in_its_docstring() -> None:
    """A test whose name carries a rule ID says so in its docstring too, with the clause if the name has one
    (``test_SNK_R13a_...``: ``SNK-R13 (a)``), and that clause exists in the rule's definition."""
    defined = rules()
    problems = []
    for test in functions():
        for rule, clause in test.name_ids():
            if rule not in test.docstring_ids():
                problems.append(f"{test.where}: the docstring does not cite {rule}")
            if clause and not re.search(rf"\b{rule}(?: \({clause}\)|{clause}\b)", test.docstring):
                problems.append(f"{test.where}: the docstring does not cite {rule} ({clause})")
            if clause and rule in defined and f"({clause})" not in defined[rule].text:
                problems.append(f"{test.where}: {rule} has no clause ({clause})")
    assert not problems, "\n".join(problems)


def test_every_rule_id_the_code_and_docs_name_is_defined() -> None:
    """The IDs named in src/ (IllegalAction rules, terminations, comments) and in docs/ are all defined, so an
    error never points a player at a rule that does not exist."""
    defined = rules()
    unknown = []
    for folder, suffixes in (("src", (".py", ".js", ".toml", ".html", ".md")), ("docs", (".md",))):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in suffixes and path.is_file():
                unknown += [f"{match.group('id')} in {path.relative_to(ROOT).as_posix()}"
                            for match in MENTION.finditer(path.read_text(encoding="utf-8"))
                            if match.group("id") not in defined]
    assert not unknown, "rule IDs that no doc in docs/games defines:\n" + "\n".join(sorted(set(unknown)))


def test_the_parsers_read_definitions_and_citations_as_described() -> None:
    """The patterns above on made-up lines: a bold label and a table row define; a mention does not; a name with
    a clause letter cites the rule; an ID in a docstring cites it."""
    text = "**ABC-R1 — x.** see ABC-R2\n- **ABC-I3** y\n| ABC-A4 | z |\n| `ABC-A1`..`A4` | w |\nABC-R9 mentioned\n"
    assert [m.group("bold") or m.group("cell") for m in DEFINITION.finditer(text)] == ["ABC-R1", "ABC-I3", "ABC-A4"]
    test = Function("x", "test_ABC_R13a_and_ABC_A2_things", "ABC-R13 (a) and ABC-A2, see XYZ-C1; UTF-8 is no ID")
    assert test.name_ids() == [("ABC-R13", "a"), ("ABC-A2", "")]
    assert test.cited() == {"ABC-R13", "ABC-A2", "XYZ-C1"}
    assert Function("y", "test_a_card_Y3_is_no_rule", "").name_ids() == []


def test_every_rule_id_has_a_test_named_after_it() -> None:
    """The tests follow the repository's convention (README: rule tests are named after the rule IDs they check):
    beyond being cited somewhere, every rule has a test whose name carries its ID."""
    named = {rule for test in functions() for rule, _ in test.name_ids()}
    unnamed = [f"{rule.id} ({rule.doc})" for rule in rules().values() if rule.id not in named]
    assert not unnamed, "rule IDs that no test is named after (test_<ID>_...): " + ", ".join(unnamed)
