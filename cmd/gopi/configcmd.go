package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/internal/childproc"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

func init() {
	commands["config"] = command{"show and change settings: list, get KEY, set KEY VALUE, reset KEY, path, edit", runConfigCmd}
	commandFlagSets["config"] = func() *pflag.FlagSet { return newConfigFlagSet(&configCLI{}) }
}

// configCLI holds the flags of `gopi config`.
type configCLI struct {
	json, help bool
}

// newConfigFlagSet declares gopi config's flags on c.
func newConfigFlagSet(c *configCLI) *pflag.FlagSet {
	fs := pflag.NewFlagSet("config", pflag.ContinueOnError)
	fs.SortFlags = false
	fs.BoolVar(&c.json, "json", false, "print JSON instead of text")
	fs.BoolVarP(&c.help, "help", "h", false, "show this help")
	return fs
}

const configHelp = `Usage: gopi config [ACTION] [KEY] [VALUE...] [--json]

Show and change the settings of gopi's settings schema (the keys omp 14.9.9
defines). Changes go to the global settings file, config.yml in the agent
directory; project settings (.gopi/settings.*) and environment variables
still win over it. The value of set is checked against the setting's type.

Actions:
  list               every setting with its value and type (the default)
  get KEY            one setting's value
  set KEY VALUE      store a value: true/false (yes/no, on/off, 1/0) for a
                     boolean, a number, one of the listed values of an
                     enum, JSON for an array or a record, text otherwise
  reset KEY          remove the key from config.yml: the default applies
  path               print the agent directory (where config.yml lives)
  edit               open config.yml in $VISUAL or $EDITOR

Examples:
  gopi config get defaultThinkingLevel
  gopi config set compaction.enabled false
  gopi config set defaultThinkingLevel medium
  gopi config list --json
  gopi config set temperature -- -1   (a value starting with "-" after --)

Flags:
`

// configActions are the actions of gopi config, in help order.
var configActions = []string{"list", "get", "set", "reset", "path", "edit"}

// runConfigCmd implements `gopi config`.
func runConfigCmd(ctx context.Context, env *cliEnv, args []string) int {
	var c configCLI
	fs := newConfigFlagSet(&c)
	if err := cliflags.Parse(fs, args); err != nil {
		return fail(env, "config", err)
	}
	if c.help {
		fmt.Fprint(env.stdout, configHelp+cliflags.Help(fs))
		return exitMatch
	}
	action, words := subAction(fs.Args(), "list")
	var err error
	switch action {
	case "list":
		err = configList(env, c.json)
	case "get", "set", "reset":
		err = configKeyAction(env, action, words, c.json)
	case "path":
		fmt.Fprintln(env.stdout, env.cfg.AgentDir)
	case "edit":
		err = configEdit(ctx, env)
	case "init-xdg":
		err = errors.New("gopi keeps its files in the agent directory (gopi config path) and does not use XDG directories; nothing to initialise")
	default:
		err = cliflags.Usagef("unknown config action %q; use one of %s", action, strings.Join(configActions, ", "))
	}
	if err != nil {
		return fail(env, "config", err)
	}
	return exitMatch
}

// configList prints every known setting: grouped by its first key
// segment as text, or one JSON object keyed by setting.
func configList(env *cliEnv, asJSON bool) error {
	defs := config.Defs()
	if asJSON {
		out := make(map[string]any, len(defs))
		for _, d := range defs {
			v, _ := env.cfg.Settings.Get(d.Key)
			out[d.Key] = map[string]any{"value": v, "type": d.Kind.Name()}
		}
		return writeJSON(env.stdout, out)
	}
	// Grouped by the key's first segment, groups in the order the schema
	// first names them, the one-word keys first as "general".
	groups := map[string][]config.Def{}
	order := []string{"general"}
	for _, d := range defs {
		g := "general"
		if i := strings.IndexByte(d.Key, '.'); i > 0 {
			g = d.Key[:i]
		}
		if _, seen := groups[g]; !seen && g != "general" {
			order = append(order, g)
		}
		groups[g] = append(groups[g], d)
	}
	fmt.Fprintln(env.stdout, "Settings:")
	for _, g := range order {
		fmt.Fprintf(env.stdout, "\n[%s]\n", g)
		for _, d := range groups[g] {
			v, _ := env.cfg.Settings.Get(d.Key)
			fmt.Fprintf(env.stdout, "  %s = %s %s\n", d.Key, settingText(v), d.TypeHint())
		}
	}
	return nil
}

