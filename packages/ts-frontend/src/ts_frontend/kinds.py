"""The node kinds the frontend emits and inspects, as interned symbols.

Reading `prim.If` goes through a namespace lookup each time; the frontend
compares kinds in its inner loops, so it names them once here.
"""

from __future__ import annotations

from ts_ir import prim

BREAK_STMT = prim.BreakStmt
CALL_FUNCTION = prim.CallFunction
CALL_METHOD = prim.CallMethod
COMPREHENSION_SCOPE = prim.ComprehensionScope
CONSTANT = prim.Constant
CONTINUE_STMT = prim.ContinueStmt
CREATE_OBJECT = prim.CreateObject
DICT_CONSTRUCT = prim.DictConstruct
DTYPE = prim.dtype
ENTER = prim.Enter
EXIT = prim.Exit
FORK = prim.fork
GET_ATTR = prim.GetAttr
IF = prim.If
ISINSTANCE = prim.isinstance
LIST_CONSTRUCT = prim.ListConstruct
LIST_UNPACK = prim.ListUnpack
LOAD = prim.Load
LOOP = prim.Loop
LOOP_CONTINUATION = prim.LoopContinuation
PRINT = prim.Print
RAISE_EXCEPTION = prim.RaiseException
RETURN = prim.Return
RETURN_STMT = prim.ReturnStmt
SET_ATTR = prim.SetAttr
STORE = prim.Store
TUPLE_CONSTRUCT = prim.TupleConstruct
TUPLE_INDEX = prim.TupleIndex
TUPLE_UNPACK = prim.TupleUnpack
UNCHECKED_CAST = prim.unchecked_cast
UNINITIALIZED = prim.Uninitialized
TOLIST = prim.tolist
