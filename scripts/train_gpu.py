#!/usr/bin/env python3
"""Trains Hisha's network with PyTorch on a GPU (or the CPU), on the positions that
`hisha-tools train-nnue --export DIR` wrote, and writes a network file the engine reads
(`setoption name EvalFile`, or `src/eval/nnue/hisha.nnue` to embed it).

It is the same model, loss and quantisation as `hisha-tools train-nnue` (the CPU trainer):
9 king buckets x 2,344 inputs, each row factorised into a bucket row plus a row shared by
all buckets (summed on export), 2 x 256 clipped accumulators, one output layer or one per
output bucket, optional hidden layers 512 -> 16 -> 32 -> 1 added to the linear output;
target `lambda * sigmoid(score / K) + (1 - lambda) * result`, squared error of
`sigmoid(eval / K)`, Adam, the step cut to 0.3 at 60% of the epochs and to 0.09 at 85%.
What the GPU adds is room: many epochs over many millions of positions, and networks
trained from scratch rather than fine-tuned.

    hisha-tools train-nnue --k 964 --export ../data/t r14.bin r15.bin --out /dev/null
    scripts/train_gpu.py --data ../data/t --out new.nnue --init src/eval/nnue/hisha.nnue \\
        --epochs 3 --lr 0.00005 --lambda 0.8
    scripts/train_gpu.py --data ../data/t --out scratch.nnue --epochs 40 --lr 0.001 \\
        --output-buckets 8 --hidden-layers

Check the export: `hisha-tools train-nnue --init new.nnue --epochs 0 --k 964 --lambda 0.8
DATA... --out /dev/null` prints the quantised network's validation loss on the same
held-out games; it matches the float one printed here to about 1e-5.
"""

import argparse
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", required=True, help="folder written by `train-nnue --export`")
    ap.add_argument("--out", required=True, help="network file (best validation loss; OUT.last: the last epoch)")
    ap.add_argument("--init", help="start from this network file (HISHANN1/2/3)")
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--lr", type=float, default=0.001, help="Adam step size of the first and output layers")
    ap.add_argument("--hidden-lr", type=float, default=0.001, help="Adam step size of the hidden layers")
    ap.add_argument("--lambda", dest="lam", type=float, default=0.75, help="weight of the score against the result")
    ap.add_argument("--batch", type=int, default=16384)
    ap.add_argument("--distill-weight", type=float, default=0.5, help="loss weight of positions with result -1")
    ap.add_argument("--output-buckets", type=int, default=1, help="1, or the engine's number (meta.json)")
    ap.add_argument("--hidden-layers", action="store_true", help="add hidden layers (kept if --init has them)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--time-limit", type=float, default=0, help="stop after the epoch that passes this many seconds")
    return ap.parse_args()


class Data:
    """The exported positions, on the training device."""

    def __init__(self, folder, device):
        self.meta = json.load(open(os.path.join(folder, "meta.json")))
        m = self.meta
        load = lambda name: np.load(os.path.join(folder, name + ".npy"))
        us, them = load("us"), load("them")
        n, rows = len(us), m["inputs"] + m["features"]
        if us.shape != (n, m["max_active"]) or them.shape != us.shape:
            sys.exit(f"error: {folder}: feature arrays of shape {us.shape} and {them.shape}, ({n}, {m['max_active']}) expected")
        # Each input feeds its bucket row and its shared row; padding feeds row `rows`, kept at zero.
        self.us, self.them = (self.rows_of(x, m, rows).to(device) for x in (us, them))
        result = torch.from_numpy(load("result"))
        self.score = torch.from_numpy(load("score")).to(device)
        self.result = result.to(device)
        self.bucket = torch.from_numpy(load("bucket").astype(np.int64)).to(device)
        held = torch.from_numpy(load("val").astype(bool))
        self.val = torch.nonzero(held & (result >= 0)).squeeze(1).to(device)
        self.train = torch.nonzero(~held).squeeze(1).to(device)
        self.rows, self.k = rows, float(m["k"])

    @staticmethod
    def rows_of(feats, m, rows):
        f = torch.from_numpy(feats.astype(np.int64))
        pad = f == m["pad"]
        shared = m["inputs"] + f % m["features"]
        both = torch.cat([f, shared], dim=1)
        both[torch.cat([pad, pad], dim=1)] = rows
        return both


