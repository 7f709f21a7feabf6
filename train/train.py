"""Train the engine's movement evaluation network on data from `dvonn tune-net data`.

    python train/train.py data/*.dat -o network.nnue --fixtures fixtures.txt

Every twentieth game is held out for validation. Each position is seen under
a random one of the board's four symmetries in each epoch. The target is a
mix of the search score recorded with the position and the final margin of
its game (`--score-share`). Training starts from the least-squares fit of
the linear term, or with `--init` from a network file of a round before.
At the end the network is written in the
engine's integer form, and, with `--fixtures`, a file of held-out positions
with the trainer's own estimates, for the engine's test that its integer
inference agrees with the trainer.
"""

import argparse
import copy
import sys
import time
from pathlib import Path

import numpy as np
import torch

import data
import model

# The linear term's learning rate, relative to the rest.
HAND_LR = 0.1


def arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="+", type=Path, help="data files written by `dvonn tune-net data`")
    parser.add_argument("-o", "--output", type=Path, required=True, help="the network file to write")
    parser.add_argument("--fixtures", type=Path, help="also write held-out positions with the trainer's estimates")
    parser.add_argument("--init", type=Path, help="start from this network file (the round before) instead of the linear fit")
    parser.add_argument("--hidden", type=int, default=128, help="accumulator size (the engine's HIDDEN)")
    parser.add_argument("--layer2", type=int, default=16, help="hidden layer size (the engine's LAYER2)")
    parser.add_argument("--epochs", type=int, default=6, help="passes over the training positions (the shipped network: 6)")
    parser.add_argument("--batch", type=int, default=4096)
    parser.add_argument("--lr", type=float, default=2e-3, help="the largest learning rate (one-cycle schedule)")
    parser.add_argument("--weight-decay", type=float, default=1.0, help="AdamW's weight decay, but for the linear term")
    parser.add_argument("--score-share", type=float, default=0.5, help="weight of the search score in the target")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=0, help="CPU threads for PyTorch (0: its default)")
    parser.add_argument("--force", action="store_true", help="overwrite the output files")
    return parser.parse_args()


class Dataset:
    """The positions of the data files, with their inputs' raw material."""

    def __init__(self, files, score_share):
        records = np.concatenate([data.read(path) for path in files])
        # The network judges the movement phase only.
        records = records[(records["flags"] & 2) != 0]
        self.cells = records["cells"]
        self.flags = records["flags"]
        self.black = (self.flags & 1) == 1
        self.bucket = model.buckets(self.cells)
        self.features = records["features"].astype(np.float32)
        self.score = np.clip(records["score"].astype(np.float32) / 100, -40, 40)
        self.margin = records["margin"].astype(np.float32)
        self.target = score_share * self.score + (1 - score_share) * self.margin
        self.validation = (records["game"] % 20) == 0

    def __len__(self):
        return len(self.cells)

    def batch(self, index, symmetry=None):
        mine, theirs = data.input_indices(self.cells[index], self.black[index], symmetry)
        return (
            torch.from_numpy(mine),
            torch.from_numpy(theirs),
            torch.from_numpy(self.bucket[index]),
            torch.from_numpy(self.features[index]),
        )


def predict(net, dataset, index):
    net.eval()
    out = []
    with torch.no_grad():
        for start in range(0, len(index), 16384):
            out.append(net(*dataset.batch(index[start : start + 16384])).numpy())
    net.train()
    return np.concatenate(out) if out else np.zeros(0, dtype=np.float32)


def errors(net, dataset, index):
    """Mean squared errors (pieces²) on `index` against the target, the
    final margin and the search score."""
    estimate = predict(net, dataset, index)
    truths = (("target", dataset.target), ("margin", dataset.margin), ("score", dataset.score))
    return {name: float(np.mean((estimate - truth[index]) ** 2)) for name, truth in truths}


def report(errors):
    return "  ".join(f"{name} {value:.3f}" for name, value in errors.items())


