"""The passes `ts-opt` and `run_passes` know by name."""

from __future__ import annotations

from .bailout_graph import insert_bailout_nodes
from .batch_mm import batch_mm
from .canonicalize import canonicalize
from .common_subexpression_elimination import eliminate_common_subexpression
from .constant_pooling import constant_pooling
from .constant_propagation import constant_propagation
from .create_autodiff_subgraphs import create_autodiff_subgraphs
from .dead_code_elimination import eliminate_dead_code
from .differentiate import differentiate_graphs
from .fusion_size_outputs import remove_outputs_used_only_in_size
from .graph_fuser import canonicalize_chunks, fuse_graph
from .guard_elimination import (
    coalesce_guards,
    eliminate_guards,
    eliminate_redundant_guards,
    move_guards_to_defs,
    remove_dominated_guards,
)
from .inliner import inline_calls
from .insert_guards import insert_guards, insert_type_checks
from .loop_unrolling import unroll_loops
from .lower_tuples import lower_all_tuples, lower_simple_tuples
from .pass_manager import register_pass
from .peephole import peephole_optimize
from .profiling_instrumentation import (
    insert_profile_nodes,
    refine_types_from_checks,
    remove_profile_nodes,
)
from .remove_mutation import remove_list_mutation, remove_mutation, remove_tensor_mutation
from .shape_analysis import erase_shape_information, propagate_shapes
from .specialize_autograd_zero import specialize_autograd_zero
from .transpose_products import transpose_products
from .value_refinement import peephole_list_idioms, refine_integer_values


def register_builtin_passes() -> None:
    r = register_pass
    r(
        "dead_code_elimination",
        eliminate_dead_code,
        "remove unused nodes without effects",
        aliases=["dce", "eliminate_dead_code"],
    )
    r(
        "common_subexpression_elimination",
        eliminate_common_subexpression,
        "merge repeated pure computations",
        aliases=["cse"],
    )
    r("constant_propagation", constant_propagation, "fold nodes whose inputs are constants")
    r("constant_pooling", constant_pooling, "hoist and merge constants")
    r(
        "peephole",
        peephole_optimize,
        "local algebraic and list/tuple rewrites",
        aliases=["peephole_optimize"],
    )
    r(
        "refine_integer_values",
        refine_integer_values,
        "ints fixed by the conditions guarding their uses → constants",
    )
    r(
        "peephole_list_idioms",
        peephole_list_idioms,
        "the list rewrites of peephole; with refine_list_len, len() fixed by guarding conditions",
    )
    r("loop_unrolling", unroll_loops, "unroll small for loops", aliases=["unroll_loops"])
    r("batch_mm", batch_mm, "batch trees of mm adds and mms sharing an operand")
    r(
        "inline",
        inline_calls,
        "inline calls whose callee graph is known",
        aliases=["inliner", "inline_calls"],
    )
    r(
        "lower_all_tuples",
        lower_all_tuples,
        "flatten tuples out of inputs, outputs and control flow",
        aliases=["lower_tuples"],
    )
    r("lower_simple_tuples", lower_simple_tuples, "read elements of constructed tuples directly")
    r("remove_mutation", remove_mutation, "make in-place list and tensor updates functional")
    r("remove_list_mutation", remove_list_mutation, "fold list appends into their ListConstruct")
    r("remove_tensor_mutation", remove_tensor_mutation, "make in-place tensor ops functional")
    r("canonicalize", canonicalize, "number values in definition order")
    r(
        "propagate_shapes",
        propagate_shapes,
        "refine tensor types (dtype, device, rank, sizes)",
        aliases=["shape_propagation", "propagate_input_shapes"],
    )
    r("erase_shape_information", erase_shape_information, "forget tensor type refinements")
    r(
        "fuse_graph",
        fuse_graph,
        "group fusible nodes into prim::FusionGroup through fusion backends",
        aliases=["fuse", "fuser"],
    )
    r(
        "create_autodiff_subgraphs",
        create_autodiff_subgraphs,
        "group nodes with symbolic gradients into prim::DifferentiableGraph",
    )
    r(
        "differentiate_graphs",
        differentiate_graphs,
        "split each prim::DifferentiableGraph into a forward and a backward graph",
        aliases=["differentiate"],
    )
    r(
        "remove_outputs_used_only_in_size",
        remove_outputs_used_only_in_size,
        "sizes of fusion group outputs read only for their size, from the group's inputs",
    )
    r(
        "transpose_products",
        transpose_products,
        "t(mm(a, b)) → mm(t(b), t(a)), through sums (for backward graphs)",
    )
    r(
        "specialize_autograd_zero",
        specialize_autograd_zero,
        "fold optional gradients and sums to size that are None",
    )
    r(
        "canonicalize_chunks",
        canonicalize_chunks,
        "aten::chunk + prim::ListUnpack → prim::ConstantChunk",
    )
    # the profiling executor's passes (profiling_pipelines.py)
    r(
        "insert_profile_nodes",
        insert_profile_nodes,
        "forget tensor types, then prim::profile every use of a tensor",
        aliases=["instrument_graph", "profiling_record"],
    )
    r("remove_profile_nodes", remove_profile_nodes, "remove prim::profile nodes")
    r("insert_guards", insert_guards, "prim::profile with a recorded type → prim::Guard")
    r("move_guards_to_defs", move_guards_to_defs, "move guards up to what they check")
    r("coalesce_guards", coalesce_guards, "merge side-by-side guards of one value")
    r("remove_dominated_guards", remove_dominated_guards, "drop guards a dominating guard implies")
    r(
        "eliminate_guards",
        eliminate_guards,
        "drop guards whose types shape propagation derives from checked types",
    )
    r(
        "eliminate_redundant_guards",
        eliminate_redundant_guards,
        "move, coalesce, dominated and derivable guard elimination",
        aliases=["guard_elimination"],
    )
    r(
        "insert_bailout_nodes",
        insert_bailout_nodes,
        "prim::Guard → prim::BailOut capturing live values, with a prim::BailoutTemplate",
        aliases=["insert_bailouts"],
    )
    r(
        "insert_type_checks",
        insert_type_checks,
        "guard fusion groups with prim::TypeCheck, prim::If and a prim::FallbackGraph",
        aliases=["guard_fusion_groups"],
    )
    r(
        "refine_types_from_checks",
        refine_types_from_checks,
        "recompute tensor types from guards, bailouts, type checks and fusion groups",
    )
