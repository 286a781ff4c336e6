package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/gopi-agent/gopi/internal/atomicfile"
)

// Config is everything configuration gives the rest of gopi: where things
// live, the environment, and the settings.
type Config struct {
	Dirs               // home, working, agent and project directories (embedded: c.AgentDir, c.Cwd, …)
	Env      Env       // process environment plus .env files
	Settings *Settings // layered settings
	Warnings []error   // problems that did not stop loading (bad .env lines, omp files gopi could not use, a failed migration)
	trust    trustState
}

// LoadOptions says where Load looks. The zero value loads the real
// process environment, home and working directory.
type LoadOptions struct {
	Cwd       string         // working directory; os.Getwd() when ""
	Environ   []string       // the process environment as KEY=VALUE; os.Environ() when nil
	Home      string         // home directory; $HOME from Environ, else the system's, when ""
	Overrides map[string]any // runtime overrides by dotted key (CLI flags): the highest layer
	NoFiles   bool           // read no .env or settings file: defaults, environment and overrides only
	// TrustProject trusts the project for this load (the --trust-project
	// flag): what its files ask for takes effect without a question.
	TrustProject bool
	IsLightTheme func(name string) bool // slot for a legacy flat theme name (true: theme.light); nil: theme.dark
}

// Files gopi reads, relative to their directories.
const (
	GlobalSettingsFile  = "config.yml"    // in the agent directory; Set writes it
	ProjectSettingsFile = "settings.json" // in a project's .gopi/ (config.yml there too)
	DotenvFile          = ".env"
)

// Load builds the configuration: the directories (from the process
// environment), then the environment with the .env files, then the
// settings layers. A settings
// file of gopi's own with bad syntax or a bad value is an error naming the
// file, the key and what was expected; problems with omp's files only add
// Warnings (those files belong to another program and may be newer).
func Load(opts LoadOptions) (*Config, error) {
	environ := opts.Environ
	if environ == nil {
		environ = os.Environ()
	}
	base := NewEnv(environ)
	cwd := opts.Cwd
	if cwd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("config: cannot determine the working directory: %w", err)
		}
		cwd = wd
	}
	home := opts.Home
	if home == "" {
		home = homeDir(base.Get)
	}
	// Directories come from the process environment only: a .env file
	// cannot move the directory it was read from.
	c := &Config{Dirs: ResolveDirs(base.Get, home, cwd), Env: base}
	var dotenv []string
	if !opts.NoFiles {
		var warns []error
		dotenv = c.dotenvFiles()
		c.Env, warns = base.withDotenv(dotenv)
		c.Warnings = append(c.Warnings, warns...)
	}

	var layers []Layer
	globalPath := ""
	if !opts.NoFiles {
		var err error
		var ls []Layer
		ls, globalPath, err = c.loadFileLayers(opts.IsLightTheme)
		if err != nil {
			return nil, err
		}
		layers = append(layers, ls...)
	}
	layers = append(layers, Layer{Kind: LayerEnv, Data: envLayer(c.Env)})
	over := Layer{Kind: LayerOverride, Data: map[string]any{}}
	for _, k := range slices.Sorted(maps.Keys(opts.Overrides)) {
		v := normalize(opts.Overrides[k])
		if err := checkKey(k, v); err != nil {
			return nil, fmt.Errorf("config: override %w", err)
		}
		setPath(over.Data, splitKey(k), v)
	}
	layers = append(layers, over)
	s, err := NewSettings(globalPath, layers...)
	if err != nil {
		return nil, err // each error names its file or layer
	}
	s.isLight = opts.IsLightTheme
	c.Settings = s
	c.evaluateTrust(base, dotenv, opts.TrustProject)
	return c, nil
}

// dotenvFiles lists the .env files in load order: the project's, gopi's
// agent and config directories, omp's, then the home directory's.
func (c *Config) dotenvFiles() []string {
	var files []string
	for _, dir := range []string{c.Cwd, c.AgentDir, c.ConfigRoot, c.OMPAgentDir, c.OMPRoot, c.Home} {
		p := filepath.Join(dir, DotenvFile)
		if dir != "" && !slices.Contains(files, p) {
			files = append(files, p)
		}
	}
	return files
}

