#!/usr/bin/env python3
"""Bins a FASTQ's base qualities (stdin to stdout) as NovaSeq-era Illumina instruments write them:
Q0-2 -> 2, Q3-14 -> 12, Q15-30 -> 23, Q31 and up -> 37 (Phred+33). Bases and names are unchanged."""
import sys

def binned(q):
    return 2 if q < 3 else 12 if q < 15 else 23 if q < 31 else 37

TABLE = bytes(33 + binned(c - 33) if c >= 33 else c for c in range(256))
out = sys.stdout.buffer
for i, line in enumerate(sys.stdin.buffer):
    out.write(line.translate(TABLE) if i % 4 == 3 else line)
