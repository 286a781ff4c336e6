package main

import (
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/gopi-agent/gopi/internal/agentrig"
	"github.com/gopi-agent/gopi/internal/mockllm"
)

// envBlockSignals makes the test binary start gopi the way a careless
// parent would: with SIGPIPE, SIGQUIT, SIGINT, SIGHUP and signals 32 and
// 33 ignored and SIGPIPE, SIGUSR1 and SIGTERM blocked (see
// blockSignalsAndExec).
const envBlockSignals = "GOPI_TEST_BLOCK_SIGNALS"

// blockSignalsAndExec is the careless parent: it ignores and blocks
// signals on this thread and replaces itself with gopi (the test binary
// with GOPI_TEST_RUN_MAIN=1), which inherits both.
func blockSignalsAndExec() {
	runtime.LockOSThread()
	signal.Ignore(syscall.SIGPIPE, syscall.SIGQUIT, syscall.SIGINT, syscall.SIGHUP)
	// And the C library's own signals, as glibc's posix_spawn leaves them.
	for _, sig := range []uintptr{32, 33} {
		act := struct{ handler, flags, restorer, mask uint64 }{handler: 1} // SIG_IGN
		if _, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, sig, uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0); e != 0 {
			panic(e)
		}
	}
	var set uint64 = 1<<(syscall.SIGPIPE-1) | 1<<(syscall.SIGUSR1-1) | 1<<(syscall.SIGTERM-1)
	if _, _, e := syscall.RawSyscall6(syscall.SYS_RT_SIGPROCMASK, 0 /* SIG_BLOCK */, uintptr(unsafe.Pointer(&set)), 0, 8, 0, 0); e != 0 {
		panic(e)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, envBlockSignals+"=") {
			env = append(env, kv)
		}
	}
	panic(syscall.Exec(os.Args[0], os.Args, append(env, "GOPI_TEST_RUN_MAIN=1")))
}

// Every command the bash tool runs starts with the default signal
// dispositions and nothing blocked, whatever gopi inherited: a pipe whose
// reader has gone ends its writer (SIGPIPE) instead of making it print
// "Broken pipe" errors forever. The print mode used to ignore SIGPIPE,
// and its shells inherited that.
func TestBashChildrenGetDefaultSignals(t *testing.T) {
	for _, careless := range []bool{false, true} {
		name := "plain"
		if careless {
			name = "inherited-ignored-and-blocked"
		}
		t.Run(name, func(t *testing.T) {
			script := `grep -E '^Sig(Ign|Blk)' /proc/self/status; (while :; do echo x; done) | head -1; yes | head -c 4; echo; echo end`
			r := newAgentRig(t,
				mockllm.Turn{Blocks: []mockllm.Block{agentrig.ToolCall("bash", map[string]any{"command": script, "timeout": 30})}},
				mockllm.Turn{Blocks: []mockllm.Block{mockllm.Text("done")}},
			)
			cmd := exec.Command(os.Args[0], "-p", "--model", "mock/mock-model", "go")
			cmd.Dir = r.Project
			cmd.Env = append(r.Environ, "GOPI_TEST_RUN_MAIN=1")
			if careless {
				cmd.Env = append(r.Environ, envBlockSignals+"=1")
			}
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			result := agentrig.MustMarshal(t, r.RequestMessages(1))
			if len(result) > 4000 {
				result = result[:2000] + " … " + result[len(result)-2000:]
			}
			for _, re := range []string{`SigBlk:\\t0{16}`, `SigIgn:\\t0{16}`, `\\nx\\ny\\ny\\n\\nend`} {
				if !regexp.MustCompile(re).MatchString(result) {
					t.Errorf("the tool result does not match %s:\n%s", re, result)
				}
			}
			if strings.Contains(result, "Broken pipe") || strings.Contains(result, "timed out") {
				t.Errorf("broken pipe errors or a timeout:\n%s", result)
			}
		})
	}
}
