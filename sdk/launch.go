package sdk

import (
	"context"

	"github.com/gopi-agent/gopi/core/launch"
)

// LaunchOptions describe a session the way the gopi command line does —
// a model by name (with ":LEVEL" for thinking), --continue, --resume,
// --fork, --session-dir, --no-session, the tools, extensions — without
// building configuration, models and store by hand. Report receives the
// problems the command would print as warnings.
type LaunchOptions = launch.Request

// Launch starts the session LaunchOptions describe through the same path
// as the gopi command: the configuration of opts.Cwd (role models and
// project trust included), the model registry, the extensions and custom
// tools (unless NoExtensions), the stored session to continue, then the
// runtime. Use New instead to supply the configuration, models or store
// yourself. A nil opts is the zero value: a new session in the process's
// directory with the configured model.
func Launch(ctx context.Context, opts *LaunchOptions) (*Session, error) {
	if opts == nil {
		opts = &LaunchOptions{}
	}
	if err := opts.Check(); err != nil {
		return nil, err
	}
	cfg, err := launch.LoadConfig(opts)
	if err != nil {
		return nil, err
	}
	if opts.Report != nil {
		for _, w := range cfg.Warnings {
			opts.Report("warning: " + w.Error())
		}
	}
	st, err := launch.Open(ctx, opts, cfg, nil)
	if err != nil {
		return nil, err
	}
	return &Session{rt: st.Session}, nil
}
