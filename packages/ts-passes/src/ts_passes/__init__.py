"""ts-passes: tsjit's analyses and optimization passes.

    import ts_passes
    from ts_ir import parse_ir

    g = parse_ir(text)
    ts_passes.constant_propagation(g)           # each pass: name(graph, ...) -> bool
    ts_passes.run_passes(g, ["dce", "cse"])     # or by name
    db = ts_passes.AliasDb(g)                   # analyses
    db.may_alias(a, b)

See README.md for the list; `ts-opt --list` prints the passes by name.
"""

from . import progress
from .alias_analysis import AliasDb
from .bailout_graph import (
    BailOutGraphError,
    bailout_template,
    build_bailout_graph,
    insert_bailout_nodes,
)
from .batch_mm import batch_mm
from .canonicalize import canonicalize
from .common_subexpression_elimination import eliminate_common_subexpression
from .constant_pooling import constant_pooling
from .constant_propagation import constant_propagation
from .create_autodiff_subgraphs import create_autodiff_subgraphs, differentiable_graphs
from .dead_code_elimination import eliminate_dead_code
from .differentiate import (
    Gradient,
    differentiate,
    differentiate_graphs,
    gradient_of,
    pack_gradient,
)
from .errors import (
    AliasAnalysisError,
    FusionBackendError,
    PassError,
    PassFailedError,
    UnknownPassError,
)
from .fusion_backend import (
    BACKEND_PACKAGES,
    ENTRY_POINT_GROUP,
    FusionBackend,
    backend_for,
    fusion_backends,
    register_fusion_backend,
    unregister_fusion_backend,
)
from .fusion_size_outputs import remove_outputs_used_only_in_size
from .gradients import (
    GRADIENTS,
    GradientBuilder,
    NotDifferentiableError,
    is_differentiable,
    requires_grad,
)
from .graph_fuser import canonicalize_chunks, fuse_graph, fusion_groups
from .guard_elimination import (
    coalesce_guards,
    eliminate_guards,
    eliminate_redundant_guards,
    move_guards_to_defs,
    remove_dominated_guards,
)
from .inliner import callee_graph, inline_calls, insert_graph
from .insert_guards import insert_guards, insert_type_checks, profiled_type
from .jit_log import ENV_LOG_LEVEL, LogLevel, PassLogger, is_enabled, parse_log_levels
from .jit_opt_limit import (
    ENV_OPT_LIMIT,
    opt_limit_allows,
    parse_opt_limits,
    reset_opt_limit_counters,
)
from .liveness import liveness
from .loop_unrolling import UNROLL_FACTOR, unroll_loops
from .lower_tuples import lower_all_tuples, lower_simple_tuples
from .pass_manager import get_pass, pass_names, register_pass, run_pass, run_passes
from .peephole import peephole_optimize
from .pipelines import (
    AUTODIFF_PASSES,
    BACKWARD_PASSES,
    DERIVATIVE_PRESERVING_PASSES,
    FORWARD_GRAPH_PASSES,
    INFERENCE_PASSES,
    REQUIRED_PASSES,
    SPECIALIZATION_PASSES,
    execution_pipeline,
    optimize_for_execution,
)
from .profiling_instrumentation import (
    erase_tensor_types,
    insert_profile_nodes,
    refine_types_from_checks,
    remove_profile_nodes,
)
from .profiling_pipelines import (
    FUSION_PASSES,
    GUARD_PASSES,
    PROFILING_INSENSITIVE_PASSES,
    SPECIALIZED_PASSES,
    optimize_profiled_graph,
    prepare_for_profiling,
    profiling_pipeline,
)
from .remove_mutation import remove_list_mutation, remove_mutation, remove_tensor_mutation
from .shape_analysis import erase_shape_information, propagate_shapes
from .shape_rules import shape_rules
from .specialize_autograd_zero import specialize_autograd_zero
from .subgraph_utils import create_singleton_subgraph, merge_node_into_subgraph, unmerge_subgraph
from .transpose_products import transpose_products
from .value_refinement import peephole_list_idioms, refine_integer_values, refine_list_lengths

__all__ = [
    "AUTODIFF_PASSES",
    "BACKEND_PACKAGES",
    "BACKWARD_PASSES",
    "DERIVATIVE_PRESERVING_PASSES",
    "ENTRY_POINT_GROUP",
    "ENV_LOG_LEVEL",
    "ENV_OPT_LIMIT",
    "FORWARD_GRAPH_PASSES",
    "FUSION_PASSES",
    "GRADIENTS",
    "GUARD_PASSES",
    "INFERENCE_PASSES",
    "PROFILING_INSENSITIVE_PASSES",
    "REQUIRED_PASSES",
    "SPECIALIZATION_PASSES",
    "SPECIALIZED_PASSES",
    "UNROLL_FACTOR",
    "AliasAnalysisError",
    "AliasDb",
    "BailOutGraphError",
    "FusionBackend",
    "FusionBackendError",
    "Gradient",
    "GradientBuilder",
    "LogLevel",
    "NotDifferentiableError",
    "PassError",
    "PassFailedError",
    "PassLogger",
    "UnknownPassError",
    "backend_for",
    "bailout_template",
    "batch_mm",
    "build_bailout_graph",
    "callee_graph",
    "canonicalize",
    "canonicalize_chunks",
    "coalesce_guards",
    "constant_pooling",
    "constant_propagation",
    "create_autodiff_subgraphs",
    "create_singleton_subgraph",
    "differentiable_graphs",
    "differentiate",
    "differentiate_graphs",
    "eliminate_common_subexpression",
    "eliminate_dead_code",
    "eliminate_guards",
    "eliminate_redundant_guards",
    "erase_shape_information",
    "erase_tensor_types",
    "execution_pipeline",
    "fuse_graph",
    "fusion_backends",
    "fusion_groups",
    "get_pass",
    "gradient_of",
    "inline_calls",
    "insert_bailout_nodes",
    "insert_graph",
    "insert_guards",
    "insert_profile_nodes",
    "insert_type_checks",
    "is_differentiable",
    "is_enabled",
    "liveness",
    "lower_all_tuples",
    "lower_simple_tuples",
    "merge_node_into_subgraph",
    "move_guards_to_defs",
    "opt_limit_allows",
    "optimize_for_execution",
    "optimize_profiled_graph",
    "pack_gradient",
    "parse_log_levels",
    "parse_opt_limits",
    "pass_names",
    "peephole_list_idioms",
    "peephole_optimize",
    "prepare_for_profiling",
    "profiled_type",
    "profiling_pipeline",
    "progress",
    "propagate_shapes",
    "refine_integer_values",
    "refine_list_lengths",
    "refine_types_from_checks",
    "register_fusion_backend",
    "register_pass",
    "remove_dominated_guards",
    "remove_list_mutation",
    "remove_mutation",
    "remove_outputs_used_only_in_size",
    "remove_profile_nodes",
    "remove_tensor_mutation",
    "requires_grad",
    "reset_opt_limit_counters",
    "run_pass",
    "run_passes",
    "shape_rules",
    "specialize_autograd_zero",
    "transpose_products",
    "unmerge_subgraph",
    "unregister_fusion_backend",
    "unroll_loops",
]
