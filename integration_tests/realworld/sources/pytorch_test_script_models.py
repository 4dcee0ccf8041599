# ScriptModule models from PyTorch's JIT tests, test/jit/test_models.py
# (pytorch/pytorch commit 06d786d148143b7bc9156c1b1fb2c57621b15037), BSD-3-Clause,
# Copyright (c) 2016- Facebook, Inc.
# The test methods define these classes inside their bodies; they are lifted to module
# level here (dedented), otherwise copied as written. The imports are the file's own (less
# its test-harness imports).
import torch
import torch.nn as nn


# from TestModels.test_time_sequence_prediction
class Sequence(torch.jit.ScriptModule):
    def __init__(self) -> None:
        super().__init__()
        self.lstm1 = nn.LSTMCell(1, 51)
        self.lstm2 = nn.LSTMCell(51, 51)
        self.linear = nn.Linear(51, 1)

    @torch.jit.script_method
    def forward(self, input):
        # TODO: add future as input with default val
        # see https://github.com/pytorch/pytorch/issues/8724
        outputs = torch.empty((3, 0))
        h_t = torch.zeros((3, 51))
        c_t = torch.zeros((3, 51))
        h_t2 = torch.zeros((3, 51))
        c_t2 = torch.zeros((3, 51))

        output = torch.zeros([3, 51])
        future = 2

        # TODO: chunk call should appear as the for loop iterable
        # We hard-code it to 4 for now.
        a, b, c, d = input.chunk(input.size(1), dim=1)
        for input_t in (a, b, c, d):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs = torch.cat((outputs, output), 1)
        for _ in range(future):  # if we should predict the future
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs = torch.cat((outputs, output), 1)
        return outputs


class Traced(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.seq = Sequence()

    def forward(self, input):
        return self.seq.forward(input)


# from TestModels.test_script_module_script_resnet
def conv1x1(in_planes, out_planes, stride=1):
    """1x1 convolution"""
    return nn.Conv2d(
        in_planes, out_planes, kernel_size=1, stride=stride, bias=False
    )


def conv3x3(in_planes, out_planes, stride=1):
    """3x3 convolution with padding"""
    return nn.Conv2d(
        in_planes,
        out_planes,
        kernel_size=3,
        stride=stride,
        padding=1,
        bias=False,
    )


class BasicBlock(torch.jit.ScriptModule):
    expansion = 1
    __constants__ = ["downsample"]

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample
        self.stride = stride

    @torch.jit.script_method
    def forward(self, x):
        residual = x

        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)

        out = self.conv2(out)
        out = self.bn2(out)

        if self.downsample is not None:
            residual = self.downsample(x)

        out += residual
        out = self.relu(out)

        return out
