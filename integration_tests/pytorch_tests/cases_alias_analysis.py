"""Alias analysis cases: PyTorch's test/cpp/jit/test_alias_analysis.cpp and
test/jit/test_alias_analysis.py, as data.

Each case is a graph and queries on an AliasDb of it, with what the original test
expects. Values are named as in the graph (`"x"`), `"inputs"` and `"outputs"` are
the graph's; a node is named by its output (`"@x"`) or its place in the top block
(`"#0"`). A move query moves the node when it can, and then checks it sits next to
the point. Queries PyTorch exposes to Python (`may_contain_alias` of two values,
`has_writers` of a value, the two moves) are also recorded under 2.13.

The C++ tests build some graphs through the API; here they are written as IR.
`prim::MakeTestTensor` (an operator of PyTorch's test build, a fresh tensor) is
`aten::rand` of a constant size. Not harvested: the tests that register operators
of their own (WriteTrackingTest.Basic, ContainerAliasingTest.Conservative and
MovesAcrossContainedWrites*, WildcardsTest.Basic, AliasRegistrationTest.*), and
test_multiple_compilation_units (a performance regression of saving 40 modules).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class AliasCase:
    name: str
    ir: str
    #: (query, *arguments, expected)
    queries: tuple[tuple, ...]
    origin: str = ""


FRESH = "aten::rand(%sz, %none, %none, %none, %none)"
FRESH_DEFS = """  %none : NoneType = prim::Constant()
  %two : int = prim::Constant[value=2]()
  %sz : int[] = prim::ListConstruct(%two)
"""

_TOPOLOGICAL = """graph():
  %a : Tensor = prim::AutogradZero()
  %b : Tensor = prim::AutogradZero(%a)
  %c : Tensor = prim::AutogradZero()
  %d : Tensor = prim::AutogradZero(%a, %b)
  %e : Tensor = prim::AutogradZero(%c, %b)
  %f : Tensor = prim::AutogradZero(%e)
  %g : Tensor = prim::AutogradZero(%e)
  %h : Tensor = prim::AutogradZero(%g)
  %i : Tensor = prim::AutogradZero(%g)
  %j : Tensor = prim::AutogradZero(%i)
  %k : Tensor = prim::AutogradZero(%i)
  %l : Tensor = prim::AutogradZero(%a)
  %m : Tensor = prim::AutogradZero()
    block0():
      %m.1 : Tensor = prim::AutogradZero(%l)
      -> ()
  %n : Tensor = prim::AutogradZero(%m)
  %o : Tensor = prim::AutogradZero(%n)
  %p : Tensor = prim::AutogradZero()
  %q : Tensor = prim::AutogradZero()
  %r : Tensor = prim::AutogradZero(%q)
  %s : Tensor = prim::AutogradZero(%q)
  return ()
"""


def _topological(name: str, *queries: tuple) -> AliasCase:
    return AliasCase(f"TopologicalMoveTest/{name}", _TOPOLOGICAL, queries, "TopologicalMoveTest")


CASES: list[AliasCase] = [
    _topological("SplitsDeps", ("move_before", "@q", "@s", True)),
    _topological("MoveAfterBackwardSimple", ("move_after", "@c", "@a", True)),
    _topological("MoveAfterBackwardInvalid", ("move_after", "@d", "@a", False)),
    _topological("MoveAfterNoOp", ("move_after", "@f", "@e", True)),
    _topological("MoveAfterBackwardMultipleDeps", ("move_after", "@e", "@c", True)),
    _topological("MoveAfterBackwardNonZeroWorkingSet", ("move_after", "@k", "@f", True)),
    _topological("MoveAfterForwardSimple", ("move_after", "@c", "@d", True)),
    _topological("MoveAfterForwardNonZeroWorkingSet", ("move_after", "@f", "@l", True)),
    _topological("MoveBeforeForwardSimple", ("move_before", "@b", "@d", True)),
    _topological("MoveBeforeBackwardSimple", ("move_before", "@c", "@a", True)),
    _topological("MoveBeforeNoOp", ("move_before", "@a", "@b", True)),
    _topological("MoveBeforeForwardWithDeps", ("move_before", "@f", "@m", True)),
    _topological("MoveBeforeBackwardWithDeps", ("move_before", "@l", "@f", True)),
    _topological(
        "DepsDisallowMove",
        ("move_after", "@l", "@m", False),
        ("move_before", "@m", "@l", False),
        ("move_after", "@n", "@l", False),
        ("move_before", "@l", "@n", False),
    ),
    _topological(
        "MoveAfterBeforeWithDeps",
        ("move_after", "@n", "@o", False),
        ("move_before", "@o", "@p", True),
    ),
    AliasCase(
        "AliasingMutationBlocksMoves",
        """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
  %addsB : Tensor = aten::add(%b, %b, %one)
  %c : Tensor = aten::add(%a, %b, %one)
  %aMut : Tensor = aten::add_(%a, %b, %one)
  %d : Tensor = aten::add(%c, %c, %one)
  return ()
