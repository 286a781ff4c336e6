package rpc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/tool"
)

// command handles one command frame: line is the whole frame; the result
// is the response's data (nil for none, nullData{} for null) or an error
// for a failure response.
type command func(ctx context.Context, srv *server, id json.RawMessage, line []byte) (any, error)

// promptFields are the fields of prompt, steer, follow_up and
// abort_and_prompt.
type promptFields struct {
	Message           *string            `json:"message"`
	Images            []*ai.ImageContent `json:"images"`
	StreamingBehavior string             `json:"streamingBehavior"`
}

func (p *promptFields) check() error {
	if p.Message == nil {
		return errors.New(`"message" (a string, "" for images alone) is required`)
	}
	for i, im := range p.Images {
		if im == nil || im.Data == "" || im.MIMEType == "" {
			return fmt.Errorf("images[%d]: an image needs data (base64) and mimeType", i)
		}
	}
	switch p.StreamingBehavior {
	case "", "steer", "followUp":
		return nil
	}
	return fmt.Errorf(`unknown streamingBehavior %q: use "steer" or "followUp"`, p.StreamingBehavior)
}

var commands map[string]command

func init() {
	commands = map[string]command{
		// Prompting
		"prompt":           withArgs(cmdPrompt),
		"steer":            withArgs(cmdSteer),
		"follow_up":        withArgs(cmdFollowUp),
		"abort":            cmdAbort,
		"abort_and_prompt": withArgs(cmdAbortAndPrompt),
		"new_session":      withArgs(cmdNewSession),
		// State
		"get_state":            cmdGetState,
		"set_todos":            withArgs(cmdSetTodos),
		"set_host_tools":       withArgs(cmdSetHostTools),
		"set_host_uri_schemes": withArgs(cmdSetHostURISchemes),
		// Model and thinking
		"set_model":            withArgs(cmdSetModel),
		"cycle_model":          cmdCycleModel,
		"get_available_models": cmdAvailableModels,
		"set_thinking_level":   withArgs(cmdSetThinkingLevel),
		"cycle_thinking_level": cmdCycleThinkingLevel,
		// Queue modes
		"set_steering_mode":  cmdSetQueueMode(func(s Session, m agent.QueueMode) { s.Agent().SetModes(agent.Modes{Steering: m}) }),
		"set_follow_up_mode": cmdSetQueueMode(func(s Session, m agent.QueueMode) { s.Agent().SetModes(agent.Modes{FollowUp: m}) }),
		"set_interrupt_mode": withArgs(cmdSetInterruptMode),
		// Compaction and retry
		"compact":             withArgs(cmdCompact),
		"set_auto_compaction": withArgs(cmdSetAutoCompaction),
		"set_auto_retry":      withArgs(cmdSetAutoRetry),
		"abort_retry":         cmdAbortRetry,
		"handoff":             withArgs(cmdHandoff),
		// Bash
		"bash":       withArgs(cmdBash),
		"abort_bash": cmdAbortBash,
		// Session
		"get_session_stats":       cmdSessionStats,
		"export_html":             withArgs(cmdExportHTML),
		"switch_session":          withArgs(cmdSwitchSession),
		"branch":                  withArgs(cmdBranch),
		"get_branch_messages":     cmdBranchMessages,
		"get_last_assistant_text": cmdLastAssistantText,
		"set_session_name":        withArgs(cmdSetSessionName),
		"get_messages":            cmdGetMessages,
		// Session tree (gopi's additions, see tree.go)
		"get_tree":      withArgs(cmdGetTree),
		"navigate_tree": withArgs(cmdNavigateTree),
		"set_label":     withArgs(cmdSetLabel),
		// MCP servers (gopi's addition): what /mcp shows.
		"get_mcp_servers": func(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
			return srv.s.Resources().MCPStatus(), nil
		},
		// Login
		"get_login_providers": cmdGetLoginProviders,
		"login":               withArgs(cmdLogin),
	}
}

