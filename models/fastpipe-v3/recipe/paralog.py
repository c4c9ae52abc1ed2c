#!/usr/bin/env python3
"""Diverged paralog copies of a sample's haplotypes, to simulate reads from and mix into the sample.

Picks NSEG non-overlapping segments of SEGLEN bases (no N) from the haplotypes (each from hap 1 or
2 at random), and mutates each at its own rate d ~ U(DMIN, DMAX) per base: 85% SNPs, 15% small
indels (1-3 bp, half insertions, half deletions). Reads simulated from these copies and aligned to
the reference land on the region they came from with extra mismatches and lower MAPQ: false
low-fraction "variants" that the truth (unchanged) says are hom-ref.

usage: paralog.py SEED NSEG SEGLEN DMIN DMAX HAP1.fa HAP2.fa > paralog.fa   (a table of segments to stderr)
Contigs are named para01, para02, ... so their reads can be told apart after alignment.
"""
import random
import sys


def read_fasta(path):
    seq = []
    with open(path) as fh:
        for line in fh:
            if not line.startswith(">"):
                seq.append(line.strip())
    return "".join(seq).upper()


def mutate(seg, d, rng):
    out, i, counts = [], 0, dict(snp=0, ins=0, dele=0)
    while i < len(seg):
        b = seg[i]
        if rng.random() >= d:
            out.append(b); i += 1
            continue
        if rng.random() < 0.85:
            out.append(rng.choice([c for c in "ACGT" if c != b])); counts["snp"] += 1; i += 1
        else:
            length = min(1 + int(rng.expovariate(1.0)), 3)
            if rng.random() < 0.5:
                out.append(b + "".join(rng.choice("ACGT") for _ in range(length))); counts["ins"] += 1; i += 1
            else:
                out.append(b); counts["dele"] += 1; i += 1 + length
    return "".join(out), counts


def main():
    seed, nseg, seglen = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    dmin, dmax = float(sys.argv[4]), float(sys.argv[5])
    haps = [read_fasta(p) for p in sys.argv[6:8]]
    rng = random.Random(seed)
    n = min(len(h) for h in haps)
    chosen = []
    tries = 0
    while len(chosen) < nseg:
        tries += 1
        if tries > 100000:
            raise SystemExit("paralog.py: cannot place %d segments of %d bp in %d bp" % (nseg, seglen, n))
        s = rng.randrange(2000, n - seglen - 2000)
        if any(abs(s - c) < seglen + 1000 for c, _ in chosen):
            continue
        h = rng.randrange(2)
        if "N" in haps[h][s:s + seglen]:
            continue
        chosen.append((s, h))
    chosen.sort()
    out = sys.stdout
    for j, (s, h) in enumerate(chosen, 1):
        d = rng.uniform(dmin, dmax)
        seq, c = mutate(haps[h][s:s + seglen], d, rng)
        out.write(">para%02d\n" % j)
        for k in range(0, len(seq), 60):
            out.write(seq[k:k + 60] + "\n")
        print("paralog para%02d hap%d:%d-%d divergence=%.4f snps=%d insertions=%d deletions=%d"
              % (j, h + 1, s + 1, s + seglen, d, c["snp"], c["ins"], c["dele"]), file=sys.stderr)


if __name__ == "__main__":
    main()
