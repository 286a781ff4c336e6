package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Values that ssh would read as options, or that hold white space or
// control characters, are refused when added and skipped (with a warning
// naming the entry) when a hand-edited file holds them.
func TestSSHOptionLikeValuesRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "ssh.json")
	for _, e := range []SSHHostEntry{
		{Host: "-oProxyCommand=touch /tmp/x"},
		{Host: "box", Username: "-oProxyCommand=touch"},
		{Host: "box one"},
		{Host: "box", Username: "me\tyou"},
		{Host: "box\n"},
		{Host: "box", KeyPath: "/k\x00"},
	} {
		err := AddSSHHost(p, "h", e)
		if err == nil || !strings.HasPrefix(err.Error(), "Invalid ") {
			t.Errorf("add %+v: %v", e, err)
		}
	}
	if _, err := os.Stat(p); err == nil {
		t.Fatal("a refused add wrote ssh.json")
	}
	if err := AddSSHHost(p, "ok", SSHHostEntry{Host: "box-1.example", Username: "me", KeyPath: "/my keys/id"}); err != nil {
		t.Fatal(err)
	}
	data := `{"hosts": {"evil": {"host": "-oProxyCommand=touch /tmp/x"}, "evil2": {"host": "b", "username": "-oX=y"}, "good": {"host": "b"}}}`
	hosts, warns := ParseSSHHosts([]byte(data), "/x/ssh.json", nil)
	if len(hosts) != 1 || hosts[0].Name != "good" {
		t.Fatalf("hosts %+v", hosts)
	}
	if len(warns) != 2 || !strings.Contains(warns[0], `/x/ssh.json: host "evil" is skipped: its host "-oProxyCommand=touch /tmp/x" starts with "-"`) ||
		!strings.Contains(warns[1], `host "evil2" is skipped: its username "-oX=y"`) {
		t.Fatalf("warnings %q", warns)
	}
}