// loadFileLayers reads the global and project settings files. It returns
// the layers and gopi's global file (the one Set writes).
func (c *Config) loadFileLayers(isLight func(string) bool) ([]Layer, string, error) {
	var layers []Layer
	var errs []error
	read := func(kind LayerKind, src SourceID, path string) {
		data, err := readSettingsFile(path, isLight)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return
		case err != nil && src == SourceGopi:
			errs = append(errs, err)
			return
		case err != nil:
			c.Warnings = append(c.Warnings, fmt.Errorf("ignoring %w", err))
			return
		}
		if src != SourceGopi {
			data = c.dropInvalid(path, data)
		}
		layers = append(layers, Layer{Kind: kind, Source: src, Path: path, Data: data})
	}
	sources := c.Sources()
	omp := sources[1]
	if omp.UserDir != "" {
		read(LayerGlobal, SourceOMP, filepath.Join(omp.UserDir, GlobalSettingsFile))
	}
	readPath, globalPath, err := c.globalSettingsFile(isLight)
	if err != nil {
		errs = append(errs, err)
	} else {
		read(LayerGlobal, SourceGopi, readPath)
	}
	if omp.ProjectName != "" {
		for _, name := range []string{ProjectSettingsFile, GlobalSettingsFile} {
			read(LayerProject, SourceOMP, filepath.Join(c.OMPProjectDir, name))
		}
	}
	for _, name := range []string{ProjectSettingsFile, "settings.jsonc", GlobalSettingsFile, "config.yaml"} {
		read(LayerProject, SourceGopi, filepath.Join(c.ProjectDir, name))
	}
	if len(errs) > 0 {
		return nil, "", errors.Join(errs...) // each names its file
	}
	return layers, globalPath, nil
}

// dropInvalid removes the values of an omp file that do not fit the
// schema, with a warning for each.
func (c *Config) dropInvalid(path string, data map[string]any) map[string]any {
	for _, err := range validate(data) {
		c.Warnings = append(c.Warnings, fmt.Errorf("ignoring %w", &FileError{Path: path, Err: err}))
	}
	var clean func(m map[string]any, prefix string)
	clean = func(m map[string]any, prefix string) {
		for k, v := range m {
			key := prefix + k
			sub, isMap := v.(map[string]any)
			if d, known := index().defs[key]; known && !(isMap && d.Kind != KindRecord && isGroup(key)) {
				if d.Check(v) != nil {
					delete(m, k)
				}
				continue
			}
			if isMap {
				clean(sub, key+".")
			}
		}
	}
	clean(data, "")
	return data
}

// readSettingsFile parses and migrates one settings file. A missing file
// is an error wrapping fs.ErrNotExist.
func readSettingsFile(path string, isLight func(string) bool) (map[string]any, error) {
	f, ok := FormatOf(path)
	if !ok {
		return nil, &FileError{Path: path, Err: errors.New("not a settings file: use .yml, .yaml, .json or .jsonc")}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, &FileError{Path: path, Err: err}
	}
	data, err := ParseSettings(raw, f)
	if err != nil {
		return nil, &FileError{Path: path, Err: fmt.Errorf("%w; fix the file or remove it", err)}
	}
	return migrate(expandDotted(data), isLight), nil
}

// globalSettingsFile returns the file to read gopi's global settings from
// and the one Set writes: config.yml (or config.yaml) in the agent
// directory. When neither exists, a sibling config.json or config.jsonc,
// or else omp's legacy settings.json, is converted into config.yml once;
// settings.json is then renamed to settings.json.bak. When the conversion
// cannot be written (or the old file has bad values, which Load then
// reports), the old file is read this time and the first Set writes its
// values into config.yml.
func (c *Config) globalSettingsFile(isLight func(string) bool) (read, write string, err error) {
	yml := filepath.Join(c.AgentDir, GlobalSettingsFile)
	for _, p := range []string{yml, filepath.Join(c.AgentDir, "config.yaml")} {
		if exists(p) {
			return p, p, nil
		}
	}
	for _, name := range []string{"config.json", "config.jsonc", "settings.json"} {
		old := filepath.Join(c.AgentDir, name)
		data, err := readSettingsFile(old, isLight)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", "", err
		}
		if len(validate(data)) > 0 {
			return old, yml, nil // Load reports the bad values against the old file
		}
		out, err := marshalYAML(data)
		if err == nil {
			err = atomicfile.WriteFile(yml, out, 0o600)
		}
		if err != nil {
			c.Warnings = append(c.Warnings, fmt.Errorf("could not convert %s to %s (it is read as is): %w", old, yml, err))
			return old, yml, nil
		}
		if name == "settings.json" {
			if err := os.Rename(old, old+".bak"); err != nil {
				c.Warnings = append(c.Warnings, fmt.Errorf("converted %s to %s but could not rename it: %w", old, yml, err))
			}
		}
		return yml, yml, nil
	}
	return yml, yml, nil
}
