package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Project trust. A project (the working directory) can ask gopi to run
// things and to weaken protections through files anyone can put in a
// repository: MCP servers in its mcp.json files, extension and custom tool
// modules in its .gopi/.omp directories, settings that name programs
// (shellPath, extensions) or turn protections down (secrets.enabled off,
// a shorter acp.requirePermission list, …), and variables in its .env that
// change what commands run or where requests go. None of that takes
// effect until the project is trusted; the user's own configuration (the
// agent directory, omp's ~/.omp/agent) is always trusted.
//
// Load finds what the project asks for (ProjectTrust().Items) and whether
// it is trusted already: LoadOptions.TrustProject (the --trust-project
// flag), PI_TRUST_PROJECT=1 in the process environment (a .env file cannot
// set it), the project under a trustedProjects path of the user's
// settings, or an earlier answer remembered in the agent directory's
// trusted-projects.json for the same requests. Otherwise the requests are
// withheld: project MCP servers are not read, the settings keep the user's
// values, the .env variables are dropped, and ProjectTrusted is false so
// front ends leave the project's extension and tool directories alone.
// An interactive front end asks and calls SetProjectTrust; the others say
// what was withheld and how to allow it.
//
// A remembered answer is for the project's real path and a fingerprint of
// what it asked (each server's definition, the module file names, the
// setting and variable values): when the requests change, the question is
// asked again. Editing the code of a module already trusted does not
// change the fingerprint.

// EnvTrustProject, set to 1 (or true, yes, on) in the process environment,
// trusts the project for one run.
const EnvTrustProject = "PI_TRUST_PROJECT"

// TrustFile remembers the answers, in the agent directory.
const TrustFile = "trusted-projects.json"

// TrustKind says what a project asks for.
type TrustKind string

// What a project can ask for.
const (
	TrustMCPServer  TrustKind = "mcp-server"  // an MCP server of a project mcp.json: started, or connected to
	TrustExtension  TrustKind = "extension"   // an extension module in the project's extensions/ directory
	TrustCustomTool TrustKind = "custom-tool" // a custom tool module in one of the project's tools/ directories
	TrustSetting    TrustKind = "setting"     // a project setting that names a program or lowers a protection
	TrustEnv        TrustKind = "env"         // a variable of the project's .env that changes what runs or where requests go
	TrustLSPServer  TrustKind = "lsp-server"  // a language server command of a project lsp.json/lsp.yaml
)

// TrustItem is one thing a project asks for.
type TrustItem struct {
	Kind   TrustKind
	Name   string // the server's name, the module's path (relative to the project), the setting's key, the variable
	Detail string // what it runs or sets, for the user to judge
	Source string // the file asking, relative to the project
	fp     string // what the fingerprint covers
}

// String describes the item in one line.
func (i TrustItem) String() string {
	var what string
	switch i.Kind {
	case TrustMCPServer:
		what = fmt.Sprintf("MCP server %q %s", i.Name, i.Detail)
	case TrustExtension:
		what = "extension " + i.Name
	case TrustCustomTool:
		what = "custom tool " + i.Name
	case TrustSetting:
		what = "setting " + i.Name + ": " + i.Detail
	case TrustEnv:
		what = "variable " + i.Name + " " + i.Detail
	case TrustLSPServer:
		what = fmt.Sprintf("language server %q %s", i.Name, i.Detail)
	default:
		what = i.Name + " " + i.Detail
	}
	if i.Source != "" && i.Source != i.Name {
		what += " (" + i.Source + ")"
	}
	return what
}

// TrustSource says how the project's trust was decided.
type TrustSource string

// How trust is decided.
const (
	TrustNotNeeded  TrustSource = "not needed" // the project asks for nothing
	TrustByFlag     TrustSource = "flag"       // LoadOptions.TrustProject (--trust-project)
	TrustByEnv      TrustSource = "env"        // PI_TRUST_PROJECT in the process environment
	TrustBySetting  TrustSource = "setting"    // under a trustedProjects path of the user's settings
	TrustRemembered TrustSource = "remembered" // an earlier answer, for the same requests
	TrustAnswered   TrustSource = "answered"   // SetProjectTrust in this run
	TrustUnanswered TrustSource = "unanswered" // never asked, or the requests changed since the answer
)

// ProjectTrust is what the project asks for and whether it is granted.
type ProjectTrust struct {
	Path    string      // the project's real path (symbolic links resolved): the key answers are kept under
	Items   []TrustItem // what the project asks for, in a stable order; none: nothing to trust
	Trusted bool        // the items take effect
	How     TrustSource // how that was decided
	// Changed is true when an answer was remembered for this project but
	// its requests changed since.
	Changed bool
	// Refused is true when the remembered answer (for these requests) is
	// no: front ends do not ask again.
	Refused     bool
	Fingerprint string // digest of the items (see the package notes)
	StoreFile   string // where answers are remembered
}

