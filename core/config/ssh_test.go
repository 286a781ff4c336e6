package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Hosts come from gopi's project and user files, omp's, then the root
// ssh.json and .ssh.json; the first definition of a name wins; variables
// and "~" are expanded; unusable entries are skipped with a warning.
func TestSSHHostsPrecedence(t *testing.T) {
	f := newFixture(t, "BOX=box.example", "SSH_USER=deploy")
	f.write("work/proj/.gopi/ssh.json", `{"hosts":{"web":{"host":"web.gopi","port":"2222"},"db":{"host":"${BOX}","username":"${SSH_USER}","key":"~/.ssh/id"}}}`)
	f.write("home/.gopi/agent/ssh.json", `{"hosts":{"web":{"host":"web.user"},"user-only":{"host":"u","compat":"yes"}}}`)
	f.write("work/proj/.omp/ssh.json", `{"hosts":{"omp-proj":{"host":"op","keyPath":"/k"},"nohost":{"port":1},"bad":"x"}}`)
	f.write("home/.omp/agent/ssh.json", `{"hosts":{"omp-user":{"host":"ou","port":"x"}}}`)
	f.write("work/proj/ssh.json", `{"hosts":{"root":{"host":"r","port":22}}}`)
	f.write("work/proj/.ssh.json", `not json`)
	sc := f.load().SSH()
	var names []string
	got := map[string]SSHHost{}
	for _, h := range sc.Hosts {
		names = append(names, h.Name)
		got[h.Name] = h
	}
	if want := []string{"web", "db", "user-only", "omp-proj", "omp-user", "root"}; !slices.Equal(names, want) {
		t.Fatalf("hosts %v, want %v", names, want)
	}
	if h := got["web"]; h.Host != "web.gopi" || h.Port != 2222 || h.Level != LevelProject {
		t.Errorf("web %+v", h)
	}
	if h := got["db"]; h.Host != "box.example" || h.Username != "deploy" || h.KeyPath != filepath.Join(f.home, ".ssh/id") {
		t.Errorf("db %+v", h)
	}
	if h := got["user-only"]; h.Compat == nil || !*h.Compat || h.Level != LevelUser {
		t.Errorf("user-only %+v", h)
	}
	if h := got["omp-proj"]; h.KeyPath != "/k" {
		t.Errorf("omp-proj %+v", h)
	}
	if h := got["omp-user"]; h.Port != 0 {
		t.Errorf("omp-user %+v", h)
	}
	warn := strings.Join(sc.Warnings, "\n")
	for _, w := range []string{`host "nohost" has no "host" address`, `host "bad" is not an object`, `invalid port "x"`, "Cannot parse " + filepath.Join(f.cwd, ".ssh.json")} {
		if !strings.Contains(warn, w) {
			t.Errorf("warnings lack %q:\n%s", w, warn)
		}
	}
}

// No file, no hosts and no warnings.
func TestSSHNoFiles(t *testing.T) {
	sc := newFixture(t).load().SSH()
	if len(sc.Hosts) != 0 || len(sc.Warnings) != 0 {
		t.Fatalf("%+v", sc)
	}
}

// Adding and removing keeps the other hosts, their order and fields, and
// the file's other keys; duplicates, bad names and missing hosts are
// refused with the reason.
func TestSSHAddRemove(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "ssh.json")
	if err := AddSSHHost(p, "zeta", SSHHostEntry{Host: "z.example", Port: 2200, KeyPath: "~/.ssh/z"}); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("new file: %v %v", st, err)
	}
	if err := os.WriteFile(p, []byte(`{"note": {"keep": [1, 2]}, "hosts": {"zeta": {"host": "z.example", "extra": true}, "alpha": {"host": "a"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := AddSSHHost(p, "mid", SSHHostEntry{Host: "m", Username: "me", Compat: true}); err != nil {
		t.Fatal(err)
	}
	f, err := LoadSSHFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range f.Hosts {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"zeta", "alpha", "mid"}) {
		t.Fatalf("order %v", names)
	}
	data, _ := os.ReadFile(p)
	for _, want := range []string{`"note": {`, `"extra": true`, `"mid": {`, `"username": "me"`, `"compat": true`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("file lacks %s:\n%s", want, data)
		}
	}
	for _, tc := range []struct {
		name, host, want string
	}{
		{"mid", "x", `Host "mid" already exists in ` + p},
		{"bad name", "x", "Host name can only contain letters, numbers, dash, underscore, and dot"},
		{"", "x", "Host name cannot be empty"},
		{strings.Repeat("a", 101), "x", "Host name is too long (max 100 characters)"},
		{"ok", "", "Host address cannot be empty"},
	} {
		if err := AddSSHHost(p, tc.name, SSHHostEntry{Host: tc.host}); err == nil || err.Error() != tc.want {
			t.Errorf("add %q: %v, want %s", tc.name, err, tc.want)
		}
	}
	if err := RemoveSSHHost(p, "alpha"); err != nil {
		t.Fatal(err)
	}
	if err := RemoveSSHHost(p, "alpha"); err == nil || err.Error() != `Host "alpha" not found in `+p {
		t.Fatalf("second remove: %v", err)
	}
	hosts, warns := ParseSSHHosts(mustRead(t, p), p, nil)
	if len(hosts) != 2 || hosts[0].Name != "zeta" || hosts[1].Name != "mid" || len(warns) != 0 {
		t.Fatalf("%+v %v", hosts, warns)
	}
	if err := os.WriteFile(p, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := AddSSHHost(p, "x", SSHHostEntry{Host: "x"}); err == nil || !strings.Contains(err.Error(), "Failed to parse SSH config file "+p) {
		t.Fatalf("broken file: %v", err)
	}
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzParseSSHHosts checks that no ssh.json panics the parser, that
// every host it returns has a name and an address, and that a file it
// reads is written back to one that reads the same.
func FuzzParseSSHHosts(f *testing.F) {
	f.Add([]byte(`{"hosts":{"a":{"host":"h","port":"22","compat":"no"},"b":{"host":"x","port":70000}}}`))
	f.Add([]byte(`{"hosts":{"a":1,"":{"host":"h"}},"other":[1]}`))
	f.Add([]byte(`{"hosts":{"a":{"host":"h"},"a":{"host":"i"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		hosts, _ := ParseSSHHosts(data, "ssh.json", nil)
		for _, h := range hosts {
			if strings.TrimSpace(h.Name) == "" || h.Host == "" || h.Port < 0 || h.Port > 65535 {
				t.Fatalf("bad host %+v", h)
			}
		}
		file, err := ReadSSHFile(data)
		if err != nil {
			return
		}
		out, err := file.Encode()
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		again, err := ReadSSHFile(out)
		if err != nil || len(again.Hosts) != len(file.Hosts) {
			t.Fatalf("round trip %s: %v", out, err)
		}
		for i := range file.Hosts {
			if again.Hosts[i].Name != file.Hosts[i].Name {
				t.Fatalf("round trip order %s", out)
			}
		}
	})
}
