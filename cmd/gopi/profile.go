package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/gopi-agent/gopi/core/config"
)

// startCPUProfile starts the CPU profile $GOPI_CPUPROFILE asks for (see
// config.EnvCPUProfile) and returns what ends it and writes it out; a
// profile that cannot start is reported and the run goes on.
func startCPUProfile() (stop func()) {
	path := config.CPUProfilePath()
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "gopi: warning: no CPU profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "gopi: warning: no CPU profile: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
