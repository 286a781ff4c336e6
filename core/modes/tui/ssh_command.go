package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/templates"
)

// sshUsage is the synopsis of /ssh add.
const sshUsage = "/ssh add <name> --host <host> [--user <user>] [--port <port>] [--key <keyPath>] [--desc <description>] [--compat] [--scope project|user]"

// cmdSSH manages the ssh tool's hosts as omp's /ssh does: add, list,
// remove (rm) and help. Hosts added or removed take effect in the next
// session (the tool's host list is fixed while it is offered).
func (m *model) cmdSSH(args string) tea.Cmd {
	words := templates.SplitArgs(args)
	sub := ""
	if len(words) > 0 {
		sub = strings.ToLower(words[0])
		words = words[1:]
	}
	switch sub {
	case "", "help":
		return m.printSection(m.sshHelp())
	case "list":
		return m.printSection(m.sshList())
	case "add":
		return m.sshAdd(words)
	case "remove", "rm":
		return m.sshRemove(words)
	}
	return m.printSection(m.r.errorLine(fmt.Sprintf("Unknown subcommand: %s. Type /ssh help for usage.", sub)))
}

// sshHelp is the text of /ssh help.
func (m *model) sshHelp() string {
	return strings.Join([]string{
		m.th.title.Render("SSH Host Management"),
		"Manage the hosts the ssh tool can run commands on (ssh.json).",
		m.th.accent.Render("Commands:"),
		"  " + sshUsage,
		"  /ssh list             List all configured SSH hosts",
		"  /ssh remove <name> [--scope project|user]    Remove an SSH host (default: project)",
		"  /ssh help             Show this help message",
	}, "\n")
}

// sshAdd runs /ssh add.
func (m *model) sshAdd(words []string) tea.Cmd {
	if len(words) == 0 {
		return m.printSection(m.r.errorLine("Usage: " + sshUsage))
	}
	name, scope, entry, err := parseSSHAdd(words)
	if err != nil {
		return m.printSection(m.r.errorLine(err.Error()))
	}
	if err := config.AddSSHHost(m.s.Config().SSHConfigPath(scope), name, entry); err != nil {
		msg := "Failed to add host: " + err.Error()
		if strings.Contains(err.Error(), "already exists") {
			msg += " (use /ssh remove first, or choose a different name)"
		}
		return m.printSection(m.r.errorLine(msg))
	}
	lines := []string{m.th.ok.Render(fmt.Sprintf("✓ Added SSH host %q to %s config", name, scope)), "  Host: " + entry.Host}
	if entry.Username != "" {
		lines = append(lines, "  User: "+entry.Username)
	}
	if entry.Port != 0 {
		lines = append(lines, "  Port: "+strconv.Itoa(entry.Port))
	}
	if entry.KeyPath != "" {
		lines = append(lines, "  Key:  "+entry.KeyPath)
	}
	if entry.Description != "" {
		lines = append(lines, "  Desc: "+entry.Description)
	}
	if entry.Compat {
		lines = append(lines, "  Compat: true")
	}
	lines = append(lines, m.th.dim.Render("Run /ssh list to see all configured hosts; the ssh tool offers new hosts from the next session."))
	return m.printSection(strings.Join(lines, "\n"))
}

// parseSSHAdd reads the words after /ssh add: a name first, then the
// flags, each flag's value the next word.
func parseSSHAdd(words []string) (name string, scope config.SSHScope, entry config.SSHHostEntry, err error) {
	scope = config.SSHScopeProject
	if !strings.HasPrefix(words[0], "-") {
		name, words = words[0], words[1:]
	}
	fields := map[string]*string{"--host": &entry.Host, "--user": &entry.Username, "--key": &entry.KeyPath, "--desc": &entry.Description}
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "--compat" {
			entry.Compat = true
			continue
		}
		value := ""
		if i+1 < len(words) {
			value = words[i+1]
		}
		switch {
		case fields[w] != nil:
			if value == "" {
				return "", "", entry, fmt.Errorf("Missing value for %s.", w)
			}
			*fields[w] = value
		case w == "--port":
			p, perr := strconv.Atoi(value)
			if perr != nil || p < 1 || p > 65535 {
				return "", "", entry, errors.New("Invalid --port value. Must be an integer between 1 and 65535.")
			}
			entry.Port = p
		case w == "--scope":
			if value != string(config.SSHScopeProject) && value != string(config.SSHScopeUser) {
				return "", "", entry, errors.New("Invalid --scope value. Use project or user.")
			}
			scope = config.SSHScope(value)
		default:
			return "", "", entry, fmt.Errorf("Unknown option: %s", w)
		}
		i++
	}
	switch {
	case name == "":
		return "", "", entry, errors.New("Host name required. Usage: /ssh add <name> --host <host> ...")
	case entry.Host == "":
		return "", "", entry, errors.New("--host is required. Usage: /ssh add <name> --host <host> ...")
	}
	return name, scope, entry, nil
}

