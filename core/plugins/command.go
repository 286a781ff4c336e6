package plugins

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gopi-agent/gopi/internal/termsafe"
)

// CommandUsage lists the subcommands Run understands (the CLI's
// `gopi plugin …` and the TUI's `/marketplace …` share them).
const CommandUsage = `Marketplaces:
  marketplace add <source>      add a marketplace: owner/repo, a Git URL, a catalog URL or a directory
  marketplace remove <name>     remove a marketplace (installed plugins stay)
  marketplace update [name]     fetch the catalog again (every marketplace without a name)
  marketplace list              the marketplaces added
Plugins:
  discover [marketplace]        the plugins the marketplaces offer
  install [--force] [--scope user|project] name@marketplace
  uninstall [--scope user|project] name@marketplace
  upgrade [--scope user|project] [name@marketplace]
  enable | disable [--scope user|project] name@marketplace
  list                          the installed plugins (also: installed)`

// Invocation is one parsed subcommand.
type Invocation struct {
	Verb  string   // marketplace, discover, install, …
	Args  []string // the words after it, flags removed
	Scope string   // --scope
	Force bool     // --force
	JSON  bool     // --json
}

// ParseInvocation splits args into the subcommand, its words and flags.
func ParseInvocation(args []string) (Invocation, error) {
	var inv Invocation
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--force" || a == "-f":
			inv.Force = true
		case a == "--json":
			inv.JSON = true
		case a == "--scope":
			if i+1 >= len(args) {
				return inv, errors.New("--scope needs a value: user or project")
			}
			i++
			inv.Scope = args[i]
		case strings.HasPrefix(a, "--scope="):
			inv.Scope = strings.TrimPrefix(a, "--scope=")
		case strings.HasPrefix(a, "-") && len(a) > 1:
			return inv, fmt.Errorf("unknown flag %s", a)
		case inv.Verb == "":
			inv.Verb = a
		default:
			inv.Args = append(inv.Args, a)
		}
	}
	if inv.Scope != "" && inv.Scope != ScopeUser && inv.Scope != ScopeProject {
		return inv, fmt.Errorf("unknown scope %q: use user or project", inv.Scope)
	}
	if inv.Verb == "" {
		inv.Verb = "list"
	}
	return inv, nil
}

// ErrUsage marks a subcommand used wrongly; the message says how.
var ErrUsage = errors.New("usage")

// usage returns a usage error.
func usage(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, args...))
}

// Run carries out one subcommand and writes what it did to w. Catalogs
// and registries are written by others, so text output and errors are
// cleaned of terminal control sequences (JSON output escapes them).
func Run(ctx context.Context, m *Manager, src Sources, inv Invocation, w io.Writer) error {
	if !inv.JSON {
		w = safeWriter{w}
	}
	if err := run(ctx, m, src, inv, w); err != nil {
		return safeError{err}
	}
	return nil
}

// safeWriter writes text cleaned for a terminal.
type safeWriter struct{ w io.Writer }

