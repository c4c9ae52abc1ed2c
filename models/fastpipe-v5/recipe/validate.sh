#!/usr/bin/env bash
# Calls every off-band validation BAM with a build's `fastpipe call` (its default model and
# calibration) and scores them pooled: the measure on which a change to the caller is kept or not
# (MODEL.md: "decided on validation"), before the blind matrix defined for it is scored. The
# validation samples are those calibrate.sh uses (samples.tsv's validation rows, indel_fit.tsv,
# validation2.tsv, validation3.tsv, validation4.tsv, validation5.tsv: 83 BAMs at 5-30x, off the evaluation band, never trained on);
# missing ones are built first (build_data.sh). Per BAM OUT/NAME.vcf.gz (kept: a rerun scores
# them again without calling), then `fastpipe compare --manifest` pooled over all (OUT/compare.txt)
# and one line per type to stdout. Compare two builds by running it once for each.
# Run from the repository root.
# usage: validate.sh BUILD OUT      BUILD: a checkout or unpacked release with bin/fastpipe built
# env:   T (default /work/v5data), CALL_ARGS (extra `call` options, e.g. --no-realign-reads)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -eq 2 ] || { echo "usage: validate.sh BUILD OUT" >&2; exit 2; }
build=$(cd "$1" && pwd)
out=$2
T=${T:-/work/v5data}
export T
R=$T/bwaidx/20.fa
[ -x "$build/bin/fastpipe" ] || { echo "validate.sh: $build/bin/fastpipe not found" >&2; exit 2; }
for name in $(grep -v '^#' "$here/samples.tsv" | awk -F'\t' '$2 == "validation" {print $1}'); do
  bash "$here/build_data.sh" "$here/samples.tsv" sample "$name"
done
bash "$here/build_data.sh" "$here/samples.tsv" manifest > /dev/null
manifests=("$T/manifest-samples.tsv")
for table in indel_fit validation2 validation3 validation4 validation5; do
  [ -f "$T/manifest-$table.tsv" ] || bash "$here/build_data.sh" "$here/$table.tsv"
  manifests+=("$T/manifest-$table.tsv")
done
mkdir -p "$out"
pairs=$out/pairs.tsv
: > "$pairs.tmp"
read -r -a extra <<< "${CALL_ARGS:-}"
cat "${manifests[@]}" | while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
  [ "$role" = validation ] || continue
  if [ ! -s "$out/$name.vcf.gz" ]; then
    "$build/bin/fastpipe" call --ref "$R" --reads "$bam" --bed "$bed" --no-progress "${extra[@]}" \
      --output "$out/$name.vcf.gz" 2> "$out/$name.log"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$R" "$truth" "$out/$name.vcf.gz" "$bed" "$bam" >> "$pairs.tmp"
done
mv "$pairs.tmp" "$pairs"
"$build/bin/fastpipe" compare --manifest "$pairs" > "$out/compare.txt"
echo "validate.sh: $(wc -l < "$pairs") BAMs, $build" >&2
awk '/^pooled over/ {p = 1; next} p && ($1 == "SNP" || $1 == "INDEL") {print $1, "TP", $3, "FP", $4, "FN", $5, "F1", $8} p && /^$/ {exit}' "$out/compare.txt"
