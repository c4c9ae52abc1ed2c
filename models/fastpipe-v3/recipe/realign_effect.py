#!/usr/bin/env python3
"""The figures issue 12 asks of realignment, for one call set against a truth set.

usage: realign_effect.py REF.fa TRUTH.vcf.gz CALLS.vcf.gz BED

Both VCFs are split and left-normalised with `bcftools norm -m -any -f REF` (as
../shared/tools/vcf_compare.py does) and kept inside the BED; calls are PASS records whose
genotype carries the allele, '*' alleles dropped. Prints one tab-separated line:

  indel_fp  indel_fp_near_call  truth_indels_ge5  found_indels_ge5

indel_fp: called indel alleles not in the truth (allele and genotype count, as vcf_compare.py);
indel_fp_near_call: those within 50 bp of another called allele (the clusters that reads
aligned to the reference instead of their haplotype make); truth_indels_ge5: truth indels of
5 bp or more; found_indels_ge5: those called with the right allele (any genotype).
"""
import bisect
import subprocess
import sys


def load_bed(path):
    bed = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 3 and not line.startswith(("#", "track", "browser")):
            bed.setdefault(f[0], []).append((int(f[1]), int(f[2])))
    return bed


def inside(bed, chrom, pos0):
    return any(s <= pos0 < e for s, e in bed.get(chrom, ()))


def alleles(ref, path, bed, calls):
    out = subprocess.run(["bcftools", "norm", "-m", "-any", "-f", ref, "-c", "w", path],
                         check=True, capture_output=True, text=True).stdout
    got = {}
    for line in out.splitlines():
        if line.startswith("#"):
            continue
        f = line.split("\t")
        chrom, pos, r, a = f[0], int(f[1]), f[3].upper(), f[4].upper()
        if a in ("*", ".") or not inside(bed, chrom, pos - 1):
            continue
        if calls and f[6] not in ("PASS", "."):
            continue
        count = 1
        if len(f) > 9 and "GT" in f[8]:
            gt = f[9].split(":")[f[8].split(":").index("GT")].replace("|", "/").split("/")
            count = sum(1 for g in gt if g == "1")
            if count == 0:
                continue
        got[(chrom, pos, r, a)] = count
    return got


def main():
    ref, truth_path, calls_path, bed_path = sys.argv[1:5]
    bed = load_bed(bed_path)
    truth = alleles(ref, truth_path, bed, False)
    calls = alleles(ref, calls_path, bed, True)
    positions = {}
    for (chrom, pos, _, _) in calls:
        positions.setdefault(chrom, []).append(pos)
    for v in positions.values():
        v.sort()
    fp = near = 0
    for key, count in calls.items():
        chrom, pos, r, a = key
        if len(r) == len(a):
            continue
        if truth.get(key) == count:
            continue
        fp += 1
        p = positions[chrom]
        lo = bisect.bisect_left(p, pos - 50)
        hi = bisect.bisect_right(p, pos + 50)
        if hi - lo > 1:  # another called allele within 50 bp (itself counts once)
            near += 1
    big = [k for k in truth if abs(len(k[2]) - len(k[3])) >= 5]
    found = sum(1 for k in big if k in calls)
    print(f"{fp}\t{near}\t{len(big)}\t{found}")


if __name__ == "__main__":
    main()