// Write writes p cleaned; it reports p's whole length when the cleaned
// text was written.
func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, termsafe.Text(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// safeError is an error whose message is cleaned for a terminal.
type safeError struct{ err error }

func (e safeError) Error() string { return termsafe.Text(e.err.Error()) }
func (e safeError) Unwrap() error { return e.err }

// run is Run without the cleaning.
func run(ctx context.Context, m *Manager, src Sources, inv Invocation, w io.Writer) error {
	one := func(what string) (ID, error) {
		if len(inv.Args) != 1 {
			return ID{}, usage("%s takes one name@marketplace", what)
		}
		return ParseID(inv.Args[0])
	}
	switch inv.Verb {
	case "marketplace", "marketplaces":
		return runMarketplace(ctx, m, inv, w)
	case "discover", "browse":
		if len(inv.Args) > 1 {
			return usage("discover takes at most one marketplace")
		}
		name := ""
		if len(inv.Args) == 1 {
			name = inv.Args[0]
		}
		list, err := m.Available(name)
		if err != nil {
			return err
		}
		if inv.JSON {
			return writeJSONTo(w, list)
		}
		if len(list) == 0 {
			fmt.Fprintln(w, "No plugins available (add a marketplace: marketplace add <source>)")
		}
		for _, l := range list {
			line := l.ID.String()
			if l.Entry.Version != "" {
				line += " v" + l.Entry.Version
			}
			if src := l.Entry.Source; src.Kind == SourceNPM {
				line += " (npm " + src.Package
				if src.Version != "" {
					line += "@" + src.Version
				}
				line += ")"
			}
			if l.Entry.Description != "" {
				line += "  " + l.Entry.Description
			}
			fmt.Fprintln(w, line)
		}
		return nil
	case "install", "add":
		if len(inv.Args) == 0 {
			return usage("install takes name@marketplace")
		}
		for _, a := range inv.Args {
			id, err := ParseID(a)
			if err != nil {
				return err
			}
			inst, err := m.Install(ctx, id, InstallOptions{Scope: inv.Scope, Force: inv.Force})
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "Installed %s %s (%s scope) in %s\n", id, versionLabel(inst.Version), inst.Scope, inst.InstallPath)
		}
		return nil
	case "uninstall", "remove", "rm":
		id, err := one("uninstall")
		if err != nil {
			return err
		}
		if err := m.Uninstall(id, inv.Scope); err != nil {
			return err
		}
		fmt.Fprintf(w, "Uninstalled %s\n", id)
		return nil
	case "enable", "disable":
		id, err := one(inv.Verb)
		if err != nil {
			return err
		}
		if err := m.SetEnabled(id, inv.Scope, inv.Verb == "enable"); err != nil {
			return err
		}
		fmt.Fprintf(w, "%sd %s (new sessions see the change)\n", strings.ToUpper(inv.Verb[:1])+inv.Verb[1:], id)
		return nil
	case "upgrade", "update":
		var id ID
		if len(inv.Args) > 0 {
			var err error
			if id, err = one("upgrade"); err != nil {
				return err
			}
		}
		done, err := m.Upgrade(ctx, id, inv.Scope)
		for _, d := range done {
			fmt.Fprintf(w, "Upgraded %s\n", d)
		}
		if err == nil && len(done) == 0 {
			fmt.Fprintln(w, "Nothing to upgrade: no plugins are installed, or they are up to date")
		}
		return err
	case "list", "installed", "ls":
		list, errs := List(src)
		if inv.JSON {
			return writeJSONTo(w, list)
		}
		for _, e := range errs {
			fmt.Fprintf(w, "warning: %v\n", e)
		}
		if len(list) == 0 {
			fmt.Fprintln(w, "No plugins installed (discover lists what the marketplaces offer; install name@marketplace installs one)")
		}
		for _, p := range list {
			state := "enabled"
			switch {
			case !p.Install.IsEnabled():
				state = "disabled"
			case p.Shadowed:
				state = "shadowed"
			case !isDir(p.Install.InstallPath):
				state = "missing (its directory is gone: install --force " + p.ID.String() + ")"
			}
			origin := ""
			if p.Origin == OriginOMP {
				origin = ", from omp"
			}
			fmt.Fprintf(w, "%s %s  %s scope, %s%s  %s\n", p.ID, versionLabel(p.Install.Version), p.Install.Scope, state, origin, p.Install.InstallPath)
		}
		return nil
	}
	return usage("unknown subcommand %q\n%s", inv.Verb, CommandUsage)
}

// runMarketplace carries out `marketplace add|remove|update|list`.
func runMarketplace(ctx context.Context, m *Manager, inv Invocation, w io.Writer) error {
	sub, rest := "list", inv.Args
	if len(rest) > 0 {
		sub, rest = rest[0], rest[1:]
	}
	switch sub {
	case "add":
		if len(rest) != 1 {
			return usage("marketplace add takes one source")
		}
		mk, err := m.AddMarketplace(ctx, rest[0])
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "Added marketplace %s (%s: %s)\n", mk.Name, mk.SourceType, mk.SourceURI)
		return nil
	case "remove", "rm":
		if len(rest) != 1 {
			return usage("marketplace remove takes one name")
		}
		if err := m.RemoveMarketplace(rest[0]); err != nil {
			return err
		}
		fmt.Fprintf(w, "Removed marketplace %s\n", rest[0])
		return nil
	case "update":
		done, err := m.UpdateMarketplaces(ctx, rest...)
		for _, mk := range done {
			fmt.Fprintf(w, "Updated marketplace %s\n", mk.Name)
		}
		if err == nil && len(done) == 0 {
			fmt.Fprintln(w, "No marketplaces to update")
		}
		return err
	case "list", "ls":
		list, err := m.Marketplaces()
		if err != nil {
			return err
		}
		if inv.JSON {
			return writeJSONTo(w, list)
		}
		if len(list) == 0 {
			fmt.Fprintln(w, "No marketplaces added (marketplace add <source> adds one)")
		}
		for _, mk := range list {
			fmt.Fprintf(w, "%s  %s: %s\n", mk.Name, mk.SourceType, mk.SourceURI)
		}
		return nil
	}
	return usage("unknown marketplace subcommand %q: use add, remove, update or list", sub)
}

// writeJSONTo prints v as indented JSON.
func writeJSONTo(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}

// versionLabel shows a version as "v1.2.0", or "(no version)".
func versionLabel(v string) string {
	if v == "" || v == "unknown" {
		return "(no version)"
	}
	return "v" + v
}

// isDir reports whether p is a directory.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
