"""The network of the engine's movement evaluation, in PyTorch (floating point).

Inputs: for each side, the stacks of the board as seen from it
(`data.input_indices`); a feature transformer shared by both sides turns
them into two accumulators of `hidden` values, clipped to [0, 1]; the two,
the side to move's first, feed one small output network per bucket (how
full the board is), a hidden layer of `layer2` clipped values, then the
estimate of the final margin in pieces for the side to move. The hand-made
features of the linear evaluation (`dvonn_ai::eval::Feature`) add a linear
term per bucket, fitted first: the rest learns what the linear evaluation
misses.
"""

import numpy as np
import torch
from torch import nn

import data

# Buckets: the output network by how full the board is (movement phase).
BUCKETS = 6
BUCKET_BOUNDS = [41, 33, 25, 17, 9]
VERSION = 3


def buckets(cells):
    """The bucket of each (movement-phase) position: 0 with 41 or more
    occupied cells, one more below each bound of `BUCKET_BOUNDS`."""
    occupied = data.occupied(cells)
    return sum((occupied < bound).astype(np.int64) for bound in BUCKET_BOUNDS)


class Net(nn.Module):
    def __init__(self, hidden=128, layer2=16):
        super().__init__()
        self.hidden, self.layer2 = hidden, layer2
        self.transformer = nn.EmbeddingBag(data.INPUTS + 1, hidden, mode="sum", padding_idx=data.PADDING)
        self.transformer_bias = nn.Parameter(torch.zeros(hidden))
        with torch.no_grad():
            self.transformer.weight.normal_(0.0, 0.05)
            self.transformer.weight[data.PADDING].zero_()
            self.transformer_bias.fill_(0.25)
        self.layer = nn.Linear(2 * hidden, layer2 * BUCKETS)
        self.output = nn.Linear(layer2, BUCKETS)
        # The network starts as the linear term alone (see `fit_hand`).
        nn.init.zeros_(self.output.weight)
        nn.init.zeros_(self.output.bias)
        self.hand = nn.Linear(data.FEATURES, BUCKETS, bias=False)
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

    def forward(self, mine, theirs, bucket, features):
        accumulators = [self.transformer(side) + self.transformer_bias for side in (mine, theirs)]
        x = torch.cat(accumulators, dim=1).clamp(0.0, 1.0)
        rows = torch.arange(len(bucket))
        hidden = self.layer(x).view(-1, BUCKETS, self.layer2)[rows, bucket].clamp(0.0, 1.0)
        return self.output(hidden)[rows, bucket] + self.hand(features)[rows, bucket]

    def clip_weights(self):
        """Keeps the weights inside what the engine's integer form holds."""
        with torch.no_grad():
            self.transformer.weight.clamp_(-1.0, 1.0)
            self.transformer_bias.clamp_(-1.0, 1.0)
            self.layer.weight.clamp_(-2.0, 2.0)


# The engine's form (`dvonn_ai::eval::network`): the transformer's values
# stand for 1 as QA (its clipped accumulators for [0, 1] as [0, QA]), the
# hidden layer's weights for 1 as QB (its sums for 1 as QA * QB), all in
# integers; the small output layer stays in floating point (f32); the
# hand-made features' weights are whole centipieces.
QA = 512
QB = 256
MAGIC = b"DVONNNET"


def quantize(net):
    """The network's weights in the engine's integers, as numpy arrays."""
    def q(tensor, scale, bound):
        values = np.round(tensor.detach().double().numpy() * scale).astype(np.int64)
        assert np.all(np.abs(values) <= bound), f"a weight beyond {bound} after scaling by {scale}"
        return values
    hidden, layer2 = net.hidden, net.layer2
    return {
        "transformer": q(net.transformer.weight[: data.INPUTS], QA, 32767),
        "transformer_bias": q(net.transformer_bias, QA, 32767),
        "layer": q(net.layer.weight.view(BUCKETS, layer2, 2 * hidden), QB, 32767),
        "layer_bias": q(net.layer.bias.view(BUCKETS, layer2), QA * QB, 2**31 - 1),
        "output": net.output.weight.detach().numpy().astype(np.float32),
        "output_bias": net.output.bias.detach().numpy().astype(np.float32),
        "hand": q(net.hand.weight, 100, 2**31 - 1),
    }