class Net(torch.nn.Module):
    """The engine's network in floating point (scales as in `train-nnue`: an accumulator
    entry of 1.0 is QA, an output of 1.0 is OUTPUT_SCALE centipawns)."""

    def __init__(self, m, rows, buckets, hidden_layers):
        super().__init__()
        h = m["hidden"]
        self.m, self.rows, self.buckets = m, rows, buckets
        self.ft = torch.nn.EmbeddingBag(rows + 1, h, mode="sum", padding_idx=rows)
        self.ft_bias = torch.nn.Parameter(torch.full((h,), 0.25))
        self.out_w = torch.nn.Parameter(torch.empty(buckets, 2 * h).uniform_(-0.05, 0.05))
        self.out_b = torch.nn.Parameter(torch.zeros(buckets))
        with torch.no_grad():
            self.ft.weight.zero_()
            self.ft.weight[m["inputs"]:rows].uniform_(-0.06, 0.06)
        self.mlp = self.fresh_mlp() if hidden_layers else None

    def fresh_mlp(self):
        """Random first and second hidden layers, the last at zero: the network starts out
        evaluating exactly as without them."""
        m, h = self.m, self.m["hidden"]
        a1, a2 = math.sqrt(3 / (2 * h)), math.sqrt(3 / m["l1"])
        p = torch.nn.ParameterDict({
            "w1": torch.empty(m["l1"], 2 * h).uniform_(-a1, a1), "b1": torch.full((m["l1"],), 0.5),
            "w2": torch.empty(m["l2"], m["l1"]).uniform_(-a2, a2), "b2": torch.full((m["l2"],), 0.5),
            "w3": torch.zeros(m["l2"]), "b3": torch.zeros(1),
        })
        return p.to(self.out_w.device)

    def forward(self, us, them, bucket):
        a = self.ft(us) + self.ft_bias
        b = self.ft(them) + self.ft_bias
        x = torch.cat([a, b], dim=1).clamp(0, 1)
        bucket = bucket if self.buckets > 1 else torch.zeros_like(bucket)
        y = (x * self.out_w[bucket]).sum(1) + self.out_b[bucket]
        if self.mlp is not None:
            p = self.mlp
            h1 = (x @ p["w1"].T + p["b1"]).clamp(0, 1)
            h2 = (h1 @ p["w2"].T + p["b2"]).clamp(0, 1)
            y = y + h2 @ p["w3"] + p["b3"]
        return y * self.m["output_scale"]

    def clip(self):
        if self.mlp is not None:
            with torch.no_grad():
                for name in ("w1", "w2", "w3"):
                    self.mlp[name].clamp_(-self.m["max_weight"], self.m["max_weight"])


