package find

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path"
	"strings"

	"github.com/gopi-agent/gopi/internal/childproc"
)

// runExec runs argv for paths: with placeholders once per path (-x
// passes one path), else with the paths appended.
func runExec(ctx context.Context, s Streams, argv, paths []string) error {
	var args []string
	placeholder := false
	for _, a := range argv[1:] {
		if !strings.Contains(a, "{") {
			args = append(args, a)
			continue
		}
		placeholder = true
		for _, p := range paths {
			args = append(args, expandPlaceholders(a, p))
		}
	}
	if !placeholder {
		args = append(args, paths...)
	}
	cmd := exec.CommandContext(ctx, argv[0], args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, s.ExecStdout, s.Stderr
	if cmd.Stdout == nil {
		cmd.Stdout = s.Stdout
	}
	// It stays in gopi's process group: Ctrl-C reaches it as it reaches gopi.
	childproc.PrepareForeground(cmd)
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		fmt.Fprintf(s.Stderr, "gopi find: run %s: %v\n", argv[0], err)
	}
	return err
}

// expandPlaceholders replaces fd's placeholders in a with parts of p.
func expandPlaceholders(a, p string) string {
	base := path.Base(p)
	noExt := func(s string) string { return strings.TrimSuffix(s, path.Ext(s)) }
	return strings.NewReplacer("{//}", path.Dir(p), "{/.}", noExt(base), "{/}", base, "{.}", noExt(p), "{}", p).Replace(a)
}
