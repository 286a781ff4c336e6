package acp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/launch"
	"github.com/gopi-agent/gopi/core/permission"
	store "github.com/gopi-agent/gopi/core/session"
)

// Session is what the ACP server uses of a gopi session;
// *agentsession.Session, which openSession builds, implements it.
type Session interface {
	// Prompt runs one prompt turn; Abort cancels it (session/cancel).
	Prompt(ctx context.Context, text string, opts agentsession.PromptOptions) error
	Abort()
	// Close ends the session.
	Close() error
	// Messages and LastAssistant describe the conversation.
	Messages() []ai.Message
	LastAssistant() *ai.AssistantMessage
	// Store is the session file; Agent the loop (model, thinking level).
	Store() *store.Manager
	Agent() *agent.Agent
	// Tools connects the editor's files, the offered tools and the
	// permission questions (Tools().Permissions()).
	Tools() *agentsession.Tools
	// Turn and Model are the session's turn gate and model state.
	Turn() *agentsession.Turn
	Model() *agentsession.ModelState
}

// session is one ACP session: a gopi session and what the protocol needs
// around it (tool calls announced, permissions granted, files written).
type session struct {
	srv   *server
	id    string // the ACP session id: gopi's session id
	cwd   string
	sess  Session
	files *fileAccess
	unsub func()

	turn sync.Mutex // one prompt turn at a time

	mu        sync.Mutex
	calls     map[string]*toolCall // tool calls of the current turn by id
	cancelled bool                 // session/cancel arrived during the current turn
	closed    bool
}

// openSession builds a session in cwd: a new one when path is "", else the
// stored session at path.
func (s *server) openSession(ctx context.Context, cwd, path string, mcp []sdk.McpServer) (*session, error) {
	if !filepath.IsAbs(cwd) {
		return nil, invalidParams("cwd %q is not an absolute path: the editor must send the project's absolute directory", cwd)
	}
	cwd = filepath.Clean(cwd)
	ss := &session{srv: s, cwd: cwd, calls: map[string]*toolCall{}}
	req := &launch.Request{
		Cwd:          cwd,
		Environ:      s.opts.Environ,
		TrustProject: s.opts.TrustProject,
		Mode:         launch.ACP,
		SessionDir:   s.opts.SessionDir,
		Thinking:     s.opts.Thinking,
		NoTitle:      s.opts.NoTitle,
		HTTPClient:   s.opts.HTTPClient,
		Logins:       s.opts.Logins,
		// Extensions are the terminal's: their commands and renderers
		// have no place in an editor.
		NoExtensions: true,
		MCPServers:   mcpServers(mcp),
		Report:       func(line string) { s.logf("%s", line) },
	}
	if path != "" {
		// A stored session keeps its own model.
		req.Resume, req.ResumeGiven = path, true
	} else {
		req.Model = s.opts.Model
	}
	cfg, err := launch.LoadConfig(req)
	if err != nil {
		return nil, failed(fmt.Errorf("cannot load the configuration for %s: %w", cwd, err))
	}
	for _, w := range cfg.Warnings {
		s.logf("warning: %v", w)
	}
	if !cfg.ProjectTrusted() {
		s.logUntrusted(cfg)
	}
	req.Permissions = &permission.Options{
		Require: cfg.Settings.RequirePermission(config.PermissionACP),
		Setting: permissionSetting,
		Asker:   editorAsker{ss},
	}
	st, err := launch.Open(ctx, req, cfg, nil)
	var le *launch.Error
	switch {
	case err == nil:
	case errors.As(err, &le) && le.Stage == launch.StageModels:
		return nil, failed(fmt.Errorf("cannot load the models: %w", le.Err))
	case errors.As(err, &le) && le.Stage == launch.StageStore:
		return nil, failed(fmt.Errorf("cannot open the session file %s: %w", path, le.Err))
	case errors.As(err, &le) && le.Stage == launch.StageModel:
		return nil, invalidParams("%v", le.Err)
	case errors.Is(err, store.ErrInUse):
		return nil, failed(fmt.Errorf("%w (close it there first)", err))
	default:
		return nil, failed(err)
	}
	as := st.Session
	if msg := as.Model().FallbackMessage(); msg != "" {
		s.logf("%s", msg)
	}
	ss.sess = as
	ss.id = as.Store().SessionID()
	caps := s.clientCaps()
	ss.files = &fileAccess{srv: s, sessionID: ss.id, editorRead: caps.Fs.ReadTextFile, editorWrite: caps.Fs.WriteTextFile, writes: map[string]fileChange{}}
	as.Tools().Env().Files = ss.files
	ss.unsub = as.Subscribe(ss.onEvent)
	return ss, nil
}