def read_network(path, net):
    """Loads a network file into `net`: its weights become the bucket rows (the shared rows
    start at zero); one output layer is copied to every output bucket."""
    b = open(path, "rb").read()
    m, h = net.m, net.m["hidden"]
    magic = b[:8]
    if magic not in (b"HISHANN1", b"HISHANN2", b"HISHANN3"):
        sys.exit(f"error: {path}: not a Hisha network file")
    inputs, hidden = struct.unpack_from("<II", b, 8)
    if (inputs, hidden) != (m["inputs"], h):
        sys.exit(f"error: {path} is {inputs}x{hidden}, the data are for {m['inputs']}x{h}")
    buckets = 1 if magic == b"HISHANN1" else struct.unpack_from("<I", b, 16)[0]
    at = {b"HISHANN1": 16, b"HISHANN2": 20, b"HISHANN3": 28}[magic]
    if buckets not in (1, net.buckets):
        sys.exit(f"error: {path} has {buckets} output buckets, --output-buckets is {net.buckets}")

    def take(dtype, n):
        nonlocal at
        a = np.frombuffer(b, dtype=dtype, count=n, offset=at).astype(np.float32)
        at += a.nbytes // 4 * np.dtype(dtype).itemsize
        return torch.from_numpy(a.copy())

    qa, qb, qh = m["qa"], m["qb"], m["qh"]
    dev = net.out_w.device
    with torch.no_grad():
        net.ft_bias.copy_(take("<i2", h) / qa)
        net.ft.weight.zero_()
        net.ft.weight[: m["inputs"]] = (take("<i2", m["inputs"] * h) / qa).view(-1, h).to(dev)
        net.out_w.copy_((take("<i2", buckets * 2 * h) / qb).view(buckets, -1).expand(net.buckets, -1))
        net.out_b.copy_((take("<i4", buckets) / (qa * qb)).expand(net.buckets))
        if magic == b"HISHANN3":
            l1, l2 = m["l1"], m["l2"]
            w = take("<i2", l1 * 2 * h + l2 * l1 + l2) / qh
            bias = take("<i4", l1 + l2 + 1) / (qa * qh)
            net.mlp = net.fresh_mlp()
            parts = {"w1": w[: l1 * 2 * h].view(l1, -1), "w2": w[l1 * 2 * h: l1 * 2 * h + l2 * l1].view(l2, l1),
                     "w3": w[-l2:], "b1": bias[:l1], "b2": bias[l1: l1 + l2], "b3": bias[-1:]}
            for name, v in parts.items():
                net.mlp[name].copy_(v)
    if at != len(b):
        sys.exit(f"error: {path} has {len(b)} bytes, {at} expected")


