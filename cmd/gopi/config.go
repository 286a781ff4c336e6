package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/auth"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/grep/job"
)

// defaultsSuffice lists the commands that work as well on the default
// settings: the engines (and read, which shows a file as the read tool
// does). When the settings cannot be read for lack of permission (gopi
// run as another user, with HOME still pointing at a home it cannot
// enter), they warn and go on, as ripgrep does with a config file it
// cannot read. The other commands (the agent, edit, tool, models, ai,
// acp) depend on the settings for what they do (models, credentials,
// tool behaviour) and keep refusing to run on settings they did not read.
var defaultsSuffice = map[string]bool{"grep": true, "find": true, "ast": true, "read": true, "tokens": true}

// loadConfig builds the configuration once for a command run and hands
// the engines their share: the command's own scan cache (env.scan) with
// the configured policy; everything else is read from env.cfg by the
// command. Warnings
// (a bad .env line, an omp file gopi cannot use) are printed and do not
// stop the command.
func loadConfig(env *cliEnv, cmd string) error {
	loadSettings := config.Load
	if env.loadSettings != nil {
		loadSettings = env.loadSettings
	}
	cfg, err := loadSettings(config.LoadOptions{Environ: env.environ})
	if err != nil && defaultsSuffice[cmd] && errors.Is(err, fs.ErrPermission) {
		// Defaults and the environment only: no settings or .env file
		// is read, so this is the one warning.
		fmt.Fprintf(env.stderr, "gopi %s: warning: the settings could not be read (%s); going on with the defaults (give gopi read access to them, or point HOME elsewhere)\n", cmd, permissionText(err))
		cfg, err = loadSettings(config.LoadOptions{Environ: env.environ, NoFiles: true})
	}
	if err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(env.stderr, "gopi %s: warning: %v\n", cmd, w)
	}
	env.cfg = cfg
	env.scan = fscache.New(cfg.ScanCachePolicy())
	return nil
}

// scanner is env.scan as the engines' options take it: nil (an uncached
// walk without the global excludes file) when no configuration was
// loaded.
func (env *cliEnv) scanner() fscache.Scanner {
	if env.scan == nil {
		return nil
	}
	return env.scan
}

// permissionText is the file a permission error is about and the reason,
// "/root/.gopi/agent/config.json: Permission denied", or the error's own
// text when it names no file.
func permissionText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Path + ": " + job.ErrnoText(pe)
	}
	return err.Error()
}

// modelsOptions points the model registry at the configuration and its
// credential store (agent.db: gopi's, then omp's).
func (env *cliEnv) modelsOptions() models.Options {
	o := models.OptionsFor(env.cfg)
	o.Credentials = env.credentials()
	return o
}

// credentials is the credential store of the configuration.
func (env *cliEnv) credentials() *auth.Store {
	return auth.New(auth.OptionsFor(env.cfg, env.signIns()))
}