""",
        (
            ("move_after", "@c", "@aMut", False),
            ("move_after", "@d", "@c", True),
            ("move_after", "@addsB", "@aMut", False),
            ("move_after", "@addsB", "@c", True),
        ),
        "AliasAnalysisTest",
    ),
    AliasCase(
        "AliasingMutationBlocksMoves2",
        """graph(%a : Tensor, %b : Tensor):
  %one : int = prim::Constant[value=1]()
"""
        + FRESH_DEFS
        + f"""  %fresh : Tensor = {FRESH}
  %usesB : Tensor = aten::add(%b, %fresh, %one)
  %aliasesB : Tensor = aten::select(%a, %one, %one)
  %mut : Tensor = aten::add_(%aliasesB, %fresh, %one)
  %last : Tensor = aten::add(%fresh, %aliasesB, %one)
  return ()
""",
        (
            ("move_after", "@aliasesB", "@mut", False),
            ("move_after", "@usesB", "@mut", False),
        ),
        "AliasAnalysisTest",
    ),
    AliasCase(
        "SideEffectsBlockMoves",
        """graph(%a : Tensor):
   = prim::Print(%a, %a)
   = prim::Print(%a)
  return ()
""",
        (
            ("move_after", "#0", "#1", False),
            ("move_before", "#1", "#0", False),
            ("move_before", "#0", "#1", True),
            ("move_after", "#1", "#0", True),
        ),
        "AliasAnalysisTest",
    ),
    AliasCase(
        "SideEffectsBlockMoves/fresh_between",
        FRESH_DEFS.join(["graph(%a : Tensor):\n", ""])
        + f"""   = prim::Print(%a, %a)
  %t : Tensor = {FRESH}
   = prim::Print(%a)
  return ()
""",
        (
            ("move_after", "#3", "#5", False),
            ("move_before", "#3", "#5", False),
            ("move_after", "#5", "#3", False),
            ("move_before", "#5", "#3", False),
        ),
        "AliasAnalysisTest",
    ),
    AliasCase(
        "MovingAcrossInnerBlocks",
        """graph():
  %c1 : int = prim::Constant[value=1]()
  %cond : bool = prim::Constant[value=1]()
"""
        + FRESH_DEFS
        + f"""  %a : Tensor = {FRESH}
  %b : Tensor = {FRESH}
  %ifout : Tensor = prim::If(%cond)
    block0():
      %aMut : Tensor = aten::add_(%a, %b, %c1)
      -> (%aMut)
    block1():
      -> (%a)
  %c : Tensor = aten::add(%a, %b, %c1)
  return ()
""",
        (("move_before", "@c", "@ifout", False),),
        "AliasAnalysisTest",
    ),
    AliasCase(
        "NoneHasNoWriters",
        """graph():
  %opt : Tensor? = prim::Constant()
  %out : Tensor = prim::unchecked_unwrap_optional(%opt)
  %ret.2 : Tensor = aten::div(%out, %out)
  return (%opt, %out, %ret.2)
