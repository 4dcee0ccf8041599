"""ts-schema: operator schemas, the operator registry and overload matching.

    from ts_schema import parse_schema, registry, operator

    schema = parse_schema("aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
    registry.lookup("aten::add")          # the overloads, in PyTorch's order

    @operator("my_ns::magic(Tensor a, Tensor b, int c) -> (Tensor, Tensor)")
    def magic(a, b, c): ...

Importing this package connects ts-ir's hooks: `node.schema()`,
`node.matches(text)`, `node.has_side_effects()` and `graph.insert(...)`.
"""

from . import hooks as _hooks
from .catalogue import Catalogue
from .discovery import GROUP as ENTRY_POINT_GROUP
from .discovery import DiscoveryError, EntryPointDiscovery
from .errors import (
    NoMatchingSchemaError,
    SchemaError,
    SchemaParseError,
    UnimplementedOperatorError,
    UnknownOperatorError,
)
from .function_schema import AliasInfo, Argument, FunctionSchema, format_type
from .insert import as_value, insert_call
from .matching import MatchedSchema, emit_node, match_schema, match_schemas, python_value_type
from .node_matching import SchemaSignature, accepts_type, schema_accepts
from .registry import AliasAnalysisKind, Operator, OperatorRegistry, operator, registry
from .rule_table import RuleTable
from .schema_parser import OperatorName, SchemaParser, parse_schema, parse_schema_or_name
from .tags import BUILTIN_TAGS, Tag
from .type_variables import evaluate_type_variables, match_type_variables

_hooks.install()

__all__ = [
    "BUILTIN_TAGS",
    "ENTRY_POINT_GROUP",
    "AliasAnalysisKind",
    "AliasInfo",
    "Argument",
    "Catalogue",
    "DiscoveryError",
    "EntryPointDiscovery",
    "FunctionSchema",
    "MatchedSchema",
    "NoMatchingSchemaError",
    "Operator",
    "OperatorName",
    "OperatorRegistry",
    "RuleTable",
    "SchemaError",
    "SchemaParseError",
    "SchemaParser",
    "SchemaSignature",
    "Tag",
    "UnimplementedOperatorError",
    "UnknownOperatorError",
    "accepts_type",
    "as_value",
    "emit_node",
    "evaluate_type_variables",
    "format_type",
    "insert_call",
    "match_schema",
    "match_schemas",
    "match_type_variables",
    "operator",
    "parse_schema",
    "parse_schema_or_name",
    "python_value_type",
    "registry",
    "schema_accepts",
]
