#!/usr/bin/env bash
# Training, validation and blind-test data for models/fastpipe-v3 (issue 12): many sequencers, plus
# two real-data artifacts (PCR stutter in microsatellites, reads of a diverged paralog).
# Generates under $T (default /work/v3data, outside the repo), per sample: $T/NAME/NAME.bam (+.bai),
# NAME.truth.vcf.gz (+.tbi), NAME.confident.bed; and $T/manifest.tsv listing them all.
# Training and validation BAMs carry the v2 strand-error injection (NAME.bam; the BAM before it is
# NAME.raw.bam); blind tests are left as aligned. Data only: no make-examples, no training.
#
# usage: models/fastpipe-v3/recipe/build_data.sh            all samples (skips finished ones), manifest
#        models/fastpipe-v3/recipe/build_data.sh sample NAME one sample of the table below
# env:   T (output), D (../shared/data), JOBS (samples at once, default 2), BWA_THREADS (default 1),
#        BWA_INDEX (default $T/bwaidx/chr20.fa, built once and shared)
# Needs art_illumina, dwgsim, bwa, samtools, bgzip/tabix, python3 (stdlib only).
# Never seed 7 (SIM30X_EVAL), never ../shared/data/sim30x_eval nor na12878_tiny.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
D=${D:-/work/shared/data}
T=${T:-/work/v3data}
JOBS=${JOBS:-2}
BWA_THREADS=${BWA_THREADS:-1}
R=$D/ref/chr20.fa.gz
KNOWN=$D/ref/giab_chr20_10mb_100kb.vcf.gz
tools=$(cd "$D/../tools" && pwd)
v2=$(cd "$here/../../fastpipe-v2/recipe" && pwd)
export BWA_INDEX=${BWA_INDEX:-$T/bwaidx/chr20.fa}
STUTTER_RATE=0.15          # per (fragment, spanned microsatellite)
PARALOG="10 5000 0.02 0.04" # segments, length, divergence range
PARALOG_COV=6              # ART -f for the paralog copies
# Measured (2026-11-30): of the ~1,980 paralog reads per sample all map into the confident region,
# NM 0-19 (mode 4), but at MAPQ 60 (S217: 1,964 of 1,980; S219: all): the copies are not in the
# reference, so bwa sees no second hit. They make low-fraction (~6/36) false alleles, not low MAPQ.

# name role simulator profile read_len cov_per_hap frag_mean frag_sd qshift|error_range artifact seed
# ART: -ss profile, -f cov, -m/-s fragment, -qs/-qs2 qshift. dwgsim: -e/-E range, -C cov, -d/-s fragment.
table() { cat <<'EOF'
S011_HS25_150 train art HS25 150 15 400 100 0 - 11
S013_HS25_150 train art HS25 150 15 400 100 0 - 13
S205_HS25_100 train art HS25 100 30 400 100 0 - 205
S021_HSXt_150 train art HSXt 150 15 310 70 -9 - 21
S023_HSXn_150 train art HSXn 150 15 310 70 -6 - 23
S029_HSXt_150 train art HSXt 150 15 310 70 0 - 29
S031_HSXt_150 train art HSXt 150 15 310 70 -9 - 31
S211_HSXn_150 train art HSXn 150 7.5 310 70 -3 - 211
S201_MSv3_250 train art MSv3 250 10 550 120 0 - 201
S203_MSv3_250 train art MSv3 250 10 550 120 0 - 203
S207_DWG_100 train dwgsim - 100 15 350 80 0.001-0.01 - 207
S209_DWG_150 train dwgsim - 150 15 350 80 0.005-0.02 - 209
S213_HS25_150 train art HS25 150 15 400 100 0 stutter 213
S215_HSXt_150 train art HSXt 150 15 310 70 -3 stutter 215
S217_HS25_150 train art HS25 150 15 400 100 0 paralog 217
S219_HSXt_150 train art HSXt 150 15 310 70 -3 paralog 219
V037_HSXt_150 validation art HSXt 150 15 310 70 -6 - 37
V221_MSv3_250 validation art MSv3 250 10 550 120 0 - 221
V223_DWG_150 validation dwgsim - 150 15 350 80 0.002-0.015 - 223
B301_HS20_100 blind art HS20 100 15 400 100 0 - 301
B303_NS50_75 blind art NS50 75 20 300 70 0 - 303
B305_MSv1_250 blind art MSv1 250 12 550 120 0 - 305
B307_DWG_125 blind dwgsim - 125 20 350 80 0.002-0.02 - 307
EOF
}
# Half-coverage copies (samtools view -s SEED.5 of the strand-injected BAM), as v2: name parent seed.
halves() { printf '%s\n' "S011_HS25_150_half S011_HS25_150 211" "S013_HS25_150_half S013_HS25_150 213"; }

die() { echo "build_data.sh: $*" >&2; exit 1; }

