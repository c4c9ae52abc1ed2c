#!/usr/bin/env python3
"""Inject systematic, strand-specific, low-quality sequencing errors into a SAM stream.

Real Illumina data has sites where reads of one strand carry the same wrong base at low base
quality (context-specific errors). Simulators (ART) do not make them. This picks N sites in
[start, end) at least 30 bp from any truth variant; at each, a fraction r ~ U(0.2, 0.5) of the
reads of one strand (random) get one error base (random, != ref) with quality U(10, 20).
The truth stays unchanged, so examples made there are labelled hom-ref.

usage: samtools view -h IN.bam | inject_strand_errors.py REF.fa.gz TRUTH.vcf.gz CONTIG START END N SEED | samtools view -b -o OUT.bam
"""
import bisect, gzip, random, re, sys

ref_path, truth_path, contig, start, end, n, seed = sys.argv[1:8]
start, end, n = int(start), int(end), int(n)
rng = random.Random(int(seed))
seq = []
name = None
with gzip.open(ref_path, "rt") as fh:
    for line in fh:
        if line.startswith(">"):
            name = line[1:].split()[0]
            continue
        if name == contig:
            seq.append(line.strip())
ref = "".join(seq).upper()
variants = []
with gzip.open(truth_path, "rt") as fh:
    for line in fh:
        if line.startswith("#"):
            continue
        f = line.split("\t")
        if f[0] == contig:
            variants.append(int(f[1]) - 1)
variants.sort()
sites = {}
while len(sites) < n:
    p = rng.randrange(start, end)
    i = bisect.bisect_left(variants, p)
    near = (i < len(variants) and variants[i] - p < 30) or (i > 0 and p - variants[i - 1] < 30)
    if near or ref[p] not in "ACGT" or any(abs(p - q) < 150 for q in sites if abs(p - q) < 150):
        continue
    err = rng.choice([b for b in "ACGT" if b != ref[p]])
    sites[p] = (err, rng.random() < 0.5, rng.uniform(0.2, 0.5))
positions = sorted(sites)
cig = re.compile(r"(\d+)([MIDNSHP=X])")
out = sys.stdout
for line in sys.stdin:
    if line.startswith("@"):
        out.write(line)
        continue
    f = line.rstrip("\n").split("\t")
    flag = int(f[1])
    if flag & 4 or f[2] != contig or f[5] == "*":
        out.write(line)
        continue
    pos = int(f[3]) - 1
    blocks = []  # (ref_start, read_start, length)
    r, q = pos, 0
    for length, op in cig.findall(f[5]):
        length = int(length)
        if op in "M=X":
            blocks.append((r, q, length)); r += length; q += length
        elif op in "IS":
            q += length
        elif op in "DN":
            r += length
    i = bisect.bisect_left(positions, pos)
    changed = False
    s, qual = list(f[9]), list(f[10])
    reverse = bool(flag & 16)
    while i < len(positions) and positions[i] < r:
        p = positions[i]
        err, on_reverse, rate = sites[p]
        if reverse == on_reverse and rng.random() < rate:
            for rs, qs, ln in blocks:
                if rs <= p < rs + ln:
                    s[qs + p - rs] = err
                    if qual[0] != "*":
                        qual[qs + p - rs] = chr(33 + rng.randint(10, 20))
                    changed = True
        i += 1
    if changed:
        f[9], f[10] = "".join(s), "".join(qual)
        f = [x for x in f if not x.startswith(("MD:", "NM:"))]
        out.write("\t".join(f) + "\n")
    else:
        out.write(line)