// runPrompt runs a prompt in the background; a failure after the
// acknowledgement is reported with the command's id. It returns once the
// prompt is queued, its run has begun, or it has failed, so that the
// commands after it see it in the order the host sent them: a second
// prompt right behind the first finds the first one streaming (and a
// prompt never runs inside the command loop, where the host's answers to
// its host tool calls could not be read).
func (srv *server) runPrompt(ctx context.Context, id json.RawMessage, command string, p promptFields) {
	started := make(chan struct{})
	srv.mu.Lock()
	srv.starting = started
	srv.mu.Unlock()
	done := make(chan struct{})
	srv.prompts.Add(1)
	go func() {
		defer srv.prompts.Done()
		defer close(done)
		err := srv.s.Prompt(ctx, *p.Message, agentsession.PromptOptions{Images: p.Images, StreamingBehavior: agentsession.Delivery(p.StreamingBehavior)})
		if err != nil && ctx.Err() == nil {
			srv.out.send(fail(id, command, err.Error()))
		}
	}()
	select {
	case <-started:
	case <-done:
	case <-ctx.Done():
	}
	srv.mu.Lock()
	if srv.starting == started {
		srv.starting = nil
	}
	srv.mu.Unlock()
}

func cmdPrompt(ctx context.Context, srv *server, id json.RawMessage, p *promptFields) (any, error) {
	if c, args, ok := srv.command(*p.Message); ok {
		// An extension's command runs here; the answer says how it went.
		return nil, c.Run(ctx, args)
	}
	if p.StreamingBehavior == "" && srv.s.Turn().IsStreaming() {
		return nil, agent.ErrBusy
	}
	// Acknowledge first, then queue or run: the events follow the
	// response. (A run that ends between the check and the prompt makes
	// a steer or follow-up start a run of its own.)
	srv.out.send(ok(id, "prompt", nil))
	srv.runPrompt(ctx, id, "prompt", *p)
	return skipResponse, nil
}

func cmdSteer(_ context.Context, srv *server, _ json.RawMessage, p *promptFields) (any, error) {
	srv.s.Turn().Steer(*p.Message, p.Images...)
	return nil, nil
}

func cmdFollowUp(_ context.Context, srv *server, _ json.RawMessage, p *promptFields) (any, error) {
	srv.s.Turn().FollowUp(*p.Message, p.Images...)
	return nil, nil
}

// abortAndWait aborts the run and waits (bounded) until it has ended.
func (srv *server) abortAndWait() {
	srv.s.Abort()
	ctx, cancel := context.WithTimeout(context.Background(), srv.opts.StopGrace)
	defer cancel()
	_ = srv.s.Turn().WaitIdle(ctx)
}

func cmdAbort(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	srv.abortAndWait()
	return nil, nil
}

func cmdAbortAndPrompt(ctx context.Context, srv *server, id json.RawMessage, p *promptFields) (any, error) {
	srv.abortAndWait()
	p.StreamingBehavior = ""
	srv.out.send(ok(id, "abort_and_prompt", nil))
	srv.runPrompt(ctx, id, "abort_and_prompt", *p)
	return skipResponse, nil
}

// newSessionArgs are the fields of a new_session frame.
type newSessionArgs struct {
	ParentSession string `json:"parentSession"`
}

func cmdNewSession(ctx context.Context, srv *server, _ json.RawMessage, f *newSessionArgs) (any, error) {
	// As omp does, a new session ends the run in progress.
	srv.abortAndWait()
	cancelled, err := srv.s.Tree().New(ctx, f.ParentSession)
	if err != nil {
		return nil, err
	}
	return map[string]bool{"cancelled": cancelled}, nil
}

func cmdGetState(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	return srv.s.State(), nil
}

// setTodosArgs are the fields of a set_todos frame.
type setTodosArgs struct {
	Phases []agentsession.TodoPhase `json:"phases"`
}

func cmdSetTodos(_ context.Context, srv *server, _ json.RawMessage, f *setTodosArgs) (any, error) {
	phases, err := srv.s.Tools().SetTodoPhases(f.Phases)
	if err != nil {
		return nil, err
	}
	return map[string]any{"todoPhases": phases}, nil
}

