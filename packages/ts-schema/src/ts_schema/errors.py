"""The errors ts-schema raises; all derive from ts-ir's `TorchScriptError`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ts_ir import SourceError, SourceRange, TorchScriptError

if TYPE_CHECKING:
    from .function_schema import FunctionSchema


class SchemaParseError(SourceError):
    """Malformed schema text; `str()` shows the offending line and column with a caret."""


class SchemaError(TorchScriptError):
    """A well-formed schema that cannot be used: a conflicting registration, a bad key."""


class UnknownOperatorError(TorchScriptError):
    """No operator of this name is registered, and no installed package provides it."""

    def __init__(self, name: str, message: str | None = None) -> None:
        self.name = name
        self.namespace = name.partition("::")[0] if "::" in name else ""
        super().__init__(message or _unknown_message(name, self.namespace))


def _unknown_message(name: str, namespace: str) -> str:
    if not namespace:
        return f"unknown operator '{name}': operator names are qualified, as in 'aten::add'"
    return (
        f"unknown operator '{name}': no operator of that name is registered, and no installed "
        f"package provides it in namespace '{namespace}' (a package provides a namespace "
        f"through an entry point '{namespace} = module' in the group 'ts.operators')"
    )


class UnimplementedOperatorError(TorchScriptError):
    """The operator's schema is known but nothing has attached an implementation to it."""

    def __init__(self, schema: FunctionSchema) -> None:
        self.schema = schema
        super().__init__(
            f"operator {schema.key} has a schema but no implementation: {schema}\n"
            "(the package that implements it has not registered one; "
            "is the runtime for this device imported?)"
        )


class NoMatchingSchemaError(SourceError):
    """No overload accepts the arguments of a call.

    The message lists each candidate schema and why it did not match, as
    TorchScript's "Arguments for call are not valid" does; `candidates` holds
    the same as (schema, reason) pairs.
    """

    def __init__(
        self,
        candidates: list[tuple[FunctionSchema, str]],
        source_range: SourceRange | None = None,
        *,
        name: str | None = None,
    ) -> None:
        self.candidates = candidates
        self.name = name or (str(candidates[0][0].name) if candidates else "")
        lines = []
        for schema, reason in candidates:
            lines.append("")
            lines.append(f"{schema}:")
            lines.extend(reason.rstrip("\n").split("\n"))
        body = "\n".join(("  " + line) if line else "  " for line in lines)
        message = (
            f"Arguments for call to {self.name} are not valid.\n"
            f"The following variants are available:\n{body}\n"
        )
        if source_range is not None:
            message += "\nThe original call is:"
        super().__init__(message, source_range)

    @property
    def source_range(self) -> SourceRange | None:
        return self.range
