//go:build unix

package signals

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// signalHelperEnv makes the test binary act as TestSignalHelperProcess.
const signalHelperEnv = "GOPI_TEST_SIGNAL_HELPER"

// TestSignalHelperProcess is not a test: run as a child process by
// TestSignalRemovesTempFiles, it sets up the signal handling as gopi's
// main does, starts writing the file named in its environment, prints the
// temporary file's name and blocks in the middle of the write.
func TestSignalHelperProcess(t *testing.T) {
	target := os.Getenv(signalHelperEnv)
	if target == "" {
		t.Skip("helper process for TestSignalRemovesTempFiles")
	}
	_, stop := InterruptContext()
	defer stop()
	err := atomicfile.Write(target, 0o644, func(w io.Writer) error {
		io.WriteString(w, "half of the new content")
		fmt.Println(w.(*os.File).Name())
		select {} // a write that never ends
	})
	fmt.Println("write returned:", err)
	os.Exit(1)
}

// A signal that ends gopi in the middle of a write (SIGTERM, or the
// second Ctrl-C: the first one only aborts the run) removes the write's
// temporary file before the process dies, and the process still dies by
// that signal. Without the CLI's cleanup the default action kills it at
// once and the temporary file stays beside the user's file.
func TestSignalRemovesTempFiles(t *testing.T) {
	for _, tc := range []struct {
		sig   syscall.Signal
		times int
	}{{syscall.SIGTERM, 1}, {syscall.SIGHUP, 1}, {syscall.SIGINT, 2}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			if signal.Ignored(tc.sig) {
				// Started under nohup (or the like): the helper inherits the
				// signal ignored, and gopi does not die of a signal it ignores.
				t.Skipf("%v is ignored in this process (nohup?); the helper would ignore it too", tc.sig)
			}
			dir := t.TempDir()
			target := filepath.Join(dir, "f.txt")
			if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestSignalHelperProcess$", "-test.count=1")
			cmd.Env = append(os.Environ(), signalHelperEnv+"="+target)
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			line, err := bufio.NewReader(out).ReadString('\n')
			if err != nil {
				cmd.Process.Kill()
				t.Fatalf("helper: %v", err)
			}
			tmp := strings.TrimSpace(line)
			if !strings.HasPrefix(filepath.Base(tmp), ".gopi-tmp-") {
				t.Fatalf("helper printed %q", line)
			}
			for i := range tc.times {
				if i > 0 {
					// The first Ctrl-C only cancels the run: the process
					// and its write go on.
					time.Sleep(200 * time.Millisecond)
					if _, err := os.Stat(tmp); err != nil {
						t.Errorf("after the first %v the write is gone: %v", tc.sig, err)
					}
				}
				cmd.Process.Signal(tc.sig)
			}
			done := make(chan error, 1)
			go func() { io.Copy(io.Discard, out); done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatal("the signal did not end the helper")
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("helper ended with %v", err)
			}
			if ws := ee.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != tc.sig {
				t.Errorf("helper status %v, want death by %v", ws, tc.sig)
			}
			if _, err := os.Lstat(tmp); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("temporary file left behind: %v", err)
			}
			if b, _ := os.ReadFile(target); string(b) != "old\n" {
				t.Errorf("target changed to %q", b)
			}
		})
	}
}
