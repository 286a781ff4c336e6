package lsp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/childproc"
)

// workspaceOutputLines is how many lines of the project checker's output
// are shown.
const workspaceOutputLines = 50

// projectType is a kind of project and the command that checks it whole.
type projectType struct {
	marker  string   // file in the root that identifies it
	command []string // the checker
	label   string   // shown in the answer
}

// projectTypes are tried in order: the first whose marker is in the root
// wins.
var projectTypes = []projectType{
	{"Cargo.toml", []string{"cargo", "check", "--message-format=short"}, "Rust (cargo check)"},
	{"tsconfig.json", []string{"npx", "tsc", "--noEmit"}, "TypeScript (tsc --noEmit)"},
	{"go.mod", []string{"go", "build", "./..."}, "Go (go build)"},
	{"pyproject.toml", []string{"pyright"}, "Python (pyright)"},
	{"pyrightconfig.json", []string{"pyright"}, "Python (pyright)"},
}

// workspaceDiagnostics runs the project's own checker in the working
// directory and shows the first workspaceOutputLines lines of what it
// printed.
func (c *call) workspaceDiagnostics(ctx context.Context) *tool.Result {
	var pt *projectType
	for i := range projectTypes {
		if _, err := os.Stat(filepath.Join(c.t.env.Cwd, projectTypes[i].marker)); err == nil {
			pt = &projectTypes[i]
			break
		}
	}
	if pt == nil {
		return c.ok("", "Workspace diagnostics (Unknown project type):\nCannot detect project type. Supported: Rust (Cargo.toml), TypeScript (tsconfig.json), Go (go.mod), Python (pyproject.toml)")
	}
	cmd := exec.CommandContext(ctx, pt.command[0], pt.command[1:]...)
	cmd.Dir = c.t.env.Cwd
	childproc.PrepareCancelGroup(cmd)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	text := strings.TrimSpace(out.String())
	var exit *exec.ExitError
	switch {
	case err != nil && ctx.Err() != nil:
		text = fmt.Sprintf("%s did not finish within the call's timeout; raise timeout (up to %d seconds) or check single files", strings.Join(pt.command, " "), MaxTimeout)
	case err != nil && !errors.As(err, &exit):
		text = fmt.Sprintf("Failed to run %s: %v", strings.Join(pt.command, " "), err)
	case text == "":
		text = "No issues found"
	default:
		if lines := strings.Split(text, "\n"); len(lines) > workspaceOutputLines {
			text = strings.Join(lines[:workspaceOutputLines], "\n") + fmt.Sprintf("\n... and %d more lines", len(lines)-workspaceOutputLines)
		}
	}
	return c.ok("", "Workspace diagnostics ("+pt.label+"):\n"+text)
}
