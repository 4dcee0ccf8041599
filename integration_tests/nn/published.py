"""Published modules that stopped at an unscriptable layer before, as their authors wrote them.

Each is transcribed from its source (see README.md in this folder), with its own
layer choices, and written inside `library(torch)` so that the same code builds a
tsjit module and a PyTorch one.
"""

from __future__ import annotations

import math
from typing import Any


def library(torch: Any) -> dict[str, Any]:
    nn = torch.nn
    F = torch.nn.functional
    Tensor = torch.Tensor

    class MnistNet(nn.Module):
        """pytorch/examples, mnist/main.py."""

        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 32, 3, 1)
            self.conv2 = nn.Conv2d(32, 64, 3, 1)
            self.dropout1 = nn.Dropout(0.25)
            self.dropout2 = nn.Dropout(0.5)
            self.fc1 = nn.Linear(9216, 128)
            self.fc2 = nn.Linear(128, 10)

        def forward(self, x):
            x = self.conv1(x)
            x = F.relu(x)
            x = self.conv2(x)
            x = F.relu(x)
            x = F.max_pool2d(x, 2)
            x = self.dropout1(x)
            x = torch.flatten(x, 1)
            x = self.fc1(x)
            x = F.relu(x)
            x = self.dropout2(x)
            x = self.fc2(x)
            output = F.log_softmax(x, dim=1)
            return output

    def channel_shuffle(x: Tensor, groups: int) -> Tensor:
        batchsize, num_channels, height, width = x.size()
        channels_per_group = num_channels // groups
        x = x.view(batchsize, groups, channels_per_group, height, width)
        x = torch.transpose(x, 1, 2).contiguous()
        x = x.view(batchsize, num_channels, height, width)
        return x

    class ShuffleInvertedResidual(nn.Module):
        """torchvision, models/shufflenetv2.py: InvertedResidual."""

        def __init__(self, inp: int, oup: int, stride: int) -> None:
            super().__init__()
            self.stride = stride
            branch_features = oup // 2
            if self.stride > 1:
                self.branch1 = nn.Sequential(
                    self.depthwise_conv(inp, inp, kernel_size=3, stride=self.stride, padding=1),
                    nn.BatchNorm2d(inp),
                    nn.Conv2d(inp, branch_features, kernel_size=1, stride=1, padding=0, bias=False),
                    nn.BatchNorm2d(branch_features),
                    nn.ReLU(inplace=True),
                )
            else:
                self.branch1 = nn.Sequential()
            self.branch2 = nn.Sequential(
                nn.Conv2d(
                    inp if (self.stride > 1) else branch_features,
                    branch_features,
                    kernel_size=1,
                    stride=1,
                    padding=0,
                    bias=False,
                ),
                nn.BatchNorm2d(branch_features),
                nn.ReLU(inplace=True),
                self.depthwise_conv(
                    branch_features, branch_features, kernel_size=3, stride=self.stride, padding=1
                ),
                nn.BatchNorm2d(branch_features),
                nn.Conv2d(
                    branch_features, branch_features, kernel_size=1, stride=1, padding=0, bias=False
                ),
                nn.BatchNorm2d(branch_features),
                nn.ReLU(inplace=True),
            )

        @staticmethod
        def depthwise_conv(i, o, kernel_size, stride=1, padding=0, bias=False):
            return nn.Conv2d(i, o, kernel_size, stride, padding, bias=bias, groups=i)

        def forward(self, x: Tensor) -> Tensor:
            if self.stride == 1:
                x1, x2 = x.chunk(2, dim=1)
                out = torch.cat((x1, self.branch2(x2)), dim=1)
            else:
                out = torch.cat((self.branch1(x), self.branch2(x)), dim=1)
            out = channel_shuffle(out, 2)
            return out

    class DetectronConv2d(nn.Conv2d):
        """detectron2, layers/wrappers.py: Conv2d with optional norm and activation."""

        def __init__(self, *args, **kwargs):
            norm = kwargs.pop("norm", None)
            activation = kwargs.pop("activation", None)
            super().__init__(*args, **kwargs)
            self.norm = norm
            self.activation = activation

        def forward(self, x):
            if not torch.jit.is_scripting():
                if x.numel() == 0 and self.training:
                    assert not isinstance(self.norm, nn.SyncBatchNorm), (
                        "SyncBatchNorm does not support empty inputs!"
                    )
            x = F.conv2d(
                x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups
            )
            if self.norm is not None:
                x = self.norm(x)
            if self.activation is not None:
                x = self.activation(x)
            return x

    class PositionalEncoding(nn.Module):
        """pytorch/examples, word_language_model/model.py."""

        def __init__(self, d_model, dropout=0.1, max_len=5000):
            super().__init__()
            self.dropout = nn.Dropout(p=dropout)
            pe = torch.zeros(max_len, d_model)
            position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
            div_term = torch.exp(
                torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model)
            )
            pe[:, 0::2] = torch.sin(position * div_term)
            pe[:, 1::2] = torch.cos(position * div_term)
            pe = pe.unsqueeze(0).transpose(0, 1)
            self.register_buffer("pe", pe)

        def forward(self, x):
            x = x + self.pe[: x.size(0), :]
            return self.dropout(x)

    class TimmAttention(nn.Module):
        """timm, layers/attention.py: Attention (the fused and the explicit paths)."""

        def __init__(
            self,
            dim: int,
            num_heads: int = 8,
            qkv_bias: bool = False,
            qk_norm: bool = False,
            attn_drop: float = 0.0,
            proj_drop: float = 0.0,
            norm_layer=nn.LayerNorm,
            fused_attn: bool = True,
        ) -> None:
            super().__init__()
            assert dim % num_heads == 0, "dim should be divisible by num_heads"
            self.num_heads = num_heads
            self.head_dim = dim // num_heads
            self.scale = self.head_dim**-0.5
            self.fused_attn = fused_attn
            self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
            self.q_norm = norm_layer(self.head_dim) if qk_norm else nn.Identity()
            self.k_norm = norm_layer(self.head_dim) if qk_norm else nn.Identity()
            self.attn_drop = nn.Dropout(attn_drop)
            self.proj = nn.Linear(dim, dim)
            self.proj_drop = nn.Dropout(proj_drop)

        def forward(self, x: Tensor) -> Tensor:
            B, N, C = x.shape
            qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
            q, k, v = qkv.unbind(0)
            q, k = self.q_norm(q), self.k_norm(k)
            if self.fused_attn:
                x = F.scaled_dot_product_attention(
                    q, k, v, dropout_p=self.attn_drop.p if self.training else 0.0
                )
            else:
                q = q * self.scale
                attn = q @ k.transpose(-2, -1)
                attn = attn.softmax(dim=-1)
                attn = self.attn_drop(attn)
                x = attn @ v
            x = x.transpose(1, 2).reshape(B, N, C)
            x = self.proj(x)
            x = self.proj_drop(x)
            return x

    class GluMlp(nn.Module):
        """timm, layers/mlp.py: GluMlp (a gated linear unit MLP)."""

        def __init__(
            self,
            in_features,
            hidden_features=None,
            out_features=None,
            act_layer=nn.Sigmoid,
            norm_layer=None,
            bias=True,
            drop=0.0,
            gate_last=True,
        ):
            super().__init__()
            out_features = out_features or in_features
            hidden_features = hidden_features or in_features
            assert hidden_features % 2 == 0
            self.chunk_dim = -1
            self.gate_last = gate_last
            self.fc1 = nn.Linear(in_features, hidden_features, bias=bias)
            self.act = act_layer()
            self.drop1 = nn.Dropout(drop)
            self.norm = (
                norm_layer(hidden_features // 2) if norm_layer is not None else nn.Identity()
            )
            self.fc2 = nn.Linear(hidden_features // 2, out_features, bias=bias)
            self.drop2 = nn.Dropout(drop)

        def forward(self, x):
            x = self.fc1(x)
            x1, x2 = x.chunk(2, dim=self.chunk_dim)
            x = x1 * self.act(x2) if self.gate_last else self.act(x1) * x2
            x = self.drop1(x)
            x = self.norm(x)
            x = self.fc2(x)
            x = self.drop2(x)
            return x

    return {
        "mnist_net": (lambda: MnistNet(), (1, 1, 28, 28)),
        "shufflenet_block": (lambda: ShuffleInvertedResidual(24, 24, 1), (2, 24, 8, 8)),
        "shufflenet_block_strided": (lambda: ShuffleInvertedResidual(24, 48, 2), (2, 24, 8, 8)),
        "detectron2_conv2d": (
            lambda: DetectronConv2d(3, 8, 3, padding=1, bias=False, norm=nn.BatchNorm2d(8)),
            (2, 3, 6, 6),
        ),
        "detectron2_conv2d_relu": (
            lambda: DetectronConv2d(3, 8, 3, padding=1, activation=F.relu),
            (2, 3, 6, 6),
        ),
        "positional_encoding": (
            lambda: PositionalEncoding(16, dropout=0.0, max_len=50),
            (7, 2, 16),
        ),
        "timm_attention": (
            lambda: TimmAttention(16, num_heads=4, qkv_bias=True, qk_norm=True),
            (2, 5, 16),
        ),
        "timm_attention_explicit": (
            lambda: TimmAttention(16, num_heads=2, fused_attn=False),
            (2, 5, 16),
        ),
        "timm_glu_mlp": (lambda: GluMlp(8, 12), (3, 4, 8)),
    }
