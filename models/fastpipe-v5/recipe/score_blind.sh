#!/usr/bin/env bash
# Scores a frozen model once on the blind matrix (build_data.sh blind.tsv: four profiles x 60, 30,
# 20, 15, 10x on the evaluation band) with bin/compare-callers: bcftools and freebayes (QUAL >= 20)
# per cell ("peers", which need no model and may run first), then fastpipe with MODEL and with
# BEFORE (default models/fastpipe-v4) on the same BAMs; then one table, a row per cell and caller,
# and the GQ calibration of MODEL pooled over every cell (fastpipe compare --manifest).
# Run from the repository root.
# usage: score_blind.sh OUTDIR [peers|models|all]   (default all)
# env: T (default /work/v5data), MODEL (default models/fastpipe-v5), BEFORE (default models/fastpipe-v4; empty: skip),
#      MANIFEST (default $T/manifest-blind.tsv)
set -euo pipefail
out=$1
what=${2:-all}
T=${T:-/work/v5data}
MODEL=${MODEL:-models/fastpipe-v5}
BEFORE=${BEFORE-models/fastpipe-v4}
R=$T/bwaidx/20.fa
M=${MANIFEST:-$T/manifest-blind.tsv}  # blind2.tsv: MANIFEST=$T/manifest-blind2.tsv
[ -f "$M" ] || { echo "score_blind.sh: $M missing: run build_data.sh blind.tsv first" >&2; exit 2; }
mkdir -p "$out"
cells() { awk -F'\t' 'NR > 1' "$M"; }
cc() { bin/compare-callers --ref "$R" --reads "$bam" --truth "$truth" --bed "$bed" "$@"; }

if [ "$what" = peers ] || [ "$what" = all ]; then
  while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
    [ -s "$out/$name.peers.txt" ] && continue
    cc --skip fastpipe --out "$out/$name.peers" > "$out/$name.peers.txt.tmp" && mv "$out/$name.peers.txt.tmp" "$out/$name.peers.txt"
  done < <(cells)
fi
[ "$what" = peers ] && exit 0

pairs=$out/pairs.tsv
: > "$pairs"
while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
  echo "== $name ($profile ${len}bp ${cov}x)" >&2
  cc --model "$MODEL" --skip bcftools,freebayes --out "$out/$name.model" > "$out/$name.model.txt"
  if [ -n "$BEFORE" ]; then
    cc --model "$BEFORE" --skip bcftools,freebayes --out "$out/$name.before" | sed 's/^fastpipe /before   /' > "$out/$name.before.txt"
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$R" "$truth" "$out/$name.model/fastpipe.vcf.gz" "$bed" "$bam" >> "$pairs"
done < <(cells)

table=$out/matrix.tsv
printf 'cell\tprofile\tread_length\tcoverage\tcaller\twall_s\tsnp_f1\tindel_f1\tsnp_tp/fp/fn\tindel_tp/fp/fn\n' > "$table"
while IFS=$'\t' read -r name parent role profile len cov artifact bam truth bed; do
  for f in "$out/$name.model.txt" "$out/$name.before.txt" "$out/$name.peers.txt"; do
    [ -f "$f" ] || continue
    awk -v c="$name" -v p="$profile" -v l="$len" -v d="$cov" -v OFS='\t' \
      '$1 ~ /^(fastpipe|before|bcftools|freebayes_q20)$/ {print c, p, l, d, $1, $2, $3, $4, $5, $6}' "$f" >> "$table"
  done
done < <(cells)
# Per cell: does fastpipe reach the better peer on SNP F1 and on INDEL F1?
python3 - "$table" > "$out/verdict.tsv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
cells = {}
for r in rows:
    cells.setdefault(r["cell"], {})[r["caller"]] = r
print("cell\tcoverage\tfastpipe_snp\tbest_peer_snp\tfastpipe_indel\tbest_peer_indel\tbefore_snp\tbefore_indel\tsnp_ok\tindel_ok")
for c, d in cells.items():
    fp = d["fastpipe"]
    peers = [d[k] for k in ("bcftools", "freebayes_q20") if k in d]
    if not peers:  # models only, into a directory without the peers' rows: no verdict for this cell
        continue
    bs = max(float(p["snp_f1"]) for p in peers)
    bi = max(float(p["indel_f1"]) for p in peers)
    b = d.get("before", {})
    print("\t".join([c, fp["coverage"], fp["snp_f1"], "%.4f" % bs, fp["indel_f1"], "%.4f" % bi,
                     b.get("snp_f1", "-"), b.get("indel_f1", "-"),
                     "yes" if float(fp["snp_f1"]) >= bs else "no", "yes" if float(fp["indel_f1"]) >= bi else "no"]))
PY
column -t -s $'\t' "$table"
echo
column -t -s $'\t' "$out/verdict.tsv"
echo "== GQ calibration of $MODEL pooled over every cell"
bin/fastpipe compare --manifest "$pairs" --json "$out/calibration.json" | tee "$out/calibration.txt"
