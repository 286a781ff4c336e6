package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/gopi-agent/gopi/core/permission"
	"github.com/gopi-agent/gopi/internal/mockllm"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// rig is an isolated home whose models.yml points provider "mock" at a
// scripted mock LLM, a project directory, and gopi acp served over
// in-process pipes to a client from the same library.
type rig struct {
	t       *testing.T
	llm     *mockllm.Server
	home    string
	project string
	environ []string
	client  *editor
	conn    *sdk.ClientSideConnection
	stop    func()
	trust   bool // serve with Options.TrustProject
	logMu   sync.Mutex
	logged  []string // what the agent logged
}

// logs returns what the agent logged so far.
func (r *rig) logs() string {
	r.logMu.Lock()
	defer r.logMu.Unlock()
	return strings.Join(r.logged, "\n")
}

func newRig(t *testing.T, turns ...mockllm.Turn) *rig {
	t.Helper()
	root := t.TempDir()
	r := &rig{t: t, llm: mockllm.New(t), home: filepath.Join(root, "home"), project: filepath.Join(root, "project")}
	agentDir := filepath.Join(r.home, ".gopi", "agent")
	for _, d := range []string{agentDir, r.project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	r.llm.Script(turns...)
	yml := fmt.Sprintf("providers:\n  mock:\n    baseUrl: %s\n    api: anthropic-messages\n    apiKey: MOCK_KEY\n    models:\n      - id: mock-model\n        name: Mock\n", r.llm.URL())
	r.write(filepath.Join(agentDir, "models.yml"), yml)
	r.environ = []string{"HOME=" + r.home, "MOCK_KEY=test", "PI_NO_TITLE=1", "PATH=" + os.Getenv("PATH")}
	return r
}

// settings writes the project's .gopi/settings.json.
func (r *rig) settings(json string) {
	r.write(filepath.Join(r.project, ".gopi", "settings.json"), json)
}

func (r *rig) write(path, content string) {
	r.t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) read(name string) string {
	r.t.Helper()
	b, err := os.ReadFile(filepath.Join(r.project, name))
	if err != nil {
		r.t.Fatal(err)
	}
	return string(b)
}

// connect serves gopi acp to a fresh editor and initializes the
// connection with the editor's file-system capabilities.
func (r *rig) connect(fs sdk.FileSystemCapabilities) {
	r.t.Helper()
	if r.stop != nil {
		r.stop()
	}
	toAgent, agentIn := io.Pipe()
	agentOut, toClient := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), toAgent, toClient, Options{Environ: r.environ, Version: "test", Log: testLog{r.t, r}, TrustProject: r.trust})
		toClient.Close()
	}()
	r.client = newEditor()
	r.conn = sdk.NewClientSideConnection(r.client, agentIn, agentOut)
	r.conn.SetLogger(slog.New(slog.NewTextHandler(testLog{r.t, nil}, nil)))
	r.stop = func() {
		agentIn.Close()
		testwait.Recv(r.t, "Serve to return after the editor closed the connection", done)
		r.stop = nil
	}
	r.t.Cleanup(func() {
		if r.stop != nil {
			r.stop()
		}
	})
	resp, err := r.conn.Initialize(context.Background(), sdk.InitializeRequest{
		ProtocolVersion:    sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Fs: fs},
		ClientInfo:         &sdk.Implementation{Name: "test-editor", Version: "1"},
	})
	if err != nil {
		r.t.Fatal(err)
	}
	if !resp.AgentCapabilities.LoadSession || !resp.AgentCapabilities.PromptCapabilities.Image {
		r.t.Fatalf("capabilities %+v", resp.AgentCapabilities)
	}
	if len(resp.AuthMethods) != 1 || resp.AuthMethods[0].Agent == nil || resp.AuthMethods[0].Agent.Id != AuthMethodAgent {
		r.t.Fatalf("auth methods %+v: want omp's one agent-managed method", resp.AuthMethods)
	}
	if _, err := r.conn.Authenticate(context.Background(), sdk.AuthenticateRequest{MethodId: AuthMethodAgent}); err != nil {
		r.t.Fatalf("authenticate: %v", err)
	}
}

