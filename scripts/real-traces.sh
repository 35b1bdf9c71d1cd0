#!/bin/sh
# real-traces.sh DIR: compares `conc monitor --lock-edges --first` with the
# first violations RAPID's Velodrome recorded on the six Java Grande traces
# (jgf-*.std.gz in DIR, recorded with RoadRunner; they are not part of this
# module; RAPID's lines are written below). For each it prints conc's first
# violating line, RAPID's, and conc's time and memory. CONC names a conc
# binary; by default one is built first, so that the time is not compiling.
# Exit status 1 if any line differs.
set -eu
dir=$(cd "${1:?usage: scripts/real-traces.sh DIR}" && pwd)
cd "$(dirname "$0")/.." # the module root, wherever the script is run from
[ -x /usr/bin/time ] || { echo "real-traces.sh needs GNU time at /usr/bin/time" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
conc=${CONC:-}
if [ -z "$conc" ]; then
	go build -o "$tmp/conc" ./cmd/conc
	conc=$tmp/conc
fi
status=0
for pair in sor:11938 lufact:82328 moldyn:40491 montecarlo:148577 raytracer:12661 crypt:800811; do
	name=jgf-${pair%%:*}
	want=${pair#*:}
	[ -f "$dir/$name.std.gz" ] || { printf '%-16s missing from %s\n' "$name" "$dir"; status=1; continue; }
	out=$(/usr/bin/time -f "%e s, %M KB" "$conc" monitor --lock-edges --first --quiet \
		--progress=false --format json "$dir/$name.std.gz" 2>"$tmp/time" || true)
	got=$(printf '%s\n' "$out" | sed -n 's/^  "first": \([0-9]*\),*$/\1/p')
	verdict=same
	[ "$got" = "$want" ] || { verdict=DIFFERENT; status=1; }
	printf '%-16s conc %-8s RAPID %-8s %s  (%s)\n' "$name" "$got" "$want" "$verdict" "$(tail -1 "$tmp/time")"
done
exit $status
