#!/usr/bin/env bash
# Fits the read-count likelihood of the model's calibration (AlleleCountLikelihood: weight W and
# per-read error E per type) on the validation samples of manifest-samples.tsv, before calibrate.sh:
# every validation BAM is called with the raw model (--no-gq-calibration) and each grid point
# (--count-likelihood snp=W:E,indel=W:E), and `fastpipe compare --manifest` scores the pooled calls.
# Prints one line per grid point and type (pooled TP FP FN F1) and, last, the spec with the best
# pooled F1 per type (ties: the smaller weight), for calibrate.sh's COUNTS. The validation samples are
# off the evaluation band and never trained on. Run from the repository root.
# env: T (default /work/v5data), MODEL (default models/fastpipe-v5), WEIGHTS, ERRORS (the grid)
set -euo pipefail
T=${T:-/work/v5data}
MODEL=${MODEL:-models/fastpipe-v5}
WEIGHTS=${WEIGHTS:-"0 0.1 0.2 0.35 0.5 0.75 1"}
ERRORS=${ERRORS:-"0.01 0.03"}
R=$T/bwaidx/20.fa
M=$T/manifest-samples.tsv
out=$T/counts-fit
mkdir -p "$out"
table=$out/grid.tsv
touch "$table" # grid points of earlier runs stay (a rerun of one replaces its rows)
for w in $WEIGHTS; do
  for e in $ERRORS; do
    [ "$w" = 0 ] && [ "$e" != "${ERRORS%% *}" ] && continue # weight 0 is the same for every E
    spec="snp=$w:$e,indel=$w:$e"
    d=$out/w$w-e$e
    mkdir -p "$d"
    pairs=$d/pairs.tsv
    : > "$pairs.tmp"
    while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
      [ "$role" = validation ] || continue
      [ -s "$d/$name.vcf.gz" ] || bin/fastpipe call --ref "$R" --reads "$bam" --bed "$bed" --model "$MODEL" \
        --no-gq-calibration --count-likelihood "$spec" --no-progress --no-journal --output "$d/$name.vcf.gz" 2> "$d/$name.log"
      printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$R" "$truth" "$d/$name.vcf.gz" "$bed" >> "$pairs.tmp"
    done < "$M"
    mv "$pairs.tmp" "$pairs"
    bin/fastpipe compare --manifest "$pairs" > "$d/compare.txt"
    # the pooled rows: type truth TP FP FN precision recall F1
    { awk -v w="$w" -v e="$e" '!($1==w && $2==e)' "$table"
      awk -v w="$w" -v e="$e" 'p && ($1=="SNP" || $1=="INDEL") {print w"\t"e"\t"$1"\t"$3"\t"$4"\t"$5"\t"$8} /^pooled/ {p=1}' \
        "$d/compare.txt" | tee /dev/stderr; } > "$table.tmp"
    mv "$table.tmp" "$table"
  done
done
best() { sort -k1,1g -k2,2g "$table" | awk -v t="$1" '$3==t && ($7 > f || f == "") {f=$7; s=$1":"$2} END {print s}'; }
echo "best: snp=$(best SNP),indel=$(best INDEL)"
