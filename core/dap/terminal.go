package dap

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
)

// runInTerminalArgs are the arguments of a runInTerminal request.
type runInTerminalArgs struct {
	Cwd  string             `json:"cwd"`
	Args []string           `json:"args"`
	Env  map[string]*string `json:"env"` // a null value removes the variable
}

// runInTerminal starts the program an adapter asks for (debugpy's
// launcher, for one) in the adapter's process tree, with no terminal:
// its output goes to Hooks.Terminal, its standard input is empty. It
// answers with the process id, as the protocol asks.
func (c *Client) runInTerminal(raw json.RawMessage) (any, error) {
	var a runInTerminalArgs
	if err := json.Unmarshal(raw, &a); err != nil || len(a.Args) == 0 {
		return nil, errors.New("runInTerminal request did not include a command")
	}
	cmd := exec.Command(a.Args[0], a.Args[1:]...)
	cmd.Dir = a.Cwd
	if cmd.Dir == "" {
		cmd.Dir = c.hooks.TerminalCwd
	}
	cmd.Env = mergeEnv(c.hooks.TerminalEnv, a.Env)
	out := c.hooks.Terminal
	if out == nil {
		out = io.Discard
	}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.WaitDelay = exitWait
	c.proc.tree.Prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c.proc.tree.Started(cmd)
	go func() { _ = cmd.Wait() }() // owner: the adapter's tree, which Close ends
	return map[string]any{"processId": cmd.Process.Pid}, nil
}

// mergeEnv applies a request's variables to base (nil: this process's
// environment, as exec would use).
func mergeEnv(base []string, vars map[string]*string) []string {
	if len(vars) == 0 {
		return base
	}
	if base == nil {
		base = os.Environ()
	}
	out := make([]string, 0, len(base)+len(vars))
	for _, kv := range base {
		k, _, _ := cutEnv(kv)
		if _, ok := vars[k]; !ok {
			out = append(out, kv)
		}
	}
	for k, v := range vars {
		if v != nil {
			out = append(out, k+"="+*v)
		}
	}
	return out
}

func cutEnv(kv string) (string, string, bool) {
	for i := 1; i < len(kv); i++ { // a leading "=" belongs to the name (Windows' =C:)
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return kv, "", false
}
