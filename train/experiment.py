"""Compare models on held-out games (validation loss), for choosing the architecture."""
import argparse, time, sys
import numpy as np
import torch
import data, model

p = argparse.ArgumentParser()
p.add_argument("files", nargs="+")
p.add_argument("--hidden", type=int, default=128)
p.add_argument("--layer2", type=int, default=16)
p.add_argument("--hand", action="store_true")
p.add_argument("--linear", action="store_true", help="hand features only, tapered")
p.add_argument("--epochs", type=int, default=10)
p.add_argument("--batch", type=int, default=4096)
p.add_argument("--lr", type=float, default=2e-3)
p.add_argument("--score-share", type=float, default=0.5)
p.add_argument("--movement-only", action="store_true")
p.add_argument("--seed", type=int, default=1)
p.add_argument("--wd", type=float, default=0.0)
p.add_argument("--mlp", type=int, default=0, help="hand features only, through an MLP of this width per bucket")
a = p.parse_args()
torch.manual_seed(a.seed)
rng = np.random.default_rng(a.seed)
rec = np.concatenate([data.read(f) for f in a.files])
if a.movement_only:
    rec = rec[(rec["flags"] & 2) != 0]
val = (rec["game"] % 20) == 0
print(f"{len(rec)} positions, {val.sum()} for validation", flush=True)
cells, flags = rec["cells"], rec["flags"]
black = (flags & 1) == 1
score = np.clip(rec["score"].astype(np.float32) / 100, -40, 40)
margin = rec["margin"].astype(np.float32)
target = a.score_share * score + (1 - a.score_share) * margin
bucket = model.buckets(cells, flags)
feats = rec["features"].astype(np.float32)

if a.linear:
    occ = data.occupied(cells)
    def shares(o):
        up = np.clip((o - 30) / 19, 0, 1); lo = np.clip((o - 10) / 20, 0, 1)
        full = np.where(o > 30, up, 0); mid = np.where(o > 30, 1 - up, lo); end = np.where(o > 30, 0, 1 - lo)
        return np.stack([full, mid, end], 1)
    X = (feats[:, None, :] * shares(occ)[:, :, None]).reshape(len(rec), -1)
    mv = (flags & 2) != 0
    tr = ~val & mv; va = val & mv
    w, *_ = np.linalg.lstsq(X[tr], target[tr], rcond=None)
    pred = X @ w
    for name, t in (("target", target), ("margin", margin), ("score", score)):
        print(f"linear: val mse vs {name}: {np.mean((pred[va]-t[va])**2):.3f}")
    TUNED = np.array([[11, 425, 30, -110, -30, 175, 45, -48, 22, 51, 111],[57, 633, 96, -476, -66, 156, 4, -101, -141, -26, 361],[65, -58, 90, 181, -76, 72, 9, -8, 16, 29, -224]], dtype=np.float32).reshape(-1) / 100
    pred = X @ TUNED
    for name, t in (("target", target), ("margin", margin), ("score", score)):
        print(f"shipped: val mse vs {name}: {np.mean((pred[va]-t[va])**2):.3f}")
    sys.exit()

class MLP(torch.nn.Module):
    def __init__(self, width):
        super().__init__()
        self.l1 = torch.nn.Linear(data.FEATURES + model.BUCKETS, width * model.BUCKETS)
        self.l2 = torch.nn.Linear(width, model.BUCKETS)
        self.hand = torch.nn.Linear(data.FEATURES, model.BUCKETS, bias=False)
        self.width = width
    def forward(self, mine, theirs, bucket, features):
        rows = torch.arange(len(bucket))
        onehot = torch.nn.functional.one_hot(bucket, model.BUCKETS).float()
        x = torch.cat([features / 10, onehot], 1)
        h = self.l1(x).view(-1, model.BUCKETS, self.width)[rows, bucket].clamp(0, 1)
        return self.l2(h)[rows, bucket] + self.hand(features)[rows, bucket]
    def clip_weights(self):
        pass
net = MLP(a.mlp) if a.mlp else model.Net(a.hidden, a.layer2, a.hand)
# The hand-made features' linear term starts from the least-squares fit of
# each bucket, so that the rest learns what the linear evaluation misses.
if a.hand or a.mlp:
    trn = ~val
    with torch.no_grad():
        W = np.zeros((model.BUCKETS, data.FEATURES), dtype=np.float32)
        for b in range(model.BUCKETS):
            m = trn & (bucket == b)
            if m.sum() > 100:
                W[b], *_ = np.linalg.lstsq(feats[m], target[m], rcond=None)
        net.hand.weight.copy_(torch.from_numpy(W))
    pred = (feats * W[bucket]).sum(1)
    e = (pred - target)[val & ((flags & 2) != 0)]
    print(f"per-bucket linear fit: val target mse (movement) {np.mean(e**2):.3f}", flush=True)
hand_params = [net.hand.weight] if (a.hand or a.mlp) else []
rest = [p for p in net.parameters() if all(p is not q for q in hand_params)]
opt = torch.optim.AdamW([{"params": rest, "weight_decay": a.wd}, {"params": hand_params, "weight_decay": 0.0, "lr": a.lr / 10}], lr=a.lr)
tr_idx = np.flatnonzero(~val); va_idx = np.flatnonzero(val)
steps = a.epochs * (len(tr_idx) // a.batch)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[a.lr, a.lr / 10] if (a.hand or a.mlp) else a.lr, total_steps=steps, pct_start=0.1)
def batch(idx, sym):
    mine, theirs = data.input_indices(cells[idx], black[idx], sym)
    return (torch.from_numpy(mine), torch.from_numpy(theirs), torch.from_numpy(bucket[idx]), torch.from_numpy(feats[idx]))
def evaluate():
    net.eval(); out = []
    with torch.no_grad():
        for i in range(0, len(va_idx), 16384):
            idx = va_idx[i:i+16384]
            out.append(net(*batch(idx, None)).numpy())
    net.train(); pred = np.concatenate(out)
    mv = (flags[va_idx] & 2) != 0
    res = {}
    for name, t in (("target", target), ("margin", margin), ("score", score)):
        e = (pred - t[va_idx]) ** 2
        res[name] = (e.mean(), e[mv].mean(), e[~mv].mean())
    return res
t0 = time.time(); step = 0
for epoch in range(a.epochs):
    perm = rng.permutation(tr_idx); tot = 0
    for i in range(0, len(perm) - a.batch + 1, a.batch):
        idx = perm[i:i+a.batch]
        sym = rng.integers(0, 4, len(idx))
        pred = net(*batch(idx, sym))
        loss = ((pred - torch.from_numpy(target[idx])) ** 2).mean()
        opt.zero_grad(); loss.backward(); opt.step(); sched.step(); net.clip_weights()
        tot += loss.item(); step += 1
    r = evaluate()
    print(f"epoch {epoch+1} train {tot/(len(perm)//a.batch):.3f} | val target {r['target'][0]:.3f} (mv {r['target'][1]:.3f} pl {r['target'][2]:.3f}) margin mv {r['margin'][1]:.3f} pl {r['margin'][2]:.3f} score mv {r['score'][1]:.3f} | {time.time()-t0:.0f}s", flush=True)