def to_engine_bytes(net):
    """The network file the engine reads (`Network::from_bytes`)."""
    weights = quantize(net)
    header = MAGIC + np.array(
        [VERSION, net.hidden, net.layer2, BUCKETS, data.INPUTS, data.FEATURES], dtype="<u4"
    ).tobytes()
    kinds = [("transformer", "<i2"), ("transformer_bias", "<i2"), ("layer", "<i2"), ("layer_bias", "<i4"),
             ("output", "<f4"), ("output_bias", "<f4"), ("hand", "<i4")]
    return header + b"".join(weights[name].astype(dtype).tobytes() for name, dtype in kinds)


def from_engine_bytes(raw):
    """A network read from the engine's file (`to_engine_bytes`), its
    integers turned back into floating point: a new round of training can
    start from the network of the round before."""
    if raw[:8] != MAGIC:
        raise ValueError("not a dvonn network file")
    version, hidden, layer2, buckets, inputs, features = np.frombuffer(raw[8:32], dtype="<u4")
    if (version, buckets, inputs, features) != (VERSION, BUCKETS, data.INPUTS, data.FEATURES):
        raise ValueError(f"a network of another layout (version {version}); this trainer writes version {VERSION}")
    net = Net(int(hidden), int(layer2))
    shapes = [("transformer", "<i2", (inputs, hidden), QA), ("transformer_bias", "<i2", (hidden,), QA),
              ("layer", "<i2", (buckets * layer2, 2 * hidden), QB), ("layer_bias", "<i4", (buckets * layer2,), QA * QB),
              ("output", "<f4", (buckets, layer2), 1), ("output_bias", "<f4", (buckets,), 1),
              ("hand", "<i4", (buckets, features), 100)]
    offset, values = 32, {}
    for name, dtype, shape, scale in shapes:
        count = int(np.prod(shape))
        array = np.frombuffer(raw, dtype=dtype, count=count, offset=offset)
        offset += count * np.dtype(dtype).itemsize
        values[name] = torch.from_numpy(array.reshape(shape).astype(np.float32) / scale)
    if offset != len(raw):
        raise ValueError(f"a network file of {len(raw)} bytes; its layout needs {offset}")
    with torch.no_grad():
        net.transformer.weight[: data.INPUTS].copy_(values["transformer"])
        net.transformer_bias.copy_(values["transformer_bias"])
        net.layer.weight.copy_(values["layer"])
        net.layer.bias.copy_(values["layer_bias"])
        net.output.weight.copy_(values["output"])
        net.output.bias.copy_(values["output_bias"])
        net.hand.weight.copy_(values["hand"])
    return net


def integer_estimate(weights, mine, theirs, bucket, features):
    """The engine's estimate in centipieces, computed as it computes it
    (`Network::evaluate_with`), for a batch of positions."""
    table = np.vstack([weights["transformer"], np.zeros((1, weights["transformer"].shape[1]), np.int64)])
    clipped = [np.clip(table[side].sum(axis=1) + weights["transformer_bias"], 0, QA) for side in (mine, theirs)]
    x = np.concatenate(clipped, axis=1)
    layer = weights["layer"][bucket]  # (n, layer2, 2 hidden)
    sums = np.einsum("nkj,nj->nk", layer, x) + weights["layer_bias"][bucket]
    hidden = np.clip(sums, 0, QA * QB).astype(np.float32)
    unit = np.float32(1.0 / (QA * QB))
    pieces = (hidden * (weights["output"][bucket] * unit)).sum(axis=1) + weights["output_bias"][bucket]
    return np.round(pieces * 100).astype(np.int64) + (weights["hand"][bucket] * features.astype(np.int64)).sum(axis=1)