# ART reads of one FASTA: art_reads FASTA SEED PROFILE LEN COV FRAG SD QSHIFT PREFIX [extra args]
art_reads() {
  art_illumina -ss "$3" -i "$1" -p -l "$4" -f "$5" -m "$6" -s "$7" -qs "$8" -qs2 "$8" -rs "$2" -q -o "$9" "${@:10}" >/dev/null
}

sample() {
  local name=$1 role sim prof len cov fm fs q art seed
  read -r _ role sim prof len cov fm fs q art seed < <(table | awk -v n="$name" '$1 == n') || die "no sample $name in the table"
  [ "$seed" != 7 ] || die "$name: seed 7 is SIM30X_EVAL (evaluation only)"
  local dir=$T/$name
  if [ -f "$dir/done" ]; then echo "$name: done already" >&2; return; fi
  local t0=$SECONDS
  rm -rf "$dir"; mkdir -p "$dir"; cd "$dir"
  # Haplotypes and truth, exactly as ../shared/tools/make_dataset.sh makes them.
  python3 "$tools/simulate_sample.py" "$R" chr20 9995001 11095000 "$KNOWN" 10000000 10100000 "$seed" "$name" 2>sim.log
  bgzip -f "$name.truth.vcf"; tabix -f -p vcf "$name.truth.vcf.gz"
  printf 'chr20\t9996000\t11094000\n' > "$name.confident.bed"
  local h
  for h in 1 2; do
    if [ "$sim" = art ]; then
      if [ "$art" = stutter ]; then
        art_reads "$name.hap$h.fa" $((seed + h)) "$prof" "$len" "$cov" "$fm" "$fs" "$q" "r$h." -sam -na 2>/dev/null
      else
        art_reads "$name.hap$h.fa" $((seed + h)) "$prof" "$len" "$cov" "$fm" "$fs" "$q" "r$h." -na
      fi
    else
      dwgsim -e "$q" -E "$q" -d "$fm" -s "$fs" -C "$cov" -1 "$len" -2 "$len" -r 0 -z $((seed + h)) "$name.hap$h.fa" "r$h" >/dev/null 2>&1
      mv "r$h.bwa.read1.fastq.gz" "r$h.1.fq.gz" 2>/dev/null || mv "r$h.bwa.read1.fastq" "r$h.1.fq"
      mv "r$h.bwa.read2.fastq.gz" "r$h.2.fq.gz" 2>/dev/null || mv "r$h.bwa.read2.fastq" "r$h.2.fq"
      if [ -f "r$h.1.fq.gz" ]; then gunzip -f "r$h.1.fq.gz" "r$h.2.fq.gz"; fi
    fi
  done
  case $art in
    stutter)
      python3 "$here/stutter.py" "$STUTTER_RATE" "$seed" R1.fq R2.fq \
        "$name.hap1.fa" r1..sam r1.1.fq r1.2.fq "$name.hap2.fa" r2..sam r2.1.fq r2.2.fq 2>stutter.log
      cat stutter.log >&2 ;;
    paralog)
      # shellcheck disable=SC2086
      python3 "$here/paralog.py" $((seed + 5000)) $PARALOG "$name.hap1.fa" "$name.hap2.fa" > paralog.fa 2>paralog.log
      art_reads paralog.fa $((seed + 5003)) "$prof" "$len" "$PARALOG_COV" "$fm" "$fs" "$q" p. -na
      cat r1.1.fq r2.1.fq p.1.fq > R1.fq; cat r1.2.fq r2.2.fq p.2.fq > R2.fq ;;
    -)
      cat r1.1.fq r2.1.fq > R1.fq; cat r1.2.fq r2.2.fq > R2.fq ;;
    *) die "$name: unknown artifact $art" ;;
  esac
  bwa mem -t "$BWA_THREADS" -R "@RG\tID:$name\tSM:$name\tPL:ILLUMINA" "$BWA_INDEX" R1.fq R2.fq 2>bwa.log \
    | samtools sort -o "$name.raw.bam" - 2>/dev/null
  samtools index "$name.raw.bam"
  if [ "$role" = blind ]; then
    mv "$name.raw.bam" "$name.bam"; mv "$name.raw.bam.bai" "$name.bam.bai"
  else
    # v2's strand-specific low-quality errors: 1000 sites, seed 111/113 for 11/13 as v2, else seed + 400.
    local is=$((seed + 400)); case $seed in 11) is=111 ;; 13) is=113 ;; esac
    samtools view -h "$name.raw.bam" \
      | python3 "$v2/inject_strand_errors.py" "$R" "$name.truth.vcf.gz" chr20 9996000 11094000 1000 "$is" \
      | samtools view -b -o "$name.bam" -
    samtools index "$name.bam"
  fi
  gzip -f "$name.hap1.fa" "$name.hap2.fa"
  rm -f r1.* r2.* r1..sam r2..sam p.* R1.fq R2.fq
  echo "$name	$((SECONDS - t0))" > seconds
  touch done
  echo "$name: $((SECONDS - t0)) s" >&2
}

