"""How often code calls each `aten::` operator: a static scan of Python sources.

    python tools/op_usage.py PATH [PATH ...]                     print the counts
    python tools/op_usage.py --record LIBRARY=PATH ... -o FILE   write them as the
                                                                 published-code table

Every call in the sources is resolved, through the file's imports, to the
operator TorchScript would compile it to:

    torch.where(c)            aten::where             torch.linalg.norm(x)  aten::linalg_norm
    F.interpolate(x, mode=m)  aten::upsample_*        nn.LayerNorm(d)       aten::layer_norm
    x.addcmul(a, b)           aten::addcmul           torch.ops.aten.i0(x)  aten::i0

A method call counts when some overload of `aten::<name>` takes `Tensor self`
first; functional and module names that are not operators themselves go
through the alias tables below (`F.cross_entropy` is `aten::cross_entropy_loss`,
`nn.BatchNorm2d` is `aten::batch_norm`). Names that resolve to no operator are
not counted. The scan is an estimate of use, not a proof of reachability:
each textual call counts once.

`tools/op_coverage.py` ranks missing operators by these counts: the recorded
table of published code (`tools/data/op_usage.json`, see
`tools/data/README.md` for its sources) plus a live scan of `integration_tests/`.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

#: torch.nn.functional names that are not the name of their operator.
FUNCTIONAL_ALIASES: dict[str, tuple[str, ...]] = {
    "cross_entropy": ("aten::cross_entropy_loss",),
    "nll_loss": ("aten::nll_loss_nd",),
    "normalize": ("aten::norm", "aten::clamp_min", "aten::expand_as", "aten::div"),
    "dropout1d": ("aten::feature_dropout",),
    "dropout2d": ("aten::feature_dropout",),
    "dropout3d": ("aten::feature_dropout",),
    "logsigmoid": ("aten::log_sigmoid",),
    "grid_sample": ("aten::grid_sampler",),
    "affine_grid": ("aten::affine_grid_generator",),
    "unfold": ("aten::im2col",),
    "fold": ("aten::col2im",),
    "max_pool1d_with_indices": ("aten::max_pool1d_with_indices",),
    "softsign": ("aten::abs", "aten::div"),
    "tanhshrink": ("aten::tanh", "aten::sub"),
    "local_response_norm": ("aten::avg_pool2d", "aten::pow", "aten::div"),
    "gaussian_nll_loss": ("aten::log", "aten::clamp"),
    "triplet_margin_loss": ("aten::triplet_margin_loss",),
    "margin_ranking_loss": ("aten::margin_ranking_loss",),
    "multi_head_attention_forward": ("aten::linear", "aten::bmm", "aten::softmax"),
}

#: torch.nn modules, by the operators their forward calls.
MODULE_OPS: dict[str, tuple[str, ...]] = {
    "Linear": ("aten::linear",),
    "Bilinear": ("aten::bilinear",),
    "Conv1d": ("aten::conv1d",),
    "Conv2d": ("aten::conv2d",),
    "Conv3d": ("aten::conv3d",),
    "ConvTranspose1d": ("aten::conv_transpose1d",),
    "ConvTranspose2d": ("aten::conv_transpose2d",),
    "ConvTranspose3d": ("aten::conv_transpose3d",),
    "BatchNorm1d": ("aten::batch_norm",),
    "BatchNorm2d": ("aten::batch_norm",),
    "BatchNorm3d": ("aten::batch_norm",),
    "SyncBatchNorm": ("aten::batch_norm",),
    "LayerNorm": ("aten::layer_norm",),
    "GroupNorm": ("aten::group_norm",),
    "InstanceNorm1d": ("aten::instance_norm",),
    "InstanceNorm2d": ("aten::instance_norm",),
    "InstanceNorm3d": ("aten::instance_norm",),
    "Embedding": ("aten::embedding",),
    "EmbeddingBag": ("aten::embedding_bag",),
    "Dropout": ("aten::dropout",),
    "Dropout1d": ("aten::feature_dropout",),
    "Dropout2d": ("aten::feature_dropout",),
    "Dropout3d": ("aten::feature_dropout",),
    "AlphaDropout": ("aten::alpha_dropout",),
    "ReLU": ("aten::relu",),
    "ReLU6": ("aten::hardtanh",),
    "GELU": ("aten::gelu",),
    "SiLU": ("aten::silu",),
    "Sigmoid": ("aten::sigmoid",),
    "Tanh": ("aten::tanh",),
    "LeakyReLU": ("aten::leaky_relu",),
    "PReLU": ("aten::prelu",),
    "ELU": ("aten::elu",),
    "CELU": ("aten::celu",),
    "SELU": ("aten::selu",),
    "GLU": ("aten::glu",),
    "Hardswish": ("aten::hardswish",),
    "Hardsigmoid": ("aten::hardsigmoid",),
    "Hardtanh": ("aten::hardtanh",),
    "Mish": ("aten::mish",),
    "Softplus": ("aten::softplus",),
    "Softmax": ("aten::softmax",),
    "LogSoftmax": ("aten::log_softmax",),
    "Threshold": ("aten::threshold",),
    "MaxPool1d": ("aten::max_pool1d",),
    "MaxPool2d": ("aten::max_pool2d",),
    "MaxPool3d": ("aten::max_pool3d",),
    "AvgPool1d": ("aten::avg_pool1d",),
    "AvgPool2d": ("aten::avg_pool2d",),
    "AvgPool3d": ("aten::avg_pool3d",),
    "AdaptiveAvgPool1d": ("aten::adaptive_avg_pool1d",),
    "AdaptiveAvgPool2d": ("aten::adaptive_avg_pool2d",),
    "AdaptiveAvgPool3d": ("aten::adaptive_avg_pool3d",),
    "AdaptiveMaxPool1d": ("aten::adaptive_max_pool1d",),
    "AdaptiveMaxPool2d": ("aten::adaptive_max_pool2d",),
    "Upsample": ("aten::upsample_nearest2d",),
    "UpsamplingNearest2d": ("aten::upsample_nearest2d",),
    "UpsamplingBilinear2d": ("aten::upsample_bilinear2d",),
    "PixelShuffle": ("aten::pixel_shuffle",),
    "PixelUnshuffle": ("aten::pixel_unshuffle",),
    "Flatten": ("aten::flatten",),
    "Unflatten": ("aten::unflatten",),
    "ZeroPad2d": ("aten::constant_pad_nd",),
    "ConstantPad1d": ("aten::constant_pad_nd",),
    "ConstantPad2d": ("aten::constant_pad_nd",),
    "ConstantPad3d": ("aten::constant_pad_nd",),
    "ReflectionPad1d": ("aten::reflection_pad1d",),
    "ReflectionPad2d": ("aten::reflection_pad2d",),
    "ReplicationPad1d": ("aten::replication_pad1d",),
    "ReplicationPad2d": ("aten::replication_pad2d",),
    "LSTM": ("aten::lstm",),
    "GRU": ("aten::gru",),
    "RNN": ("aten::rnn_tanh",),
    "LSTMCell": ("aten::lstm_cell",),
    "GRUCell": ("aten::gru_cell",),
    "RNNCell": ("aten::rnn_tanh_cell",),
    "CrossEntropyLoss": ("aten::cross_entropy_loss",),
    "NLLLoss": ("aten::nll_loss_nd",),
    "MSELoss": ("aten::mse_loss",),
    "L1Loss": ("aten::l1_loss",),
    "SmoothL1Loss": ("aten::smooth_l1_loss",),
    "HuberLoss": ("aten::huber_loss",),
    "BCELoss": ("aten::binary_cross_entropy",),
    "BCEWithLogitsLoss": ("aten::binary_cross_entropy_with_logits",),
    "KLDivLoss": ("aten::kl_div",),
    "CosineSimilarity": ("aten::cosine_similarity",),
    "PairwiseDistance": ("aten::pairwise_distance",),
    "Unfold": ("aten::im2col",),
    "Fold": ("aten::col2im",),
}

#: Submodules of torch whose functions are operators with a prefix.
PREFIXED = {"torch.linalg": "linalg_", "torch.special": "special_", "torch.fft": "fft_"}

#: interpolate's operator by its `mode`, nearest when it is not a literal.
INTERPOLATE = {
    "nearest": "aten::upsample_nearest2d",
    "linear": "aten::upsample_linear1d",
    "bilinear": "aten::upsample_bilinear2d",
    "bicubic": "aten::upsample_bicubic2d",
    "trilinear": "aten::upsample_trilinear3d",
    "area": "aten::adaptive_avg_pool2d",
    "nearest-exact": "aten::_upsample_nearest_exact2d",
}

SKIPPED_PARTS = {"test", "tests", "testing", "docs", "doc", "benchmarks", "examples", "scripts"}


class OperatorNames:
    """Which names are `aten::` operators, and which take `Tensor self` first (methods)."""

    def __init__(self) -> None:
        from ts_ir import TensorType
        from ts_schema import registry

        self.operators: set[str] = set()
        self.methods: set[str] = set()
        for op in registry.operators():
            name = op.qualified_name
            if not name.startswith("aten::"):
                continue
            self.operators.add(name)
            args = op.schema.arguments
            if args and args[0].name == "self" and isinstance(args[0].type, TensorType):
                self.methods.add(name)


class _Scanner(ast.NodeVisitor):
    def __init__(self, names: OperatorNames, counts: Counter[str]) -> None:
        self.names = names
        self.counts = counts
        self.aliases: dict[str, str] = {"torch": "torch"}

    # -- imports bind local names to dotted paths
    def visit_Import(self, node: ast.Import) -> None:
        for a in node.names:
            if a.asname:
                self.aliases[a.asname] = a.name
            else:
                root = a.name.partition(".")[0]
                self.aliases[root] = root

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module and node.level == 0:
            for a in node.names:
                self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"

    def _dotted(self, expr: ast.expr) -> str | None:
        parts = []
        while isinstance(expr, ast.Attribute):
            parts.append(expr.attr)
            expr = expr.value
        if not isinstance(expr, ast.Name):
            return None
        root = self.aliases.get(expr.id)
        if root is None:
            return None
        return ".".join([root, *reversed(parts)])

    def visit_Call(self, node: ast.Call) -> None:
        self.generic_visit(node)
        for op in self.resolve(node):
            self.counts[op] += 1

    def resolve(self, node: ast.Call) -> Iterable[str]:
        func = node.func
        path = self._dotted(func) if isinstance(func, (ast.Attribute, ast.Name)) else None
        if path is not None:
            # a call through an imported module: torch's functions count, numpy's do not
            return self._function(path, node) if path.partition(".")[0] == "torch" else ()
        if isinstance(func, ast.Attribute) and not _container_method(func.attr, node):
            name = f"aten::{func.attr}"
            if name in self.names.methods:
                return (name,)
        return ()

    def _function(self, path: str, node: ast.Call) -> Iterable[str]:
        module, _, name = path.rpartition(".")
        if module in ("torch.nn.functional", "torch.nn._functional"):
            if name == "interpolate":
                return (INTERPOLATE.get(_literal_kwarg(node, "mode") or "nearest", ""),)
            alias = FUNCTIONAL_ALIASES.get(name)
            if alias is not None:
                return alias
            return self._known(f"aten::{name}")
        if module == "torch.nn" or module.startswith("torch.nn.modules"):
            return MODULE_OPS.get(name, ())
        if module in PREFIXED:
            return self._known(f"aten::{PREFIXED[module]}{name}")
        if module in ("torch", "torch.ops.aten", "torch._C._nn", "torch.Tensor"):
            return self._known(f"aten::{name}")
        return ()

    def _known(self, op: str) -> tuple[str, ...]:
        return (op,) if op in self.names.operators else ()


#: Methods of dicts that share a name with a Tensor method (`values`, `indices` of sparse tensors).
DICT_METHODS = {"values", "keys", "items", "indices"}


def _container_method(name: str, node: ast.Call) -> bool:
    """Whether a method call is, by its form, one of str's or dict's rather than Tensor's."""
    if name in DICT_METHODS and not node.args and not node.keywords:
        return True
    if name == "split" and (
        not node.args
        or (isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str))
    ):
        return True
    return False


