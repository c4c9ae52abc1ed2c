#!/usr/bin/env python3
"""Base-quality and paralog-read figures of a BAM, from `samtools view -F 0x900 BAM` on stdin.

Prints one line of key=value: primary reads, bases, the fraction of bases under Q25 and under Q16
(as models/fastpipe-v2/MODEL.md reports for the real HiSeq X reads: 11.9% / 9.3%), and, for reads
named para* (paralog.py's copies), how many there are, how many mapped, how many of those lie in
the confident region (chr20:9,996,001-11,094,000) and their MAPQ distribution.

usage: samtools view -F 0x900 IN.bam | bam_stats.py
"""
import sys

LOW25 = bytes(range(33, 33 + 25))
LOW16 = bytes(range(33, 33 + 16))
BINS = ((0, 0), (1, 9), (10, 19), (20, 29), (30, 39), (40, 59), (60, 255))


def main():
    reads = bases = q25 = q16 = 0
    para = para_mapped = para_region = 0
    hist = [0] * len(BINS)
    for line in sys.stdin.buffer:
        f = line.split(b"\t", 11)
        qual = f[10]
        reads += 1
        if qual != b"*":
            bases += len(qual)
            # len(delete every other byte) = count of low bytes
            q25 += len(qual) - len(qual.translate(None, LOW25))
            q16 += len(qual) - len(qual.translate(None, LOW16))
        if f[0].startswith(b"para"):
            para += 1
            if not int(f[1]) & 4:
                para_mapped += 1
                mapq = int(f[4])
                for j, (lo, hi) in enumerate(BINS):
                    if lo <= mapq <= hi:
                        hist[j] += 1
                if f[2] == b"chr20" and 9996000 < int(f[3]) <= 11094000:
                    para_region += 1
    out = "reads=%d bases=%d frac_q25=%.4f frac_q16=%.4f" % (
        reads, bases, q25 / bases if bases else 0, q16 / bases if bases else 0)
    if para:
        out += " paralog_reads=%d paralog_mapped=%d paralog_in_region=%d paralog_mapq=%s" % (
            para, para_mapped, para_region,
            ",".join("%d-%d:%d" % (lo, hi, c) if lo != hi else "%d:%d" % (lo, c) for (lo, hi), c in zip(BINS, hist)))
    print(out)


if __name__ == "__main__":
    main()
