#!/usr/bin/env bash
# Pictures of the built output, to look at as a reader would:
#   lessons at desktop (1280 px) and phone (390 px) widths in headless Chromium (their first
#   screens at 1280 x 900 and 390 x 844)
#   (at the start of the play-along, at trick 5 and at the end),
#   a site page, and booklet pages as PNGs (pdftoppm).
# Run `whistbook build` first. Writes into output/snapshots/.
# Usage: scripts/snapshots.sh [LESSON-SLUG ...]   (default: Hand I and the Boston problem)
set -euo pipefail
cd "$(dirname "$0")/.."
out=output/snapshots
mkdir -p "$out"
slugs=("$@")
[ ${#slugs[@]} -gt 0 ] || slugs=(cavendish-01-trump-lead-on-established-suit dick-02-boston-problem)

shoot() {  # url png width height
  local profile
  profile=$(mktemp -d)
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
    --user-data-dir="$profile" --screenshot="$2" --window-size="$3,$4" "$1" >/dev/null 2>&1
  rm -rf "$profile"
  echo "$2"
}

for slug in "${slugs[@]}"; do
  page="$PWD/output/html/$slug.html"
  [ -f "$page" ] || { echo "no $page (run whistbook build)" >&2; exit 1; }
  shoot "file://$page" "$out/$slug-desktop.png" 1280 4200
  shoot "file://$page" "$out/$slug-phone.png" 390 9000
  # the first screen, as a reader opens the lesson: the table, the hand and the controls
  shoot "file://$page" "$out/$slug-first-screen-desktop.png" 1280 900
  shoot "file://$page" "$out/$slug-first-screen-phone.png" 390 844
  # the play-along: the middle of the hand and its end (the shots above are its start)
  for at in trick-5 end; do
    shoot "file://$page#$at" "$out/$slug-$at-desktop.png" 1280 4200
    shoot "file://$page#$at" "$out/$slug-$at-phone.png" 390 9000
  done
done
site_page="$PWD/output/site/lessons/${slugs[0]}.html"
[ -f "$site_page" ] && shoot "file://$site_page" "$out/site-${slugs[0]}.png" 1280 3000

# Booklet: cover, contents and the first lesson's pages, at 60 dpi; one page in grey.
pdftoppm -png -r 60 -f 1 -l 9 output/whistbook.pdf "$out/booklet"
pdftoppm -png -r 100 -gray -f 4 -l 4 output/whistbook.pdf "$out/booklet-grey"
ls "$out"/booklet*.png
