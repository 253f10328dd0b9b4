"""The error code scanner of the tests: which codes the source raises, read from the source
(``ast``). Never imported by the app: each app declares its codes in its ``codes.py``
(``tabletop.error_codes.catalogue()``); ``tests/tabletop/test_error_catalogue.py`` holds those
declarations against what this scanner finds.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

#: The names a code is raised with: the classes (``TabletopError`` itself takes a ``code=``);
#: a subclass defined in the scanned source counts as the first of these it derives from
#: (``guilds.services.reserves.OnMission`` is a ``RuleViolation``), except a direct subclass of
#: ``TabletopError`` with its own status (``Throttled``), which counts as itself.
RAISERS = frozenset({"RuleViolation", "NotAllowed", "NotFound", "Conflict", "TabletopError"})
#: Helpers that raise a code handed to them: name -> (position of the code argument, class).
CODE_ARGS = {
    "require": (1, "RuleViolation"),  # Decision.require / the games' require(cond, code, msg)
    "get_owned": (2, "NotFound"),  # guilds.services._common.get_owned(queryset, pk, code)
    "Readiness": (1, "RuleViolation"),  # guilds.services.dormitory.Readiness(ok, code, msg)
}


def _codes(node: ast.AST | None) -> list[str]:
    """The literal codes ``node`` can be: a string, or a conditional of strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _codes(node.body), _codes(node.orelse)
        return body + orelse if body and orelse else []
    return []


def _name(node: ast.AST) -> str | None:
    return getattr(node, "id", None) or getattr(node, "attr", None)


def codes_raised_in(*paths: Path) -> dict[str, set[tuple[str, str]]]:
    """Every code the Python source under ``paths`` (files or folders; ``migrations`` skipped)
    raises, read from the source: the first argument of ``RuleViolation``/``NotAllowed``/
    ``NotFound``/``Conflict`` (or of a subclass defined there), the code argument of the
    ``CODE_ARGS`` helpers, and every ``code=`` keyword; a code may be a literal or a
    conditional of literals. ``{code: {(class name, "path:line")}}`` (``TabletopError(code=)``
    counts as ``RuleViolation``, its default class). A code computed any other way is not
    seen: write codes literally."""
    found: dict[str, set[tuple[str, str]]] = defaultdict(set)
    files = sorted(
        f
        for p in paths
        for f in ([p] if p.is_file() else p.rglob("*.py"))
        if "migrations" not in f.parts
    )
    trees = [(path, ast.parse(path.read_text())) for path in files]
    base = {name: name for name in RAISERS}
    grown = True
    while grown:  # subclasses of subclasses
        grown = False
        for _, tree in trees:
            for node in ast.walk(tree):
                if isinstance(node, ast.ClassDef) and node.name not in base:
                    roots = [base[b] for b in map(_name, node.bases) if b in base]
                    if roots:
                        own = roots[0] == "TabletopError"
                        base[node.name], grown = node.name if own else roots[0], True
    for path, tree in trees:
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            codes: list[str] = []
            cls = None
            if name in base and node.args:
                cls, codes = base[name], _codes(node.args[0])
            elif name in CODE_ARGS and len(node.args) > CODE_ARGS[name][0]:
                cls, codes = CODE_ARGS[name][1], _codes(node.args[CODE_ARGS[name][0]])
            for kw in node.keywords:
                if kw.arg == "code" and _codes(kw.value):
                    codes = _codes(kw.value)
                    cls = cls if name in base else "RuleViolation"
            kind = "RuleViolation" if cls in (None, "TabletopError") else str(cls)
            for code in codes:
                found[code].add((kind, f"{path}:{node.lineno}"))
    return found
