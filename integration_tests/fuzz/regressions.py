"""Every bug the differential fuzzer found, as its minimized program.

Each program's entry point is `f`; its calls use the inputs of `seed`
(`fuzz_gen.make_inputs`), and its outcomes must agree with PyTorch's as a
generated program's must (`fuzz_run.compare`). PyTorch's outcomes are
recorded in `recorded/regressions.jsonl` (`campaign.py --record-regressions`).
`open` names the report of a bug not fixed yet (the test is an expected
failure until it is); `fixed` the commit that fixed it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Regression:
    name: str
    source: str
    seed: int  # the inputs of this seed's calls
    found: str  # what found it
    fixed: str = ""  # the commit that fixed it
    open: str = ""  # the report of a bug still open
    rank: int = 1  # tensor parameters have shape (N,) * rank


REGRESSIONS = [
    Regression(
        "dce_keeps_writes_read_in_a_later_if",
        """
def f(a0: int) -> List[int]:
    n = a0 + 8
    flags = [True for _ in range(n + 1)]
    primes: List[int] = []
    for i in range(2, n + 1):
        if flags[i]:
            primes.append(i)
            j = i * i
            while j <= n:
                flags[j] = False
                j += i
    return primes
""",
        seed=0,
        found="issue 11 (the sieve); the fuzzer's lists written in loops and read in conditions",
        fixed="16d5f90 DCE: marking a node inside an If or Loop makes the enclosing node's inputs live",
    ),
    Regression(
        "dce_keeps_appends_whose_list_only_a_condition_reads",
        """
def f(a0: int) -> List[int]:
    xs = [i for i in range(a0 + 3)]
    if len(xs) > 3:
        return [1]
    return [0]
""",
        seed=0,
        found="issue 11",
        fixed="16d5f90 DCE: marking a node inside an If or Loop makes the enclosing node's inputs live",
    ),
    Regression(
        "float_division_by_zero_is_inf_or_nan",
        """