""",
        (("has_writers", "opt", False),),
        "AliasAnalysisTest",
    ),
    AliasCase(
        "SafeToChangeAliasingRelationship",
        """graph(%x : Tensor):
  %3 : int = prim::Constant[value=1]()
  %2 : int = prim::Constant[value=0]()
  %b : Tensor = aten::add(%x, %2, %3)
  %c : Tensor = aten::add(%x, %2, %3)
  %d : Tensor = aten::add(%x, %2, %3)
  %e : Tensor = aten::add(%x, %2, %3)
  %f : Tensor[] = prim::ListConstruct(%e)
  %14 : (Tensor, Tensor) = prim::TupleConstruct(%b, %c)
  return (%14)
""",
        (
            ("safe_to_change_aliasing", "x", "b", False),
            ("safe_to_change_aliasing", "b", "x", False),
            ("safe_to_change_aliasing", "b", "c", False),
            ("safe_to_change_aliasing", "c", "b", False),
            ("safe_to_change_aliasing", "e", "x", False),
            ("safe_to_change_aliasing", "x", "e", False),
            ("safe_to_change_aliasing", "c", "d", True),
            ("safe_to_change_aliasing", "d", "c", True),
        ),
        "AliasAnalysisTest",
    ),
    AliasCase(
        "IsMutable",
        "graph(%x : Tensor):\n  %b : Tensor = aten::relu_(%x)\n  return (%b)\n",
        (("is_mutable", "@b", True),),
        "WriteTrackingTest",
    ),
    AliasCase(
        "IsImmutable",
        "graph(%x : Tensor, %y : Tensor):\n  %b : Tensor = aten::mul(%x, %y)\n  return (%b)\n",
        (("is_mutable", "@b", False),),
        "WriteTrackingTest",
    ),
    AliasCase(
        "HasWriters",
        """graph(%x : Tensor, %y : Tensor):
  %c1 : int = prim::Constant[value=1]()
  %b : Tensor = aten::add_(%x, %y, %c1)
  return (%b)
""",
        (("has_writers", "b", True), ("is_mutable", "@b", True)),
        "WriteTrackingTest",
    ),
    AliasCase(
        "MayContainAlias",
        """graph(%inp : Tensor[]):
  %x : str = prim::Constant[value="a"]()
  %y : Tensor = prim::Constant()
  %z : Tensor = prim::Constant()
  %a : (Tensor) = prim::TupleConstruct(%y)
  %b : Dict(str, Tensor) = prim::DictConstruct(%x, %y)
  %c : Tensor[] = prim::ListConstruct(%y)
  return (%a, %b, %c)
""",
        (
            *[("may_contain_alias", "y", out, True) for out in "abc"],
            *[("may_contain_alias", "z", out, False) for out in "abc"],
            ("may_contain_alias", "y", "inputs", True),
            ("may_contain_alias", "z", "inputs", False),
            ("may_contain_alias", ["y"], "outputs", True),
            ("may_contain_alias", "x", "outputs", False),
        ),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "MayContainAlias_cast",
        """graph(%input.1 : Tensor):
  %2 : NoneType = prim::Constant()
  %3 : bool = prim::Constant[value=0]()
  %4 : int = prim::Constant[value=6]()
  %5 : int = prim::Constant[value=1]()
  %a.1 : Tensor = aten::add(%input.1, %input.1, %5)
  %b.1 : Tensor = aten::to(%a.1, %4, %3, %3, %2)
  %c.1 : Tensor = aten::mul(%b.1, %b.1)
  return (%c.1)
""",
        (
            ("may_contain_alias", "c.1", "outputs", True),
            ("may_contain_alias", "a.1", "b.1", True),
            ("may_contain_alias", "b.1", "inputs", False),
            ("may_contain_alias", "b.1", "outputs", False),
        ),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "PrimitveValuesDontAliasContainers",
        """graph():
  %x : str = prim::Constant[value="a"]()
  %y : int = prim::Constant[value=1]()
  %a : (int) = prim::TupleConstruct(%y)
  %b : Dict(str, int) = prim::DictConstruct(%x, %y)
  %c : int[] = prim::ListConstruct(%y)
  return (%a, %b, %c)