// sshRemove runs /ssh remove.
func (m *model) sshRemove(words []string) tea.Cmd {
	name, scope := "", config.SSHScopeProject
	if len(words) > 0 && !strings.HasPrefix(words[0], "-") {
		name, words = words[0], words[1:]
	}
	for i := 0; i < len(words); i++ {
		if words[i] != "--scope" {
			return m.printSection(m.r.errorLine("Unknown option: " + words[i]))
		}
		if i+1 >= len(words) || words[i+1] != string(config.SSHScopeProject) && words[i+1] != string(config.SSHScopeUser) {
			return m.printSection(m.r.errorLine("Invalid --scope value. Use project or user."))
		}
		scope = config.SSHScope(words[i+1])
		i++
	}
	if name == "" {
		return m.printSection(m.r.errorLine("Host name required. Usage: /ssh remove <name> [--scope project|user]"))
	}
	path := m.s.Config().SSHConfigPath(scope)
	f, err := config.LoadSSHFile(path)
	if err == nil {
		if _, ok := f.Host(name); !ok {
			return m.printSection(m.r.errorLine(fmt.Sprintf("Host %q not found in %s config.", name, scope)))
		}
		err = config.RemoveSSHHost(path, name)
	}
	if err != nil {
		return m.printSection(m.r.errorLine("Failed to remove host: " + err.Error()))
	}
	return m.printSection(m.th.ok.Render(fmt.Sprintf("✓ Removed SSH host %q from %s config", name, scope)))
}

// sshList is the text of /ssh list: the user's and the project's files,
// then the other files the tool reads, read-only.
func (m *model) sshList() string {
	c := m.s.Config()
	var lines []string
	shown := map[string]bool{}
	for _, s := range []struct {
		label string
		scope config.SSHScope
	}{{"User level", config.SSHScopeUser}, {"Project level", config.SSHScopeProject}} {
		path := c.SSHConfigPath(s.scope)
		shown[path] = true
		f, err := config.LoadSSHFile(path)
		if err != nil {
			lines = append(lines, m.r.errorLine("Failed to list hosts: "+err.Error()))
			continue
		}
		hosts, _ := f.Parse(path, nil)
		if len(hosts) == 0 {
			continue
		}
		lines = append(lines, m.th.accent.Render(s.label)+m.th.dim.Render(" ("+path+"):"))
		for _, h := range hosts {
			lines = append(lines, "  "+m.th.accent.Render(h.Name)+" "+m.th.dim.Render(sshDetails(h)))
		}
	}
	last := ""
	for _, h := range c.SSH().Hosts {
		if shown[h.File] {
			continue
		}
		if h.File != last {
			last = h.File
			lines = append(lines, m.th.accent.Render("Discovered")+m.th.dim.Render(" ("+h.File+"): read-only"))
		}
		lines = append(lines, "  "+m.th.accent.Render(h.Name)+" "+m.th.dim.Render(sshDetails(h)))
	}
	if len(lines) == 0 {
		return m.th.dim.Render("No SSH hosts configured.") + "\nUse /ssh add to add a host."
	}
	return m.th.title.Render("Configured SSH Hosts") + "\n" + strings.Join(lines, "\n")
}

// sshDetails is "[host, user=…, port=…]" for a host.
func sshDetails(h config.SSHHost) string {
	parts := []string{h.Host}
	if h.Username != "" {
		parts = append(parts, "user="+h.Username)
	}
	if h.Port != 0 && h.Port != 22 {
		parts = append(parts, "port="+strconv.Itoa(h.Port))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
