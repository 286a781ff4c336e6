//go:build !unix

package share

import (
	"errors"
	"os"
)

// supported reports whether this platform can share servers.
const supported = false

var errUnsupported = errors.New("sharing language servers between processes needs Unix sockets and file locks")

func tryLock(string) (*os.File, bool, error) { return nil, false, errUnsupported }

func privateDir(string) error { return errUnsupported }
