#!/usr/bin/env python3
"""Odds that fastpipe meets the better peer in each cell of a scored blind matrix (issue 22's bar),
by a paired bootstrap over sites: every site of a cell (a truth variant or any caller's call,
normalised with bcftools norm, inside the cell's BED) gets tp/fp/fn for fastpipe (PASS), bcftools
(all records) and freebayes (QUAL >= 20), as compare-callers scores them; 2,000 resamples of the
cell's sites with replacement give P(fastpipe F1 >= the better peer's), SNPs and indels apart. A
tie (the same calls) counts as met, as in the verdict. The product over cells is the chance that a
matrix drawn like this one meets every cell: what one matrix's verdict can and cannot tell.

usage: pass_odds.py MANIFEST SCOREDIR [COVERAGE ...]   (score_blind.sh's manifest and OUTDIR;
       only the cells of the given coverages, default all)
env:   T (default /work/v5data: the reference is $T/bwaidx/20.fa)
Needs bcftools and numpy (Debian: python3-numpy)."""
import csv, os, subprocess, sys
import numpy as np
if len(sys.argv) < 3: sys.exit(__doc__.split("\n\n")[1])
man, sd = sys.argv[1], sys.argv[2]; covs = set(sys.argv[3:]) or None
ref = os.path.join(os.environ.get("T", "/work/v5data"), "bwaidx", "20.fa")
def rd(c): return subprocess.run(c, shell=True, capture_output=True, text=True).stdout
def load(p, bed, passonly, minq=0):
    if not os.path.exists(p): sys.exit(f"pass_odds.py: {p}: no such file (score the cell first)")
    d = {}
    flt = "-f PASS,." if passonly else ""
    for l in rd(f"bcftools view {flt} -T {bed} {p} 2>/dev/null | bcftools norm -a -m -any -f {ref} 2>/dev/null | bcftools view -H").splitlines():
        f = l.split("\t"); s = dict(zip(f[8].split(":"), f[9].split(":")))
        if minq and (f[5] == "." or float(f[5]) < minq): continue
        gt = s.get("GT", "0/1").replace("|", "/").split("/")
        n = sum(1 for a in gt if a == "1")
        if n == 0 or f[4] == "*": continue
        d[(int(f[1]), f[3], f[4])] = n
    return d
rng = np.random.default_rng(1)
tot = {"snp": [], "indel": []}
for row in csv.DictReader(open(man), delimiter="\t"):
    if covs and row["coverage"] not in covs: continue
    n = row["name"]; bed = row["bed"]
    t = load(row["truth"], bed, False)
    q = {"fp": load(f"{sd}/{n}.model/fastpipe.vcf.gz", bed, True), "bc": load(f"{sd}/{n}.peers/bcftools.vcf.gz", bed, False),
         "fb": load(f"{sd}/{n}.peers/freebayes.vcf.gz", bed, False, 20)}
    for typ in ("snp", "indel"):
        keys = [k for k in sorted(set(t) | set().union(*[set(v) for v in q.values()]))
                if (len(k[1]) == 1 and len(k[2]) == 1) == (typ == "snp") and (typ == "snp" or len(k[1]) != len(k[2]))]
        m = np.zeros((len(keys), 3, 3))  # caller x (tp, fp, fn)
        for i, k in enumerate(keys):
            tv = t.get(k, 0)
            for j, c in enumerate(("fp", "bc", "fb")):
                cv = q[c].get(k, 0)
                if tv and cv == tv: m[i, j, 0] = 1
                else:
                    if cv: m[i, j, 1] = 1
                    if tv: m[i, j, 2] = 1
        def f1(s): return 2 * s[..., 0] / np.maximum(2 * s[..., 0] + s[..., 1] + s[..., 2], 1)
        obs = f1(m.sum(0)); ok0 = obs[0] >= max(obs[1], obs[2]) - 1e-12
        B = 2000; idx = rng.integers(0, len(keys), (B, len(keys)))
        s = m[idx].sum(1)  # B x 3 x 3
        f = f1(s); p = float(np.mean(f[:, 0] >= np.maximum(f[:, 1], f[:, 2]) - 1e-12))
        tot[typ].append(p)
        print(n, row["coverage"], row["profile"], typ, "obs %.4f vs %.4f/%.4f %s  P(pass)=%.3f" % (obs[0], obs[1], obs[2], "ok" if ok0 else "MISS", p), flush=True)
for typ in tot: print(typ, "cells", len(tot[typ]), "expected passes %.1f" % sum(tot[typ]), "P(all) %.3f" % np.prod(tot[typ]))
print("P(every cell, both types) %.3f" % (np.prod(tot["snp"]) * np.prod(tot["indel"])))
