// Package rules finds the user's and the project's rules and sorts them
// into the three ways gopi applies them.
//
// A rule is a markdown file (*.md or *.mdc) with an optional front matter.
// Rules come from gopi's and omp's rules directories (priority 100), then
// Cursor's and Windsurf's (50), then the nearest .clinerules (40); see
// config.Dirs.RuleDirs. A rule's name is its file name without the
// extension, and the first rule of a name wins.
//
// Each rule lands in one bucket, checked in this order:
//
//   - stream rules (TTSR, "time-travelling stream rules"): the front matter
//     has a condition (or the legacy ttsr_trigger). The model's output is
//     watched while it streams; when a condition matches, the rule is put
//     into the conversation, interrupting the response when the interrupt
//     mode says so (see Watcher).
//   - always-apply rules: alwaysApply: true. The whole text goes into the
//     system prompt.
//   - the rulebook: rules with a description. The system prompt lists
//     their names and descriptions; the model reads one as rule://<name>.
//
// A rule without any of these is loaded but unused. rule:// serves the
// rulebook and the always-apply rules. Globs are shown to the model but
// never enforced. A rule file with broken front matter still loads, its
// fields read line by line, and the problem is reported with the file's
// name.
package rules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/frontmatter"
)

// Scheme is the internal URL scheme of rules.
const Scheme = "rule://"

// Interrupt modes of stream rules (ttsr.interruptMode, a rule's
// interruptMode).
const (
	InterruptAlways    = "always"     // a match interrupts the response
	InterruptProseOnly = "prose-only" // only a match in text or thinking interrupts; one in a tool call is added after the turn
	InterruptToolOnly  = "tool-only"  // only a match in a tool call interrupts; one in prose is added after the turn
	InterruptNever     = "never"      // matches never interrupt: the rule is added after the turn
)

// Rule is one discovered rule.
type Rule struct {
	Name          string       // file name without .md/.mdc (global_rules, clinerules for single files)
	Path          string       // absolute file path
	Content       string       // the body, front matter removed
	Description   string       // when the rule applies (rulebook rules need one)
	Globs         []string     // files the rule is about (advisory)
	AlwaysApply   bool         // put the whole rule into the system prompt
	Condition     []string     // stream-rule triggers: regular expressions (or file globs, see Scope)
	Scope         []string     // where conditions are matched: text, thinking, tool, tool:<name>, tool:<name>(<glob>)
	InterruptMode string       // the rule's own interrupt mode; "" follows ttsr.interruptMode
	Provider      string       // config.Provider* of the directory it came from
	Level         config.Level // user or project

	warning error // what was wrong with the file (see Set.Warnings)
}

// Set is the discovered rules split into their buckets, each in
// precedence order.
type Set struct {
	All         []*Rule // every rule kept, in precedence order
	TTSR        []*Rule // stream rules
	AlwaysApply []*Rule // always-apply rules
	Rulebook    []*Rule // rules listed in the prompt and read on demand
}

// Discover reads the rules in dirs (config.Dirs.RuleDirs order). Problems
// with single files are returned as warnings; discovery never fails.
func Discover(dirs []config.ResourceDir) (*Set, []error) {
	var warns []error
	seen := map[string]*Rule{}
	set := &Set{}
	for _, d := range dirs {
		for _, r := range scanDir(d, &warns) {
			if prev := seen[r.Name]; prev != nil {
				warns = append(warns, fmt.Errorf("rule %q in %s is shadowed by %s: %w", r.Name, r.Path, prev.Path, config.ErrShadowed))
				continue
			}
			seen[r.Name] = r
			set.All = append(set.All, r)
		}
	}
	set.split()
	return set, append(warns, set.Warnings()...)
}

// New sorts rules (already deduplicated) into buckets.
func New(rules []*Rule) *Set {
	s := &Set{All: rules}
	s.split()
	return s
}

// split fills the buckets: condition first, then alwaysApply, then a
// description.
func (s *Set) split() {
	s.TTSR, s.AlwaysApply, s.Rulebook = nil, nil, nil
	for _, r := range s.All {
		switch {
		case len(r.Condition) > 0:
			s.TTSR = append(s.TTSR, r)
		case r.AlwaysApply:
			s.AlwaysApply = append(s.AlwaysApply, r)
		case r.Description != "":
			s.Rulebook = append(s.Rulebook, r)
		}
	}
}