half() {
  local name=$1 parent=$2 s=$3 dir=$T/$1
  [ -f "$T/$parent/done" ] || die "$name: parent $parent not built"
  if [ -f "$dir/done" ]; then return; fi
  local t0=$SECONDS
  mkdir -p "$dir"
  samtools view -b -s "$s.5" -o "$dir/$name.bam" "$T/$parent/$parent.bam"
  samtools index "$dir/$name.bam"
  echo "$name	$((SECONDS - t0))" > "$dir/seconds"
  touch "$dir/done"
}

# Every ART profile and read length of the table must be one ART accepts (it refuses a length
# above the profile's longest and prints its built-in profiles when asked for an unknown one).
check_profiles() {
  local tmp; tmp=$(mktemp -d)
  samtools faidx "$R" chr20:10000001-10015000 > "$tmp/t.fa"
  local prof len
  while read -r prof len; do
    art_illumina -ss "$prof" -i "$tmp/t.fa" -p -l "$len" -f 1 -m $((len + 200)) -s 10 -rs 1 -q -na -o "$tmp/x." >"$tmp/log" 2>&1 \
      || die "ART profile $prof does not simulate $len bp reads: $(grep -i error "$tmp/log" | head -1)"
  done < <(table | awk '$3 == "art" {print $4, $5}' | sort -u)
  rm -rf "$tmp"
}

manifest() {
  local m=$T/manifest.tsv.tmp
  printf 'name\trole\tsimulator\tprofile\tread_length\tcoverage\tartifacts\tseed\tbam\ttruth\tbed\tfrac_q25\tfrac_q16\treads\tseconds\textra\n' > "$m"
  local name role sim prof len cov fm fs q art seed stats a c p s
  row() { # name role sim prof len cov artifacts seed dir
    local bam=$T/$1/$1.bam st
    st=$(samtools view -F 0x900 "$bam" | python3 "$here/bam_stats.py")
    echo "$1 $st" >> "$T/bam_stats.txt"
    local f25 f16 nr extra
    f25=$(sed 's/.*frac_q25=\([^ ]*\).*/\1/' <<<"$st"); f16=$(sed 's/.*frac_q16=\([^ ]*\).*/\1/' <<<"$st")
    nr=$(sed 's/^reads=\([^ ]*\).*/\1/' <<<"$st"); extra=$(grep -o 'paralog_reads.*' <<<"$st" || true)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" \
      "$bam" "$T/$9/$9.truth.vcf.gz" "$T/$9/$9.confident.bed" "$f25" "$f16" "$nr" "$(cut -f2 "$T/$1/seconds")" "${extra:--}" >> "$m"
  }
  : > "$T/bam_stats.txt"
  while read -r name role sim prof len cov fm fs q art seed; do
    c=$(awk -v c="$cov" 'BEGIN {printf "%gx (%gx/hap)", 2 * c, c}')
    if [ "$sim" = art ]; then
      p="$prof qshift $q frag N($fm,$fs)"
    else
      p="dwgsim -e/-E $q outer $fm sd $fs"
    fi
    a=""
    [ "$role" = blind ] || a="strand-errors(1000 sites)"
    case $art in
      stutter) a="$a,stutter($STUTTER_RATE of fragment x microsatellite)" ;;
      paralog) a="$a,paralog(${PARALOG// /,} at ${PARALOG_COV}x)" ;;
    esac
    row "$name" "$role" "$sim" "$p" "$len" "$c" "${a:-none}" "$seed" "$name"
  done < <(table)
  while read -r name p s; do
    read -r _ role sim prof len cov fm fs q art seed < <(table | awk -v n="$p" '$1 == n')
    c=$(awk -v c="$cov" 'BEGIN {printf "%gx (half of %gx)", c, 2 * c}')
    row "$name" "$role" "$sim" "$prof qshift $q frag N($fm,$fs)" "$len" "$c" "strand-errors(1000 sites),half(samtools view -s $s.5)" "$seed" "$p"
  done < <(halves)
  mv "$m" "$T/manifest.tsv"
}

if [ "${1:-}" = sample ]; then sample "$2"; exit; fi
[ $# -eq 0 ] || die "usage: build_data.sh [sample NAME]"
mkdir -p "$T"
check_profiles
if [ ! -f "$BWA_INDEX.bwt" ]; then
  mkdir -p "$(dirname "$BWA_INDEX")"; zcat "$R" > "$BWA_INDEX"; bwa index "$BWA_INDEX" >/dev/null 2>&1
fi
t0=$SECONDS
table | awk '{print $1}' | xargs -P "$JOBS" -n 1 bash "$0" sample
while read -r name p s; do half "$name" "$p" "$s"; done < <(halves)
manifest
echo "build_data.sh: all samples in $((SECONDS - t0)) s; $T/manifest.tsv" >&2
