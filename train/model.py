"""The network of the engine's evaluation, in PyTorch (floating point).

Inputs: for each side, the stacks of the board as seen from it
(`data.input_indices`); a feature transformer shared by both sides turns
them into two accumulators of `hidden` values, clipped to [0, 1]; the two,
the side to move's first, feed one small output network per bucket of the
game (placement, then movement by how full the board is), a hidden layer of
`layer2` clipped values, then the estimate of the final margin in pieces for
the side to move. Optionally the hand-made features of the linear
evaluation (`dvonn_ai::eval::Feature`) add a linear term per bucket.
"""

import numpy as np
import torch
from torch import nn

import data

# Buckets: two for the placement phase (by pieces placed), six for the
# movement phase (by occupied cells).
BUCKETS = 8
PLACEMENT_SPLIT = 25
MOVEMENT_BOUNDS = [41, 33, 25, 17, 9]


def buckets(cells, flags):
    """The bucket of each position (see `BUCKETS`)."""
    movement = (flags & 2) != 0
    occupied = data.occupied(cells)
    placement_bucket = (data.placed(cells) >= PLACEMENT_SPLIT).astype(np.int64)
    movement_bucket = 2 + sum((occupied < bound).astype(np.int64) for bound in MOVEMENT_BOUNDS)
    return np.where(movement, movement_bucket, placement_bucket)


class Net(nn.Module):
    def __init__(self, hidden=128, layer2=16, hand=False):
        super().__init__()
        self.hidden, self.layer2, self.hand_features = hidden, layer2, hand
        self.transformer = nn.EmbeddingBag(data.INPUTS + 1, hidden, mode="sum", padding_idx=data.PADDING)
        self.transformer_bias = nn.Parameter(torch.zeros(hidden))
        with torch.no_grad():
            self.transformer.weight.normal_(0.0, 0.05)
            self.transformer.weight[data.PADDING].zero_()
            self.transformer_bias.fill_(0.25)
        width = layer2 if layer2 else 2 * hidden
        self.layer = nn.Linear(2 * hidden, layer2 * BUCKETS) if layer2 else None
        self.output = nn.Linear(width, BUCKETS)
        # The network starts as the linear term alone (see `fit_hand`).
        nn.init.zeros_(self.output.weight)
        nn.init.zeros_(self.output.bias)
        self.hand = nn.Linear(data.FEATURES, BUCKETS, bias=False) if hand else None
        if self.hand is not None:
            nn.init.zeros_(self.hand.weight)

    def fit_hand(self, features, bucket, target):
        """Sets the hand-made features' weights to the least-squares fit of
        each bucket: training then starts from the linear evaluation, and
        the rest of the network learns what it misses."""
        weights = np.zeros((BUCKETS, data.FEATURES), dtype=np.float32)
        for b in range(BUCKETS):
            rows = bucket == b
            if rows.sum() > 10 * data.FEATURES:
                weights[b], *_ = np.linalg.lstsq(features[rows], target[rows], rcond=None)
        with torch.no_grad():
            self.hand.weight.copy_(torch.from_numpy(weights))

    def accumulators(self, mine, theirs):
        acc = [self.transformer(side) + self.transformer_bias for side in (mine, theirs)]
        return torch.cat(acc, dim=1).clamp(0.0, 1.0)

    def forward(self, mine, theirs, bucket, features):
        x = self.accumulators(mine, theirs)
        rows = torch.arange(len(bucket))
        if self.layer is not None:
            x = self.layer(x).view(-1, BUCKETS, self.layer2)[rows, bucket].clamp(0.0, 1.0)
        y = self.output(x)[rows, bucket]
        if self.hand is not None:
            y = y + self.hand(features)[rows, bucket]
        return y

    def clip_weights(self):
        """Keeps the weights inside what the engine's integer form holds."""
        with torch.no_grad():
            self.transformer.weight.clamp_(-2.0, 2.0)
            if self.layer is not None:
                self.layer.weight.clamp_(-2.0, 2.0)


# The engine's integer form (`dvonn_ai::eval::network`): the accumulator's
# clipped values stand for [0, 1] as [0, QA]; the hidden and output layers'
# weights are scaled by QB; the output is in units of 1 / (QA * QB) piece;
# the hand-made features' weights are whole centipieces.
QA = 127
QB = 64
MAGIC = b"DVONNNET"
VERSION = 1


def to_engine_bytes(net):
    """The network file the engine reads (`Network::from_bytes`)."""
    assert net.layer is not None, "the engine's network has a hidden layer"
    hidden, layer2 = net.hidden, net.layer2
    def q(tensor, scale, dtype, bound):
        values = np.round(tensor.detach().double().numpy() * scale)
        assert np.all(np.abs(values) <= bound), f"a weight beyond {bound} after scaling by {scale}"
        return values.astype(dtype)
    transformer = q(net.transformer.weight[: data.INPUTS], QA, "<i2", 32767)
    transformer_bias = q(net.transformer_bias, QA, "<i2", 32767)
    layer = q(net.layer.weight.view(BUCKETS, layer2, 2 * hidden), QB, "<i2", 32767)
    layer_bias = q(net.layer.bias.view(BUCKETS, layer2), QA * QB, "<i4", 2**31 - 1)
    output = q(net.output.weight, QB, "<i4", 2**31 - 1)  # (BUCKETS, layer2)
    output_bias = q(net.output.bias, QA * QB, "<i4", 2**31 - 1)
    if net.hand is not None:
        hand = q(net.hand.weight, 100, "<i4", 2**31 - 1)  # (BUCKETS, FEATURES)
    else:
        hand = np.zeros((BUCKETS, data.FEATURES), dtype="<i4")
    header = MAGIC + np.array([VERSION, hidden, layer2, BUCKETS, data.INPUTS, data.FEATURES], dtype="<u4").tobytes()
    parts = [transformer, transformer_bias, layer, layer_bias, output, output_bias, hand]
    return header + b"".join(part.tobytes() for part in parts)


def engine_hand_weights(net):
    """The hand-made features' weights as the engine rounds them (pieces)."""
    if net.hand is None:
        return torch.zeros(data.FEATURES, BUCKETS)
    return torch.round(net.hand.weight.detach() * 100) / 100
