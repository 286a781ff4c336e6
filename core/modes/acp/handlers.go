package acp

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/config"
	store "github.com/gopi-agent/gopi/core/session"
)

// The methods below implement sdk.Agent, sdk.AgentLoader and the unstable
// session/set_model.

var (
	_ sdk.Agent       = (*server)(nil)
	_ sdk.AgentLoader = (*server)(nil)
)

// Initialize records the editor's capabilities and says what gopi offers.
func (s *server) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	s.mu.Lock()
	s.caps = p.ClientCapabilities
	s.mu.Unlock()
	if p.ClientInfo != nil {
		s.logf("editor %s %s (fs read %t, write %t)", p.ClientInfo.Name, p.ClientInfo.Version, p.ClientCapabilities.Fs.ReadTextFile, p.ClientCapabilities.Fs.WriteTextFile)
	}
	version := s.opts.Version
	if version == "" {
		version = "dev"
	}
	return sdk.InitializeResponse{
		ProtocolVersion: sdk.ProtocolVersionNumber,
		AgentInfo:       &sdk.Implementation{Name: "gopi", Title: sdk.Ptr("gopi"), Version: version},
		AgentCapabilities: sdk.AgentCapabilities{
			LoadSession:        true,
			PromptCapabilities: sdk.PromptCapabilities{Image: true, EmbeddedContext: true},
			McpCapabilities:    sdk.McpCapabilities{Http: true, Sse: true},
			SessionCapabilities: sdk.SessionCapabilities{
				List:   &sdk.SessionListCapabilities{},
				Resume: &sdk.SessionResumeCapabilities{},
				Close:  &sdk.SessionCloseCapabilities{},
			},
		},
		AuthMethods: []sdk.AuthMethod{{Agent: &sdk.AuthMethodAgent{
			Id:          AuthMethodAgent,
			Name:        "Agent-managed authentication",
			Description: &agentAuthDescription,
		}}},
	}, nil
}

// AuthMethodAgent is the one authentication method gopi offers an editor,
// the id omp offers too: gopi signs in with what it already has.
const AuthMethodAgent = "agent"

// agentAuthDescription tells the editor where gopi's credentials come from.
var agentAuthDescription = "gopi uses the sign-ins and keys it already has (gopi login, agent.db, auth.json, models.yml, the environment)."

// Authenticate has nothing to do: gopi uses its own credentials (agent.db, auth.json,
// the environment, models.yml); `gopi login` adds them.
func (s *server) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}

// NewSession starts a gopi session in the editor's directory.
func (s *server) NewSession(ctx context.Context, p sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	ss, err := s.openSession(ctx, p.Cwd, "", p.McpServers)
	if err != nil {
		return sdk.NewSessionResponse{}, err
	}
	if !s.add(ss) {
		ss.close()
		return sdk.NewSessionResponse{}, failed(errors.New("the connection is closing"))
	}
	return sdk.NewSessionResponse{SessionId: sdk.SessionId(ss.id), ConfigOptions: ss.configOptions(), Models: ss.modelState()}, nil
}

// LoadSession reopens a stored session and replays its conversation
// before answering, as the protocol requires.
func (s *server) LoadSession(ctx context.Context, p sdk.LoadSessionRequest) (sdk.LoadSessionResponse, error) {
	ss, err := s.reopen(ctx, p.Cwd, string(p.SessionId), p.McpServers)
	if err != nil {
		return sdk.LoadSessionResponse{}, err
	}
	ss.replay()
	return sdk.LoadSessionResponse{ConfigOptions: ss.configOptions(), Models: ss.modelState()}, nil
}

// ResumeSession reopens a stored session without replaying it.
func (s *server) ResumeSession(ctx context.Context, p sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	ss, err := s.reopen(ctx, p.Cwd, string(p.SessionId), p.McpServers)
	if err != nil {
		return sdk.ResumeSessionResponse{}, err
	}
	return sdk.ResumeSessionResponse{ConfigOptions: ss.configOptions(), Models: ss.modelState()}, nil
}

// reopen returns the open session with this id, or opens the stored one.
func (s *server) reopen(ctx context.Context, cwd, id string, mcp []sdk.McpServer) (*session, error) {
	if ss, err := s.lookup(sdk.SessionId(id)); err == nil {
		if filepath.Clean(cwd) != ss.cwd {
			return nil, invalidParams("session %s is open for %s, not %s", id, ss.cwd, cwd)
		}
		if ss.sess.Turn().IsStreaming() {
			return nil, invalidParams("session %s is answering a prompt: cancel it first", id)
		}
		return ss, nil
	}
	if !filepath.IsAbs(cwd) {
		return nil, invalidParams("cwd %q is not an absolute path: the editor must send the project's absolute directory", cwd)
	}
	path, err := s.findStored(filepath.Clean(cwd), id)
	if err != nil {
		return nil, err
	}
	ss, err := s.openSession(ctx, cwd, path, mcp)
	if err != nil {
		return nil, err
	}
	if !s.add(ss) {
		ss.close()
		return nil, failed(errors.New("the session is already open, or the connection is closing"))
	}
	return ss, nil
}

