#!/usr/bin/env bash
# Scores a frozen model once on the blind matrix (build_data.sh blind.tsv: four profiles x 60, 30,
# 20, 15, 10x on the evaluation band): bin/compare-callers for fastpipe (MODEL), bcftools and
# freebayes (QUAL >= 20), plus fastpipe with BEFORE (default models/fastpipe-v4) on the same BAMs;
# then one table, a row per cell, and the GQ calibration pooled over every cell (fastpipe compare).
# Run from the repository root.
# usage: score_blind.sh OUTDIR    env: T (default /work/v5data), MODEL (default models/fastpipe-v5),
#                                      BEFORE (default models/fastpipe-v4; empty: skip)
set -euo pipefail
out=$1
T=${T:-/work/v5data}
MODEL=${MODEL:-models/fastpipe-v5}
BEFORE=${BEFORE-models/fastpipe-v4}
R=$T/bwaidx/20.fa
M=$T/manifest-blind.tsv
[ -f "$M" ] || { echo "score_blind.sh: $M missing: run build_data.sh blind.tsv first" >&2; exit 2; }
mkdir -p "$out"
table=$out/matrix.tsv
printf 'cell\tprofile\tread_length\tcoverage\tcaller\tsnp_f1\tindel_f1\tsnp_tp/fp/fn\tindel_tp/fp/fn\n' > "$table"
pairs=$out/pairs.tsv
: > "$pairs"
while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
  [ "$name" = name ] && continue
  echo "== $name ($profile ${len}bp ${cov}x)"
  bin/compare-callers --ref "$R" --reads "$bam" --truth "$truth" --bed "$bed" --model "$MODEL" --out "$out/$name" \
    | tee "$out/$name.txt"
  if [ -n "$BEFORE" ]; then
    bin/compare-callers --ref "$R" --reads "$bam" --truth "$truth" --bed "$bed" --model "$BEFORE" \
      --skip bcftools,freebayes --out "$out/$name.before" | sed 's/^fastpipe /before   /' | tee "$out/$name.before.txt"
  fi
  for f in "$out/$name.txt" "$out/$name.before.txt"; do
    [ -f "$f" ] || continue
    awk -v c="$name" -v p="$profile" -v l="$len" -v d="$cov" -v OFS='\t' \
      '$1 ~ /^(fastpipe|before|bcftools|freebayes_q20)$/ {print c, p, l, d, $1, $3, $4, $5, $6}' "$f" >> "$table"
  done
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$R" "$truth" "$out/$name/fastpipe.vcf.gz" "$bed" "$bam" >> "$pairs"
done < "$M"
echo "== the matrix: $table"
column -t -s $'\t' "$table"
echo "== GQ calibration of $MODEL pooled over every cell"
bin/fastpipe compare --manifest "$pairs" --json "$out/calibration.json" | tee "$out/calibration.txt"
