"""Shrinking a program that shows a disagreement, keeping the disagreement.

`minimize(program, still_fails)` edits the program's source with Python's
`ast`, one small step at a time, and keeps a step when `still_fails(new
source)` holds:

- delete a statement (an emptied body becomes `pass`);
- replace an `if`, `for` or `while` by its body (or an `if` by its `else`),
  or drop an `else`/`elif`;
- replace an expression by one of its operands (`a + b` by `a`, `x if c
  else y` by `x`, `f(a, b)` by `a`, `not c` by `c`), or a literal by a
  smaller one.

It repeats until no step keeps the failure (a local minimum, as delta
debugging finds). Steps that make the program ill-typed are harmless: the
predicate compiles with PyTorch first and rejects anything PyTorch
refuses, so a minimized program is still a valid TorchScript program.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator

Predicate = Callable[[str], bool]


def _bodies(tree: ast.AST) -> Iterator[tuple[ast.AST, str]]:
    """(node, field) for every statement list in the tree."""
    for node in ast.walk(tree):
        for name in ("body", "orelse"):
            value = getattr(node, name, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                yield node, name


def _statement_edits(tree: ast.Module) -> Iterator[ast.Module]:
    """Trees with one statement deleted or one compound statement flattened."""
    sites = list(_bodies(tree))
    for k, (_, field) in enumerate(sites):
        n = len(getattr(sites[k][0], field))
        for i in reversed(range(n)):
            t = copy.deepcopy(tree)
            owner, f = list(_bodies(t))[k]
            body = getattr(owner, f)
            stmt = body[i]
            # delete it (a function too: the predicate rejects it where it is called)
            new_body = body[:i] + body[i + 1 :]
            if not new_body:
                if f == "orelse":
                    setattr(owner, f, [])
                    yield t
                    continue
                new_body = [ast.Pass()]
            setattr(owner, f, new_body)
            yield t
            # flatten it
            for inner in ("body", "orelse"):
                t2 = copy.deepcopy(tree)
                owner2, f2 = list(_bodies(t2))[k]
                body2 = getattr(owner2, f2)
                stmt2 = body2[i]
                replacement = getattr(stmt2, inner, None)
                if not isinstance(stmt2, (ast.If, ast.For, ast.While)) or not replacement:
                    continue
                if isinstance(stmt2, (ast.For, ast.While)) and inner == "orelse":
                    continue
                setattr(owner2, f2, body2[:i] + replacement + body2[i + 1 :])
                yield t2
            if isinstance(stmt, ast.If) and stmt.orelse:
                t3 = copy.deepcopy(tree)
                owner3, f3 = list(_bodies(t3))[k]
                getattr(owner3, f3)[i].orelse = []
                yield t3


def _operands(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BinOp):
        return [node.left, node.right]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    if isinstance(node, ast.UnaryOp):
        return [node.operand]
    if isinstance(node, ast.IfExp):
        return [node.body, node.orelse]
    if isinstance(node, ast.Compare):
        return [node.left, *node.comparators]
    if isinstance(node, ast.Call):
        return [*node.args, *(k.value for k in node.keywords)]
    if isinstance(node, ast.Subscript):
        return [node.value]
    return []


def _expression_edits(tree: ast.Module) -> Iterator[ast.Module]:
    """Trees with one expression replaced by one of its operands or a simpler literal."""
    exprs = [n for n in ast.walk(tree) if isinstance(n, ast.expr)]
    # PyTorch dies of SIGFPE on an int `%` by zero: never make a divisor 0
    divisors = {
        id(n.right)
        for n in ast.walk(tree)
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Mod, ast.FloorDiv))
    }
    for k in range(len(exprs)):
        node = exprs[k]
        choices: list[ast.expr] = list(_operands(node))
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            if not isinstance(node.value, bool) and node.value not in (0, 1):
                if id(node) not in divisors:
                    choices.append(ast.Constant(value=type(node.value)(0)))
                choices.append(ast.Constant(type(node.value)(1)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) > 1:
            choices.append(ast.Constant(value=node.value[:1]))
        for j in range(len(choices)):
            t = copy.deepcopy(tree)
            target = [n for n in ast.walk(t) if isinstance(n, ast.expr)][k]
            replacement = copy.deepcopy(choices[j])
            if not _replace(t, target, replacement):
                continue
            yield t


def _replace(tree: ast.AST, target: ast.expr, replacement: ast.expr) -> bool:
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if value is target:
                setattr(parent, name, replacement)
                return True
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is target:
                        value[i] = replacement
                        return True
    return False


def _unparse(tree: ast.Module) -> str | None:
    try:
        return ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    except Exception:
        return None


def minimize(source: str, still_fails: Predicate, *, max_checks: int = 3000) -> str:
    """The smallest source found that `still_fails`, by greedy statement and expression edits."""
    best = source
    checks = 0
    progress = True
    while progress and checks < max_checks:
        progress = False
        tree = ast.parse(best)
        for edits in (_statement_edits, _expression_edits):
            for candidate in edits(tree):
                text = _unparse(candidate)
                if text is None or text == best or len(text) >= len(best):
                    continue
                checks += 1
                if still_fails(text):
                    best = text
                    progress = True
                    break
                if checks >= max_checks:
                    break
            if progress:
                break
    return best
