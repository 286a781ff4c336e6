package ssh

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/atomicfile"
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

// probes caches each host's HostInfo: in memory for the tool's life and,
// when dirs are set, on disk between sessions (one JSON file per host, in
// omp's format, so that either program reads what the other probed). The
// first call to a host not known either way probes it.
type probes struct {
	dirs  []string // the first is written, all are read (see tool.Settings.SSHHostInfoDirs)
	mu    sync.Mutex
	known map[string]HostInfo
}

// hostInfoVersion is the version of the cache files (omp's HOST_INFO_VERSION).
const hostInfoVersion = 2

// hostInfoFile is a host's cache file.
type hostInfoFile struct {
	Version       int    `json:"version"`
	OS            string `json:"os"`
	Shell         string `json:"shell"`
	CompatShell   string `json:"compatShell,omitempty"`
	CompatEnabled bool   `json:"compatEnabled"`
}

// cacheName is the file name of a host's cache: the name with every run
// of other characters than letters, digits, ".", "_" and "-" made "_".
func cacheName(host string) string {
	var b strings.Builder
	under := false
	for _, r := range host {
		ok := r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '_' || r == '-')
		switch {
		case ok:
			b.WriteRune(r)
			under = false
		case !under:
			b.WriteByte('_')
			under = true
		}
	}
	if b.Len() == 0 {
		return "remote.json"
	}
	return b.String() + ".json"
}

// load fills the memory cache from the first cache file of each host that
// is current (this version, a known system); compat is applied as the
// host's entry says now.
func (p *probes) load(hosts []config.SSHHost) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.known == nil {
		p.known = map[string]HostInfo{}
	}
	for _, h := range hosts {
		for _, dir := range p.dirs {
			data, err := os.ReadFile(filepath.Join(dir, cacheName(h.Name)))
			var f hostInfoFile
			if err != nil || json.Unmarshal(data, &f) != nil || f.Version != hostInfoVersion || !slices.Contains([]string{OSLinux, OSMacOS, OSWindows}, f.OS) {
				continue
			}
			info := HostInfo{OS: f.OS, Shell: f.Shell, Compat: f.CompatEnabled, CompatShell: f.CompatShell}
			if info.Compat && info.CompatShell == "" || info.OS != OSWindows && info.Compat {
				continue // stale, as omp judges it: probe again
			}
			if h.Compat != nil && !*h.Compat {
				info.Compat = false
			}
			p.known[h.Name] = info
			break
		}
	}
}

// save writes a host's info to the first cache directory; a failure only
// costs a probe next session.
func (p *probes) save(name string, info HostInfo) {
	if len(p.dirs) == 0 {
		return
	}
	data, err := json.MarshalIndent(hostInfoFile{Version: hostInfoVersion, OS: info.OS, Shell: info.Shell, CompatShell: info.CompatShell, CompatEnabled: info.Compat}, "", "  ")
	if err != nil || os.MkdirAll(p.dirs[0], 0o700) != nil {
		return
	}
	_ = atomicfile.WriteFile(filepath.Join(p.dirs[0], cacheName(name)), data, 0o600)
}

// cached returns the host's info when it is known.
func (p *probes) cached(name string) (HostInfo, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	info, ok := p.known[name]
	return info, ok
}

// get returns the host's info, probing it with run when not known yet. A
// probe that fails leaves the host unknown (treated as POSIX) and is
// tried again next call.
func (p *probes) get(ctx context.Context, host config.SSHHost, run func(ctx context.Context, remote string) (string, error)) HostInfo {
	if info, ok := p.cached(host.Name); ok {
		return info
	}
	out, err := run(ctx, probeCommand)
	info := parseProbe(out, host.Compat)
	if err != nil || info.OS == OSUnknown {
		return info
	}
	p.mu.Lock()
	if p.known == nil {
		p.known = map[string]HostInfo{}
	}
	p.known[host.Name] = info
	p.mu.Unlock()
	p.save(host.Name, info)
	return info
}
