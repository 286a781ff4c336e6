// Package ssh is the ssh tool: one command on a host named in an ssh.json
// file (core/config: Config.SSH), run by the system's OpenSSH client.
//
// Only the hosts of those files exist for the tool (never an address the
// model makes up, never ~/.ssh/config); without any, the tool is not
// offered. Each call starts one client with BatchMode (no password or
// passphrase questions: keys or an agent only), -T (no terminal) and
// StrictHostKeyChecking=accept-new, after checking that the host's key
// file, when it names one, is private to the user (mode 600 or stricter).
// The first call to a host probes its system and shell (probe.go), for
// the cwd syntax and for the host list, and caches the answer on disk
// for later sessions (omp's format and omp's cache read too); stdout and stderr merge into
// one output kept as the bash tool keeps its own (a 50 KB tail, the
// whole in an artifact). A call ends at its timeout (60 s by default,
// 1 to 3600) or when cancelled: the client's process group is killed,
// and on a POSIX host the remote command's process group ends with the
// connection (remote.go), so nothing keeps running on either side.
// Master connections (ControlMaster) and sshfs mounts, which omp adds,
// are not used: every call is its own connection.
//
// The description is fixed while the tool is offered (a Definition does
// not change): a host probed during the session is listed with its shell
// from the next session on.
package ssh

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/bash"
)

// Timeout bounds in seconds.
const (
	DefaultTimeout = 60
	MinTimeout     = 1
	MaxTimeout     = 3600
)

// description is the model-facing text before the host list.
const description = `Runs one command on a remote machine over SSH and returns its combined stdout and stderr.

Only the hosts listed below can be reached; pass the name before the parentheses as host. Each call is a fresh non-interactive login: no terminal, no input, nothing kept between calls (use cwd for the directory). Match the command to the host's system and shell as listed ("detecting..." until the first call): POSIX tools (ls, cat, grep, ps, df, uname) on linux and macos and on windows/bash or windows/sh; Get-ChildItem, Get-Content, Get-Process on windows/powershell; dir, type, findstr, tasklist on windows/cmd.
A non-zero exit status is an error that carries the output.`

// Tool is the ssh tool of a session.
type Tool struct {
	env         *tool.Env
	hosts       []config.SSHHost // sorted by name
	probes      probes
	description string // fixed at New
}

// Available reports whether env has any ssh host: the tool is offered
// only then.
func Available(env *tool.Env) bool { return len(env.Settings.SSHHosts) > 0 }

// New returns the ssh tool over env's hosts (env.Settings.SSHHosts).
func New(env *tool.Env) tool.Tool {
	hosts := slices.Clone(env.Settings.SSHHosts)
	slices.SortStableFunc(hosts, func(a, b config.SSHHost) int { return strings.Compare(a.Name, b.Name) })
	t := &Tool{env: env, hosts: hosts, probes: probes{dirs: env.Settings.SSHHostInfoDirs}}
	t.probes.load(hosts)
	t.description = t.describe()
	return t
}

// describe is the model-facing description: the text, then the hosts
// with their system and shell where a probe of an earlier session found
// them.
func (t *Tool) describe() string {
	var b strings.Builder
	b.WriteString(description)
	if len(t.hosts) > 0 {
		b.WriteString("\n\nAvailable hosts:")
		for _, h := range t.hosts {
			shell := "detecting..."
			if info, ok := t.probes.cached(h.Name); ok {
				shell = info.Label()
			}
			fmt.Fprintf(&b, "\n- %s (%s) | %s", h.Name, h.Host, shell)
		}
	}
	return b.String()
}

// Definition describes the tool; the description ends with the hosts.
func (t *Tool) Definition() tool.Definition {
	return tool.Definition{
		Name:        "ssh",
		Label:       "SSH",
		Description: t.description,
		Parameters: tool.Object(map[string]*tool.Schema{
			"host":    tool.String("name of a host from the list"),
			"command": tool.String("command to run there"),
			"cwd":     tool.String("remote directory to run it in"),
			"timeout": {Type: "number", Description: "seconds", Default: DefaultTimeout},
		}, "host", "command"),
		Concurrency: tool.Exclusive,
	}
}

// input is a call's arguments.
type input struct {
	Host    string   `json:"host"`
	Command string   `json:"command"`
	Cwd     string   `json:"cwd"`
	Timeout *float64 `json:"timeout"`
}

