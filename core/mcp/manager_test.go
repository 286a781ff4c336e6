package mcp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/internal/mcptest"
)

func TestMain(m *testing.M) {
	mcptest.Main() // the test binary doubles as the fake MCP server
	os.Exit(m.Run())
}

// fake returns a stdio server entry that runs this test binary as the
// fake MCP server in mode.
func fake(name, mode string, env ...string) *config.MCPServer {
	e := map[string]string{mcptest.EnvMode: mode}
	for i := 0; i+1 < len(env); i += 2 {
		e[env[i]] = env[i+1]
	}
	cmd, args := mcptest.FakeServer()
	return &config.MCPServer{Name: name, Type: config.MCPStdio, Command: cmd, Args: args, Env: e, Source: "test"}
}

// start builds and starts a manager; it is closed when the test ends.
func start(t *testing.T, o Options) *Manager {
	t.Helper()
	o.Environ = os.Environ()
	m := New(o)
	t.Cleanup(func() { _ = m.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	m.Start(ctx)
	return m
}

func findTool(t *testing.T, m *Manager, name string) tool.Tool {
	t.Helper()
	for _, x := range m.Tools() {
		if x.Definition().Name == name {
			return x
		}
	}
	t.Fatalf("no tool %s among %v", name, m.Servers())
	return nil
}

func call(t *testing.T, x tool.Tool, args string) *tool.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := tool.Run(ctx, x, []byte(args), nil)
	if err != nil {
		t.Fatalf("%s: %v", x.Definition().Name, err)
	}
	return res
}

func TestToolsResourcesAndErrors(t *testing.T) {
	m := start(t, Options{Servers: []*config.MCPServer{fake("fake.one", "serve")}})
	info := m.Servers()
	if len(info) != 1 || info[0].State != StateConnected || !info[0].Resources || info[0].Server != "fake 1.0" {
		t.Fatalf("servers = %+v", info)
	}
	if got := strings.Join(info[0].Tools, ","); got != "mcp__fake_one__crash,mcp__fake_one__echo,mcp__fake_one__fail,mcp__fake_one__garbage,mcp__fake_one__hang" {
		t.Errorf("tools = %s", got)
	}
	echo := findTool(t, m, "mcp__fake_one__echo")
	if d := echo.Definition(); !strings.Contains(string(d.Parameters.Raw), `"text"`) || !strings.Contains(d.Description, "Echo the text back.") {
		t.Errorf("definition = %+v", d)
	}
	if res := call(t, echo, `{"text":"hi"}`); res.IsError || res.FirstText() != "echo: hi" {
		t.Errorf("echo = %+v", res)
	}
	if res := call(t, echo, `{"text":5}`); !res.IsError {
		t.Errorf("a bad argument must be refused before the call: %+v", res.FirstText())
	}
	if res := call(t, findTool(t, m, "mcp__fake_one__fail"), `{}`); !res.IsError || res.FirstText() != "it failed on purpose" {
		t.Errorf("fail = %+v", res)
	}
	ctx := context.Background()
	c, err := m.ReadURI(ctx, "mcp://fake.one/fake://greeting")
	if err != nil || c.Content != "hello from the fake server" || c.ContentType != "text/plain" {
		t.Errorf("read = %+v, %v", c, err)
	}
	c, err = m.ReadURI(ctx, "mcp://fake.one")
	if err != nil || !strings.Contains(c.Content, "mcp://fake.one/fake://greeting  greeting (text/plain)") {
		t.Errorf("list = %+v, %v", c, err)
	}
	c, err = m.ReadURI(ctx, "mcp://")
	if err != nil || !strings.Contains(c.Content, "fake.one (stdio, connected): resources at mcp://fake.one") {
		t.Errorf("servers = %+v, %v", c, err)
	}
	if _, err := m.ReadURI(ctx, "mcp://nope/x"); err == nil || !strings.Contains(err.Error(), `no MCP server is named "nope"`) {
		t.Errorf("unknown server: %v", err)
	}
}

func TestStartFailuresAreReportedByName(t *testing.T) {
	hangs, garbles := fake("hangs", "hang"), fake("garbles", "garbage")
	hangs.Timeout, garbles.Timeout = 2*time.Second, 2*time.Second // the others keep the default
	m := start(t, Options{Servers: []*config.MCPServer{
		fake("good", "serve"),
		hangs,
		fake("crashes", "crash"),
		garbles,
		{Name: "missing", Type: config.MCPStdio, Command: "/nonexistent/gopi-mcp-server"},
	}})
	byName := map[string]ServerInfo{}
	for _, s := range m.Servers() {
		byName[s.Name] = s
	}
	if s := byName["good"]; s.State != StateConnected {
		t.Errorf("good = %+v", s)
	}
	for name, want := range map[string]string{
		"hangs":   "did not finish starting within 2s",
		"crashes": "missing API key, giving up",
		"garbles": `MCP server "garbles" cannot start`,
		"missing": `MCP server "missing" cannot start`,
	} {
		s := byName[name]
		if s.State != StateFailed || !strings.Contains(s.Error, want) || !strings.Contains(s.Error, `"`+name+`"`) {
			t.Errorf("%s = %+v; want an error with %q", name, s, want)
		}
	}
	if n := len(m.Tools()); n != 5 {
		t.Errorf("only the good server's 5 tools should be offered, got %d", n)
	}
	if res := call(t, findTool(t, m, "mcp__good__echo"), `{"text":"still here"}`); res.FirstText() != "echo: still here" {
		t.Errorf("echo = %+v", res)
	}
}

func TestCallFailuresNameTheServerAndRecover(t *testing.T) {
	m := start(t, Options{CallTimeout: 5 * time.Second, Servers: []*config.MCPServer{fake("flaky", "serve")}})
	echo := findTool(t, m, "mcp__flaky__echo")
	for _, tc := range []struct{ tool, want string }{
		{"mcp__flaky__hang", `MCP server "flaky" did not answer the call to hang within 5s`},
		// How a broken connection surfaces (EOF, a parse error, closed)
		// depends on which goroutine notices first: only the server's name
		// and the call are certain.
		{"mcp__flaky__crash", `the call to crash`},
		{"mcp__flaky__garbage", `the call to garbage`},
	} {
		res := call(t, findTool(t, m, tc.tool), `{}`)
		if !res.IsError || !strings.Contains(res.FirstText(), tc.want) || !strings.Contains(res.FirstText(), `MCP server "flaky"`) {
			t.Errorf("%s = %q; want the server's name and %q", tc.tool, res.FirstText(), tc.want)
		}
		// The next call works: a dead server is restarted.
		if res := call(t, echo, `{"text":"again"}`); res.IsError || res.FirstText() != "echo: again" {
			t.Errorf("after %s: echo = %q", tc.tool, res.FirstText())
		}
	}
}

func TestAbortedCallIsAnAbort(t *testing.T) {
	m := start(t, Options{Servers: []*config.MCPServer{fake("slow", "serve")}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := tool.Run(ctx, findTool(t, m, "mcp__slow__hang"), []byte(`{}`), nil)
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, tool.ErrAborted) {
		t.Fatalf("err = %v; want an abort", err)
	}
}

func TestCloseLeavesNoProcesses(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	m := New(Options{Environ: os.Environ(), Servers: []*config.MCPServer{fake("parent", "grandchild", mcptest.EnvPIDFile, pidFile)}})
	m.Start(context.Background())
	if s := m.Servers()[0]; s.State != StateConnected {
		t.Fatalf("server = %+v", s)
	}
	m.mu.Lock()
	serverPID := m.servers[0].proc.cmd.Process.Pid
	m.mu.Unlock()
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	grandchild, _ := strconv.Atoi(string(b))
	if !alive(grandchild) {
		t.Fatalf("the grandchild %d is not running", grandchild)
	}
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if s := m.Servers()[0]; s.State != StateClosed {
		t.Errorf("state after Close = %s", s.State)
	}
	for _, pid := range []int{serverPID, grandchild} {
		deadline := time.Now().Add(30 * time.Second)
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond) // polling the kernel's view, not synchronising
		}
		if alive(pid) {
			t.Errorf("process %d outlived Close", pid)
		}
	}
}

