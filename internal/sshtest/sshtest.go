// Package sshtest starts a real OpenSSH server for tests of the ssh tool:
// /usr/sbin/sshd in the foreground on 127.0.0.1 and a free port, as the
// current user, with a host key and a user key made by ssh-keygen in a
// temporary directory, that directory's authorized_keys, StrictModes and
// PAM off. Nothing of the machine's own ssh setup is read or changed: the
// client wrapper in BinDir runs ssh with no configuration file and a
// known_hosts file of the server's own.
//
// Tests skip (naming the package and `make setup`) when sshd, ssh or
// ssh-keygen is missing; scripts/setup.sh installs openssh-server and
// openssh-client.
package sshtest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/internal/testwait"
)

// SSHD is where Debian's openssh-server puts the daemon.
const SSHD = "/usr/sbin/sshd"

// Server is a running sshd.
type Server struct {
	Dir     string // the temporary directory holding keys, configuration and the client wrapper
	Port    int    // the port on 127.0.0.1
	User    string // the user to log in as (the current one)
	KeyPath string // the user's private key (mode 600)
	BinDir  string // a directory whose "ssh" runs the real client against this server's known_hosts only; put it first on PATH
}

// Start starts sshd for the test (stopped by t.Cleanup) and waits until
// it accepts connections. It skips the test when OpenSSH is not
// installed.
func Start(t testing.TB) *Server {
	t.Helper()
	client, err := exec.LookPath("ssh")
	keygen, kerr := exec.LookPath("ssh-keygen")
	if _, serr := os.Stat(SSHD); serr != nil || err != nil || kerr != nil {
		t.Skip("OpenSSH (Debian openssh-server and openssh-client: /usr/sbin/sshd, ssh, ssh-keygen) is not installed; run `make setup` (scripts/setup.sh)")
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	s := &Server{Dir: dir, User: u.Username, KeyPath: filepath.Join(dir, "id_ed25519"), BinDir: filepath.Join(dir, "bin")}
	hostKey := filepath.Join(dir, "host_ed25519")
	for _, k := range []string{hostKey, s.KeyPath} {
		if out, err := exec.Command(keygen, "-q", "-t", "ed25519", "-N", "", "-C", "gopi-test", "-f", k).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	pub, err := os.ReadFile(s.KeyPath + ".pub")
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "authorized_keys"), pub, 0o600)
	if os.Geteuid() == 0 {
		// sshd run by root wants its privilege separation directory, which
		// the package's service would create.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.Port = freePort(t)
	conf := fmt.Sprintf(`ListenAddress 127.0.0.1:%d
HostKey %s
AuthorizedKeysFile %s
PidFile %s
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers %s
LogLevel ERROR
`, s.Port, hostKey, filepath.Join(dir, "authorized_keys"), filepath.Join(dir, "sshd.pid"), s.User)
	confPath := filepath.Join(dir, "sshd_config")
	write(t, confPath, []byte(conf), 0o600)
	var logs bytes.Buffer
	cmd := exec.Command(SSHD, "-D", "-e", "-f", confPath)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sshd: %v", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	testwait.Until(t, "sshd to accept connections", func() bool {
		select {
		case <-exited:
			t.Fatalf("sshd exited: %s", logs.String())
		default:
		}
		c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(s.Port))
		if err != nil {
			return false
		}
		c.Close()
		return true
	})
	wrapper := fmt.Sprintf("#!/bin/sh\nexec %s -F none -o UserKnownHostsFile=%s -o GlobalKnownHostsFile=/dev/null \"$@\"\n",
		client, filepath.Join(dir, "known_hosts"))
	if err := os.MkdirAll(s.BinDir, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(s.BinDir, "ssh"), []byte(wrapper), 0o755)
	return s
}

// HostsJSON is an ssh.json naming the server as host name, with the
// user's key.
func (s *Server) HostsJSON(name string) string {
	return fmt.Sprintf(`{"hosts": {%q: {"host": "127.0.0.1", "port": %d, "username": %q, "keyPath": %q}}}`, name, s.Port, s.User, s.KeyPath)
}

// Environ is environ with BinDir first on its PATH.
func (s *Server) Environ(environ []string) []string {
	out := make([]string, 0, len(environ)+1)
	path := ""
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
			continue
		}
		out = append(out, kv)
	}
	return append(out, "PATH="+s.BinDir+string(os.PathListSeparator)+path)
}

// freePort returns a port on 127.0.0.1 nobody listens on now.
func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func write(t testing.TB, path string, data []byte, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, data, mode); err != nil {
		t.Fatal(err)
	}
}
