#!/usr/bin/env bash
# Vendor the site's JavaScript and CSS libraries into campaigns/static/vendor/ from the npm
# registry, pinned and checked, so that the pages need nothing from outside the site (the
# Content-Security-Policy allows only 'self') and a second run reproduces the same bytes.
#
#   scripts/vendor_js.sh          download, check and copy every library below
#   scripts/vendor_js.sh --check  the same into a temporary folder, then compare with what
#                                 is committed (exit 1 on any difference)
#
# Each library is `npm pack`ed (the registry's own tarball, no install scripts run) into a
# temporary folder; the tarball's sha512 must equal both the integrity pinned here and the
# one the registry publishes for that version. Only the listed dist files and the licence
# are copied. campaigns/static/vendor/VENDORED.txt records what came from where, with the
# sha256 of every file (tests/web/test_vendored.py checks the files against it offline).
#
# To upgrade: change the version, run `npm view NAME@VERSION dist.integrity`, pin the new
# integrity, run this script, look at the diff, run the browser tests.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
VENDOR="$ROOT/campaigns/static/vendor"
CHECK=false
if [[ "${1:-}" == "--check" ]]; then
    CHECK=true
elif [[ $# -gt 0 ]]; then
    echo "usage: $0 [--check]" >&2
    exit 2
fi

WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
OUT="$WORK/vendor"
if $CHECK; then mkdir -p "$OUT"; else OUT="$VENDOR"; fi
MANIFEST="$WORK/VENDORED.txt"
{
    echo "# Written by scripts/vendor_js.sh: do not edit by hand."
    echo "# package@version  registry sha512 integrity of the tarball"
    echo "#   sha256  vendored file (path under campaigns/static/vendor/)"
} >"$MANIFEST"

# vendor NAME VERSION INTEGRITY DEST FILE...
# FILE is a path inside the package; the file keeps its base name in DEST.
vendor() {
    local name="$1" version="$2" pinned="$3" dest="$4"
    shift 4
    local published
    published="$(npm view "$name@$version" dist.integrity)"
    if [[ "$published" != "$pinned" ]]; then
        echo "$name@$version: the registry publishes $published, pinned $pinned" >&2
        exit 1
    fi
    local packdir="$WORK/pack-${dest//\//-}"
    mkdir -p "$packdir"
    local tarball
    tarball="$(cd "$packdir" && npm pack "$name@$version" --silent --ignore-scripts)"
    local actual
    actual="sha512-$(openssl dgst -sha512 -binary "$packdir/$tarball" | base64 -w0)"
    if [[ "$actual" != "$pinned" ]]; then
        echo "$name@$version: the tarball's sha512 is $actual, pinned $pinned" >&2
        exit 1
    fi
    tar xzf "$packdir/$tarball" -C "$packdir"
    rm -rf "${OUT:?}/$dest"
    mkdir -p "$OUT/$dest"
    echo "$name@$version  $pinned" >>"$MANIFEST"
    local licence
    for licence in LICENSE LICENSE.md; do
        if [[ -f "$packdir/package/$licence" ]]; then
            set -- "$@" "$licence"
        fi
    done
    local file
    for file in "$@"; do
        cp "$packdir/package/$file" "$OUT/$dest/"
        echo "  $(sha256sum "$OUT/$dest/$(basename "$file")" | cut -d' ' -f1)  $dest/$(basename "$file")" \
            >>"$MANIFEST"
    done
}

# Bootstrap 5: the site's CSS and its navbar, alerts and collapse.
vendor bootstrap 5.3.9 \
    sha512-20cU0rcfw8WdxtVbmfU+xT2EjvVTw9Ror/h1Qvd7DXCujRg8OO9mdBCsmTHdJFf3BuadmBNJtgIuUXsBqSkk/w== \
    bootstrap \
    dist/css/bootstrap.min.css dist/css/bootstrap.min.css.map \
    dist/js/bootstrap.bundle.min.js dist/js/bootstrap.bundle.min.js.map
# Cytoscape.js: the board map (issue 11).
vendor cytoscape 3.34.4 \
    sha512-msY99tMY8iWTg+sIPGfSqDcPNOt4xcj+v/K/7qUFaCUxxlqnMkUYLBjRUzn9W5CU/R2hrmtJa5+UtovrEM2ctg== \
    cytoscape \
    dist/cytoscape.min.js
# Its layered layout; dagre 3 is bundled in, and the extension registers itself.
vendor cytoscape-dagre 4.0.1 \
    sha512-hyNdh8Vp1nwzBcjHnM4c71G81bFhPmQYLXD2HM9AZIvl+8TrMzWEOPW45hF/XOBQiEguPcDQzi6VrXR1XBcXOA== \
    cytoscape-dagre \
    dist/cytoscape-dagre.min.js dist/cytoscape-dagre.min.js.map
# Chart.js: a structure's stash and production per turn (issue 11).
vendor chart.js 4.6.1 \
    sha512-hJyniucsFmq//EvXYvJ6c6mahPoI3kaxdjVH8awTaJ/fDNWeSqqqArixMJWkWNN6fcYvPU3HneSANFNYtRi61g== \
    chartjs \
    dist/chart.umd.min.js dist/chart.umd.min.js.map

cp "$MANIFEST" "$OUT/VENDORED.txt"
if $CHECK; then
    if diff -r "$OUT" "$VENDOR"; then
        echo "campaigns/static/vendor/ is exactly what the pinned packages hold."
    else
        echo "campaigns/static/vendor/ differs from the pinned packages (diff above)." >&2
        exit 1
    fi
else
    echo "Vendored into campaigns/static/vendor/ (see VENDORED.txt)."
fi