// alive reports whether pid is a running (not zombie) process.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestToolName(t *testing.T) {
	for in, want := range map[[2]string]string{
		{"fs", "read_file"}:            "mcp__fs__read_file",
		{"my.server", "get-thing"}:     "mcp__my_server__get-thing",
		{"s", "a/b c"}:                 "mcp__s__a_b_c",
		{strings.Repeat("x", 80), "t"}: "mcp__" + strings.Repeat("x", 59),
	} {
		if got := ToolName(in[0], in[1]); got != want {
			t.Errorf("ToolName(%q, %q) = %q; want %q", in[0], in[1], got, want)
		}
	}
}

func TestRealServerEverything(t *testing.T) {
	cmd, args := mcptest.Everything(t)
	m := start(t, Options{Servers: []*config.MCPServer{{Name: "everything", Type: config.MCPStdio, Command: cmd, Args: args}}})
	if s := m.Servers()[0]; s.State != StateConnected {
		t.Fatalf("server = %+v", s)
	}
	res := call(t, findTool(t, m, "mcp__everything__echo"), `{"message":"from gopi"}`)
	if res.IsError || !strings.Contains(res.FirstText(), "from gopi") {
		t.Errorf("echo = %+v", res.FirstText())
	}
	res = call(t, findTool(t, m, "mcp__everything__get-sum"), `{"a":2,"b":40}`)
	if res.IsError || !strings.Contains(res.FirstText(), "42") {
		t.Errorf("get-sum = %+v", res.FirstText())
	}
	list, err := m.ReadURI(context.Background(), "mcp://everything")
	if err != nil || !strings.Contains(list.Content, "mcp://everything/") {
		t.Fatalf("resources = %+v, %v", list, err)
	}
	first := strings.Fields(strings.SplitN(list.Content, "\n", 2)[0])[0]
	c, err := m.ReadURI(context.Background(), first)
	if err != nil || c.Content == "" {
		t.Errorf("read %s = %+v, %v", first, c, err)
	}
}

