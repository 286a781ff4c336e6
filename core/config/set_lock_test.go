package config

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// TestConcurrentSetsKeepEveryKey runs many independent Settings (as many
// gopi processes would be: each holds its own open file, and the file
// lock is per open file) setting different keys at once. Every key must
// be in config.yml afterwards.
func TestConcurrentSetsKeepEveryKey(t *testing.T) {
	f := newFixture(t)
	var keys []string
	for _, k := range Keys() {
		if d, _ := Lookup(k); d.Kind == KindBool && !strings.Contains(k, ".") {
			keys = append(keys, k)
		}
		if len(keys) == 16 {
			break
		}
	}
	if len(keys) < 8 {
		t.Fatalf("only %d top-level boolean settings", len(keys))
	}
	for round := range 3 {
		var all []*Settings
		for range keys {
			all = append(all, f.load().Settings)
		}
		var wg sync.WaitGroup
		for i, k := range keys {
			wg.Go(func() {
				if err := all[i].Set(k, round%2 == 0); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		got := f.load().Settings.Merged()
		for _, k := range keys {
			if v, ok := got[k]; !ok || v != (round%2 == 0) {
				t.Fatalf("round %d: %s is %v (present %v) after concurrent sets; config.yml:\n%s", round, k, v, ok, f.read("home/.gopi/agent/config.yml"))
			}
		}
	}
}

// TestConcurrentSSHAddsKeepEveryHost adds hosts to one ssh.json at once;
// every one must be in the file afterwards.
func TestConcurrentSSHAddsKeepEveryHost(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent", "ssh.json")
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			name := fmt.Sprintf("h%d", i)
			if err := AddSSHHost(path, name, SSHHostEntry{Host: name + ".example"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	f, err := LoadSSHFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Hosts) != 16 {
		t.Fatalf("%d hosts of 16 after concurrent adds", len(f.Hosts))
	}
}
