package main

import (
	"fmt"

	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/fscache"
)

// loadConfig builds the configuration once for a command run and hands
// the engines their share: the scan cache policy goes to the process-wide
// cache; everything else is read from env.cfg by the command. Warnings
// (a bad .env line, an omp file gopi cannot use) are printed and do not
// stop the command.
func loadConfig(env *cliEnv, cmd string) error {
	cfg, err := config.Load(config.LoadOptions{Environ: env.environ})
	if err != nil {
		return err
	}
	for _, w := range cfg.Warnings {
		fmt.Fprintf(env.stderr, "gopi %s: warning: %v\n", cmd, w)
	}
	env.cfg = cfg
	fscache.SetDefaultPolicy(cfg.ScanCachePolicy())
	return nil
}

// modelsOptions points the model registry at the configuration.
func modelsOptions(cfg *config.Config) models.Options { return models.OptionsFor(cfg) }
