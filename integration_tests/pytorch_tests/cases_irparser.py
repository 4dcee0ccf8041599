"""IR parser cases: PyTorch's test/cpp/jit/test_irparser.cpp, and more (see README.md).

Each case is IR text and what the test expects of it:

- "roundtrip": parsing and printing gives the text back (`checkRoundtrip`);
- "parse": it parses; the printed graph is compared with PyTorch's (recorded);
- "error": parsing fails (`EXPECT_ANY_THROW`).
"""

from __future__ import annotations

CASES: list[tuple[str, str, str]] = [
    (
        "Basic",
        "parse",
        """graph(%0 : Tensor, %1 : Tensor):
  %2 : Tensor = foo::add(%0, %1)
  %res, %3 = foo::mul(%0, %2)
  %x, %y = foo::combine(%res, %2, %3)
  return (%x, %y, %res)""",
    ),
    (
        "NestedBlock",
        "roundtrip",
        """graph():
  %0 : Tensor = a::a()
    block0():
      %1 : Tensor = b::b()
        block0():
          %2 : Tensor = c::c()
          -> ()
      -> ()
  %3 : Tensor = d::d()
  return (%3)
""",
    ),
    (
        "If",
        "roundtrip",
        """graph(%0 : Tensor,
      %1 : Tensor,
      %2 : Tensor):
  %3 : int = prim::Constant[value=1]()
  %4 : Tensor = aten::add(%0, %1, %3)
  %5 : Tensor = prim::If(%2)
    block0():
      %6 : int = prim::Constant[value=1]()
      %7 : Tensor = aten::add(%1, %3, %6)
      %8 : int = prim::Constant[value=1]()
      %9 : Tensor = aten::add(%7, %3, %8)
      -> (%9)
  %10 : int = prim::Constant[value=1]()
  %11 : Tensor = aten::add(%5, %3, %10)
  return (%11)
""",
    ),
    (
        "If2",
        "roundtrip",
        """graph(%0 : Tensor,
      %1 : Tensor,
      %2 : Tensor):
  %3 : int = prim::Constant[value=-1]()
  %4 : Tensor = aten::add(%0, %1, %3)
  %5 : Tensor = prim::If(%2)
    block0():
      %6 : int = prim::Constant[value=1]()
      %7 : Tensor = aten::add(%1, %3, %6)
      %8 : int = prim::Constant[value=1]()
      %9 : Tensor = aten::add(%7, %3, %8)
      -> (%9)
  %10 : int = prim::Constant[value=-987]()
  %11 : Tensor = aten::add(%5, %3, %10)
  return (%11)
""",
    ),
    ("InferredTypeIsTensor", "parse", "graph(%a):\n  return (%a)"),
    ("ValueReuse", "parse", "graph(%x):\n  %x = a::a(%x)\n  %x = b::b(%x)\n  return (%x)"),
    (
        "Attributes",
        "roundtrip",
        """graph(%0 : Tensor,
      %1 : Tensor,
      %2 : Tensor):
  %3 : int, %4 : Tensor = qqq::qqq[i_asdf=2, f_asdf=3., s_asdf="hello", ss_asdf=["hello world", "bye bye"]](%0)
  %5 : int, %6 : Tensor = ppp::ppp[i_asdf=2, f_asdf=3., s_asdf="\\"\\"\\"\\"\\nhe\\"llo", q=[3, 2, 4]](%0)
  %7 : float = vvv::vvv[s_asdf="hello"](%0)
  %8 : string = z::z()
  return (%7)
""",
    ),
    (
        "OptionalTypes",
        "roundtrip",
        """graph(%0 : Tensor,
      %1 : Tensor,
      %2 : Tensor):
  %3 : int? = prim::Constant()
  return (%3)
""",
    ),
    (
        "StarTensor",
        "roundtrip",
        """graph(%0 : Tensor,
      %1 : Tensor,
      %2 : Tensor):
  %3 : Float(*, *, *) = prim::Constant()
  return (%3)
""",
    ),
    (
        "UnshapedTensor",
        "roundtrip",
        """graph(%0 : Tensor,
      %1 : Tensor,
      %2 : Tensor):
  %3 : Long() = prim::Constant()
  return (%3)
""",
    ),
    (
        "ShapedTensor",
        "roundtrip",
        """graph(%0 : Tensor,
      %1 : Tensor,
      %2 : Tensor):
  %3 : Double(4, 4, 5) = prim::Constant()
  return (%3)
""",
    ),
    (
        "NestedContainer",
        "roundtrip",
        """graph():
  %0 : float[] = prim::Constant[value=[1., 2., 3.]]()
  %1 : str[] = prim::Constant[value=["ab", "cd", "ef"]]()
  %2 : (float[], str[]) = prim::TupleConstruct(%0, %1)
  return (%2)
""",
    ),
    (
        "MalformedShapeAnnotation",
        "error",
        """graph(%0 : Tensor,
    %1 : Tensor,
    %2 : Tensor):
  %3 : Double(4!, 4, 5) = prim::Constant()
  return (%3)
""",
    ),
    ("FileCheck", "parse", "\n    graph(%a):\n    # CHECK: return\n      return (%a)"),
    (
        "Strides",
        "parse",
        """graph(%a : Float(4, 5),
      %b : Float(4, 5, strides=[5, 1]),
      %c : Double(*, *)):
  return (%a)
""",
    ),
    ("MalformedStrides", "error", "graph(%a : Float(4, strides=[5], 5)):\n  return (%a)\n"),
    (
        "TensorShapes",
        "roundtrip",
        """graph(%a : Float(4, 5),
      %b : Float(4, 5, strides=[5, 1]),
      %c : Double(*, *)):
  return (%a)
""",
    ),
    (
        "DeviceAndRequiresGradTensors",
        "roundtrip",
        """graph(%a : Float(*, *, device=cpu),
      %b : Float(*, *, requires_grad=1),
      %c : Long(5, 10, requires_grad=1, device=cpu),
      %d : Float(5, requires_grad=0, device=cuda:2),
      %e : Long(4, 3, 1, strides=[6, 2, 1], requires_grad=0, device=cuda:1),
      %f : Float(),
      %g : Float(device=cpu),
      %h : Float(requires_grad=1),
      %i : Float(requires_grad=0, device=cuda:1),
      %j : Double(*, *, requires_grad=0)):
  return (%a)
""",
    ),
    (
        "ListConstant",
        "parse",
        "graph():\n  %d : int[] = prim::Constant[value=[1,2,3]]()\n  return (%d)\n",
    ),
    ("PartialStarTensor", "roundtrip", "graph(%x : Float(10, *, 10)):\n  return (%x)\n"),
    (
        "ComplexTensorAttributes",
        "roundtrip",
        """graph(%x : Double(*, 200, *, requires_grad=1, device=cuda:1),
      %b : Float(5, *, requires_grad=1),
      %c : Long(*, 10, device=cpu)):
  return (%x)
""",
    ),
]