def f(a0: float, a1: int) -> Tuple[float, float, float, float]:
    z = a0 - a0
    return (1.0 / z, a0 % z, (a0 + 1.0) // z, a1 / (a1 - a1))
""",
        seed=0,
        found="fuzz seeds 8, 9 and 27 (first campaign)",
        fixed="9469a58 Scalars: float division and modulo by zero give inf or nan, as in TorchScript",
    ),
    Regression(
        "a_list_argument_is_the_programs_own_copy",
        """
def f(a0: torch.Tensor, a1: int, a2: List[int], a3: int) -> Tuple[Dict[str, int], float]:
    a2.append(a2[2])
    return ({k18: 7 for k18 in ['c', 'a']}, 1.0)
""",
        seed=122,
        found="fuzz seed 122 (and 137, 194, 222, 231)",
        fixed="5021af9 Functions: lists and dicts passed from Python are the program's own copies",
    ),
    Regression(
        "a_float_alpha_with_int_tensors_is_refused",
        """
def f(a0: torch.Tensor) -> torch.Tensor:
    return torch.add(a0, a0, alpha=0.5)
""",
        seed=28,
        found="fuzz seed 28",
        fixed="60a5866 In-place ops check what PyTorch checks before writing",
    ),
    Regression(
        "an_inplace_float_result_on_an_int_view_is_refused",
        """
def f(a0: torch.Tensor, a1: torch.Tensor) -> torch.Tensor:
    a1[1].tanh_()
    w4 = a0.unsqueeze(0)
    w4.mul_(float(0))
    return a1
""",
        seed=12,
        found="fuzz seeds 12 and 26",
        fixed="60a5866 In-place ops check what PyTorch checks before writing",
    ),
    Regression(
        "an_inplace_op_may_not_broadcast_its_target",
        """
def f(a0: torch.Tensor, a3: int) -> Tuple[int, torch.Tensor]:
    w4 = a0
    a0[1].sub_(w4)
    return (a3, w4)
""",
        seed=217,
        rank=2,
        found="fuzz seeds 217 and 282 (numpy's ValueError escaped)",
        fixed="60a5866 In-place ops check what PyTorch checks before writing",
    ),
    Regression(
        "an_operand_overlapping_the_target_in_part_is_refused",
        """
def f(a0: torch.Tensor) -> torch.Tensor:
    a0.sub_(a0.transpose(0, 1))
    return a0
""",
        seed=180,
        rank=2,
        found="fuzz seeds 180, 349 and 446",
        fixed="60a5866 In-place ops check what PyTorch checks before writing",
    ),
    Regression(
        "str_in_str",
        """
def f(a0: str) -> Tuple[bool, bool, bool]:
    return ("a" in a0, "ab" not in a0, "" in a0)
""",
        seed=3,
        found="issue 11; 14% of generated programs",
        fixed='541ee13 Frontend: "a" in s for strings, as TorchScript\'s builtin script function',
    ),
    Regression(
        "nan_stored_in_an_int_tensor_is_cast_as_cpp_casts",
        """
def f(a0: torch.Tensor, a1: str) -> torch.Tensor:
    a0[0] = 0.0 / 0.0
    return a0
""",
        seed=1616,
        found="fuzz seeds 1616 and 3944 (first campaign)",
        fixed="daa3e1e Creation: aten::tensor of a float out of an int dtype's range casts as C++",
    ),
    Regression(
        "relu_of_negative_zero_is_negative_zero",
        """
def f(a0: torch.Tensor, a1: int) -> torch.Tensor:
    a0 *= torch.relu(a0).clone()
    a0 *= torch.relu(a0).clone()
    return a0.sum() / a0
""",
        seed=3785,
        found="fuzz seed 3785 (first campaign): 1 / relu(-0.0) was inf, PyTorch's -inf",
        fixed="aad7816 relu(-0.0) is -0.0, as PyTorch's (kernel, array kernel, CPU fuser)",
    ),
    # -- found by the fuzzer in the frontend, fixed there
    Regression(
        "assigning_an_optional_refined_to_none_in_an_elif",
        """
def f(a3: Optional[int], a1: bool) -> int:
    if a3 is not None:
        pass
    elif a1:
        pass
    else:
        a3 = 2
    return 1
""",
        seed=84,
        found="fuzz seeds 84 and 994",
        fixed="5bf0367",
    ),
    Regression(
        "a_while_loop_whose_result_dies_keeps_its_index_error",
        """
def f(a0: torch.Tensor, a2: torch.Tensor) -> Tuple[torch.Tensor, float]:
    w2 = a0[2]
    k3 = 0
    while k3 < 3:
        k3 += 1
        w2 = w2 * 0.5
    return (a2, 2.0)
""",
        seed=469,
        found="fuzz seeds 469, 1133",
        fixed="5bf0367",
    ),
    Regression(
        "a_loop_reading_its_carried_value_keeps_its_errors",
        """
def f(a0: torch.Tensor, a3: int) -> Tuple[int, List[int]]:
    for i8 in range(4):
        i8 = i8 // i8
        for i9 in range(0, 3):
            if i8:
                continue
            i8 = i9
    return (1, [0 for c10 in range(a3)])
""",
        seed=1512,
        found="fuzz seeds 1512, 1628, 877, 1407",
        fixed="5bf0367",
    ),
    Regression(
        "a_loop_ended_by_return_keeps_its_body",
        """
def f(a2: torch.Tensor, a4: float) -> Tuple[int, str]:
    for i2 in range(4):
        a2 = torch.matmul(a2 / a4, a2)
        return (7, 'a')
    return (0, 'a')
""",
        seed=350,
        rank=2,
        found="fuzz seed 350",
        fixed="5bf0367",
    ),
    Regression(
        "a_static_if_true_is_not_emitted",
        """
def f(a2: bool) -> Tuple[str, List[int]]:
    v3 = 3
    v4: List[int] = []
    if True:
        if a2:
            return ('b', [len(v4) for c8 in range(1)])
    for i13 in range(0, v3, 1):
        v4[0] = i13
    return ('b', [v3, v3, v3])
""",
        seed=1276,
        found="fuzz seed 1276",
        fixed="5bf0367",
    ),
    Regression(
        "a_pointwise_result_takes_its_first_operands_layout",
        """
def f(a1: torch.Tensor, a2: torch.Tensor) -> torch.Tensor:
    return (a1.t() - a2).view(-1)
""",
        seed=109994,
        rank=2,
        found="fuzz seeds 109994, 109727",
        fixed="ea1b525 Pointwise binary results take their operands' layout as PyTorch's TensorIterator lays them out",
    ),
    Regression(
        "where_takes_its_operands_layout",
        """
def f(a0: torch.Tensor) -> torch.Tensor:
    w6 = a0.t()
    a0 = torch.where(torch.add(w6, a0, alpha=2) > 3.0, w6, a0)
    return a0.view(-1)
""",
        seed=116341,
        rank=2,
        found="fuzz seed 116341",
        fixed="7e0562a torch.where's result takes its operands' layout",
    ),
    Regression(
        "a_nan_written_into_an_int_tensor_is_refused_as_pytorch_refuses_it",
        """
def f(a1: torch.Tensor) -> torch.Tensor:
    a1[0] = float((a1 / a1).sum())
    return a1
""",
        seed=122171,
        found="fuzz seed 122171 (numpy's ValueError where PyTorch raises RuntimeError)",
        fixed="8000a36 A number written into a tensor is checked against its dtype as PyTorch checks it",
    ),
    Regression(
        "floor_of_an_int_tensor_keeps_its_layout",
        """
def f(a0: torch.Tensor) -> torch.Tensor:
    w12 = a0.t()
    a0 = torch.sigmoid(w12.floor())
    return a0.view(-1)
""",
        seed=126141,
        rank=2,
        found="fuzz seed 126141",
        fixed="bd7417d Rounding an int tensor copies it laid out as it is",
    ),
    Regression(
        "amax_of_an_empty_tensor_without_dim_is_a_runtime_error",
        """
def f(a0: torch.Tensor) -> float:
    v7 = a0[2:]
    return float(v7.amax())
""",
        seed=126525,
        found="fuzz seed 126525",
        fixed="bd7417d amax/amin of an empty tensor raise as PyTorch's",
    ),
]
