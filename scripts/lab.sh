#!/bin/sh
# lab.sh [NAME...]: regenerates the measurements of docs/complexity.md, all
# of them or the experiments NAMEd: for each, it runs the conc bench
# command below with --plot docs/plots/NAME.svg --markdown and puts its
# output (the command, the machine, the table and the fitted growth) and
# the plot between the document's markers
#   <!-- lab NAME begin ... -->  and  <!-- lab NAME end -->
# Edit the commands here, never the text between the markers. A conc
# binary is built first (CONC names another), so that no time is
# compiling. It takes a few minutes: the sweeps run until their timeouts.
# The machine is whatever runs this: times vary with it and with its load;
# state counts do not.
set -eu
cd "$(dirname "$0")/.." # the module root, wherever the script is run from
doc=docs/complexity.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
conc=${CONC:-}

# The experiments: NAME, then conc bench's flags (no quotes, no spaces
# inside one). TestLabDocument (cmd/conc) checks that the document has a
# region for each and that each region's table, fits and plot are what
# this command prints from that table.
experiments='
chain-n --family chain --threads 3 --sizes 4,8,16,32,64,128,256,512,1024 --engines profile,global --repeat 3 --timeout 30s --metric states
chain-k --family chain --threads 2,3,4,5,6 --sizes 8 --engines profile,global --repeat 3 --metric states
np --family np --sizes 4,8,12,16,20,24,28 --engines profile --timeout 20s --metric states
deep --family deep --sizes 2,4,8,16,32,64,128,256,512,1024,2048 --engines profile,global --repeat 3
locked --family locked --threads 2,3,4 --sizes 2,4,8,16,32,64 --engines global --timeout 20s --metric states
w1 --family w1-counters --threads 2,3 --sizes 1,2,3,4,6,8 --engines global --timeout 30s --metric states
view-np --family view-np --sizes 16,32,64,96,128,160,192,224,256,288,320 --engines conflict,view --repeat 3 --timeout 30s --metric time
'

want=" $* "
for a in "$@"; do
	echo "$experiments" | grep -q "^$a " || { echo "lab.sh: no experiment $a" >&2; exit 2; }
done
if [ -z "$conc" ]; then
	go build -o "$tmp/conc" ./cmd/conc
	conc=$tmp/conc
fi
echo "$experiments" | while read -r name flags; do
	[ -n "$name" ] || continue
	case "$want" in "  " | *" $name "*) ;; *) continue ;; esac
	grep -q "^<!-- lab $name begin" "$doc" && grep -q "^<!-- lab $name end -->" "$doc" ||
		{ echo "lab.sh: $doc has no markers for $name" >&2; exit 2; }
	echo "lab.sh: $name: conc bench $flags" >&2
	# shellcheck disable=SC2086 # the flags are words
	"$conc" bench $flags --plot "docs/plots/$name.svg" --markdown >"$tmp/out.md"
	{
		echo "<!-- lab $name begin: written by scripts/lab.sh; edit the script, not this -->"
		echo "![$name](plots/$name.svg)"
		echo
		printf 'Regenerate with `scripts/lab.sh %s`. ' "$name"
		cat "$tmp/out.md"
	} >"$tmp/frag.md"
	awk -v name="$name" -v frag="$tmp/frag.md" '
		index($0, "<!-- lab " name " begin") == 1 { while ((getline l < frag) > 0) print l; skip = 1; next }
		$0 == "<!-- lab " name " end -->" { skip = 0 }
		!skip { print }
	' "$doc" >"$tmp/doc.md"
	cp "$tmp/doc.md" "$doc"
done