// configKeyAction runs get, set or reset on one key of the schema.
func configKeyAction(env *cliEnv, action string, words []string, asJSON bool) error {
	if len(words) == 0 || (action == "set" && len(words) < 2) {
		usage := "gopi config " + action + " KEY"
		if action == "set" {
			usage += " VALUE"
		}
		return cliflags.Usagef("usage: %s ('gopi config list' shows the keys)", usage)
	}
	key := words[0]
	def, ok := config.Lookup(key)
	if !ok {
		return fmt.Errorf("unknown setting %q; 'gopi config list' shows the keys", key)
	}
	switch action {
	case "get":
		v, _ := env.cfg.Settings.Get(key)
		if asJSON {
			return writeJSON(env.stdout, map[string]any{"key": key, "value": v, "type": def.Kind.Name()})
		}
		fmt.Fprintln(env.stdout, settingText(v))
		return nil
	case "set":
		if len(words) > 2 && def.Kind != config.KindString {
			return cliflags.Usagef("%s takes one value; quote it when it has spaces", key)
		}
		v, err := def.ParseValue(strings.Join(words[1:], " "))
		if err != nil {
			return err
		}
		if err := env.cfg.Settings.Set(key, v); err != nil {
			return err
		}
	case "reset":
		if len(words) > 1 {
			return cliflags.Usagef("reset takes one KEY")
		}
		if err := env.cfg.Settings.Set(key, nil); err != nil {
			return err
		}
	}
	v, _ := env.cfg.Settings.Get(key)
	if asJSON {
		return writeJSON(env.stdout, map[string]any{"key": key, "value": v})
	}
	verb := "Set"
	if action == "reset" {
		verb = "Reset"
	}
	fmt.Fprintf(env.stdout, "%s %s = %s\n", verb, key, settingText(v))
	return nil
}

// configEdit opens the global settings file in the user's editor, then
// reads it again and reports values the schema rejects.
func configEdit(ctx context.Context, env *cliEnv) error {
	path := env.cfg.Settings.GlobalPath()
	if path == "" {
		return errors.New("no settings file to edit: the settings are in memory only")
	}
	if err := os.MkdirAll(env.cfg.AgentDir, 0o700); err != nil {
		return err
	}
	editor := env.cfg.EditorCommand()
	// The editor line may carry arguments ("code -w"); the shell splits it.
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", editor+` "$1"`, "gopi-config-edit", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, env.stdout, env.stderr
	if f, ok := env.stdin.(*os.File); ok {
		cmd.Stdin = f
	}
	childproc.PrepareForeground(cmd)
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("editor %q on %s: %w (set VISUAL or EDITOR to the editor to use)", editor, path, err)
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if errs := config.CheckSettingsFile(data); len(errs) > 0 {
		for _, e := range errs {
			fmt.Fprintf(env.stderr, "gopi config: %s: %v\n", path, e)
		}
		return fmt.Errorf("%s has %d invalid value(s); run 'gopi config edit' again to fix them", path, len(errs))
	}
	return nil
}

// settingText renders a setting's value for the terminal: "(not set)" for
// nil, JSON for lists and maps, the value itself otherwise.
func settingText(v any) string {
	switch x := v.(type) {
	case nil:
		return "(not set)"
	case string:
		return x
	case []any, map[string]any:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
	return fmt.Sprint(v)
}

// writeJSON prints v as indented JSON.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
