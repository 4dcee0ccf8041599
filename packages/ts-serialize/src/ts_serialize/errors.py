"""The errors loading and saving raise: each says what is wrong and where in the archive.

    ArchiveError                 a truncated, corrupt or malicious archive (TorchScriptError)
      UnsupportedArchiveError    a well-formed archive using something tsjit does not support
        ForbiddenGlobalError     a pickle naming a global outside the allowed set
        MissingOperatorError     operators no installed package provides
    SaveError                    a value that cannot be written to an archive

`where` names the place: a part of the file (`header`, `data/3`,
`code/__torch__/m.py:12`), a byte offset, or a path of keys inside the
header (`objects[2].attributes.fc1`).
"""

from __future__ import annotations

from ts_ir import TorchScriptError


class ArchiveError(TorchScriptError, ValueError):
    """An archive that cannot be loaded: truncated, corrupt, malicious or unsupported."""

    def __init__(self, what: str, where: str | None = None, *, path: str | None = None) -> None:
        self.what = what
        self.where = where
        self.path = path
        parts = [what]
        if where:
            parts.append(f"at {where}")
        if path:
            parts.append(f"in {path}")
        super().__init__(" ".join([parts[0], *parts[1:]]) if len(parts) > 1 else what)

    def located(self, path: str) -> ArchiveError:
        """This error with the archive's file name attached (once)."""
        if self.path is None:
            self.path = path
            self.args = (f"{self.args[0]} in {path}",)
        return self


class UnsupportedArchiveError(ArchiveError):
    """A well-formed archive that uses a feature, dtype or construct tsjit does not support."""


class ForbiddenGlobalError(UnsupportedArchiveError):
    """A pickle names a global that TorchScript archives never contain; nothing was imported."""

    def __init__(self, global_name: str, where: str | None = None) -> None:
        self.global_name = global_name
        super().__init__(
            f"the pickle refers to the global '{global_name}', which is not one TorchScript "
            "archives use; it was not imported or called",
            where,
        )


class MissingOperatorError(UnsupportedArchiveError):
    """The archive's code uses operators that no installed package provides."""

    def __init__(self, operators: list[str], where: str | None = None) -> None:
        self.operators = sorted(operators)
        namespaces = sorted({op.partition("::")[0] for op in self.operators})
        super().__init__(
            "the archive uses operators no installed package provides: "
            + ", ".join(self.operators)
            + " (install the package that provides the namespace"
            + ("s " if len(namespaces) > 1 else " ")
            + ", ".join(f"'{ns}'" for ns in namespaces)
            + ")",
            where,
        )


class SaveError(TorchScriptError, TypeError):
    """A program or value that cannot be written to an archive (the message says which part)."""
