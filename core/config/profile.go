package config

import "os"

// EnvCPUProfile names a file that a gopi process writes a CPU profile of
// its whole run to (pprof's format): a developer's measuring aid, not a
// setting, so it is read before any configuration is loaded.
const EnvCPUProfile = "GOPI_CPUPROFILE"

// CPUProfilePath is $GOPI_CPUPROFILE of the process, "" when unset.
func CPUProfilePath() string { return os.Getenv(EnvCPUProfile) }
