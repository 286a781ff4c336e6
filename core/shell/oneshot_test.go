package shell

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRunOnce(t *testing.T) {
	cfg := testConfig(t)
	dir := t.TempDir()
	for _, tc := range []struct {
		req  Request
		out  string
		code int
	}{
		{Request{Command: "echo hi; echo err >&2; exit 4"}, "hi\nerr\n", 4},
		{Request{Command: "pwd", Dir: dir}, dir + "\n", 0},
		{Request{Command: `echo "$A" $GIT_PAGER`, Env: map[string]string{"A": "a b"}}, "a b cat\n", 0},
		{Request{Command: "sleep 60 & echo left"}, "left\n", 0}, // the sleep is killed when the shell exits
		{Request{Command: "kill -9 $$"}, "", 137},
	} {
		var out buffer
		tc.req.Output = &out
		res, err := RunOnce(context.Background(), cfg, tc.req)
		if err != nil || out.String() != tc.out || !res.Exited || res.ExitCode != tc.code || !res.OneShot {
			t.Errorf("%q: %q %+v %v", tc.req.Command, out.String(), res, err)
		}
	}
	res, _ := RunOnce(context.Background(), cfg, Request{Command: "sleep 30", Timeout: 100 * time.Millisecond})
	if !res.TimedOut || res.Exited {
		t.Fatalf("%+v", res)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	res, _ = RunOnce(ctx, cfg, Request{Command: "yes > /dev/null"})
	if !res.Cancelled {
		t.Fatalf("%+v", res)
	}
	if _, err := RunOnce(context.Background(), cfg, Request{Command: "true", Dir: filepath.Join(dir, "missing")}); err == nil {
		t.Fatal("missing directory accepted")
	}
	if _, err := RunOnce(context.Background(), cfg, Request{Command: "true", Env: map[string]string{"1X": "y"}}); err == nil {
		t.Fatal("bad name accepted")
	}
}

func TestLoginArgs(t *testing.T) {
	if a := (Config{Login: true}).args("-c"); strings.Join(a, " ") != "-l -c" {
		t.Fatal(a)
	}
	if a := (Config{}).args("-c"); strings.Join(a, " ") != "-c" {
		t.Fatal(a)
	}
	// A login shell reads the profile; the non-interactive variables win.
	cfg := testConfig(t)
	cfg.Login = true
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ".bash_profile"), []byte("export PAGER=less FROM_PROFILE=yes\n"), 0o644)
	cfg.Env = append(cfg.Env, "HOME="+home)
	var out buffer
	if _, err := RunOnce(context.Background(), cfg, Request{Command: "echo $PAGER $FROM_PROFILE", Output: &out}); err != nil || out.String() != "cat yes\n" {
		t.Fatalf("%q %v", out.String(), err)
	}
	sh, _ := startSession(t, cfg)
	if o, _ := run(t, sh, Request{Command: "echo $PAGER $FROM_PROFILE"}); o != "cat yes\n" {
		t.Fatalf("%q", o)
	}
	// A profile that resets PATH keeps the profile's order and gets
	// gopi's missing entries appended.
	os.WriteFile(filepath.Join(home, ".bash_profile"), []byte("PATH=/usr/bin:/bin\n"), 0o644)
	cfg.KeepPath = "/custom/bin:/usr/bin:/other dir"
	out = buffer{}
	if _, err := RunOnce(context.Background(), cfg, Request{Command: `echo "$PATH"`, Output: &out}); err != nil || out.String() != "/usr/bin:/bin:/custom/bin:/other dir\n" {
		t.Fatalf("%q %v", out.String(), err)
	}
	sh2, _ := startSession(t, cfg)
	if o, _ := run(t, sh2, Request{Command: `echo "$PATH"`}); o != "/usr/bin:/bin:/custom/bin:/other dir\n" {
		t.Fatalf("%q", o)
	}
}

func TestPool(t *testing.T) {
	cfg := testConfig(t)
	dir := t.TempDir()
	p := NewPool(cfg, dir)
	defer p.Close()
	ctx := context.Background()
	var out buffer
	if res, err := p.Run(ctx, Request{Command: "cd /; X=1", Output: &out}); err != nil || res.OneShot {
		t.Fatal(res, err)
	}
	if p.Dir() != "/" {
		t.Fatal(p.Dir())
	}
	// While the shell is busy, another command runs one-shot in the
	// shell's directory.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	busy := make(chan Result)
	holding := filepath.Join(t.TempDir(), "holding")
	go func() {
		res, _ := p.Run(ctx, Request{Command: ": > " + Quote(holding) + "; read x < " + Quote(fifo)})
		busy <- res
	}()
	waitFor(t, "the first command to hold the shell", func() bool {
		_, err := os.Stat(holding)
		return err == nil
	})
	out = buffer{}
	res, err := p.Run(ctx, Request{Command: "pwd; echo ${X-none}", Output: &out})
	if err != nil || !res.OneShot || out.String() != "/\nnone\n" {
		t.Fatalf("%+v %v %q", res, err, out.String())
	}
	os.WriteFile(fifo, []byte("go\n"), 0o644)
	if res := <-busy; res.OneShot || res.ExitCode != 0 {
		t.Fatalf("%+v", res)
	}
	// After exit the next command gets a fresh shell in the pool's directory.
	if res, _ := p.Run(ctx, Request{Command: "exit 2"}); !res.ShellExited || res.ExitCode != 2 {
		t.Fatalf("%+v", res)
	}
	out = buffer{}
	if res, _ := p.Run(ctx, Request{Command: "pwd; echo ${X-none}", Output: &out}); res.OneShot || out.String() != dir+"\nnone\n" {
		t.Fatalf("%+v %q", res, out.String())
	}
	p.Close()
	if _, err := p.Run(ctx, Request{Command: "true"}); err != ErrPoolClosed {
		t.Fatal(err)
	}
}