""",
        tuple(("may_contain_alias", "y", out, False) for out in "abc"),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "InputsCanAliasOutputs",
        "graph(%x : Tensor, %y : Tensor):\n  %a : (Tensor) = prim::TupleConstruct(%x)\n"
        "  return (%a)\n",
        (
            ("may_contain_alias", "x", "a", True),
            ("may_contain_alias", "y", "a", True),
            ("may_contain_alias", "inputs", "outputs", True),
        ),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "NestedTupleConstruct",
        """graph(%x : int, %y : Tensor, %z : Tensor):
  %3 : int = prim::Constant[value=1]()
  %4 : bool = aten::eq(%x, %3)
  %a : (Tensor) = prim::If(%4)
    block0():
      %a.1 : (Tensor) = prim::TupleConstruct(%y)
      -> (%a.1)
    block1():
      %a.2 : (Tensor) = prim::TupleConstruct(%z)
      -> (%a.2)
  return (%a)
""",
        (("may_contain_alias", "y", "a", True), ("may_contain_alias", "z", "a", True)),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "NestedTypes",
        "graph():\n"
        + FRESH_DEFS
        + f"""  %a : Tensor = {FRESH}
  %a_list : Tensor[] = prim::ListConstruct(%a)
  %b : Tensor = {FRESH}
  %b_list : Tensor[] = prim::ListConstruct(%b)
  %13 : (Tensor[], Tensor[]) = prim::TupleConstruct(%a_list, %b_list)
  return (%13)
""",
        (
            ("may_contain_alias", "b_list", "a_list", True),
            ("may_contain_alias", "a_list", "b_list", True),
            ("may_contain_alias", "b_list", "13", True),
            ("may_contain_alias", "a_list", "13", True),
        ),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "Simple",
        """graph():
  %0 : Tensor = prim::Constant()
  %1 : Tensor = prim::Constant()
  %13 : (Tensor) = prim::TupleConstruct(%0)
  return (%13)
""",
        (
            ("may_contain_alias", "0", "13", True),
            ("may_contain_alias", "1", "13", False),
            ("may_contain_alias", ["0"], ["13"], True),
            ("may_contain_alias", ["0"], ["1"], False),
            ("may_contain_alias", ["1"], ["13"], False),
        ),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "Lists",
        """graph():
  %x : str = prim::Constant[value="a"]()
  %y : Tensor = prim::Constant()
  %c : Tensor[] = prim::ListConstruct(%y)
  %d : Tensor[] = prim::ListConstruct(%y)
  return (%c, %d)
""",
        (
            ("may_contain_alias", "x", "c", False),
            ("may_contain_alias", "c", "x", False),
            ("may_contain_alias", "d", "c", True),
            ("may_contain_alias", "c", "d", True),
        ),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "Lists2",
        """graph():
  %0 : int = prim::Constant[value=2]()
  %1 : int = prim::Constant[value=3]()
"""
        + FRESH_DEFS
        + f"""  %2 : int[] = prim::ListConstruct(%0, %1)
  %x : Tensor = {FRESH}
  %y : Tensor = {FRESH}
  %z : Tensor = {FRESH}
  %fresh : Tensor = {FRESH}
  %foo : Tensor[] = prim::ListConstruct(%x, %y)
  %43 : Tensor[] = aten::append(%foo, %z)
  return ()
""",
        (
            ("may_alias", "x", "y", True),
            ("may_alias", "y", "z", True),
            ("may_alias", "x", "z", True),
            ("may_alias", "x", "fresh", False),
            ("may_alias", "y", "fresh", False),
            ("may_alias", "z", "fresh", False),
        ),
        "ContainerAliasingTest",
    ),
    AliasCase(
        "TypeIsolation",
        """graph(%ten_list : Tensor[], %int_list : int[], %opt_ten_list : Tensor[]?):
  %ten : Tensor = prim::Constant()
  %4 : Tensor[] = aten::append(%ten_list, %ten)
  %ten_ten_list : Tensor[][] = prim::Constant()
  %int_int_list : int[][] = prim::Constant()
  return ()
