#!/usr/bin/env bash
# The blind samples v4 was scored on, once, after it was frozen: v3's recipe (build_data.sh) with its
# table replaced by four fresh seeds of the four profiles no model trains on (the seeds are in no
# other table: not 7, not v3's 11-223 or 301-307, not the development seeds 431-441).
# usage: build_blind.sh            env: T (output, default /work/blind16), BWA_INDEX (bwa index of chr20,
#                                  default /work/v3data/bwaidx/chr20.fa), D (../shared/data)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
T=${T:-/work/blind16}
export BWA_INDEX=${BWA_INDEX:-/work/v3data/bwaidx/chr20.fa}
mkdir -p "$T"
recipe=$T/build_blind_recipe.sh
# v3's build_data.sh, reading its helpers from v3's recipe directory, with only the sample table changed.
python3 - "$here/../../fastpipe-v3/recipe/build_data.sh" "$recipe" "$here/../../fastpipe-v3/recipe" <<'PY'
import sys
src, dst, v3 = sys.argv[1:4]
s = open(src).read()
s = s.replace('here=$(cd "$(dirname "$0")" && pwd)', 'here=' + v3)
start = s.index("S011_HS25_150 train"); end = s.index("EOF", start)
rows = """E461_HS20_100 blind art HS20 100 15 400 100 0 - 461
E463_NS50_75 blind art NS50 75 20 300 70 0 - 463
E465_MSv1_250 blind art MSv1 250 12 550 120 0 - 465
E467_DWG_125 blind dwgsim - 125 20 350 80 0.002-0.02 - 467
"""
open(dst, "w").write(s[:start] + rows + s[end:])
PY
for n in E461_HS20_100 E463_NS50_75 E465_MSv1_250 E467_DWG_125; do T=$T bash "$recipe" sample "$n"; done