#: Further cases for what the issue found missing (printing and reading constants,
#: permissive reading, errors), each checked on PyTorch 2.13 by `record.py`: "parse"
#: where PyTorch reads the text but prints it differently (it names only inputs).
EXTRA_CASES: list[tuple[str, str, str]] = [
    # a node without outputs, as PyTorch's own tests write it (test_constant_pooling.cpp)
    ("NodeWithoutOutputs", "parse", "graph(%a : Tensor):\n  prim::Print(%a)\n  return ()\n"),
    ("AnnotatedEmptyListConstant", "roundtrip", "graph():\n  %0 : int[] = prim::Constant[value=annotate(List[int], [])]()\n  return (%0)\n"),
    ("AnnotatedEmptyDictConstant", "roundtrip", "graph():\n  %0 : Dict(str, int) = prim::Constant[value=annotate(Dict[str, int],{})]()\n  return (%0)\n"),
    ("NoneConstant", "roundtrip", "graph():\n  %0 : NoneType = prim::Constant()\n  return (%0)\n"),
    ("BoolConstants", "roundtrip", "graph():\n  %0 : bool = prim::Constant[value=1]()\n  %1 : bool = prim::Constant[value=0]()\n  return (%0, %1)\n"),
    ("FloatConstants", "roundtrip", "graph():\n  %0 : float = prim::Constant[value=1.0000000000000001e-05]()\n  %1 : float = prim::Constant[value=inf]()\n  %2 : float = prim::Constant[value=-inf]()\n  %3 : float = prim::Constant[value=0.5]()\n  %4 : float = prim::Constant[value=-0.]()\n  return (%0, %1, %2, %3, %4)\n"),
    ("NanConstant", "roundtrip", "graph():\n  %0 : float = prim::Constant[value=nan]()\n  return (%0)\n"),
    ("DeviceConstant", "roundtrip", 'graph():\n  %0 : Device = prim::Constant[value="cpu"]()\n  return (%0)\n'),
    ("StringConstantEscapes", "roundtrip", 'graph():\n  %0 : str = prim::Constant[value="a\\"b\\\\c\\n"]()\n  return (%0)\n'),
    ("ListOfStringsConstant", "roundtrip", 'graph():\n  %0 : str[] = prim::Constant[value=["a", "b"]]()\n  return (%0)\n'),
    ("FloatListConstant", "roundtrip", "graph():\n  %0 : float[] = prim::Constant[value=[0.5, 1.5]]()\n  return (%0)\n"),
    ("IfWithTwoBlocks", "roundtrip", "graph(%c.1 : bool):\n  %1 : int = prim::Constant[value=1]()\n  %2 : int = prim::Constant[value=2]()\n  %3 : int = prim::If(%c.1)\n    block0():\n      -> (%1)\n    block1():\n      -> (%2)\n  return (%3)\n"),
    ("OptionalAndUnionTypes", "roundtrip", "graph(%a : int?,\n      %b : Union(int, str),\n      %c : Tensor?[]):\n  return (%a)\n"),
    ("TypeVariable", "roundtrip", "graph(%a : t):\n  return (%a)\n"),
    ("NestedLists", "roundtrip", "graph(%a : int[][]):\n  return (%a)\n"),
    ("IntListAttribute", "roundtrip", "graph(%0 : Tensor):\n  %1 : Tensor = foo::bar[axes=[0, -1]](%0)\n  return (%1)\n"),
    ("LoopOutputsUnnamed", "parse", "graph(%n.1 : int):\n  %1 : bool = prim::Constant[value=1]()\n  %2 : int = prim::Constant[value=0]()\n  %x : int = prim::Loop(%n.1, %1, %2)\n    block0(%i.1 : int, %x.1 : int):\n      %5 : int = aten::add(%x.1, %i.1)\n      -> (%1, %5)\n  return (%x)\n"),
    ("DictFutureAndTupleTypes", "parse", "graph(%a : Dict(str, Tensor),\n      %b : Future(int),\n      %c : (int, (float, str))):\n  return (%a)\n"),
    ("DoubleOptional", "parse", "graph(%x : int??):\n  return (%x)\n"),
    ("EmptyTupleType", "parse", "graph(%x : ()):\n  return (%x)\n"),
    ("DottedName", "parse", "graph(%x.1.2 : Tensor):\n  return (%x.1.2)\n"),
    ("TypeListAttribute", "parse", "graph(%x : Tensor):\n  %y : Tensor = foo::bar[t=[int, float]](%x)\n  return (%y)\n"),
    ("RepeatedInputName", "parse", "graph(%0 : Tensor, %0 : Tensor):\n  return (%0)\n"),
    ("UndefinedValue", "error", "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%z)\n  return (%y)\n"),
    ("MissingReturn", "error", "graph(%x : Tensor):\n  %y : Tensor = aten::relu(%x)\n"),
    ("UnknownUppercaseType", "error", "graph(%x : Frob):\n  return (%x)\n"),
    ("MissingParen", "error", "graph(%x : Tensor:\n  return (%x)\n"),
    ("BadAttributeValue", "error", "graph(%x : Tensor):\n  %y : Tensor = foo::bar[a=](%x)\n  return (%y)\n"),
    ("UnterminatedBlock", "error", "graph(%c : bool):\n  %0 : int = prim::If(%c)\n    block0():\n      %1 : int = prim::Constant[value=1]()\n  return (%0)\n"),
    ("EmptyText", "error", ""),
    ("KindWithoutNamespace", "error", "graph(%x : Tensor):\n  %y : Tensor = relu(%x)\n  return (%y)\n"),
    ("BlockOutsideANode", "error", "graph(%x : Tensor):\n  block0():\n    -> ()\n  return (%x)\n"),
    ("NegativeSize", "error", "graph(%x : Float(-1, 2)):\n  return (%x)\n"),
    ("BlockWithoutReturnArrow", "error", "graph(%c : bool):\n  %0 : int = prim::If(%c)\n    block0():\n      %1 : int = prim::Constant[value=1]()\n    block1():\n      -> (%1)\n  return (%0)\n"),
    ("ReturnWithoutParens", "error", "graph(%x : Tensor):\n  return %x\n"),
    ("MixedListAttribute", "error", 'graph():\n  %0 : int[] = prim::Constant[value=[1, "a"]]()\n  return (%0)\n'),
    ("UnterminatedString", "error", 'graph():\n  %0 : str = prim::Constant[value="abc]()\n  return (%0)\n'),
]  # fmt: skip