// scanDir reads one rule directory (or single rule file), files in name
// order.
func scanDir(d config.ResourceDir, warns *[]error) []*Rule {
	if d.IsFile {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(d.Path), ".md"), ".mdc")
		switch d.Provider {
		case config.ProviderCline:
			name = "clinerules"
		case config.ProviderWindsurf:
			name = "global_rules"
		}
		r, err := load(d.Path, name, d)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				*warns = append(*warns, err)
			}
			return nil
		}
		return []*Rule{r}
	}
	entries, err := os.ReadDir(d.Path)
	if err != nil {
		if !errors.Is(err, os.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
			*warns = append(*warns, fmt.Errorf("rules directory %s: %w", d.Path, err))
		}
		return nil
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		n := e.Name()
		ext := filepath.Ext(n)
		if e.IsDir() || strings.HasPrefix(n, ".") || !(ext == ".md" || (ext == ".mdc" && d.Provider != config.ProviderWindsurf && d.Provider != config.ProviderCline)) {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	var out []*Rule
	for _, n := range names {
		r, err := load(filepath.Join(d.Path, n), strings.TrimSuffix(n, filepath.Ext(n)), d)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				*warns = append(*warns, err)
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// load reads one rule file. A broken front matter does not stop it: the
// rule keeps what could be read and the problem for Set.Warnings.
func load(file, name string, d config.ResourceDir) (*Rule, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("rule %s: %w", file, err)
	}
	meta, body, ferr := frontmatter.Parse(data)
	r := &Rule{
		Name:          name,
		Path:          file,
		Content:       body,
		Description:   frontmatter.String(meta, "description"),
		Globs:         frontmatter.Strings(meta, "globs"),
		AlwaysApply:   frontmatter.Bool(meta, "alwaysApply"),
		Condition:     frontmatter.Strings(meta, "condition"),
		Scope:         frontmatter.Strings(meta, "scope"),
		InterruptMode: frontmatter.String(meta, "interruptMode"),
		Provider:      d.Provider,
		Level:         d.Level,
	}
	if len(r.Globs) == 1 && strings.Contains(r.Globs[0], ",") {
		// Cursor's comma-separated form: globs: *.ts,*.tsx
		r.Globs = nil
		for _, g := range strings.Split(frontmatter.String(meta, "globs"), ",") {
			if g = strings.TrimSpace(g); g != "" {
				r.Globs = append(r.Globs, g)
			}
		}
	}
	if len(r.Condition) == 0 {
		r.Condition = frontmatter.Strings(meta, "ttsr_trigger")
	}
	if len(r.Condition) == 0 {
		r.Condition = frontmatter.Strings(meta, "ttsrTrigger")
	}
	switch r.InterruptMode {
	case "", InterruptAlways, InterruptProseOnly, InterruptToolOnly, InterruptNever:
	default:
		ferr = errors.Join(ferr, fmt.Errorf("interruptMode %q is not one of always, prose-only, tool-only, never; the ttsr.interruptMode setting applies", r.InterruptMode))
		r.InterruptMode = ""
	}
	if ferr != nil {
		// The rule still loads; the caller reports the file.
		r.warning = fmt.Errorf("rule %s: %w", file, ferr)
	}
	return r, nil
}

// Warnings returns the problems found in the rules' files (broken front
// matter, bad interrupt modes, conditions that are not valid regular
// expressions or globs).
func (s *Set) Warnings() []error {
	var out []error
	for _, r := range s.All {
		if r.warning != nil {
			out = append(out, r.warning)
		}
	}
	return out
}

// Get returns a rule rule:// serves (rulebook or always-apply) by name.
func (s *Set) Get(name string) (*Rule, bool) {
	if s == nil {
		return nil, false
	}
	for _, l := range [][]*Rule{s.Rulebook, s.AlwaysApply} {
		for _, r := range l {
			if r.Name == name {
				return r, true
			}
		}
	}
	return nil, false
}

// ErrNotFound is returned for a rule:// URL naming no readable rule.
var ErrNotFound = errors.New("rule not found")

// Read returns the text behind rule://<name> and the rule's file.
func (s *Set) Read(u string) (content, file string, err error) {
	name, ok := strings.CutPrefix(u, Scheme)
	if !ok {
		return "", "", fmt.Errorf("%s is not a rule:// URL", u)
	}
	name = strings.TrimSuffix(name, "/")
	r, ok := s.Get(name)
	if !ok {
		var names []string
		if s != nil {
			for _, l := range [][]*Rule{s.Rulebook, s.AlwaysApply} {
				for _, r := range l {
					names = append(names, r.Name)
				}
			}
		}
		avail := "(none)"
		if len(names) > 0 {
			avail = strings.Join(names, ", ")
		}
		return "", "", fmt.Errorf("unknown rule %q; readable rules: %s: %w", name, avail, ErrNotFound)
	}
	return r.Content, r.Path, nil
}