def write_fixtures(path, net, dataset, index):
    """One line per position: the 49 stack bytes and the flag byte in hex,
    the 11 features, then the trainer's estimate in pieces."""
    estimate = predict(net, dataset, index)
    lines = ["# stack bytes and flags (hex), features, estimate (pieces, side to move)"]
    for i, value in zip(index, estimate):
        raw = bytes(dataset.cells[i]) + bytes([dataset.flags[i]])
        features = ",".join(str(int(f)) for f in dataset.features[i])
        lines.append(f"{raw.hex()} {features} {value:.6f}")
    path.write_text("\n".join(lines) + "\n")


def main():
    args = arguments()
    for path in [args.output] + ([args.fixtures] if args.fixtures else []):
        if path.exists() and not args.force:
            sys.exit(f"train.py: {path} exists; use --force to overwrite it")
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    dataset = Dataset(args.files, args.score_share)
    training = np.flatnonzero(~dataset.validation)
    validation = np.flatnonzero(dataset.validation)
    print(f"{len(dataset)} positions: {len(training)} for training, {len(validation)} for validation", flush=True)
    if len(training) < args.batch:
        sys.exit(f"train.py: {len(training)} training positions, fewer than one batch of {args.batch}")

    if args.init:
        net = model.from_engine_bytes(args.init.read_bytes())
        print(f"starting from {args.init}: {report(errors(net, dataset, validation))}", flush=True)
    else:
        net = model.Net(args.hidden, args.layer2)
        # The linear term starts from its least-squares fit; the rest of
        # the network learns what it misses.
        net.fit_hand(dataset.features[training], dataset.bucket[training], dataset.target[training])
        print(f"the linear term alone: {report(errors(net, dataset, validation))}", flush=True)
    # The linear term moves slowly; weight decay keeps the rest from
    # learning the training games by heart.
    groups = [
        {"params": [p for name, p in net.named_parameters() if name != "hand.weight"], "weight_decay": args.weight_decay},
        {"params": [net.hand.weight], "weight_decay": 0.0, "lr": args.lr * HAND_LR},
    ]
    optimizer = torch.optim.AdamW(groups, lr=args.lr)
    steps_per_epoch = len(training) // args.batch
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer,
        max_lr=[group.get("lr", args.lr) for group in groups],
        total_steps=args.epochs * steps_per_epoch,
        pct_start=0.1,
    )
    started = time.time()
    print("epoch  training   validation (mean squared error, pieces²)", flush=True)
    best = None
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(training)
        total = 0.0
        for step in range(steps_per_epoch):
            index = order[step * args.batch : (step + 1) * args.batch]
            symmetry = rng.integers(0, 4, len(index))
            estimate = net(*dataset.batch(index, symmetry))
            loss = ((estimate - torch.from_numpy(dataset.target[index])) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            schedule.step()
            net.clip_weights()
            total += loss.item()
        measured = errors(net, dataset, validation)
        print(f"{epoch:>5}  {total / steps_per_epoch:>8.3f}   {report(measured)}   ({time.time() - started:.0f} s)", flush=True)
        if best is None or measured["target"] < best[0]:
            best = (measured["target"], epoch, copy.deepcopy(net.state_dict()))
    # The epoch with the least validation error: later ones may have learnt
    # the training games by heart.
    net.load_state_dict(best[2])
    print(f"the network of epoch {best[1]} is kept", flush=True)

    # The engine rounds the hand-made features' weights to centipieces:
    # use the rounded weights from here on, so that the fixtures agree.
    with torch.no_grad():
        net.hand.weight.copy_(torch.round(net.hand.weight * 100) / 100)
    args.output.write_bytes(model.to_engine_bytes(net))
    print(f"network written to {args.output}")
    weights = model.quantize(net)
    engine = []
    for start in range(0, len(validation), 2048):
        batch = [part.numpy() for part in dataset.batch(validation[start : start + 2048])]
        engine.append(model.integer_estimate(weights, *batch))
    difference = np.abs(np.concatenate(engine) / 100 - predict(net, dataset, validation))
    print(f"the engine's integer estimates differ from these by {difference.mean():.4f} pieces on average, "
          f"{difference.max():.4f} at most")
    if args.fixtures:
        chosen = rng.choice(validation, size=min(200, len(validation)), replace=False)
        write_fixtures(args.fixtures, net, dataset, np.sort(chosen))
        print(f"fixtures written to {args.fixtures}")


if __name__ == "__main__":
    main()
