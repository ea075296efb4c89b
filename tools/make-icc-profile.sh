#!/usr/bin/env bash
# Regenerates tokengen's bundled CMYK output profiles in tokengen/data/icc/:
#   make-icc-profile.sh fogra39   tokengen-fogra39.icc  (FOGRA39L.ti3: European coated offset, ISO 12647-2)
#   make-icc-profile.sh tr006     tokengen-tr006.icc    (TR006.ti3: CGATS TR 006, US GRACoL coated #1)
#   make-icc-profile.sh           both
# Needs Debian's icc-profiles-free (the .ti3 characterization data, zlib licence) and argyll (colprof).
# Black generation: ramp (-kr) so neutrals carry black; total ink limit 300 % (-l300), black limit 100 % (-L100);
# perceptual tables gamut-mapped from sRGB (-S, -cmt -dpp). Takes about 2 minutes per profile on one core.
# The header's creation date (bytes 24-35) is set to the date given below, so a run writes the same bytes
# as the committed file (the profile ID stays zero, as colprof writes v2 profiles). ICC_OUT=folder writes
# there instead of tokengen/data/icc (to compare).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${ICC_OUT:-$top/tokengen/data/icc}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
make_one() {  # data set, output file, description, copyright line, header date (y m d h min s)
  cp "/usr/share/color/icc/$1.ti3" "$work/"
  (cd "$work" && colprof -qm -kr -l300 -L100 -S /usr/share/color/icc/sRGB.icc -cmt -dpp -D "$3" -C "$4" "$1")
  python3 -c 'import struct, sys
path = sys.argv[1]; data = bytearray(open(path, "rb").read())
data[24:36] = struct.pack(">6H", *map(int, sys.argv[2:8]))
open(path, "wb").write(bytes(data))' "$work/$1.icc" $5
  cp "$work/$1.icc" "$out/$2"
}
case "${1:-all}" in
  fogra39|all) make_one FOGRA39L tokengen-fogra39.icc "tokengen FOGRA39 (ISO Coated v2 condition), TAC 300%" \
    "Made with ArgyllCMS colprof from FOGRA39L.ti3 (icc-profiles-free, zlib licence)" "2026 11 29 16 28 49" ;;&
  tr006|all) make_one TR006 tokengen-tr006.icc "tokengen CGATS TR 006 (GRACoL coated #1 condition), TAC 300%" \
    "Made with ArgyllCMS colprof from TR006.ti3 (characterization data of ANSI CGATS/GRACoL TR 006-2007; icc-profiles-free, zlib licence)" "2026 12 7 0 0 0" ;;
  fogra39) ;;
  *) echo "usage: $0 [fogra39|tr006]" >&2; exit 2 ;;
esac
