#!/bin/sh
# docs-img.sh: regenerates the pictures of docs/img from today's code.
#
# The --html pages: every image of README.md and docs/*.md whose alt text
# is a conc command with --html, e.g.
#   ![conc check examples/fig1.conc --html](docs/img/html-check.png)
# is made by running that command (from the module root) with
# --html docs/img/NAME.html, and screenshotting the page with headless
# Chromium in a fixed 1400x600 window into docs/img/NAME.png. The HTML is
# kept beside the PNG: TestDocsImagesMatchBinary (cmd/conc) holds it to
# what today's code writes for the same command, as a screenshot cannot be
# compared (its pixels vary with fonts and Chromium's version).
#
# The playground's pictures (docs/img/playground-*.png) are the browser
# test's own screenshots of the running page (TestPlaygroundInBrowser,
# CONC_SCREENSHOTS=1).
#
# CONC names a conc binary to use instead of building one; CHROMIUM the
# browser (default /usr/bin/chromium, else chromium on PATH).
set -eu
cd "$(dirname "$0")/.." # the module root, wherever the script is run from
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
conc=${CONC:-}
if [ -z "$conc" ]; then
	conc=$tmp/conc
	go build -o "$conc" ./cmd/conc
fi
chromium=${CHROMIUM:-/usr/bin/chromium}
[ -x "$chromium" ] || chromium=$(command -v chromium || command -v chromium-browser)

# Each line: the PNG's name (without .png), then the command's arguments.
grep -ho '!\[conc [^]]* --html\]([^)]*img/[a-z0-9-]*\.png)' README.md docs/*.md |
	sed 's/^!\[conc \(.*\) --html\](.*img\/\([a-z0-9-]*\)\.png)$/\2 \1/' >"$tmp/pages"
[ -s "$tmp/pages" ] || { echo "docs-img.sh: no --html picture in README.md or docs/*.md" >&2; exit 1; }

while read -r name args; do
	page=docs/img/$name.html
	# shellcheck disable=SC2086 # the arguments are words of the alt text
	code=0; "$conc" $args --html "$page" >/dev/null || code=$?
	case $code in 0|1|3) ;; *) echo "docs-img.sh: conc $args --html: exit $code" >&2; exit 1 ;; esac
	"$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$tmp/profile" --window-size=1400,600 \
		--screenshot="docs/img/$name.png" "file://$PWD/$page" 2>/dev/null >/dev/null
	echo "docs/img/$name.png: conc $args --html"
done <"$tmp/pages"

CONC_SCREENSHOTS=1 CI=true go test ./cmd/conc -run '^TestPlaygroundInBrowser$' -count=1
echo "docs/img/playground-*.png: TestPlaygroundInBrowser"
