package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// clock returns a deterministic clock that advances 1 ms per call.
func clock() func() time.Time {
	var mu sync.Mutex
	t := time.Date(2026, 2, 16, 10, 20, 30, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		t = t.Add(time.Millisecond)
		return t
	}
}

// testOptions returns options with a temporary session and blob directory,
// a deterministic clock and deterministic ids.
func testOptions(t *testing.T) Options {
	dir := t.TempDir()
	return Options{Cwd: "/work/project", Dir: filepath.Join(dir, "sessions", EncodeCwd("/work/project")),
		BlobDir: filepath.Join(dir, "blobs"), Now: clock(), Rand: rand.NewChaCha8([32]byte{1})}
}

func user(text string) *ai.UserMessage {
	return &ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Attribution: "user", Timestamp: 1760000000000}
}

func assistant(text string) *ai.AssistantMessage {
	return &ai.AssistantMessage{Content: ai.ContentList{ai.Text(text)}, API: "anthropic-messages", Provider: "anthropic",
		Model: "claude-sonnet-4-5", StopReason: ai.StopReasonStop, Timestamp: 1760000000001}
}

func must[T any](t testing.TB) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

func readLines(t testing.TB, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// texts returns a compact description of messages: role and text.
func texts(msgs []ai.Message) []string {
	var out []string
	for _, m := range msgs {
		var b bytes.Buffer
		b.WriteString(string(m.MessageRole()))
		b.WriteString(":")
		switch m := m.(type) {
		case *ai.UserMessage:
			b.WriteString(textOf(m.Content))
		case *ai.AssistantMessage:
			b.WriteString(textOf(m.Content))
		case *ai.ToolResultMessage:
			b.WriteString(textOf(m.Content))
		}
		out = append(out, b.String())
	}
	return out
}

func textOf(c ai.ContentList) string {
	var s string
	for _, b := range c {
		if t, ok := b.(*ai.TextContent); ok {
			s += t.Text
		}
	}
	return s
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
