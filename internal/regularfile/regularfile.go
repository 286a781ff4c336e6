// Package regularfile reads files that must be regular ones: a named pipe,
// socket, device or directory found where a configuration or manifest file
// is expected (a cloned or downloaded tree can hold one) is an error,
// reported without opening it, since opening a named pipe waits for a
// writer for ever.
package regularfile

import (
	"fmt"
	"os"
)

// Read returns the contents of the file at path, links followed, when it
// is a regular file; anything else is an error naming the path and what
// it is. A missing file's error satisfies errors.Is(err, fs.ErrNotExist).
func Read(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s)", path, fi.Mode().Type())
	}
	return os.ReadFile(path)
}
