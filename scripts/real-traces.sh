#!/bin/sh
# real-traces.sh DIR: checks `conc monitor --lock-edges --first` against
# RAPID's Velodrome on the six Java Grande traces (jgf-*.std.gz in DIR,
# recorded with RoadRunner; they are not part of this module). For each it
# prints conc's first violating line, RAPID's, and the time and memory.
# Exit status 1 if any line differs.
set -eu
dir=${1:?usage: scripts/real-traces.sh DIR}
conc=${CONC:-go run ./cmd/conc}
status=0
for pair in sor:11938 lufact:82328 moldyn:40491 montecarlo:148577 raytracer:12661 crypt:800811; do
	name=jgf-${pair%%:*}
	want=${pair#*:}
	out=$(/usr/bin/time -f "%e s, %M KB" $conc monitor --lock-edges --first --quiet \
		--progress=false --format json "$dir/$name.std.gz" 2>/tmp/real-traces.time || true)
	got=$(printf '%s\n' "$out" | sed -n 's/^  "first": \([0-9]*\),*$/\1/p')
	verdict=same
	[ "$got" = "$want" ] || { verdict=DIFFERENT; status=1; }
	printf '%-16s conc %-8s RAPID %-8s %s  (%s)\n' "$name" "$got" "$want" "$verdict" "$(tail -1 /tmp/real-traces.time)"
done
exit $status
