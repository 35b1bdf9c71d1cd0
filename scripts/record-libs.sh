#!/bin/sh
# Records the tests of a few well-known concurrent Go libraries with conc
# record and checks each trace with conc monitor and conc predict (with and
# without --lock-edges): docs/record.md, "Real libraries".
# Usage: scripts/record-libs.sh CONC_BINARY WORKDIR
set -eu
conc=$(realpath "$1"); work=$2
mkdir -p "$work"; work=$(realpath "$work")
get() { # MODULE@VERSION DIR: a writable copy of the module's source
	dir=$(GOFLAGS=-mod=mod go mod download -json "$1" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
	rm -rf "$work/$2"; cp -r "$dir" "$work/$2"; chmod -R u+w "$work/$2"
}
rec() { # DIR ARGS...: plain go test time, then conc record
	d=$1; shift
	( cd "$work/$d" && /usr/bin/time -f "$d: plain go test %e s" sh -c 'go test -count=1 ./... >/dev/null 2>&1' || true )
	( cd "$work/$d" && /usr/bin/time -f "$d: conc record %e s" "$conc" record -o "$work/traces/$d" "$@" 2>&1 | grep -v '^\(ok\|PASS\|FAIL\)' || true )
}
get github.com/patrickmn/go-cache@v2.1.0+incompatible go-cache
(cd "$work/go-cache" && go mod init github.com/patrickmn/go-cache >/dev/null 2>&1)
get github.com/hashicorp/golang-lru/v2@v2.0.7 golang-lru
get golang.org/x/sync@v0.25.0 xsync
get golang.org/x/time@v0.16.0 xtime
rec go-cache --atomic '(*cache).Increment*' --atomic '(*cache).Decrement*' --atomic '(*cache).Add' ./...
rec golang-lru --atomic '(*Cache).ContainsOrAdd' --atomic '(*Cache).PeekOrAdd' ./...
rec xsync --atomic '(*Weighted).TryAcquire' ./...
rec xtime --atomic '(*Limiter).reserveN' ./...
for f in "$work"/traces/*/*.std.gz; do
	for c in monitor predict "predict --lock-edges --timeout 20s"; do
		echo "== $(basename "$f") $c"
		$conc $c --lenient "$f" 2>&1 | tail -6 || true
	done
done
