#!/usr/bin/env bash
# Regenerates tokengen/data/icc/tokengen-fogra39.icc, the default CMYK output profile.
# Needs Debian's icc-profiles-free (the FOGRA39L.ti3 characterization data, zlib licence) and argyll (colprof).
# Black generation: ramp (-kr) so neutrals carry black; total ink limit 300 % (-l300), black limit 100 % (-L100);
# perceptual tables gamut-mapped from sRGB (-S, -cmt -dpp). Takes about 2 minutes on one core.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp /usr/share/color/icc/FOGRA39L.ti3 "$work/"
cd "$work"
colprof -qm -kr -l300 -L100 -S /usr/share/color/icc/sRGB.icc -cmt -dpp \
  -D "tokengen FOGRA39 (ISO Coated v2 condition), TAC 300%" \
  -C "Made with ArgyllCMS colprof from FOGRA39L.ti3 (icc-profiles-free, zlib licence)" FOGRA39L
cp FOGRA39L.icc "$top/tokengen/data/icc/tokengen-fogra39.icc"
