package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	os.Exit(runUntil(sigs, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