// Execute runs the command on the host.
func (t *Tool) Execute(ctx context.Context, args tool.Args, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	var in input
	if err := args.Decode(&in); err != nil {
		return nil, err
	}
	i := slices.IndexFunc(t.hosts, func(h config.SSHHost) bool { return h.Name == in.Host })
	if i < 0 {
		names := make([]string, len(t.hosts))
		for j, h := range t.hosts {
			names[j] = h.Name
		}
		if len(names) == 0 { // only when called by hand (gopi tool): the tool is not offered without hosts
			names = []string{"none (add one with gopi ssh add NAME --host ADDRESS)"}
		}
		return nil, tool.Errorf("Unknown SSH host: %s. Available hosts: %s", in.Host, strings.Join(names, ", "))
	}
	host := t.hosts[i]
	seconds := float64(DefaultTimeout)
	if in.Timeout != nil && !math.IsNaN(*in.Timeout) {
		seconds = *in.Timeout
	}
	seconds = min(max(seconds, MinTimeout), MaxTimeout)
	timeout := time.Duration(seconds * float64(time.Second))
	environ := t.env.Settings.Shell.Environ
	bin, err := lookSSH(environ)
	if err != nil {
		return nil, tool.Errorf("%v; install the OpenSSH client", err)
	}
	if err := checkKey(host.KeyPath); err != nil {
		return nil, &tool.Error{Msg: err.Error()}
	}
	var unreachable error
	info := t.probes.get(ctx, host, func(ctx context.Context, remote string) (string, error) {
		var out strings.Builder
		probe := min(timeout, probeTimeout)
		o, err := request{bin: bin, environ: environ, host: host, remote: remote, out: &out, timeout: probe}.run(ctx)
		switch {
		case err != nil:
		case o.timedOut:
			err = fmt.Errorf("no answer within %s", probe)
			unreachable = err
		case o.exitCode == 255: // ssh's own failure: connection, authentication, host key
			err = errors.New(strings.TrimSpace(out.String()))
			unreachable = err
		case o.exitCode != 0:
			err = fmt.Errorf("probe ended with status %d", o.exitCode)
		}
		return out.String(), err
	})
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if unreachable != nil {
		return nil, tool.Errorf("Failed to connect to SSH host %s (%s): %v", host.Name, target(host), unreachable)
	}
	remote, watch := remoteCommand(in.Command, in.Cwd, info)
	return t.run(ctx, request{bin: bin, environ: environ, host: host, remote: remote, watch: watch, timeout: timeout}, seconds, onUpdate)
}

// run runs req and turns how it ended into the result.
func (t *Tool) run(ctx context.Context, req request, seconds float64, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	sink := tool.NewOutputSink(t.env.Artifacts, "ssh")
	sink.LimitArtifact(t.env.Settings.Bash.MaxArtifactBytes)
	var onTail func(string)
	if onUpdate != nil {
		onTail = func(tail string) { onUpdate(tool.TextResult(tail, nil)) }
	}
	stop := bash.StreamTail(sink, onTail)
	req.out = sink
	o, err := req.run(ctx)
	stop()
	sum, _ := sink.Close() // a failed spill only costs the full copy
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, tool.Errorf("Cannot run ssh for %s: %v", req.host.Name, err)
	}
	text := strings.ToValidUTF8(sum.Output, "\uFFFD")
	if strings.TrimSpace(text) == "" && !sum.Truncated {
		text = "(no output)"
	}
	var details Details
	if tr := bash.TruncationOf(bash.Outcome{Output: sum}); tr != nil {
		details.Meta = &bash.Meta{Truncation: tr}
		text = strings.TrimRight(text, "\n") + "\n\n" + bash.TruncationNotice(tr)
	}
	switch {
	case o.timedOut:
		return nil, &tool.Error{Msg: fmt.Sprintf("[SSH: Timed out after %ss]\n%s", formatSeconds(seconds), text)}
	case o.exitCode != 0:
		return nil, &tool.Error{Msg: fmt.Sprintf("%s\n\nCommand exited with code %d", strings.TrimRight(text, "\n"), o.exitCode)}
	}
	return tool.TextResult(text, &details), nil
}

// Details are the ssh tool's structured result: the truncation of a long
// output, as the bash tool reports it.
type Details struct {
	Meta *bash.Meta `json:"meta,omitempty"`
}

// formatSeconds writes a timeout without a needless fraction.
func formatSeconds(s float64) string {
	if s == math.Trunc(s) {
		return fmt.Sprintf("%d", int64(s))
	}
	return fmt.Sprintf("%g", s)
}