// newSession opens a session in the project.
func (r *rig) newSession() sdk.NewSessionResponse {
	r.t.Helper()
	resp, err := r.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: r.project, McpServers: []sdk.McpServer{}})
	if err != nil {
		r.t.Fatal(err)
	}
	return resp
}

// prompt sends text and returns the stop reason.
func (r *rig) prompt(id sdk.SessionId, text string) sdk.StopReason {
	r.t.Helper()
	resp, err := r.conn.Prompt(context.Background(), sdk.PromptRequest{SessionId: id, Prompt: []sdk.ContentBlock{sdk.TextBlock(text)}})
	if err != nil {
		r.t.Fatal(err)
	}
	return resp.StopReason
}

// requestText is the body of the i-th provider request.
func (r *rig) requestText(i int) string {
	r.t.Helper()
	reqs := r.llm.Requests()
	if i >= len(reqs) {
		r.t.Fatalf("only %d provider requests", len(reqs))
	}
	return string(reqs[i].Body)
}

// testLog sends diagnostics to the test log (and keeps the agent's in
// its rig).
type testLog struct {
	t   *testing.T
	rig *rig
}

func (l testLog) Write(p []byte) (int, error) {
	line := strings.TrimRight(string(p), "\n")
	l.t.Log(line)
	if l.rig != nil {
		l.rig.logMu.Lock()
		l.rig.logged = append(l.rig.logged, line)
		l.rig.logMu.Unlock()
	}
	return len(p), nil
}

// editor is the client side: it records every update and answers
// permission requests and file requests as the test says.
type editor struct {
	mu          sync.Mutex
	updates     []sdk.SessionNotification
	permissions []sdk.RequestPermissionRequest
	reads       []string
	writes      map[string]string
	buffers     map[string]string // abs path → unsaved buffer text
	answer      func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome
	// ask, when set, answers instead of answer, with the request's
	// context (it ends when gopi withdraws the request).
	ask      func(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error)
	onUpdate func(sdk.SessionNotification)
}

func newEditor() *editor {
	return &editor{writes: map[string]string{}, buffers: map[string]string{}}
}

func (e *editor) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	e.mu.Lock()
	e.updates = append(e.updates, n)
	hook := e.onUpdate
	e.mu.Unlock()
	if hook != nil {
		hook(n)
	}
	return nil
}

func (e *editor) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	e.permissions = append(e.permissions, p)
	answer, ask := e.answer, e.ask
	e.mu.Unlock()
	if ask != nil {
		return ask(ctx, p)
	}
	if answer == nil {
		return sdk.RequestPermissionResponse{}, errors.New("the test did not expect a permission request")
	}
	return sdk.RequestPermissionResponse{Outcome: answer(p)}, nil
}

func (e *editor) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads = append(e.reads, p.Path)
	if s, ok := e.buffers[p.Path]; ok {
		return sdk.ReadTextFileResponse{Content: s}, nil
	}
	b, err := os.ReadFile(p.Path)
	if err != nil {
		return sdk.ReadTextFileResponse{}, err
	}
	return sdk.ReadTextFileResponse{Content: string(b)}, nil
}

func (e *editor) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.writes[p.Path] = p.Content
	e.buffers[p.Path] = p.Content
	return sdk.WriteTextFileResponse{}, nil
}

var errNoTerminal = errors.New("the test editor has no terminal")

func (e *editor) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	return sdk.CreateTerminalResponse{}, errNoTerminal
}

func (e *editor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	return sdk.KillTerminalResponse{}, errNoTerminal
}

func (e *editor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	return sdk.TerminalOutputResponse{}, errNoTerminal
}

func (e *editor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	return sdk.ReleaseTerminalResponse{}, errNoTerminal
}

func (e *editor) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	return sdk.WaitForTerminalExitResponse{}, errNoTerminal
}