def _literal_kwarg(node: ast.Call, name: str) -> str | None:
    for kw in node.keywords:
        if kw.arg == name and isinstance(kw.value, ast.Constant):
            value = kw.value.value
            return value if isinstance(value, str) else None
    return None


def python_files(root: Path, *, skip_tests: bool) -> Iterator[Path]:
    """The `.py` files under `root` (or `root` itself), without tests and docs if asked."""
    if root.is_file():
        yield root
        return
    for path in sorted(root.rglob("*.py")):
        parts = set(path.relative_to(root).parts[:-1])
        if skip_tests and (parts & SKIPPED_PARTS or path.name.startswith("test_")):
            continue
        yield path


def scan(
    paths: Iterable[Path], names: OperatorNames | None = None, *, skip_tests: bool = True
) -> tuple[Counter[str], int]:
    """Operator call counts over the Python files under `paths`, and the number of files read."""
    names = names or OperatorNames()
    counts: Counter[str] = Counter()
    files = 0
    for root in paths:
        for path in python_files(root, skip_tests=skip_tests):
            try:
                tree = ast.parse(path.read_text("utf-8", errors="replace"))
            except (SyntaxError, ValueError):
                continue
            files += 1
            _Scanner(names, counts).visit(tree)
    counts.pop("", None)
    return counts, files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("paths", nargs="*", type=Path, help="files or folders to scan")
    parser.add_argument(
        "--record",
        nargs="+",
        metavar="LIBRARY=PATH",
        help="scan each library's sources and write the table (-o) with one entry per library",
    )
    parser.add_argument("-o", "--output", type=Path, help="where --record writes its table")
    parser.add_argument("--top", type=int, default=40, help="how many operators to print")
    args = parser.parse_args(argv)
    names = OperatorNames()
    if args.record:
        if args.output is None:
            parser.error("--record needs -o FILE")
        table: dict[str, object] = {"libraries": {}, "counts": {}}
        total: Counter[str] = Counter()
        for spec in args.record:
            library, _, path = spec.partition("=")
            counts, files = scan([Path(path)], names)
            table["libraries"][library] = {"files": files, "calls": sum(counts.values())}  # type: ignore[index]
            total.update(counts)
        table["counts"] = dict(sorted(total.items(), key=lambda kv: (-kv[1], kv[0])))
        args.output.write_text(json.dumps(table, indent=1) + "\n", "utf-8")
        print(f"wrote {len(total)} operators from {len(args.record)} libraries to {args.output}")
        return 0
    counts, files = scan(args.paths, names)
    print(f"{files} files, {sum(counts.values())} operator calls, {len(counts)} operators")
    for op, n in counts.most_common(args.top):
        print(f"{n:8d}  {op}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