def network_bytes(net):
    """The engine's file: first-layer rows with their shared row added, quantised as
    `train-nnue` does; HISHANN3 with hidden layers, HISHANN2 without."""
    m, h = net.m, net.m["hidden"]
    qa, qb, qh = m["qa"], m["qb"], m["qh"]
    q16 = lambda t, s: np.clip(np.round(t.detach().cpu().numpy().astype(np.float64) * s), -32767, 32767).astype("<i2")
    w = net.ft.weight.detach()
    inputs, features = m["inputs"], m["features"]
    shared = w[inputs:inputs + features].repeat(inputs // features, 1)
    parts = [q16(net.ft_bias, qa), q16(w[:inputs] + shared, qa), q16(net.out_w, qb),
             np.round(net.out_b.detach().cpu().numpy().astype(np.float64) * qa * qb).astype("<i4")]
    sizes = [inputs, h, net.buckets]
    if net.mlp is not None:
        p, mw, mb = net.mlp, m["max_weight"], m["max_bias"]
        ws = torch.cat([p["w1"].flatten(), p["w2"].flatten(), p["w3"]]).clamp(-mw, mw)
        bs = torch.cat([p["b1"], p["b2"], p["b3"]])
        parts.append(np.round(ws.detach().cpu().numpy().astype(np.float64) * qh).astype("<i2"))
        parts.append(np.clip(np.round(bs.detach().cpu().numpy().astype(np.float64) * qa * qh), -mb, mb).astype("<i4"))
        sizes += [m["l1"], m["l2"]]
    magic = b"HISHANN3" if net.mlp is not None else b"HISHANN2"
    return magic + struct.pack(f"<{len(sizes)}I", *sizes) + b"".join(x.tobytes() for x in parts)


def losses(net, d, idx, lam):
    """Mean squared error against the target, the score alone and the result alone."""
    sums, k = torch.zeros(3, dtype=torch.float64, device=idx.device), d.k
    with torch.no_grad():
        for chunk in idx.split(65536):
            pr = torch.sigmoid(net(d.us[chunk], d.them[chunk], d.bucket[chunk]) / k)
            s, r = torch.sigmoid(d.score[chunk] / k), d.result[chunk]
            sums += torch.stack([((pr - (lam * s + (1 - lam) * r)) ** 2).sum(), ((pr - s) ** 2).sum(), ((pr - r) ** 2).sum()]).double()
    return (sums / max(len(idx), 1)).tolist()


def train_step(net, opt, d, batch, lam, distill_weight):
    s, r = torch.sigmoid(d.score[batch] / d.k), d.result[batch]
    target = torch.where(r < 0, s, lam * s + (1 - lam) * r)
    weight = torch.where(r < 0, distill_weight, 1.0)
    pr = torch.sigmoid(net(d.us[batch], d.them[batch], d.bucket[batch]) / d.k)
    loss = (weight * (pr - target) ** 2).sum() / len(batch)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    net.clip()
    return loss.item() * len(batch)


def write_atomically(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def main():
    a = parse_args()
    torch.manual_seed(a.seed)
    t0 = time.time()
    d = Data(a.data, a.device)
    m = d.meta
    if a.output_buckets not in (1, m["output_buckets"]):
        sys.exit(f"error: --output-buckets must be 1 or {m['output_buckets']}")
    net = Net(m, d.rows, a.output_buckets, a.hidden_layers).to(a.device)
    if a.init:
        read_network(a.init, net)
        if a.hidden_layers and net.mlp is None:
            net.mlp = net.fresh_mlp()
    print(f"{len(d.train)} training and {len(d.val)} validation positions on {a.device}; K = {d.k:.0f} "
          f"({time.time() - t0:.1f}s)", flush=True)
    hidden = list(net.mlp.parameters()) if net.mlp is not None else []
    opt = torch.optim.Adam([{"params": [net.ft.weight, net.ft_bias, net.out_w, net.out_b], "lr": a.lr},
                            {"params": hidden, "lr": a.hidden_lr}])
    v0 = losses(net, d, d.val, a.lam)
    print(f"start: validation loss {v0[0]:.5f} (vs score {v0[1]:.5f}, vs result {v0[2]:.5f})", flush=True)
    best = math.inf
    g = torch.Generator(device=a.device).manual_seed(a.seed)
    for epoch in range(a.epochs):
        decay = 0.09 if epoch >= a.epochs * 17 // 20 else 0.3 if epoch >= a.epochs * 3 // 5 else 1.0
        for group, lr in zip(opt.param_groups, (a.lr, a.hidden_lr)):
            group["lr"] = lr * decay
        te, total = time.time(), 0.0
        order = d.train[torch.randperm(len(d.train), device=a.device, generator=g)]
        for batch in order.split(a.batch):
            total += train_step(net, opt, d, batch, a.lam, a.distill_weight)
        v = losses(net, d, d.val, a.lam)
        print(f"epoch {epoch + 1:3} lr {a.lr * decay:.5f} train {total / len(d.train):.5f} validation {v[0]:.5f} "
              f"(vs score {v[1]:.5f}, vs result {v[2]:.5f}) {time.time() - te:.1f}s", flush=True)
        data = network_bytes(net)
        write_atomically(a.out + ".last", data)
        if v[0] < best:
            best = v[0]
            write_atomically(a.out, data)
        if a.time_limit and time.time() - t0 > a.time_limit:
            print(f"time limit reached after epoch {epoch + 1}", flush=True)
            break
    print(f"best validation loss {best:.5f}, written to {a.out} ({time.time() - t0:.0f}s in all)", flush=True)
    if a.init and best >= v0[0]:
        print(f"warning: no epoch improved on the starting network's validation loss {v0[0]:.5f}", flush=True)


if __name__ == "__main__":
    main()
