package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// sshCLI holds the typed flags of `gopi ssh`.
type sshCLI struct {
	help                        bool
	json                        bool
	host, user, port, key, desc string
	compat                      bool
	scope                       string
}

// newSSHFlagSet declares gopi ssh's flags on c (omp's names).
func newSSHFlagSet(c *sshCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("ssh", pflag.ContinueOnError)
	fs.BoolVar(&c.json, "json", false, "list: print the project's and the user's hosts as JSON")
	fs.StringVar(&c.host, "host", "", "add: the host's address or DNS name (required)")
	fs.StringVar(&c.user, "user", "", "add: the user to log in as")
	fs.StringVar(&c.port, "port", "", "add: the port (1-65535)")
	fs.StringVar(&c.key, "key", "", "add: the private key file (mode 600 or stricter)")
	fs.StringVar(&c.desc, "desc", "", "add: a description of the host")
	fs.BoolVar(&c.compat, "compat", false, "add: on a Windows host, run commands in its bash or sh")
	fs.StringVar(&c.scope, "scope", "project", "add, remove: which file: project (.gopi/ssh.json) or user (ssh.json in the agent directory)")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const sshHelp = `Usage: gopi ssh [list|add|remove] [NAME] [flags]

Manage the hosts the ssh tool may run commands on: the ssh.json files of
the project (.gopi/ssh.json) and of the user (ssh.json in the agent
directory). The tool also reads omp's files (.omp/ssh.json,
~/.omp/agent/ssh.json) and ssh.json or .ssh.json at the project root;
list shows those as read-only.

  gopi ssh list [--json]
  gopi ssh add NAME --host ADDRESS [--user USER] [--port PORT] [--key PATH] [--desc TEXT] [--compat] [--scope project|user]
  gopi ssh remove NAME [--scope project|user]

Without an action, list.

Flags:
`

// runSSH implements `gopi ssh`.
func runSSH(_ context.Context, env *cliEnv, args []string) int {
	var c sshCLI
	fs := newSSHFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "ssh", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, sshHelp+cliflags.Help(fs))
		return exitMatch
	}
	scope := config.SSHScope(c.scope)
	if scope != config.SSHScopeProject && scope != config.SSHScopeUser {
		return fail(env, "ssh", cliflags.Usagef("--scope must be project or user, not %q", c.scope))
	}
	action, rest := "list", fs.Args()
	if len(rest) > 0 {
		action, rest = rest[0], rest[1:]
	}
	switch action {
	case "list":
		return sshList(env, c.json)
	case "add":
		return sshAdd(env, c, scope, rest)
	case "remove", "rm":
		if len(rest) != 1 {
			return fail(env, "ssh", cliflags.Usagef("Host name required: gopi ssh remove NAME [--scope project|user]"))
		}
		path := env.cfg.SSHConfigPath(scope)
		if err := config.RemoveSSHHost(path, rest[0]); err != nil {
			return fail(env, "ssh", err)
		}
		fmt.Fprintf(env.stdout, "Removed SSH host %q from %s config\n", rest[0], scope)
		return exitMatch
	}
	return fail(env, "ssh", cliflags.Usagef("Unknown action: %s. Valid actions: add, remove, list", action))
}

// sshAdd implements `gopi ssh add`.
func sshAdd(env *cliEnv, c sshCLI, scope config.SSHScope, rest []string) int {
	if len(rest) != 1 {
		return fail(env, "ssh", cliflags.Usagef("Host name required: gopi ssh add NAME --host ADDRESS"))
	}
	if c.host == "" {
		return fail(env, "ssh", cliflags.Usagef("--host is required: gopi ssh add %s --host ADDRESS", rest[0]))
	}
	entry := config.SSHHostEntry{Host: c.host, Username: c.user, KeyPath: c.key, Description: c.desc, Compat: c.compat}
	if c.port != "" {
		p, err := strconv.Atoi(c.port)
		if err != nil || p < 1 || p > 65535 {
			return fail(env, "ssh", cliflags.Usagef("Port must be an integer between 1 and 65535, not %q", c.port))
		}
		entry.Port = p
	}
	if err := config.AddSSHHost(env.cfg.SSHConfigPath(scope), rest[0], entry); err != nil {
		return fail(env, "ssh", err)
	}
	fmt.Fprintf(env.stdout, "Added SSH host %q to %s config\n", rest[0], scope)
	return exitMatch
}

// sshList implements `gopi ssh list`: gopi's project and user files, then
// the other files the tool reads (read-only here).
func sshList(env *cliEnv, asJSON bool) int {
	files := map[config.SSHScope]*config.SSHFile{}
	for _, scope := range []config.SSHScope{config.SSHScopeProject, config.SSHScopeUser} {
		f, err := config.LoadSSHFile(env.cfg.SSHConfigPath(scope))
		if err != nil {
			return fail(env, "ssh", err)
		}
		files[scope] = f
	}
	if asJSON {
		out := map[string]map[string]json.RawMessage{}
		for scope, f := range files {
			m := map[string]json.RawMessage{}
			for _, e := range f.Hosts {
				m[e.Name] = e.Value
			}
			out[string(scope)] = m
		}
		data, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(env.stdout, "%s\n", data)
		return exitMatch
	}
	managed := map[string]bool{env.cfg.SSHConfigPath(config.SSHScopeProject): true, env.cfg.SSHConfigPath(config.SSHScopeUser): true}
	var others []config.SSHHost
	for _, h := range env.cfg.SSH().Hosts {
		if !managed[h.File] {
			others = append(others, h)
		}
	}
	sections := 0
	section := func(title string, print func(io.Writer)) {
		if sections > 0 {
			fmt.Fprintln(env.stdout)
		}
		sections++
		fmt.Fprintln(env.stdout, title)
		print(env.stdout)
	}
	labels := map[config.SSHScope]string{config.SSHScopeProject: "Project SSH Hosts (%s):", config.SSHScopeUser: "User SSH Hosts (%s):"}
	for _, scope := range []config.SSHScope{config.SSHScopeProject, config.SSHScopeUser} {
		if hosts, _ := files[scope].Parse(env.cfg.SSHConfigPath(scope), nil); len(hosts) > 0 {
			section(fmt.Sprintf(labels[scope], env.cfg.SSHConfigPath(scope)), func(w io.Writer) { printSSHHosts(w, hosts) })
		}
	}
	for i := 0; i < len(others); {
		j := i
		for j < len(others) && others[j].File == others[i].File {
			j++
		}
		group := others[i:j]
		section(fmt.Sprintf("Discovered (%s), read-only:", group[0].File), func(w io.Writer) { printSSHHosts(w, group) })
		i = j
	}
	if sections == 0 {
		fmt.Fprintln(env.stdout, "No SSH hosts configured")
		fmt.Fprintln(env.stdout, "Add one with: gopi ssh add <name> --host <address>")
	}
	return exitMatch
}

// printSSHHosts writes one line per host: name, address, then the user,
// a port other than 22, the key and the description where set.
func printSSHHosts(w io.Writer, hosts []config.SSHHost) {
	for _, h := range hosts {
		parts := []string{h.Name, h.Host}
		if h.Username != "" {
			parts = append(parts, h.Username)
		}
		if h.Port != 0 && h.Port != 22 {
			parts = append(parts, "port:"+strconv.Itoa(h.Port))
		}
		if h.KeyPath != "" {
			parts = append(parts, h.KeyPath)
		}
		if h.Description != "" {
			parts = append(parts, "- "+h.Description)
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(parts, "  "))
	}
}