// mcpServers converts the MCP servers the editor passes: their env and
// header values are used as written.
func mcpServers(in []sdk.McpServer) []*config.MCPServer {
	var out []*config.MCPServer
	pairs := func(h []sdk.HttpHeader) map[string]string {
		m := make(map[string]string, len(h))
		for _, x := range h {
			m[x.Name] = x.Value
		}
		return m
	}
	for _, m := range in {
		c := &config.MCPServer{Source: "the editor (ACP)", Literal: true}
		switch {
		case m.Stdio != nil:
			c.Name, c.Type, c.Command, c.Args = m.Stdio.Name, config.MCPStdio, m.Stdio.Command, m.Stdio.Args
			c.Env = make(map[string]string, len(m.Stdio.Env))
			for _, e := range m.Stdio.Env {
				c.Env[e.Name] = e.Value
			}
		case m.Http != nil:
			c.Name, c.Type, c.URL, c.Headers = m.Http.Name, config.MCPHTTP, m.Http.Url, pairs(m.Http.Headers)
		case m.Sse != nil:
			c.Name, c.Type, c.URL, c.Headers = m.Sse.Name, config.MCPSSE, m.Sse.Url, pairs(m.Sse.Headers)
		default:
			continue
		}
		out = append(out, c)
	}
	return out
}

// close aborts any run and closes the gopi session.
func (ss *session) close() {
	ss.mu.Lock()
	if ss.closed {
		ss.mu.Unlock()
		return
	}
	ss.closed = true
	ss.mu.Unlock()
	ss.unsub()
	if err := ss.sess.Close(); err != nil {
		ss.srv.logf("session %s: %v", ss.id, err)
	}
}

// findStored returns the file of the stored session with this exact id:
// the working directory's sessions first, then every project's.
func (s *server) findStored(cwd, id string) (string, error) {
	cfg, err := config.Load(config.LoadOptions{Cwd: cwd, Environ: s.opts.Environ})
	if err != nil {
		return "", failed(fmt.Errorf("cannot load the configuration for %s: %w", cwd, err))
	}
	loc := agentsession.Locations(cfg, s.opts.SessionDir)
	for _, list := range []func() ([]store.Info, error){
		func() ([]store.Info, error) { return store.List(loc, cwd) },
		func() ([]store.Info, error) { return store.ListAll(loc) },
	} {
		infos, _ := list()
		for _, in := range infos {
			if strings.EqualFold(in.ID, id) {
				return in.Path, nil
			}
		}
	}
	return "", notFound("no stored gopi session has id %q (a session is saved once the model has answered in it; session/list shows the stored ones)", id)
}

// logUntrusted says in the log what an untrusted project asked for and
// was left out, and how to trust it. ACP does not ask: the protocol's
// permission requests belong to a tool call of a running session, and the
// project's MCP servers start while the session is created.
func (s *server) logUntrusted(cfg *config.Config) {
	pt := cfg.ProjectTrust()
	var items []string
	for _, it := range pt.Items {
		items = append(items, it.String())
	}
	s.logf("the project %s is not trusted, so its sessions run without: %s. To trust it, start gopi acp with --trust-project or PI_TRUST_PROJECT=1, list it under %s in %s, or answer yes once in gopi's interactive mode there",
		pt.Path, strings.Join(items, "; "), config.KeyTrustedProjects, filepath.Join(cfg.AgentDir, config.GlobalSettingsFile))
}
