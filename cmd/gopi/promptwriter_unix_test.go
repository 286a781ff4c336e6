//go:build unix

package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A match is printed as soon as it is found, not when 64 KiB of output
// have piled up or the search ends: here the search goes on to a FIFO
// nobody writes to, and the first file's line must arrive meanwhile.
func TestGrepPrintsTheFirstMatchAtOnce(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "a.txt")
	if err := os.WriteFile(first, []byte("one needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	pr, pw := io.Pipe()
	env := &cliEnv{stdout: pw, stderr: io.Discard, stdin: strings.NewReader(""), environ: isolatedEnviron(t)}
	done := make(chan int, 1)
	go func() {
		done <- run(context.Background(), env, []string{"grep", "needle", first, fifo})
		pw.Close()
	}()
	// Let the FIFO's reader open it, so that only its data is missing.
	writer := make(chan *os.File, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			t.Error(err)
		}
		writer <- f
	}()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(pr).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		if !strings.Contains(s, "one needle") {
			t.Errorf("first line %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Error("the first match was held back while the search went on")
	}
	f := <-writer
	f.WriteString("two needle\n")
	f.Close()
	go io.Copy(io.Discard, pr)
	if code := <-done; code != exitMatch {
		t.Errorf("exit %d", code)
	}
}
