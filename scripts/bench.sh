#!/bin/sh
# bench.sh [JGF-DIR]: regenerates docs/benchmarks.md in one run. It
# records the machine (CPU, cores, Go, commit, date, load average), runs
# the Go benchmarks of the trace reader, the trace monitor, the atomicity
# tracker and predict (every Benchmark of ./trace/..., ./monitor/... and
# ./predict/...), then conc monitor and conc predict under GNU time on
# generated traces (conc gen random --trace) of 10^6 and 10^7 events, and,
# when JGF-DIR is given, on the Java Grande traces jgf-*.std.gz in it and
# on their prefixes up to RAPID's first violating line. It prints the page
# and writes it to docs/benchmarks.md (OUT names another file).
#
# Knobs: RUNS (runs of each conc command, default 3; the table shows the
# median and the range), SIZES (events of the generated traces, default
# "1000000 10000000"), BENCHCOUNT (go test -count, default 3), BENCHTIME
# (go test -benchtime, default Go's), CONC (a conc binary; by default one
# is built first, so that no time is compiling). It takes 10 to 15 minutes
# with the JGF traces on a 2-core machine.
set -eu
dir=
if [ $# -gt 0 ]; then
	dir=$(cd "$1" && pwd)
fi
cd "$(dirname "$0")/.." # the module root, wherever the script is run from
[ -x /usr/bin/time ] || { echo "bench.sh needs GNU time at /usr/bin/time" >&2; exit 2; }
out=${OUT:-docs/benchmarks.md}
runs=${RUNS:-3}
sizes=${SIZES:-1000000 10000000}
benchcount=${BENCHCOUNT:-3}
benchtime=${BENCHTIME:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
conc=${CONC:-}
if [ -z "$conc" ]; then
	go build -o "$tmp/conc" ./cmd/conc
	conc=$tmp/conc
fi
page=$tmp/page.md
load() { cut -d' ' -f1-3 /proc/loadavg; }
say() { echo "bench.sh: $*" >&2; }

# median and range of the numbers on standard input: "M (A–B)", or "M".
spread() {
	sort -n | awk '{ v[NR] = $1 } END {
		m = v[int((NR + 1) / 2)]
		if (NR == 1 || v[1] == v[NR]) printf "%s", m
		else printf "%s (%s–%s)", m, v[1], v[NR]
	}'
}

# answer FILE: the figures of a conc text output that say what it found.
answer() {
	awk '
	function n(k, what) { return k " " what (k == 1 ? "" : "s") }
	NR == 1 { v = $1; sub(/:$/, "", v); out = v }
	/^first not serializable at trace line / { out = out ", first " $NF }
	/^note: / && !note && !/dropped/ && !/skipped/ {
		t = substr($0, 7); sub(/ \(.*/, "", t); sub(/;.*/, "", t); sub(/ and is broken.*/, "", t)
		if (length(t) > 70) t = substr(t, 1, 67) "..."
		note = t
	}
	/ broken by (itself|themselves), in / {
		g = $0; sub(/.*, in /, "", g); sub(/ .*/, "", g)
		out = out ", " $1 " broken in " n(g, "group")
	}
	/^no transaction is broken by itself/ { out = out ", joint violation" }
	/ atomic blocks? on a cycle of conflicts/ { out = out ", " n($1, "block") " on a cycle" }
	/ violating transactions? in / { out = out ", " $1 " on a cycle in " n($5, "group") }
	/ groups? of predicted violations/ { out = out ", " n($1, "group") }
	/^note: .* dropped: / { out = out ", " $2 " dropped" }
	/ engine [a-z]+: / { s = $0; sub(/.* engine [a-z]+: /, "", s); sub(/ states?,.*/, "", s); states = s }
	END {
		if (note != "") out = out " (" note ")"
		if (states != "" && states != "0") out = out "; " n(states, "state")
		print out
	}' "$1"
}

# measure ARGS...: runs conc ARGS $runs times and appends a table row:
# the command (the trace named without its directory), the answer, median
# wall and user time with their ranges, and the largest max RSS.
measure() {
	: >"$tmp/wall"
	: >"$tmp/user"
	: >"$tmp/rss"
	i=0
	while [ $i -lt "$runs" ]; do
		/usr/bin/time -f '%e %U %M' -o "$tmp/time" "$conc" "$@" --progress=false >"$tmp/out" 2>"$tmp/err" || true
		# GNU time's last line (a first one says when conc exits non-zero)
		tail -1 "$tmp/time" >"$tmp/t"
		cut -d' ' -f1 "$tmp/t" >>"$tmp/wall"
		cut -d' ' -f2 "$tmp/t" >>"$tmp/user"
		echo "$(($(cut -d' ' -f3 "$tmp/t") / 1024))" >>"$tmp/rss"
		i=$((i + 1))
	done
	cmd=$(echo "$*" | sed "s|$tmp/||g")
	[ -z "$dir" ] || cmd=$(echo "$cmd" | sed "s|$dir/||g")
	printf '| `conc %s` | %s | %s s | %s s | %s MB |\n' "$cmd" "$(answer "$tmp/out")" \
		"$(spread <"$tmp/wall")" "$(spread <"$tmp/user")" "$(sort -n "$tmp/rss" | tail -1)" >>"$page"
	say "conc $cmd: $(tail -1 "$tmp/wall") s"
}

table_head() {
	printf '\n| command | answer | wall | user CPU | max RSS |\n| --- | --- | --- | --- | --- |\n' >>"$page"
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
load_start=$(load)
{
	echo "# Benchmarks"
	echo
	echo "Written by \`scripts/bench.sh\` in one run; do not edit it: run"
	echo "\`scripts/bench.sh [DIR]\` again (DIR holding the JGF traces, RAPID's benchmark"
	echo "suite, as \`jgf-NAME.std.gz\`). The design documents (docs/traces.md,"
	echo "docs/predict.md) cite these tables for their costs."
	echo
	echo "**The machine is shared and noisy.** Other work runs beside these"
	echo "measurements, so wall times vary by tens of percent from run to run"
	echo "(the load average below is the machine's, not this script's alone);"
	echo "user CPU time is disturbed less, and verdicts, state counts and lines"
	echo "not at all. Each conc command runs $runs times: the tables show the median"
	echo "and, in parentheses, the range, and the largest max RSS."
	echo
	echo "| machine | |"
	echo "| --- | --- |"
	echo "| CPU | $cpu |"
	echo "| cores | $(nproc) |"
	echo "| Go | $(go version | sed 's/^go version //') |"
	echo "| commit | $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with uncommitted changes)') |"
	echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
	echo "| load average (1, 5, 15 min) at the start | $load_start |"
} >"$page"

# The Go benchmarks.
say "go benchmarks"
bflags="-run ^\$ -bench . -count $benchcount"
[ -n "$benchtime" ] && bflags="$bflags -benchtime $benchtime"
# shellcheck disable=SC2086 # the flags are words
go test $bflags ./trace/... ./monitor/... ./predict/... >"$tmp/bench" 2>&1 ||
	{ cat "$tmp/bench" >&2; exit 1; }
{
	echo
	echo "## Go benchmarks"
	echo
	echo "\`go test $bflags ./trace/... ./monitor/... ./predict/...\`: what each"
	echo "measures is in its comment (trace/bench_test.go, monitor/trace_bench_test.go,"
	echo "monitor/atomicity/bench_test.go, monitor/pass/bench_test.go,"
	echo "predict/*bench_test.go). Median of the $benchcount runs, range in parentheses."
	echo
	echo "| package | benchmark | time an op | throughput |"
	echo "| --- | --- | --- | --- |"
	awk '
	/^pkg: / { pkg = $2; sub(/^.*\/conc\//, "", pkg) }
	/^Benchmark/ {
		name = $1; sub(/-[0-9]+$/, "", name)
		key = pkg " " name
		if (!(key in seen)) { seen[key] = 1; order[++n] = key }
		for (i = 3; i < NF; i += 2) {
			u = $(i + 1)
			if (!((key, u) in cnt)) units[key] = units[key] " " u
			vals[key, u, ++cnt[key, u]] = $i
		}
	}
	function med(key, u,    k, i, j, t, a) {
		k = cnt[key, u]
		for (i = 1; i <= k; i++) a[i] = vals[key, u, i] + 0
		for (i = 2; i <= k; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
		return fmt(a[int((k + 1) / 2)], u) (k > 1 && a[1] != a[k] ? " (" fmt(a[1], u) "–" fmt(a[k], u) ")" : "")
	}
	function fmt(x, u) {
		if (u == "ns/op") {
			if (x >= 1e9) return sprintf("%.2f s", x / 1e9)
			if (x >= 1e6) return sprintf("%.1f ms", x / 1e6)
			if (x >= 1e3) return sprintf("%.1f µs", x / 1e3)
			return sprintf("%.0f ns", x)
		}
		if (x >= 1e6) return sprintf("%.1f M", x / 1e6)
		if (x >= 1e3) return sprintf("%.0f K", x / 1e3)
		return sprintf("%.0f", x)
	}
	END {
		for (i = 1; i <= n; i++) {
			key = order[i]; split(key, kn, " ")
			thr = ""
			m = split(units[key], us, " ")
			for (j = 1; j <= m; j++) {
				if (us[j] == "ns/op" || us[j] ~ /\/op$/) continue
				thr = thr (thr == "" ? "" : ", ") med(key, us[j]) " " us[j]
			}
			printf "| %s | %s | %s | %s |\n", kn[1], kn[2], med(key, "ns/op"), thr
		}
	}' "$tmp/bench"
} >>"$page"

# Generated traces: the locked shape of the design documents and its
# lock-free twin.
{
	echo
	echo "## Generated traces"
	echo
	echo "\`conc gen random --trace --events N --threads 8 --vars 10000 --locks L --txn 8 --seed 1\`,"
	echo "\`locked-N\` with 16 locks, \`lockfree-N\` with none (\`--locks 0\`). The answer"
	echo "column is what the text output says: verdict, first violating line,"
	echo "counts, the note that says which step answered, and the summary line's"
	echo "states (for the monitor, the most transactions its graph held at once)."
} >>"$page"
for n in $sizes; do
	for shape in locked lockfree; do
		locks=16
		[ $shape = lockfree ] && locks=0
		f=$tmp/$shape-$n.std
		"$conc" gen random --trace --events "$n" --threads 8 --vars 10000 --locks $locks --txn 8 --seed 1 >"$f"
		{
			echo
			echo "### $shape-$n ($(wc -l <"$f") lines, $(($(wc -c <"$f") / 1000000)) MB)"
		} >>"$page"
		table_head
		measure monitor "$f"
		measure monitor --lock-edges "$f"
		measure monitor --cycles "$f"
		measure monitor --lock-edges --cycles "$f"
		measure predict "$f"
		measure predict --lock-edges "$f"
		measure predict --all "$f"
		rm -f "$f"
	done
done

# The JGF traces, whole and cut before RAPID's first violation with lock
# edges (scripts/real-traces.sh has the same lines).
if [ -n "$dir" ]; then
	{
		echo
		echo "## The JGF traces"
		echo
		echo "RAPID's benchmark suite: six Java Grande programs recorded with"
		echo "RoadRunner (testdata/traces/README.md; not in the repository). First"
		echo "the whole traces, then each cut just before RAPID's first violating"
		echo "line with lock edges (\`head -n\` of the line before), where the"
		echo "observed order is serializable and only prediction can find a bug."
	} >>"$page"
	for pair in sor:11938 lufact:82328 moldyn:40491 montecarlo:148577 raytracer:12661 crypt:800811; do
		name=jgf-${pair%%:*}
		first=${pair#*:}
		f=$dir/$name.std.gz
		[ -f "$f" ] || { say "$f missing"; continue; }
		printf '\n### %s (%s lines)\n' "$name" "$(zcat "$f" | wc -l)" >>"$page"
		table_head
		measure monitor --lock-edges --first "$f"
		measure monitor "$f"
		measure monitor --lock-edges "$f"
		measure monitor --lock-edges --cycles "$f"
		measure predict "$f"
		measure predict --lock-edges "$f"
		measure predict --all "$f"
		p=$tmp/$name-prefix-$((first - 1)).std
		zcat "$f" | head -n $((first - 1)) >"$p"
		measure predict "$p"
		measure predict --lock-edges "$p"
		rm -f "$p"
	done
fi

printf '\nLoad average (1, 5, 15 min) at the end: %s.\n' "$(load)" >>"$page"
cat "$page"
cp "$page" "$out"
say "wrote $out"
