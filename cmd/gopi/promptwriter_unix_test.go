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

// Fragments written without the end of a record go out within
// promptDelay; a record after a quiet spell goes out at once; a write
// error is kept and returned.
func TestPromptWriter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	p := newPromptWriter(w, 1<<16)
	read := func() string {
		r.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, 100)
		n, _ := r.Read(buf)
		return string(buf[:n])
	}
	p.WriteString("frag")
	if got := read(); got != "frag" {
		t.Fatalf("timer flush: %q", got)
	}
	time.Sleep(2 * promptDelay)
	p.WriteString("record\n")
	start := time.Now()
	p.EndRecord()
	if got := read(); got != "record\n" || time.Since(start) > promptDelay {
		t.Fatalf("record after a quiet spell: %q after %v", got, time.Since(start))
	}
	r.Close()
	time.Sleep(2 * promptDelay)
	p.WriteString("lost\n")
	p.EndRecord()
	time.Sleep(3 * promptDelay)
	if _, err := p.WriteString("more"); err == nil {
		if err := p.Stop(); err == nil {
			t.Fatal("writes to a closed pipe report no error")
		}
	}
	w.Close()
}
