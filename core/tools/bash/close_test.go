package bash

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/artifact"
	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// closeHelperVar makes TestCloseHelper act: it holds the marker entry of
// the test that started it.
const closeHelperVar = "GOPI_BASH_CLOSE_HELPER"

// closeJobs is how many background jobs the helper starts.
const closeJobs = 32

// Closing a session ends its background jobs' processes, SIGTERM ignored
// or not, before Close returns, even when the job manager stopped
// waiting for the jobs first: the helper process exits right after Close,
// so anything not yet killed would be left running.
func TestCloseEndsJobsIgnoringTerm(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	if _, err := os.Stat("/proc/self/environ"); err != nil {
		t.Skip("needs /proc")
	}
	mark := shelltest.Mark(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCloseHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), closeHelperVar+"="+mark)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "closed\n") {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	// shelltest.Mark checks that none of the jobs' processes is left.
}

// TestCloseHelper is the helper process of TestCloseEndsJobsIgnoringTerm.
func TestCloseHelper(t *testing.T) {
	t.Parallel()
	mark := os.Getenv(closeHelperVar)
	if mark == "" {
		t.Skip("run by TestCloseEndsJobsIgnoringTerm")
	}
	env := withServices(tool.NewEnv(t.TempDir()))
	env.Settings.Shell.Path = "/bin/bash"
	env.Settings.Shell.Environ = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + t.TempDir(), "LC_ALL=C", mark}
	env.Settings.Bash.AsyncEnabled = true
	env.Settings.Bash.AsyncMaxJobs = closeJobs
	env.Artifacts = artifact.NewStore(filepath.Join(t.TempDir(), "artifacts"))
	for i := range closeJobs {
		if o := callTool(t, env, `{"command": "trap \"\" TERM; sleep 300; echo done", "async": true}`); o.isError {
			t.Fatalf("job %d: %s", i, o.text)
		}
	}
	testwait.Until(t, fmt.Sprintf("%d jobs to start", closeJobs), func() bool {
		n := 0
		for _, p := range shelltest.Marked(mark) {
			if strings.HasSuffix(p, " sleep 300") {
				n++
			}
		}
		return n == closeJobs
	})
	// The manager gives up on the jobs before their shells' grace has
	// passed; closing the session must still end them.
	env.manager().Shutdown(10 * time.Millisecond)
	if err := env.Close(); err != nil {
		t.Fatal(err)
	}
	fmt.Println("closed")
}