// trustState is the configuration's trust: the decision and what it
// needs to apply either way.
type trustState struct {
	ProjectTrust
	maskKeys []string // settings the project may not set while untrusted
	base     Env      // the process environment (PI_TRUST_PROJECT is read there only)
	dotenv   []string // the .env files, to rebuild Env when the decision changes
}

// ProjectTrust returns what the project asks for and whether it is
// trusted.
func (c *Config) ProjectTrust() ProjectTrust {
	pt := c.trust.ProjectTrust
	pt.Items = slices.Clone(pt.Items)
	return pt
}

// ProjectTrusted reports whether the project's own code and settings may
// take effect: it is trusted, or asks for nothing. Front ends check it
// before loading the project's extension and custom tool directories.
func (c *Config) ProjectTrusted() bool {
	return c.trust.Trusted || len(c.trust.Items) == 0
}

// SetProjectTrust grants or withholds the project's requests (call it
// before anything is built from the configuration) and, with remember,
// keeps the answer in the agent directory for these same requests.
func (c *Config) SetProjectTrust(trusted, remember bool) error {
	c.trust.Trusted, c.trust.How = trusted, TrustAnswered
	c.trust.Refused = !trusted && remember
	c.applyTrust()
	if !remember || len(c.trust.Items) == 0 {
		return nil
	}
	return rememberTrust(c.trust.StoreFile, c.trust.Path, trustRecord{
		Trusted: trusted, Fingerprint: c.trust.Fingerprint, Items: itemLines(c.trust.Items),
	})
}

// evaluateTrust finds the project's requests and decides whether they are
// granted already, then applies the decision.
func (c *Config) evaluateTrust(base Env, dotenv []string, flag bool) {
	t := &c.trust
	t.base, t.dotenv = base, dotenv
	t.StoreFile = filepath.Join(c.AgentDir, TrustFile)
	t.Path = realPath(c.Cwd)
	t.Items, t.maskKeys = c.projectRequests()
	t.Fingerprint = fingerprint(t.Items)
	switch {
	case len(t.Items) == 0:
		t.Trusted, t.How = true, TrustNotNeeded
	case flag:
		t.Trusted, t.How = true, TrustByFlag
	case truthy(base.Get(EnvTrustProject)):
		t.Trusted, t.How = true, TrustByEnv
	case c.underTrustedPath(t.Path):
		t.Trusted, t.How = true, TrustBySetting
	default:
		t.How = TrustUnanswered
		rec, err := recalledTrust(t.StoreFile, t.Path)
		if err != nil {
			c.Warnings = append(c.Warnings, err)
		}
		switch {
		case rec == nil:
		case rec.Fingerprint != t.Fingerprint:
			t.Changed = true
		case rec.Trusted:
			t.Trusted, t.How = true, TrustRemembered
		default:
			t.Refused, t.How = true, TrustRemembered
		}
	}
	c.applyTrust()
}

// applyTrust makes the settings, the environment and the MCP servers
// follow the decision.
func (c *Config) applyTrust() {
	t := &c.trust
	if c.Settings != nil {
		if t.Trusted {
			c.Settings.mask(nil)
		} else {
			c.Settings.mask(t.maskKeys)
		}
	}
	if len(t.dotenv) == 0 || !slices.ContainsFunc(t.Items, func(i TrustItem) bool { return i.Kind == TrustEnv }) {
		return // no variable to drop or to bring back
	}
	var drop func(path, key string) bool
	if !t.Trusted {
		project := filepath.Join(c.Cwd, DotenvFile)
		drop = func(path, key string) bool { return path == project && sensitiveEnv(key) }
	}
	c.Env, _ = t.base.withDotenvFiltered(t.dotenv, drop)
}

// underTrustedPath reports whether path is one of the trustedProjects
// directories of the user's own settings, or below one.
func (c *Config) underTrustedPath(path string) bool {
	if c.Settings == nil {
		return false
	}
	for _, p := range c.Settings.userStrings(KeyTrustedProjects) {
		p = expandHome(strings.TrimSpace(p), c.Home)
		if !filepath.IsAbs(p) {
			continue
		}
		p = realPath(p)
		if path == p || strings.HasPrefix(path, p+string(filepath.Separator)) || p == string(filepath.Separator) {
			return true
		}
	}
	return false
}

// KeyTrustedProjects is the user setting listing trusted directories.
const KeyTrustedProjects = "trustedProjects"

// realPath resolves symbolic links, keeping the cleaned path when that
// fails.
func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// truthy reports whether an environment value means yes.
func truthy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// fingerprint digests what the items ask for.
func fingerprint(items []TrustItem) string {
	if len(items) == 0 {
		return ""
	}
	h := sha256.New()
	for _, i := range items {
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x01", i.Kind, i.Name, i.Source, i.fp)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// itemLines describes the items, one line each.
func itemLines(items []TrustItem) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.String()
	}
	return out
}