// HTTP and SSE servers: headers are resolved (a "!command" value runs)
// and sent with every request.
func TestHTTPAndSSEServers(t *testing.T) {
	srv := mcptest.NewServer()
	var mu sync.Mutex
	seen := map[string]string{}
	record := func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			seen[r.URL.Path] = r.Header.Get("X-Token")
			mu.Unlock()
			h.ServeHTTP(w, r)
		})
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", record(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)))
	mux.Handle("/sse", record(sdk.NewSSEHandler(func(*http.Request) *sdk.Server { return srv }, nil)))
	// An SSE endpoint that never sends its endpoint event.
	mux.HandleFunc("/silent", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close) // after the manager's Close (cleanups run last first)
	f := newConfigFixture(t)
	m := start(t, Options{Resolve: f.ResolveMCPValue, Servers: []*config.MCPServer{
		{Name: "web", Type: config.MCPHTTP, URL: hs.URL + "/mcp", Headers: map[string]string{"X-Token": "!echo x"}},
		{Name: "old", Type: config.MCPSSE, URL: hs.URL + "/sse", Headers: map[string]string{"X-Token": "literal"}},
		{Name: "silent", Type: config.MCPSSE, URL: hs.URL + "/silent", Timeout: 2 * time.Second},
	}})
	if s := m.Servers()[2]; s.State != StateFailed || !strings.Contains(s.Error, `MCP server "silent" cannot start: did not finish starting within 2s`) {
		t.Errorf("silent = %+v", s)
	}
	for _, name := range []string{"mcp__web__echo", "mcp__old__echo"} {
		if res := call(t, findTool(t, m, name), `{"text":"over http"}`); res.IsError || res.FirstText() != "echo: over http" {
			t.Errorf("%s = %q", name, res.FirstText())
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if seen["/mcp"] != "x" || seen["/sse"] != "literal" {
		t.Errorf("headers seen = %v", seen)
	}
}

// newConfigFixture loads a configuration with an empty home and project.
func newConfigFixture(t *testing.T) *config.Config {
	t.Helper()
	dir := t.TempDir()
	c, err := config.Load(config.LoadOptions{Cwd: dir, Home: dir, Environ: []string{"HOME=" + dir, "PATH=" + os.Getenv("PATH")}, NoFiles: true})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
