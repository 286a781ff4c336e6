package artifact

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestAgentIDs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sess")
	s := NewStore(dir)
	ids, err := s.AllocateAgentIDs("", []string{"Scan", "Fix"})
	if err != nil || !reflect.DeepEqual(ids, []string{"0-Scan", "1-Fix"}) {
		t.Fatal(ids, err)
	}
	nested, _ := s.AllocateAgentIDs("0-Scan", []string{"Deep"})
	if !reflect.DeepEqual(nested, []string{"0-Scan.0-Deep"}) {
		t.Fatal(nested)
	}
	if more, _ := s.AllocateAgentIDs("", []string{"Again"}); more[0] != "2-Again" {
		t.Fatal(more)
	}

	// A resumed session continues after the files present; artifact logs
	// and nested files do not count for the top level.
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"4-Old.md", "6-Old.jsonl", "9.bash.log", "0-Scan.11-Deep.md", "notes.md"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	resumed := NewStore(dir)
	if ids, _ := resumed.AllocateAgentIDs("", []string{"New"}); ids[0] != "7-New" {
		t.Fatal(ids)
	}
	if ids, _ := resumed.AllocateAgentIDs("0-Scan", []string{"New"}); ids[0] != "0-Scan.12-New" {
		t.Fatal(ids)
	}
	if got := resumed.AgentSessionPath("7-New"); got != filepath.Join(dir, "7-New.jsonl") {
		t.Fatal(got)
	}
}

func TestReadAgentOutput(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sess")
	s := NewStore(dir)
	if _, err := s.ReadAgentOutput("agent://0-A"); !errors.Is(err, ErrNoDir) {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadAgentOutput("agent://0-A"); err == nil || err.Error() != "Not found: 0-A\nAvailable: none" {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.AgentOutputPath("1-B"), []byte("full text"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(s.AgentOutputPath("0-A.0-C"), []byte("nested"), 0o644)
	if got, err := s.ReadAgentOutput("agent://1-B"); err != nil || got != "full text" {
		t.Fatal(got, err)
	}
	if got, err := s.ReadAgentOutput("0-A.0-C"); err != nil || got != "nested" {
		t.Fatal(got, err)
	}
	for _, ref := range []string{"agent://../x", "agent://2-Z", "agent://1-B/../../etc"} {
		if _, err := s.ReadAgentOutput(ref); err == nil || err.Error()[:10] != "Not found:" {
			t.Errorf("%s: %v", ref, err)
		}
	}
	if _, err := s.ReadAgentOutput("agent://"); err == nil || err.Error() != "agent:// URL requires an output ID: agent://<id>" {
		t.Fatal(err)
	}
}
