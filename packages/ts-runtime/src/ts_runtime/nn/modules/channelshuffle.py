"""`ChannelShuffle`: interleave the channels of `groups` groups (ShuffleNet's shuffle)."""

from __future__ import annotations

from ...tensor import Tensor
from .. import functional as F
from ..module import Module


class ChannelShuffle(Module):
    __constants__ = ("groups",)

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"


__all__ = ["ChannelShuffle"]