// take returns the updates received so far and forgets them.
func (e *editor) take() []sdk.SessionUpdate {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]sdk.SessionUpdate, len(e.updates))
	for i, n := range e.updates {
		out[i] = n.Update
	}
	e.updates = nil
	return out
}

// text concatenates the agent message chunks (or thought chunks).
func text(updates []sdk.SessionUpdate, thoughts bool) string {
	var b strings.Builder
	for _, u := range updates {
		switch {
		case !thoughts && u.AgentMessageChunk != nil && u.AgentMessageChunk.Content.Text != nil:
			b.WriteString(u.AgentMessageChunk.Content.Text.Text)
		case thoughts && u.AgentThoughtChunk != nil && u.AgentThoughtChunk.Content.Text != nil:
			b.WriteString(u.AgentThoughtChunk.Content.Text.Text)
		}
	}
	return b.String()
}

// callView is what the updates say about one tool call, merged.
type callView struct {
	title     string
	kind      sdk.ToolKind
	statuses  []sdk.ToolCallStatus
	locations []string
	content   []sdk.ToolCallContent
	rawInput  any
}

// calls merges the tool_call and tool_call_update updates by id, in the
// order the calls were announced.
func calls(updates []sdk.SessionUpdate) (ids []string, byID map[string]*callView) {
	byID = map[string]*callView{}
	get := func(id sdk.ToolCallId) *callView {
		v, ok := byID[string(id)]
		if !ok {
			v = &callView{}
			byID[string(id)] = v
			ids = append(ids, string(id))
		}
		return v
	}
	for _, u := range updates {
		if c := u.ToolCall; c != nil {
			v := get(c.ToolCallId)
			v.title, v.kind = c.Title, c.Kind
			if c.Status != "" {
				v.statuses = append(v.statuses, c.Status)
			}
			for _, l := range c.Locations {
				v.locations = append(v.locations, l.Path)
			}
			if c.RawInput != nil {
				v.rawInput = c.RawInput
			}
			v.content = append(v.content, c.Content...)
		}
		if c := u.ToolCallUpdate; c != nil {
			v := get(c.ToolCallId)
			if c.Title != nil {
				v.title = *c.Title
			}
			if c.Kind != nil {
				v.kind = *c.Kind
			}
			if c.Status != nil {
				v.statuses = append(v.statuses, *c.Status)
			}
			for _, l := range c.Locations {
				v.locations = append(v.locations, l.Path)
			}
			if c.RawInput != nil {
				v.rawInput = c.RawInput
			}
			v.content = append(v.content, c.Content...)
		}
	}
	return ids, byID
}

// lastStatus is the call's final status.
func (v *callView) lastStatus() sdk.ToolCallStatus {
	if len(v.statuses) == 0 {
		return ""
	}
	return v.statuses[len(v.statuses)-1]
}

// diffs returns the call's diff blocks.
func (v *callView) diffs() []*sdk.ToolCallContentDiff {
	var out []*sdk.ToolCallContentDiff
	for _, c := range v.content {
		if c.Diff != nil {
			out = append(out, c.Diff)
		}
	}
	return out
}

// contentText joins the call's text blocks.
func (v *callView) contentText() string {
	var b strings.Builder
	for _, c := range v.content {
		if c.Content != nil && c.Content.Content.Text != nil {
			b.WriteString(c.Content.Content.Text.Text)
		}
	}
	return b.String()
}

func toolCallBlock(name string, args any) mockllm.Block {
	data, _ := json.Marshal(args)
	return mockllm.ToolCall(name, string(data))
}

// answer returns an editor's permission answer that always picks a.
func answer(a permission.Answer) func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
	return func(sdk.RequestPermissionRequest) sdk.RequestPermissionOutcome {
		return sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(a))
	}
}

// asked returns the permission requests so far.
func (e *editor) asked() []sdk.RequestPermissionRequest {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]sdk.RequestPermissionRequest(nil), e.permissions...)
}
