#!/usr/bin/env bash
# Scores a frozen model on the manifest's blind samples, once: bin/compare-callers (fastpipe with
# the model, bcftools, freebayes) per sample, then the same model with --no-realign-reads, and
# realign_effect.py on both fastpipe VCFs (indel FPs within 50 bp of another call, indels >= 5 bp
# found). Run from the repository root.
# usage: score_blind.sh MODEL_DIR OUTDIR      env: T (data, default /work/v3data), D (../shared/data)
set -euo pipefail
model=$1 out=$2
D=${D:-/work/shared/data}
T=${T:-/work/v3data}
R=$D/ref/chr20.fa.gz
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
python3 - "$T/manifest.tsv" <<'PY' > "$out/blind.tsv"
import csv, sys
for r in csv.DictReader(open(sys.argv[1]), delimiter="\t"):
    if r["role"] == "blind":
        print("\t".join([r["name"], r["bam"], r["truth"], r["bed"]]))
PY
printf 'sample\trealign\tindel_fp\tindel_fp_near_call\ttruth_indels_ge5\tfound_indels_ge5\n' > "$out/realign_effect.tsv"
while IFS=$'\t' read -r name bam truth bed; do
  echo "== $name"
  bin/compare-callers --ref "$R" --reads "$bam" --truth "$truth" --bed "$bed" --model "$model" --out "$out/$name" \
    | tee "$out/$name.txt"
  bin/compare-callers --ref "$R" --reads "$bam" --truth "$truth" --bed "$bed" --model "$model" \
    --fastpipe-args '--no-realign-reads' --skip bcftools,freebayes --out "$out/$name.norealign" \
    | tee "$out/$name.norealign.txt"
  for v in "$name:on:$out/$name/fastpipe.vcf.gz" "$name:off:$out/$name.norealign/fastpipe.vcf.gz"; do
    IFS=: read -r n mode vcf <<< "$v"
    printf '%s\t%s\t%s\n' "$n" "$mode" "$(python3 "$here/realign_effect.py" "$R" "$truth" "$vcf" "$bed")" >> "$out/realign_effect.tsv"
  done
done < "$out/blind.tsv"
cat "$out/realign_effect.tsv"
