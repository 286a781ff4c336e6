package dap

import (
	"context"
	"os/exec"
	"regexp"
	"strconv"
	"time"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// versionTimeout bounds `<adapter> --version`.
const versionTimeout = 5 * time.Second

// firstVersion finds the first dotted version number of a --version
// answer ("GNU gdb (Debian 13.1-3) 13.1" → 13).
var firstVersion = regexp.MustCompile(`(\d+)\.\d+`)

// majorVersion returns the major version path reports with --version,
// asked once per executable and only when min is set; 0 when it cannot
// tell (no answer, no number), which counts as new enough.
func (r *Resolver) majorVersion(path string, min int) int {
	if min == 0 {
		return 0
	}
	if v, ok := r.versions[path]; ok {
		return v
	}
	ctx, cancel := context.WithTimeout(context.Background(), versionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.Env = r.Env
	childproc.PrepareCancelGroup(cmd)
	out, _ := cmd.Output()
	v := 0
	if m := firstVersion.FindSubmatch(out); m != nil {
		v, _ = strconv.Atoi(string(m[1]))
	}
	if r.versions == nil {
		r.versions = map[string]int{}
	}
	r.versions[path] = v
	return v
}