""",
        (
            ("has_writers", "int_list", False),
            ("has_writers", "opt_ten_list", True),
            ("has_writers", "ten_list", True),
            ("may_contain_alias", "int_list", "opt_ten_list", False),
            ("may_contain_alias", "ten_list", "opt_ten_list", True),
            ("may_alias", "ten_list", "opt_ten_list", True),
            ("may_contain_alias", "ten_list", "ten_ten_list", True),
            ("may_contain_alias", "ten_list", "ten", True),
            ("may_contain_alias", "int_int_list", "ten_ten_list", False),
        ),
        "WildcardsTest",
    ),
    AliasCase(
        "InvariantContainerAliasing/optional_elements",
        """graph(%ten_list : Tensor[], %ten_opt_list : Tensor?[]):
  %ten : Tensor = prim::Constant()
  %4 : Tensor[] = aten::append(%ten_list, %ten)
  return ()
""",
        (
            ("has_writers", "ten_opt_list", False),
            ("has_writers", "ten_list", True),
            ("may_contain_alias", "ten_list", "ten_opt_list", True),
            ("may_alias", "ten_list", "ten_opt_list", False),
        ),
        "WildcardsTest",
    ),
    AliasCase(
        "InvariantContainerAliasing/ranks",
        "graph(%float_3D : Float(*, *, *), %float_2D : Float(*, *)):\n  return ()\n",
        (("may_alias", "float_3D", "float_2D", True),),
        "WildcardsTest",
    ),
    AliasCase(
        "InvariantContainerAliasing/lists_of_ranks",
        "graph(%float_3D_list : Float(*, *, *)[], %float_2D_list : Float(*, *)[], "
        "%ten : Tensor):\n  return ()\n",
        (
            ("may_alias", "float_3D_list", "float_2D_list", True),
            ("may_contain_alias", "float_3D_list", "ten", True),
            ("may_contain_alias", "float_2D_list", "ten", True),
        ),
        "WildcardsTest",
    ),
    AliasCase(
        "AliasMoveAtenListOp",
        "graph():\n"
        + FRESH_DEFS
        + f"""  %x : Tensor = {FRESH}
  %8 : int = prim::Constant[value=0]()
  %5 : int = prim::Constant[value=1]()
  %4 : int = prim::Constant[value=2]()
  %y : Tensor[] = prim::ListConstruct(%x)
  %6 : Tensor = aten::add_(%x, %4, %5)
  %9 : Tensor = aten::cat(%y, %8)
  return (%9)
""",
        (("may_alias", "x", "9", False), ("move_before", "@y", "@9", False)),
        "AliasRegistrationTest",
    ),
    # test/jit/test_alias_analysis.py
    AliasCase(
        "becomes_wildcard_annotations",
        """graph(%a.1 : Tensor, %b.1 : Tensor):
  %11 : NoneType = prim::Constant()
  %8 : int = prim::Constant[value=0]()
  %7 : int = prim::Constant[value=1]()
  %x.1 : Tensor = aten::add(%a.1, %b.1, %7)
  %y.1 : Tensor[] = aten::split(%x.1, %7, %8)
  return ()
""",
        (("may_contain_alias", "x.1", "y.1", True), ("may_contain_alias", "x.1", "a.1", True)),
        "test_becomes_wildcard_annotations",
    ),
    AliasCase(
        "nested_list_construct_not_wildcard",
        "graph(%x : Tensor):\n"
        + FRESH_DEFS
        + f"""  %y : Tensor = {FRESH}
  %l : Tensor[] = prim::ListConstruct(%y)
  return (%l)
""",
        (("may_contain_alias", "y", "l", True), ("may_contain_alias", "x", "y", False)),
        "test_nested_list_construct_not_wildcard",
    ),
]
