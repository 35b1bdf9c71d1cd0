#!/bin/sh
# cross-test.sh: runs the trace package's tests on arm64 and s390x (big
# endian) under qemu-user, where quickLines is the Go loop (quickGo) and
# not amd64's assembly. Needs qemu-aarch64 and qemu-s390x (Debian:
# apt-get install qemu-user). Exit status 1 if a test fails.
set -eu
cd "$(dirname "$0")/.." # the module root, wherever the script is run from
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for arch in arm64:aarch64 s390x:s390x; do
	goarch=${arch%%:*}
	qemu=qemu-${arch#*:}
	command -v "$qemu" >/dev/null || { echo "cross-test.sh needs $qemu (apt-get install qemu-user)" >&2; exit 2; }
	GOARCH=$goarch go test -c -o "$tmp/trace-$goarch.test" ./trace
	echo "trace on $goarch:"
	"$qemu" "$tmp/trace-$goarch.test" -test.short
done
