package ssh

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/sshtest"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// newTool is the tool over hosts read from an ssh.json with body, run
// with the server's client wrapper first on PATH.
func newTool(t *testing.T, srv *sshtest.Server, body string) tool.Tool {
	t.Helper()
	hosts, warns := config.ParseSSHHosts([]byte(body), "ssh.json", nil)
	if len(warns) > 0 {
		t.Fatal(warns)
	}
	env := tool.NewEnv(t.TempDir())
	env.Settings.SSHHosts = hosts
	env.Settings.Shell.Environ = srv.Environ(os.Environ())
	return New(env)
}

func call(t *testing.T, ctx context.Context, tl tool.Tool, args map[string]any) *tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, _ := tool.Run(ctx, tl, raw, nil)
	return res
}

// The tool against a real sshd: output and exit status, cwd, the key
// mode check, unknown hosts, and a cancelled or timed-out command that
// leaves no process on either side.
func TestAgainstSSHD(t *testing.T) {
	srv := sshtest.Start(t)
	tl := newTool(t, srv, srv.HostsJSON("box"))
	ctx := context.Background()
	home, _ := os.UserHomeDir()

	t.Run("exit status", func(t *testing.T) {
		res := call(t, ctx, tl, map[string]any{"host": "box", "command": "echo hi; pwd; exit 3"})
		want := "hi\n" + home + "\n\nCommand exited with code 3"
		if !res.IsError || res.FirstText() != want {
			t.Fatalf("got %v %q, want %q", res.IsError, res.FirstText(), want)
		}
		if info := tl.(*Tool).probes.known["box"]; info.OS != OSLinux || info.Shell == ShellUnknown {
			t.Fatalf("probe: %+v", info)
		}
	})
	t.Run("output and cwd", func(t *testing.T) {
		dir := t.TempDir()
		res := call(t, ctx, tl, map[string]any{"host": "box", "command": "pwd; echo err >&2", "cwd": dir})
		if res.IsError || res.FirstText() != dir+"\nerr\n" {
			t.Fatalf("%v %q", res.IsError, res.FirstText())
		}
		if res := call(t, ctx, tl, map[string]any{"host": "box", "command": "true"}); res.IsError || res.FirstText() != "(no output)" {
			t.Fatalf("%v %q", res.IsError, res.FirstText())
		}
	})
	t.Run("streaming and truncation", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "go-on")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		updates := make(chan string, 100)
		done := make(chan *tool.Result, 1)
		go func() {
			raw, _ := json.Marshal(map[string]any{"host": "box", "command": "echo first; cat " + fifo + " >/dev/null; seq 1 20000"})
			res, _ := tool.Run(ctx, tl, raw, func(p *tool.Result) {
				select {
				case updates <- p.FirstText():
				default:
				}
			})
			done <- res
		}()
		for {
			u, _ := testwait.Recv(t, "an update with the first line", updates)
			if u == "first\n" {
				break
			}
		}
		if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil { // lets the command go on
			t.Fatal(err)
		}
		res, _ := testwait.Recv(t, "the call to end", done)
		text := res.FirstText()
		if res.IsError || !strings.HasSuffix(text, "\n20000\n\n[Showing lines 11468-20001 of 20001 (50.0KB limit); the earlier output was not saved.]") {
			t.Fatalf("%v %q", res.IsError, text[max(0, len(text)-200):])
		}
		if d, ok := res.Details.(*Details); !ok || d.Meta == nil || d.Meta.Truncation == nil || d.Meta.Truncation.TotalLines != 20001 {
			t.Fatalf("details %+v", res.Details)
		}
	})
	t.Run("unknown host", func(t *testing.T) {
		tl := newTool(t, srv, `{"hosts": {"zeta": {"host": "z"}, "alpha": {"host": "a"}}}`)
		res := call(t, ctx, tl, map[string]any{"host": "127.0.0.1", "command": "true"})
		if want := "Unknown SSH host: 127.0.0.1. Available hosts: alpha, zeta"; !res.IsError || res.FirstText() != want {
			t.Fatalf("%q", res.FirstText())
		}
	})
	t.Run("unreachable", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close() // nobody listens there now
		body := strings.Replace(srv.HostsJSON("box"), fmt.Sprintf(`"port": %d`, srv.Port), fmt.Sprintf(`"port": %d`, port), 1)
		res := call(t, ctx, newTool(t, srv, body), map[string]any{"host": "box", "command": "echo never"})
		want := fmt.Sprintf("Failed to connect to SSH host box (%s@127.0.0.1): ssh: connect to host 127.0.0.1 port %d: Connection refused", srv.User, port)
		if !res.IsError || res.FirstText() != want {
			t.Fatalf("%q\nwant %q", res.FirstText(), want)
		}
	})
	t.Run("key mode", func(t *testing.T) {
		loose := filepath.Join(t.TempDir(), "id")
		data, _ := os.ReadFile(srv.KeyPath)
		if err := os.WriteFile(loose, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(loose, 0o644); err != nil {
			t.Fatal(err)
		}
		body := strings.Replace(srv.HostsJSON("box"), srv.KeyPath, loose, 1)
		res := call(t, ctx, newTool(t, srv, body), map[string]any{"host": "box", "command": "echo never"})
		if !res.IsError || !strings.HasPrefix(res.FirstText(), "SSH key permissions must be 600 or stricter: "+loose) {
			t.Fatalf("%q", res.FirstText())
		}
		body = strings.Replace(srv.HostsJSON("box"), srv.KeyPath, loose+".missing", 1)
		res = call(t, ctx, newTool(t, srv, body), map[string]any{"host": "box", "command": "echo never"})
		if !res.IsError || res.FirstText() != "SSH key not found: "+loose+".missing" {
			t.Fatalf("%q", res.FirstText())
		}
	})
	t.Run("cancel", func(t *testing.T) {
		marker := sleepMarker()
		cctx, cancel := context.WithCancel(ctx)
		done := make(chan *tool.Result)
		go func() { done <- call(t, cctx, tl, map[string]any{"host": "box", "command": "sleep " + marker}) }()
		testwait.Until(t, "the remote sleep to start", func() bool { return len(processesWith("\x00sleep\x00"+marker+"\x00")) > 0 })
		cancel()
		res, _ := testwait.Recv(t, "the call to end", done)
		if !res.IsError || !strings.Contains(res.FirstText(), "aborted") {
			t.Fatalf("%q", res.FirstText())
		}
		testwait.Until(t, "the remote sleep to end", func() bool { return len(processesWith(marker)) == 0 })
	})
	t.Run("probe cache", func(t *testing.T) {
		dirs := []string{filepath.Join(t.TempDir(), "remote-host"), t.TempDir()}
		hosts, _ := config.ParseSSHHosts([]byte(srv.HostsJSON("box/1")), "ssh.json", nil)
		env := tool.NewEnv(t.TempDir())
		env.Settings.SSHHosts, env.Settings.SSHHostInfoDirs = hosts, dirs
		env.Settings.Shell.Environ = srv.Environ(os.Environ())
		first := New(env)
		if !strings.HasSuffix(first.Definition().Description, "- box/1 (127.0.0.1) | detecting...") {
			t.Fatalf("%s", first.Definition().Description)
		}
		if res := call(t, ctx, first, map[string]any{"host": "box/1", "command": "true"}); res.IsError {
			t.Fatal(res.FirstText())
		}
		if !strings.HasSuffix(first.Definition().Description, "| detecting...") {
			t.Fatal("the description changed while offered")
		}
		data, err := os.ReadFile(filepath.Join(dirs[0], "box_1.json"))
		if err != nil || !strings.Contains(string(data), `"os": "linux"`) {
			t.Fatalf("%s %v", data, err)
		}
		if d := New(env).Definition().Description; !strings.Contains(d, "- box/1 (127.0.0.1) | linux/") {
			t.Fatalf("the next session's description: %s", d)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		marker := sleepMarker()
		res := call(t, ctx, tl, map[string]any{"host": "box", "command": "sleep " + marker, "timeout": 1})
		if !res.IsError || !strings.HasPrefix(res.FirstText(), "[SSH: Timed out after 1s]\n") {
			t.Fatalf("%q", res.FirstText())
		}
		testwait.Until(t, "the remote sleep to end", func() bool { return len(processesWith(marker)) == 0 })
	})
}

// sleepMarker is a sleep duration no other process uses: a long sleep
// whose command line names this test's call.
func sleepMarker() string {
	n, _ := rand.Int(rand.Reader, big.NewInt(1e9))
	return fmt.Sprintf("3000.%09d1", n)
}

// processesWith lists the pids whose command line (NUL before and after
// each argument) contains s.
func processesWith(s string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains("\x00"+string(cmdline), s) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// Without hosts the tool is not offered; with some, the description lists
// them sorted by name and the schema is omp's.
func TestAvailableAndDefinition(t *testing.T) {
	env := tool.NewEnv(t.TempDir())
	if Available(env) {
		t.Fatal("offered without hosts")
	}
	if res := call(t, context.Background(), New(env), map[string]any{"host": "x", "command": "ls"}); res.FirstText() != "Unknown SSH host: x. Available hosts: none (add one with gopi ssh add NAME --host ADDRESS)" {
		t.Fatalf("called by hand without hosts: %q", res.FirstText())
	}
	env.Settings.SSHHosts = []config.SSHHost{{Name: "web", Host: "w.example"}, {Name: "db", Host: "10.0.0.2"}}
	if !Available(env) {
		t.Fatal("not offered with hosts")
	}
	def := New(env).Definition()
	if !strings.HasSuffix(def.Description, "\n\nAvailable hosts:\n- db (10.0.0.2) | detecting...\n- web (w.example) | detecting...") {
		t.Fatalf("%s", def.Description)
	}
	if def.Name != "ssh" || def.Concurrency != tool.Exclusive || strings.Join(def.Parameters.Required, ",") != "host,command" || len(def.Parameters.Properties) != 4 {
		t.Fatalf("%+v", def)
	}
}

// Cache files: gopi's first, omp's after; stale or foreign ones ignored;
// a host's compat=false wins over a cached compat shell.
func TestProbeCacheFiles(t *testing.T) {
	gopiDir, ompDir := t.TempDir(), t.TempDir()
	write := func(dir, name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(ompDir, "a.json", `{"version":2,"os":"macos","shell":"zsh","compatEnabled":false}`)
	write(gopiDir, "b.json", `{"version":1,"os":"linux","shell":"bash","compatEnabled":false}`)
	write(ompDir, "c.json", `{"version":2,"os":"windows","shell":"cmd","compatShell":"bash","compatEnabled":true}`)
	write(gopiDir, "d_e.json", `{"version":2,"os":"unknown","shell":"sh","compatEnabled":false}`)
	no := false
	var p probes
	p.dirs = []string{gopiDir, ompDir}
	p.load([]config.SSHHost{{Name: "a"}, {Name: "b"}, {Name: "c", Compat: &no}, {Name: "d e"}})
	for name, want := range map[string]string{"a": "macos/zsh", "c": "windows/cmd", "b": "", "d e": ""} {
		info, ok := p.cached(name)
		if got := info.Label(); ok != (want != "") || ok && got != want {
			t.Errorf("%s: %v %s, want %q", name, ok, got, want)
		}
	}
	if cacheName("") != "remote.json" || cacheName("a/b c..d") != "a_b_c..d.json" || cacheName("héllo") != "h_llo.json" {
		t.Errorf("%s %s %s", cacheName(""), cacheName("a/b c..d"), cacheName("héllo"))
	}
}

// The probe line as each kind of shell prints it.
func TestParseProbe(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		out    string
		compat *bool
		want   string
	}{
		{"gopi-probe|Linux|/bin/bash|5.2.15(1)-release|%OS%|%COMSPEC%\n", nil, "linux/bash"},
		{"motd\ngopi-probe|Darwin|/bin/zsh||%OS%|%COMSPEC%", nil, "macos/zsh"},
		{"gopi-probe|Linux|/bin/sh||%OS%|%COMSPEC%", nil, "linux/sh"},
		{`"gopi-probe|$(uname -s 2>/dev/null)|$SHELL|$BASH_VERSION|Windows_NT|C:\Windows\system32\cmd.exe"`, nil, "windows/cmd"},
		{"gopi-probe||||%OS%|%COMSPEC%", nil, "windows/powershell"},
		{"gopi-probe|MINGW64_NT-10.0|/usr/bin/bash|5.2|%OS%|%COMSPEC%", nil, "windows/bash"},
		{"gopi-probe|MINGW64_NT-10.0|/usr/bin/bash|5.2|%OS%|%COMSPEC%", &no, "windows/bash"},
		{`"gopi-probe|$(uname -s 2>/dev/null)|$SHELL|$BASH_VERSION|Windows_NT|C:\Windows\system32\cmd.exe"`, &yes, "windows/bash"},
		{"no probe line", nil, "unknown/unknown"},
	} {
		info := parseProbe(tc.out, tc.compat)
		if info.Label() != tc.want {
			t.Errorf("%q: %s (%+v), want %s", tc.out, info.Label(), info, tc.want)
		}
	}
	if info := parseProbe("gopi-probe|MINGW64_NT-10.0|/usr/bin/bash|5.2|%OS%|%COMSPEC%", &no); info.Compat {
		t.Errorf("compat forced off: %+v", info)
	}
}

// The remote command: the cwd change in the host's syntax, and on POSIX
// hosts the command tied to the connection with its words intact.
func TestRemoteCommand(t *testing.T) {
	linux := HostInfo{OS: OSLinux, Shell: ShellBash}
	if got := withCwd("ls", "/var/it's", linux); got != `cd -- '/var/it'\''s' && ls` {
		t.Errorf("%s", got)
	}
	if got := withCwd("dir", `C:\a "b"`, HostInfo{OS: OSWindows, Shell: ShellCmd}); got != `cd /d "C:\a ""b""" && dir` {
		t.Errorf("%s", got)
	}
	if got := withCwd("gci", `C:\it's`, HostInfo{OS: OSWindows, Shell: ShellPowerShell}); got != `Set-Location -Path 'C:\it''s'; gci` {
		t.Errorf("%s", got)
	}
	if got, watch := remoteCommand("ls", "", HostInfo{OS: OSWindows, Compat: true, CompatShell: "bash"}); got != "bash -c 'ls'" || watch {
		t.Errorf("%s %v", got, watch)
	}
	if got, watch := remoteCommand("echo 'a b'", "", linux); !strings.HasSuffix(got, ` gopi-ssh 'echo '\''a b'\'''`) || !strings.HasPrefix(got, "sh -c '") || !watch {
		t.Errorf("%s %v", got, watch)
	}
	// The client's arguments: "--" before the target, -n unless the
	// remote side watches the input.
	h := config.SSHHost{Host: "-oProxyCommand=x", Username: "u", Port: 2200, KeyPath: "/k"}
	if got := strings.Join(request{host: h, remote: "ls"}.args(), " "); got != "-T -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o LogLevel=ERROR -n -p 2200 -i /k -- u@-oProxyCommand=x ls" {
		t.Errorf("%s", got)
	}
	if got := strings.Join(request{host: config.SSHHost{Host: "h"}, remote: "ls", watch: true}.args(), " "); got != "-T -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o LogLevel=ERROR -- h ls" {
		t.Errorf("%s", got)
	}
}
