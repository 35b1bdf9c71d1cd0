#!/bin/sh
# corpus-bench.sh [DIR]: the figures of docs/corpus.md. It generates a
# corpus of N traces (conc gen random --trace, seeds 1..N, EVENTS events
# each; default 200 of 10^5) in DIR (default a temporary directory, kept
# when given), then times under GNU time, RUNS times each (the fastest
# is printed, the others show the noise of a shared machine):
#   conc monitor and conc predict --all over the corpus with -j 1 and -j 2;
#   conc merge over 200, 400, 800 and 1600 summaries (copies of the
#   traces' own, renamed, so that each trace is merged once);
#   the Beam pipeline (beam/, on its embedded runner) over the corpus,
#   with conc monitor's report compared byte for byte.
# It prints Markdown rows and the machine's load before and after.
# Knobs: N, EVENTS, RUNS (default 3), BEAM=0 leaves the pipeline out.
set -eu
cd "$(dirname "$0")/.." # the module root
[ -x /usr/bin/time ] || { echo "corpus-bench.sh needs GNU time at /usr/bin/time" >&2; exit 2; }
n=${N:-200}
events=${EVENTS:-100000}
runs=${RUNS:-3}
dir=${1:-$(mktemp -d)}
mkdir -p "$dir/traces" "$dir/sums"
conc="$dir/conc"
go build -o "$conc" ./cmd/conc
i=1
while [ "$i" -le "$n" ]; do
	f=$(printf '%s/traces/t%04d.std' "$dir" "$i")
	[ -s "$f" ] || "$conc" gen random --trace --seed "$i" --events "$events" >"$f"
	i=$((i + 1))
done
echo "machine: $(nproc) cores, $(go version | cut -d' ' -f3), load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# best CMD...: the fastest wall time of RUNS runs, in seconds (conc's
# exit code 1, a violation, is no failure here).
best() {
	b=
	r=0
	while [ "$r" -lt "$runs" ]; do
		/usr/bin/time -f %e -o "$dir/time" "$@" >/dev/null 2>&1 || true
		t=$(tail -1 "$dir/time")
		if [ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ]; then b=$t; fi
		r=$((r + 1))
	done
	echo "$b"
}

mb=$(du -sm "$dir/traces" | cut -f1)
echo
echo "| command ($n traces of $events events, $mb MB) | -j 1 | -j 2 | speed-up |"
echo "| --- | --- | --- | --- |"
for cmd in "monitor" "predict --all"; do
	# shellcheck disable=SC2086 # cmd is two words for predict --all
	t1=$(best "$conc" $cmd -j 1 "$dir/traces")
	# shellcheck disable=SC2086
	t2=$(best "$conc" $cmd -j 2 "$dir/traces")
	echo "| conc $cmd | ${t1} s | ${t2} s | $(echo "scale=2; $t1 / $t2" | bc)x |"
done

# The traces' own summaries, then copies under other names.
for f in "$dir"/traces/*.std; do
	s="$dir/sums/$(basename "$f" .std).json"
	[ -s "$s" ] || "$conc" monitor --summary-out "$s" "$f" >/dev/null || true
done
copies=$((1600 / n + 1))
k=1
while [ "$k" -lt "$copies" ]; do
	for s in "$dir"/sums/t*.json; do
		c="$dir/sums/c${k}-$(basename "$s")"
		[ -s "$c" ] || sed "s|\"$dir/traces/|\"$dir/traces/copy$k/|" "$s" >"$c"
	done
	k=$((k + 1))
done
echo
echo "| summaries merged | conc merge |"
echo "| --- | --- |"
for m in 200 400 800 1600; do
	# shellcheck disable=SC2046 # the first m summaries, as arguments
	echo "| $m | $(best "$conc" merge $(ls "$dir"/sums/*.json | head -n "$m")) s |"
done

if [ "${BEAM:-1}" != 0 ]; then
	(cd beam && go build -o "$dir/conc-beam" .)
	"$conc" monitor -j 2 "$dir/traces" >"$dir/cli.txt" || true
	tb=$(best "$dir/conc-beam" --input "$dir/traces/*.std" --output "$dir/beam.txt")
	tc=$(best "$conc" monitor -j 2 "$dir/traces")
	same=differ
	cmp -s "$dir/cli.txt" "$dir/beam.txt" && same="identical"
	echo
	echo "| conc monitor over the corpus | wall time |"
	echo "| --- | --- |"
	echo "| conc monitor -j 2 | ${tc} s |"
	echo "| Beam pipeline, embedded runner (prism) | ${tb} s |"
	echo
	echo "reports: $same"
fi
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
