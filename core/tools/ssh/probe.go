package ssh

import (
	"context"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/config"
)

// Operating systems a probe tells apart.
const (
	OSLinux   = "linux"
	OSMacOS   = "macos"
	OSWindows = "windows"
	OSUnknown = "unknown"
)

// Shells a probe tells apart.
const (
	ShellBash       = "bash"
	ShellZsh        = "zsh"
	ShellSh         = "sh"
	ShellCmd        = "cmd"
	ShellPowerShell = "powershell"
	ShellUnknown    = "unknown"
)

// HostInfo is what a probe learnt of a host: the system and the shell
// commands run in.
type HostInfo struct {
	OS          string // OSLinux, OSMacOS, OSWindows or OSUnknown
	Shell       string // the login shell: ShellBash, ShellZsh, …
	Compat      bool   // a Windows host whose commands are wrapped in CompatShell
	CompatShell string // "bash" or "sh" when Compat
}

// Label is the host's system and shell as the tool's description lists
// them: "linux/bash", "windows/cmd", …
func (i HostInfo) Label() string {
	if i.OS == OSWindows && i.Compat {
		return "windows/" + i.CompatShell
	}
	return i.OS + "/" + i.Shell
}

// probeCommand prints one line a POSIX shell, cmd.exe and PowerShell each
// fill in differently: uname's system name, $SHELL and $BASH_VERSION
// where they expand, %OS% and %COMSPEC% where those do.
const probeCommand = `echo "gopi-probe|$(uname -s 2>/dev/null)|$SHELL|$BASH_VERSION|%OS%|%COMSPEC%"`

// parseProbe reads the line probeCommand printed; compat is the host's
// compat setting (nil: decided by what was found).
func parseProbe(out string, compat *bool) HostInfo {
	info := HostInfo{OS: OSUnknown, Shell: ShellUnknown}
	var line string
	for l := range strings.SplitSeq(out, "\n") {
		if i := strings.Index(l, "gopi-probe|"); i >= 0 {
			line = strings.Trim(strings.TrimSpace(l[i:]), `"`)
			break
		}
	}
	if line == "" {
		return info
	}
	f := strings.Split(line, "|")
	for len(f) < 6 {
		f = append(f, "")
	}
	for i := 1; i <= 3; i++ {
		if strings.Contains(f[i], "$") { // not expanded: not a POSIX shell
			f[i] = ""
		}
	}
	system, shell, bashVersion, winOS, comspec := strings.ToLower(f[1]), strings.ToLower(f[2]), f[3], f[4], strings.ToLower(f[5])
	posix := winOS == "%OS%" // cmd did not expand it
	switch {
	case strings.Contains(system, "linux"):
		info.OS = OSLinux
	case strings.Contains(system, "darwin"):
		info.OS = OSMacOS
	case strings.Contains(system, "mingw"), strings.Contains(system, "msys"), strings.Contains(system, "cygwin"):
		info.OS = OSWindows
	case strings.EqualFold(winOS, "Windows_NT"):
		info.OS = OSWindows
		if strings.Contains(comspec, "cmd") {
			shell = "cmd"
		}
	case posix && system == "" && shell == "" && strings.Contains(line, "$("):
		info.OS = OSWindows // nothing expanded: cmd without %OS%
	case posix && system == "" && shell == "":
		info.OS, shell = OSWindows, "powershell" // $(…) and $SHELL ran as PowerShell expressions
	}
	switch {
	case strings.Contains(shell, "bash"):
		info.Shell = ShellBash
	case strings.Contains(shell, "zsh"):
		info.Shell = ShellZsh
	case strings.Contains(shell, "pwsh"), strings.Contains(shell, "powershell"):
		info.Shell = ShellPowerShell
	case strings.Contains(shell, "cmd"):
		info.Shell = ShellCmd
	case strings.HasSuffix(shell, "sh"):
		info.Shell = ShellSh
	case info.OS == OSWindows && shell == "":
		info.Shell = ShellCmd
	}
	if info.OS == OSWindows && (bashVersion != "" || info.Shell == ShellBash || info.Shell == ShellSh) {
		// A Unix layer (Git Bash, MSYS, Cygwin) is the login shell: commands
		// are POSIX already.
		info.CompatShell = info.Shell
		info.Compat = compat == nil || *compat
	}
	if info.OS == OSWindows && compat != nil && *compat && info.CompatShell == "" {
		info.Compat, info.CompatShell = true, "bash" // forced on: bash is assumed
	}
	if compat != nil && !*compat {
		info.Compat = false
	}
	return info
}

// probes caches each host's HostInfo for the tool's life: the first call
// to a host probes it, later ones reuse the answer.
type probes struct {
	mu    sync.Mutex
	known map[string]HostInfo
}

// get returns the host's info, probing it with run when not known yet. A
// probe that fails leaves the host unknown (treated as POSIX) and is
// tried again next call.
func (p *probes) get(ctx context.Context, host config.SSHHost, run func(ctx context.Context, remote string) (string, error)) HostInfo {
	p.mu.Lock()
	info, ok := p.known[host.Name]
	p.mu.Unlock()
	if ok {
		return info
	}
	out, err := run(ctx, probeCommand)
	info = parseProbe(out, host.Compat)
	if err != nil || info.OS == OSUnknown {
		return info
	}
	p.mu.Lock()
	if p.known == nil {
		p.known = map[string]HostInfo{}
	}
	p.known[host.Name] = info
	p.mu.Unlock()
	return info
}
