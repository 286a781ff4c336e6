package main

import (
	"os"
	"strings"
	"testing"

	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/modes/rpc"
	"github.com/gopi-agent/gopi/core/modes/tui"
	"github.com/gopi-agent/gopi/internal/cliflags"
	"github.com/gopi-agent/gopi/internal/docgen"
	"github.com/spf13/pflag"
)

// regenerate is the command that rewrites the generated tables in docs/.
const regenerate = "make docs (or: GOPI_UPDATE_DOCS=1 go test ./cmd/gopi -run '^TestDocsUpToDate$')"

// docCommands returns every command's flags as its help lists them, from
// the flag sets the commands parse with.
func docCommands() []docgen.Command {
	var out []docgen.Command
	for _, c := range allFlagSets() {
		if c.Flags == nil {
			continue // the ast group
		}
		dc := docgen.Command{Path: strings.Join(c.Path, " ")}
		c.Flags.VisitAll(func(f *pflag.Flag) {
			value, usage := cliflags.Usage(f)
			if c.Path == nil { // the agent's help has its own renderer, cliflags.Table
				value, usage = valueNames[f.Name], f.Usage
				if value == "" && f.Value.Type() != "bool" {
					value = "VALUE"
				}
				if f.DefValue != "" && f.Value.Type() == "string" {
					usage += " (default " + f.DefValue + ")"
				}
			}
			dc.Flags = append(dc.Flags, docgen.Flag{Short: f.Shorthand, Long: f.Name, Value: value, Usage: usage})
		})
		out = append(out, dc)
	}
	return out
}

// TestDocsUpToDate fails while a generated table in docs/ (flags,
// settings, slash commands, key bindings, RPC commands) differs from the
// code; GOPI_UPDATE_DOCS=1 rewrites the tables instead.
func TestDocsUpToDate(t *testing.T) {
	write := os.Getenv("GOPI_UPDATE_DOCS") == "1"
	stale, err := docgen.Sync("../../docs", docgen.Sections(docCommands()), write)
	if err != nil {
		t.Fatal(err)
	}
	if len(stale) > 0 && !write {
		t.Fatalf("docs/%s out of date with the code; regenerate with: %s", strings.Join(stale, ", docs/"), regenerate)
	}
}

// Each RPC command is described by hand in docs/rpc.md, beside the
// generated list of names.
func TestDocsDescribeEveryRPCCommand(t *testing.T) {
	b, err := os.ReadFile("../../docs/rpc.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	if i := strings.Index(text, docgen.Begin("rpc-commands")); i >= 0 {
		text = text[:i] + text[strings.Index(text, docgen.End("rpc-commands")):]
	}
	for _, name := range rpc.CommandNames() {
		if !strings.Contains(text, "`"+name+"`") && !strings.Contains(text, "`"+name+" {") {
			t.Errorf("docs/rpc.md does not describe the RPC command %s outside its generated list", name)
		}
	}
}

// README's provider table names every provider the registry knows, so a
// provider added to the catalogue cannot go undocumented.
func TestReadmeNamesEveryProvider(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	reg, err := models.Load(models.Options{NoFiles: true, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range reg.Providers() {
		if !strings.Contains(string(b), "`"+p.Name+"`") {
			t.Errorf("README.md's provider table does not name %s", p.Name)
		}
	}
}

// README's slash-command table names every built-in command of the
// interactive mode.
func TestReadmeNamesEverySlashCommand(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range tui.CommandDocs() {
		if !strings.Contains(string(b), "`/"+c.Name+"`") {
			t.Errorf("README.md's slash-command table does not name /%s", c.Name)
		}
	}
}
