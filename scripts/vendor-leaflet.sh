#!/usr/bin/env bash
# Vendors Leaflet from Debian's libjs-leaflet into Sources/TransitServer/Pages/leaflet/, where the
# server embeds it (the map works without fetching anything from elsewhere):
#   leaflet.js   the package's minified build (its leaflet.min.js: the package's leaflet.js is
#                the unminified leaflet-src), headed by Leaflet's own licence comment
#   leaflet.css  the package's stylesheet
#   images/      the package's marker and layer icons
#   LICENSE      the package's copyright file (BSD-2-clause)
#   README.md    the package's version and each file's sha256
# The sourceMappingURL comments go (the maps are not vendored, so a browser's tools would ask the
# server for them in vain). The package is downloaded and extracted, not installed: no root needed.
#
#   scripts/vendor-leaflet.sh      (then rebuild: the files are compiled into transit-serve)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
target="$root/Sources/TransitServer/Pages/leaflet"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cd "$work"
apt-get download libjs-leaflet >/dev/null 2>&1 || {
    echo "cannot download libjs-leaflet (is it in apt's lists? try: apt-get update)" >&2
    exit 1
}
deb=$(ls libjs-leaflet_*.deb)
version=$(dpkg-deb -f "$deb" Version)
dpkg-deb -x "$deb" extracted
package="$work/extracted/usr/share/javascript/leaflet"
copyright="$work/extracted/usr/share/doc/libjs-leaflet/copyright"

# Leaflet's licence comment: the first comment of the unminified build, up to its `*/`.
header=$(sed -n '1,/\*\//p' "$package/leaflet.js")
leaflet_version=$(printf '%s\n' "$header" | sed -n 's/.*Leaflet \([0-9][0-9.]*\),.*/\1/p')

mkdir -p "$target/images"
{ printf '%s\n' "$header"; grep -v '^//# sourceMappingURL=' "$package/leaflet.min.js"; } > "$target/leaflet.js"
grep -v 'sourceMappingURL=' "$package/leaflet.css" > "$target/leaflet.css"
rm -f "$target"/images/*
cp "$package"/images/*.png "$target/images/"
cp "$copyright" "$target/LICENSE"

cd "$target"
{
    echo "Leaflet $leaflet_version, from Debian's package libjs-leaflet $version (/usr/share/javascript/leaflet/), written by"
    echo "scripts/vendor-leaflet.sh: leaflet.js is the package's minified leaflet.min.js headed by Leaflet's licence"
    echo "comment, leaflet.css and images/ as packaged; sourceMappingURL comments removed. Licence: LICENSE (Debian"
    echo "copyright file, BSD-2-clause)."
    echo
    echo "sha256 of each file, as vendored:"
    echo
    echo '```'
    find . -type f ! -name README.md ! -name LICENSE | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum
    echo '```'
} > README.md
echo "vendored Leaflet $leaflet_version (libjs-leaflet $version) into ${target#"$root"/}"
