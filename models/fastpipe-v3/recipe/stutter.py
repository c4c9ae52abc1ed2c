#!/usr/bin/env python3
"""Add PCR stutter to simulated reads: in a fraction of the reads that fully span a microsatellite
of their haplotype, add or remove one repeat unit, before alignment.

Microsatellites (in the haplotype FASTA, 0-based): homopolymers of >= 8 bases and tandem repeats
of a 2-4 base (primitive) unit with >= 4 copies. A read "spans" one when its alignment to its
haplotype (ART's -sam output, which says where each read came from) covers the tract plus one
base on each side, with no simulated indel inside the tract.

PCR stutter is a property of the molecule, so the decision is per (fragment, tract): both mates of
a fragment that span the same tract get the same edit. Each (fragment, tract) is edited with
probability RATE (insert or delete one unit, 50/50); a read takes at most one edit (its leftmost
edited tract). The read keeps its length: after an insertion the 3' end (in sequencing direction)
loses one unit; after a deletion it gains the next haplotype bases. Base qualities are unchanged.
The truth is unchanged: the stutter reads are noise the model must learn to ignore.

usage: stutter.py RATE SEED OUT_R1.fq OUT_R2.fq HAP.fa ART.sam IN_R1.fq IN_R2.fq [HAP.fa ART.sam IN_R1.fq IN_R2.fq ...]
Writes the reads of all haplotypes (edited where chosen) to OUT_R1/OUT_R2, and counts to stderr.
"""
import bisect
import random
import re
import sys

COMP = str.maketrans("ACGTNacgtn", "TGCANtgcan")
CIGAR = re.compile(r"(\d+)([MIDNSHP=X])")


def revcomp(s):
    return s.translate(COMP)[::-1]


def read_fasta(path):
    name, seq = None, []
    with open(path) as fh:
        for line in fh:
            if line.startswith(">"):
                if name is not None:
                    raise SystemExit("%s: expected one sequence (a haplotype), found more" % path)
                name = line[1:].split()[0]
            else:
                seq.append(line.strip())
    if name is None:
        raise SystemExit("%s: no FASTA sequence" % path)
    return name, "".join(seq).upper()


def tracts(seq):
    """Sorted (start, end, unit) of the microsatellites of seq, 0-based half-open."""
    out = [(m.start(), m.end(), m.group(1)) for m in re.finditer(r"([ACGT])\1{7,}", seq)]
    for k in (2, 3, 4):
        for m in re.finditer(r"([ACGT]{%d})\1{3,}" % k, seq):
            unit = m.group(1)
            # primitive units only: AA is a homopolymer, ACAC is a 2-base repeat
            if any(k % d == 0 and unit == unit[:d] * (k // d) for d in range(1, k)):
                continue
            out.append((m.start(), m.end(), unit))
    out.sort()
    return out


def ref_to_read(pos, cigar):
    """[(ref_start, read_start, length, op)] blocks of a CIGAR starting at ref pos."""
    blocks, r, q = [], pos, 0
    for length, op in CIGAR.findall(cigar):
        length = int(length)
        if op in "M=X":
            blocks.append((r, q, length)); r += length; q += length
        elif op in "IS":
            q += length
        elif op in "DN":
            r += length
    return blocks, r


def read_offset(blocks, start, end):
    """Read offset of ref start when [start, end) lies in one gapless block, else None."""
    for rs, qs, ln in blocks:
        if rs <= start and end <= rs + ln:
            return qs + start - rs
    return None


def main():
    rate, seed, out1, out2 = float(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    groups = sys.argv[5:]
    if not groups or len(groups) % 4:
        raise SystemExit(__doc__)
    stats = dict(tracts=0, homopolymer_tracts=0, reads=0, spanning_reads=0, edited_reads=0,
                 insertions=0, deletions=0, edited_homopolymer=0, edited_str=0, skipped_indel_in_tract=0)
    with open(out1, "w") as o1, open(out2, "w") as o2:
        for g in range(0, len(groups), 4):
            hap_path, sam_path, fq1, fq2 = groups[g:g + 4]
            hap_name, hap = read_fasta(hap_path)
            ts = tracts(hap)
            stats["tracts"] += len(ts)
            stats["homopolymer_tracts"] += sum(1 for t in ts if len(t[2]) == 1)
            starts = [t[0] for t in ts]
            longest = max((t[1] - t[0] for t in ts), default=0)
            edits = {}  # (qname, mate) -> new read sequence in FASTQ orientation
            with open(sam_path) as fh:
                for line in fh:
                    if line.startswith("@"):
                        continue
                    f = line.split("\t", 11)
                    flag = int(f[1])
                    if flag & 4:
                        continue
                    if f[2] != hap_name:
                        raise SystemExit("%s: read %s is on %s, expected %s" % (sam_path, f[0], f[2], hap_name))
                    stats["reads"] += 1
                    pos = int(f[3]) - 1
                    blocks, end = ref_to_read(pos, f[5])
                    # tracts with start >= pos + 1 and end <= end - 1
                    i = bisect.bisect_left(starts, pos + 1)
                    spanned = []
                    while i < len(ts) and ts[i][0] < end:
                        if ts[i][1] <= end - 1:
                            spanned.append(ts[i])
                        i += 1
                    if not spanned:
                        continue
                    stats["spanning_reads"] += 1
                    for t_start, t_end, unit in spanned:
                        rng = random.Random("%d:%s:%d" % (seed, f[0], t_start))
                        if rng.random() >= rate:
                            continue
                        insert = rng.random() < 0.5
                        q = read_offset(blocks, t_start, t_end)
                        if q is None:
                            stats["skipped_indel_in_tract"] += 1
                            continue
                        seq = f[9]
                        n, k = len(seq), len(unit)
                        reverse = bool(flag & 16)
                        if insert:
                            new = seq[:q] + seq[q:q + k] + seq[q:]
                            new = new[k:] if reverse else new[:n]
                        else:
                            new = seq[:q] + seq[q + k:]
                            if reverse:
                                if pos < k:
                                    continue
                                new = hap[pos - k:pos] + new
                            else:
                                if end + k > len(hap):
                                    continue
                                new = new + hap[end:end + k]
                        assert len(new) == n
                        mate = 1 if flag & 64 else 2
                        edits[(f[0], mate)] = revcomp(new) if reverse else new
                        stats["edited_reads"] += 1
                        stats["insertions" if insert else "deletions"] += 1
                        stats["edited_homopolymer" if k == 1 else "edited_str"] += 1
                        break
            for fq, out, mate in ((fq1, o1, 1), (fq2, o2, 2)):
                with open(fq) as fh:
                    while True:
                        head = fh.readline()
                        if not head:
                            break
                        seq, plus, qual = fh.readline(), fh.readline(), fh.readline()
                        name = head[1:].split()[0]
                        if name.endswith("/1") or name.endswith("/2"):
                            name = name[:-2]
                        new = edits.pop((name, mate), None)
                        if new is not None:
                            seq = new + "\n"
                        out.write(head); out.write(seq); out.write(plus); out.write(qual)
            if edits:
                raise SystemExit("%s: %d edited reads not found in %s/%s" % (sam_path, len(edits), fq1, fq2))
            print("stutter %s: %d tracts (longest %d bp)" % (hap_name, len(ts), longest), file=sys.stderr)
    frac = stats["edited_reads"] / stats["spanning_reads"] if stats["spanning_reads"] else 0.0
    print("stutter " + " ".join("%s=%d" % kv for kv in stats.items())
          + " edited_fraction_of_spanning=%.4f rate=%g" % (frac, rate), file=sys.stderr)


if __name__ == "__main__":
    main()