// hostToolDef is one tool of set_host_tools.
type hostToolDef struct {
	Name        string          `json:"name"`
	Label       string          `json:"label"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Concurrency string          `json:"concurrency"`
	ReadOnly    bool            `json:"readOnly"` // gopi's: the tool changes nothing (permission gates pass it)
}

// setHostToolsArgs are the fields of a set_host_tools frame.
type setHostToolsArgs struct {
	Tools []hostToolDef `json:"tools"`
}

func cmdSetHostTools(_ context.Context, srv *server, _ json.RawMessage, f *setHostToolsArgs) (any, error) {
	tools := make([]tool.Tool, 0, len(f.Tools))
	names := make([]string, 0, len(f.Tools))
	for i, d := range f.Tools {
		t, err := srv.host.newTool(d)
		if err != nil {
			return nil, fmt.Errorf("tools[%d]: %w", i, err)
		}
		tools = append(tools, t)
		names = append(names, d.Name)
	}
	if err := srv.s.Tools().SetExtra(tools); err != nil {
		return nil, err
	}
	return map[string]any{"toolNames": names}, nil
}

// setHostURISchemesArgs are the fields of a set_host_uri_schemes frame.
type setHostURISchemesArgs struct {
	Schemes []tool.HostURIScheme `json:"schemes"`
}

func cmdSetHostURISchemes(_ context.Context, srv *server, _ json.RawMessage, f *setHostURISchemesArgs) (any, error) {
	names := make([]string, 0, len(f.Schemes))
	for i, s := range f.Schemes {
		s.Scheme = strings.ToLower(strings.TrimSuffix(strings.TrimSpace(s.Scheme), "://"))
		if s.Scheme == "" || strings.ContainsAny(s.Scheme, "/: ") {
			return nil, fmt.Errorf("schemes[%d]: %q is not a URL scheme", i, f.Schemes[i].Scheme)
		}
		if s.Scheme == "file" || s.Scheme == "artifact" {
			return nil, fmt.Errorf("schemes[%d]: %s:// is gopi's own and cannot be taken over", i, s.Scheme)
		}
		f.Schemes[i] = s
		names = append(names, s.Scheme)
	}
	srv.s.Tools().Env().SetHostURIs(srv.host, f.Schemes)
	return map[string]any{"schemes": names}, nil
}

// setModelArgs are the fields of a set_model frame.
type setModelArgs struct {
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
}

func cmdSetModel(_ context.Context, srv *server, _ json.RawMessage, f *setModelArgs) (any, error) {
	m, err := srv.s.Model().Find(f.Provider, f.ModelID)
	if err != nil {
		return nil, err
	}
	if err := srv.s.Model().Set(m); err != nil {
		return nil, err
	}
	return m, nil
}

func cmdCycleModel(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	m, err := srv.s.Model().Cycle()
	if err != nil {
		return nil, err
	}
	if m == nil {
		return nullData{}, nil
	}
	return map[string]any{"model": m, "thinkingLevel": srv.s.Agent().Thinking(), "isScoped": false}, nil
}

func cmdAvailableModels(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	list := srv.s.Model().Available()
	if list == nil {
		list = []*ai.Model{}
	}
	return map[string]any{"models": list}, nil
}

// setThinkingLevelArgs are the fields of a set_thinking_level frame.
type setThinkingLevelArgs struct {
	Level string `json:"level"`
}

func cmdSetThinkingLevel(_ context.Context, srv *server, _ json.RawMessage, f *setThinkingLevelArgs) (any, error) {
	return nil, srv.s.Model().SetThinking(ai.ThinkingLevel(f.Level))
}

func cmdCycleThinkingLevel(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	l, err := srv.s.Model().CycleThinking()
	if err != nil {
		return nil, err
	}
	if l == "" {
		return nullData{}, nil
	}
	return map[string]any{"level": l}, nil
}

func cmdSetQueueMode(set func(Session, agent.QueueMode)) command {
	return withArgs(func(_ context.Context, srv *server, _ json.RawMessage, f *modeArgs) (any, error) {
		m, err := agent.ParseQueueMode(f.Mode)
		if err != nil || f.Mode == "" {
			return nil, fmt.Errorf(`unknown mode %q: use "one-at-a-time" or "all"`, f.Mode)
		}
		set(srv.s, m)
		return nil, nil
	})
}

// modeArgs are the fields of set_steering_mode, set_follow_up_mode and
// set_interrupt_mode.
type modeArgs struct {
	Mode string `json:"mode"`
}

func cmdSetInterruptMode(_ context.Context, srv *server, _ json.RawMessage, f *modeArgs) (any, error) {
	m, err := agent.ParseInterruptMode(f.Mode)
	if err != nil || f.Mode == "" {
		return nil, fmt.Errorf(`unknown mode %q: use "immediate" or "wait"`, f.Mode)
	}
	srv.s.Agent().SetModes(agent.Modes{Interrupt: m})
	return nil, nil
}

type enabledField struct {
	Enabled *bool `json:"enabled"`
}

func (f *enabledField) check() error {
	if f.Enabled == nil {
		return errors.New(`"enabled" (true or false) is required`)
	}
	return nil
}

func cmdSetAutoCompaction(_ context.Context, srv *server, _ json.RawMessage, f *enabledField) (any, error) {
	srv.s.Compactor().SetAuto(*f.Enabled)
	return nil, nil
}

func cmdSetAutoRetry(_ context.Context, srv *server, _ json.RawMessage, f *enabledField) (any, error) {
	srv.s.Turn().SetAutoRetry(*f.Enabled)
	return nil, nil
}

func cmdAbortRetry(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	srv.s.Turn().AbortRetry()
	return nil, nil
}

func cmdSessionStats(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	return srv.s.Stats(), nil
}

// switchSessionArgs are the fields of a switch_session frame.
type switchSessionArgs struct {
	SessionPath string `json:"sessionPath"`
}

func cmdSwitchSession(ctx context.Context, srv *server, _ json.RawMessage, f *switchSessionArgs) (any, error) {
	if f.SessionPath == "" {
		return nil, errors.New(`"sessionPath" is required`)
	}
	// As omp does, switching ends the run in progress.
	srv.abortAndWait()
	cancelled, err := srv.s.Tree().Switch(ctx, f.SessionPath)
	if err != nil {
		return nil, err
	}
	return map[string]bool{"cancelled": cancelled}, nil
}

// errBranchBusy is branch's failure while a run is in progress (the
// session's own busy error talks about prompts).
var errBranchBusy = errors.New("cannot branch while the agent is working: wait for agent_end, or send abort first")

// branchArgs are the fields of a branch frame.
type branchArgs struct {
	EntryID string `json:"entryId"`
}

func cmdBranch(ctx context.Context, srv *server, _ json.RawMessage, f *branchArgs) (any, error) {
	if f.EntryID == "" {
		return nil, errors.New(`"entryId" is required (get_branch_messages lists the user messages to branch from)`)
	}
	if srv.s.Turn().IsStreaming() {
		return nil, errBranchBusy
	}
	res, err := srv.s.Tree().Branch(ctx, f.EntryID)
	if errors.Is(err, agentsession.ErrWorking) {
		return nil, errBranchBusy
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

func cmdBranchMessages(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	points := srv.s.Tree().BranchPoints()
	if points == nil {
		points = []agentsession.BranchPoint{}
	}
	return map[string]any{"messages": points}, nil
}

func cmdLastAssistantText(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	return map[string]string{"text": srv.s.LastAssistantText()}, nil
}

// setSessionNameArgs are the fields of a set_session_name frame.
type setSessionNameArgs struct {
	Name string `json:"name"`
}

func cmdSetSessionName(_ context.Context, srv *server, _ json.RawMessage, f *setSessionNameArgs) (any, error) {
	return nil, srv.s.Tree().SetName(strings.TrimSpace(f.Name))
}

// exportHTMLArgs are the fields of an export_html frame.
type exportHTMLArgs struct {
	OutputPath string `json:"outputPath"`
}

func cmdExportHTML(_ context.Context, srv *server, _ json.RawMessage, f *exportHTMLArgs) (any, error) {
	path, err := srv.s.ExportHTML(f.OutputPath)
	if err != nil {
		return nil, err
	}
	return map[string]any{"path": path}, nil
}

func cmdGetMessages(_ context.Context, srv *server, _ json.RawMessage, _ []byte) (any, error) {
	msgs := srv.s.Messages()
	if msgs == nil {
		msgs = []ai.Message{}
	}
	return map[string]any{"messages": msgs}, nil
}

// command finds the extension command a prompt names ("/name args").
func (srv *server) command(msg string) (Command, string, bool) {
	if !strings.HasPrefix(msg, "/") {
		return Command{}, "", false
	}
	name, args, _ := strings.Cut(strings.TrimPrefix(msg, "/"), " ")
	for _, c := range srv.opts.Commands {
		if c.Name == name {
			return c, strings.TrimSpace(args), true
		}
	}
	return Command{}, "", false
}
