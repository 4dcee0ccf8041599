# Functions from PyTorch's TorchScript tests, test/jit/test_string_formatting.py
# (pytorch/pytorch commit dc3d6fe6b0710a19a5a9a288f3232955521868cb), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these functions (and the classes they use) inside their
# bodies and check them with `self.checkScript(fn, inputs)`; they are lifted to module
# level here (dedented), each function renamed `<test method>__<name>` so that the
# names are unique, otherwise copied as written. The comment above each names its test.
# The imports are the file's own (less its test-harness imports).
import torch
from typing import List


# TestStringFormatting.test_modulo_operator
def test_modulo_operator__fn(dividend: int, divisor: int) -> int:
    return dividend % divisor


# TestStringFormatting.test_string_interpolation_with_string_placeholder_and_string_variable
def test_string_interpolation_with_string_placeholder_and_string_variable__fn(arg1: str):
    return "%s in template" % arg1


# TestStringFormatting.test_string_interpolation_with_string_placeholder_and_format_string_variable
def test_string_interpolation_with_string_placeholder_and_format_string_variable__fn(arg1: str):
    return arg1 % "foo"


# TestStringFormatting.test_string_interpolation_with_double_percent_in_string
def test_string_interpolation_with_double_percent_in_string__fn(arg1: str):
    return "%s in template %%" % arg1


# TestStringFormatting.test_string_interpolation_with_string_placeholder_and_digit_variable
def test_string_interpolation_with_string_placeholder_and_digit_variable__fn(arg1: int) -> str:
    return "%s in template" % arg1


# TestStringFormatting.test_string_interpolation_with_digit_placeholder_and_digit_variable
def test_string_interpolation_with_digit_placeholder_and_digit_variable__fn(arg1: int) -> str:
    return "%d in template" % arg1


# TestStringFormatting.test_string_interpolation_with_alternate_digit_placeholder
def test_string_interpolation_with_alternate_digit_placeholder__fn(arg1: int) -> str:
    return "%i in template" % arg1


# TestStringFormatting.test_string_interpolation_with_lowercase_exponent_placeholder_and_digit_variable
def test_string_interpolation_with_lowercase_exponent_placeholder_and_digit_variable__fn(arg1: int) -> str:
    return "%e in template" % arg1


# TestStringFormatting.test_string_interpolation_with_capital_exponent_placeholder_and_digit_variable
def test_string_interpolation_with_capital_exponent_placeholder_and_digit_variable__fn(arg1: int) -> str:
    return "%E in template" % arg1


# TestStringFormatting.test_string_interpolation_with_float_placeholder_and_float_variable
def test_string_interpolation_with_float_placeholder_and_float_variable__fn(arg1: float) -> str:
    return "%f in template" % arg1


# TestStringFormatting.test_string_interpolation_with_float_placeholder_and_digit_variable
def test_string_interpolation_with_float_placeholder_and_digit_variable__fn(arg1: int) -> str:
    return "%f in template" % arg1


# TestStringFormatting.test_string_interpolation_with_char_placeholder_and_char_variable
def test_string_interpolation_with_char_placeholder_and_char_variable__fn(arg1: str) -> str:
    return "%c in template" % arg1


# TestStringFormatting.test_string_interpolation_with_char_placeholder_and_digit_variable
def test_string_interpolation_with_char_placeholder_and_digit_variable__fn(arg1: int) -> str:
    return "%c in template" % arg1


# TestStringFormatting.test_string_interpolation_with_multiple_placeholders
def test_string_interpolation_with_multiple_placeholders__fn(arg1: str, arg2: int, arg3: float) -> str:
    return "%s %d %f in template" % (arg1, arg2, arg3)


# TestStringFormatting.test_string_interpolation_with_subscript
def test_string_interpolation_with_subscript__fn(arg1: List[str]) -> str:
    return "%s in template" % arg1[0]
