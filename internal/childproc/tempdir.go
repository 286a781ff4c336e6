package childproc

import (
	"fmt"
	"os"
)

// MkdirTemp creates a private directory in the system's temporary
// directory, named gopi-KIND-PID-START-NS-RANDOM: PID and START (its
// start time) name this process for good within its pid namespace NS, so
// that SweepTemp can tell, after a crash or a kill -9, that the owner is
// gone and remove the directory. kind is a lowercase word (shell).
func MkdirTemp(kind string) (string, error) {
	return os.MkdirTemp("", fmt.Sprintf("gopi-%s-%d-%d-%d-", kind, os.Getpid(), selfStart(), selfNamespace()))
}