// sessionPage is how many sessions one session/list answer holds.
const sessionPage = 50

// ListSessions lists stored sessions, newest first: the directory's when
// cwd is given, else every project's.
func (s *server) ListSessions(_ context.Context, p sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	cwd := ""
	if p.Cwd != nil {
		cwd = filepath.Clean(*p.Cwd)
	}
	cfg, err := config.Load(config.LoadOptions{Cwd: cwd, Environ: s.opts.Environ})
	if err != nil {
		return sdk.ListSessionsResponse{}, failed(err)
	}
	loc := agentsession.Locations(cfg, s.opts.SessionDir)
	var infos []store.Info
	if cwd != "" {
		infos, err = store.List(loc, cwd)
	} else {
		infos, err = store.ListAll(loc)
	}
	if err != nil {
		return sdk.ListSessionsResponse{}, failed(err)
	}
	from := 0
	if p.Cursor != nil && *p.Cursor != "" {
		if from, err = strconv.Atoi(*p.Cursor); err != nil || from < 0 {
			return sdk.ListSessionsResponse{}, invalidParams("cursor %q is not one gopi gave: pass the nextCursor of the previous answer", *p.Cursor)
		}
	}
	out := sdk.ListSessionsResponse{Sessions: []sdk.SessionInfo{}}
	for i := from; i < len(infos) && i < from+sessionPage; i++ {
		in := infos[i]
		info := sdk.SessionInfo{SessionId: sdk.SessionId(in.ID), Cwd: in.Cwd, UpdatedAt: sdk.Ptr(in.Modified.UTC().Format(time.RFC3339))}
		if t := firstNonEmpty(in.Title, in.FirstMessage); t != "" {
			info.Title = sdk.Ptr(t)
		}
		out.Sessions = append(out.Sessions, info)
	}
	if from+sessionPage < len(infos) {
		out.NextCursor = sdk.Ptr(strconv.Itoa(from + sessionPage))
	}
	return out, nil
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// CloseSession aborts the session's run and closes it.
func (s *server) CloseSession(_ context.Context, p sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	ss, err := s.lookup(p.SessionId)
	if err != nil {
		return sdk.CloseSessionResponse{}, nil // closing is idempotent
	}
	s.remove(ss)
	ss.close()
	return sdk.CloseSessionResponse{}, nil
}

// SetSessionMode fails: gopi has no session modes (the model and the
// thinking level are configuration options).
func (s *server) SetSessionMode(_ context.Context, p sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	return sdk.SetSessionModeResponse{}, invalidParams("gopi has no session modes (mode %q): choose the model and the thinking level with session/set_config_option", p.ModeId)
}

// SetSessionConfigOption sets the model or the thinking level.
func (s *server) SetSessionConfigOption(_ context.Context, p sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	if p.ValueId == nil {
		return sdk.SetSessionConfigOptionResponse{}, invalidParams("gopi has no on/off options: set %q or %q to one of its values", configModel, configThinking)
	}
	ss, err := s.lookup(p.ValueId.SessionId)
	if err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	if err := ss.setOption(string(p.ValueId.ConfigId), string(p.ValueId.Value)); err != nil {
		return sdk.SetSessionConfigOptionResponse{}, err
	}
	return sdk.SetSessionConfigOptionResponse{ConfigOptions: ss.configOptions()}, nil
}

// UnstableSetSessionModel switches the model (the unstable
// session/set_model; the same as the model configuration option).
func (s *server) UnstableSetSessionModel(_ context.Context, p sdk.UnstableSetSessionModelRequest) (sdk.UnstableSetSessionModelResponse, error) {
	ss, err := s.lookup(p.SessionId)
	if err != nil {
		return sdk.UnstableSetSessionModelResponse{}, err
	}
	if err := ss.setOption(configModel, string(p.ModelId)); err != nil {
		return sdk.UnstableSetSessionModelResponse{}, err
	}
	ss.srv.send(ss.id, sdk.SessionUpdate{ConfigOptionUpdate: &sdk.SessionConfigOptionUpdate{ConfigOptions: ss.configOptions()}})
	return sdk.UnstableSetSessionModelResponse{}, nil
}

// Prompt runs one prompt turn (see prompt.go).
func (s *server) Prompt(ctx context.Context, p sdk.PromptRequest) (sdk.PromptResponse, error) {
	ss, err := s.lookup(p.SessionId)
	if err != nil {
		return sdk.PromptResponse{}, err
	}
	s.prompts.started()
	resp, err := ss.prompt(ctx, p.Prompt)
	if err != nil {
		s.prompts.answered()
	}
	return resp, err
}

// Cancel aborts the session's run; its prompt answers "cancelled". (The
// library has already cancelled the prompt request's context.)
func (s *server) Cancel(_ context.Context, p sdk.CancelNotification) error {
	ss, err := s.lookup(p.SessionId)
	if err != nil {
		return nil // nothing to cancel
	}
	ss.cancel()
	return nil
}
