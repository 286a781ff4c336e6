package agentsession

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/shell/shelltest"
	"github.com/gopi-agent/gopi/internal/testwait"
)

// shellFixture is a fixture whose commands run with a PATH and are
// checked for leftover processes.
func shellFixture(t *testing.T) *fixture {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	return newFixture(t, keyEnv, "PATH=/usr/local/bin:/usr/bin:/bin", "SHELL=/bin/bash", "PI_BASH_NO_LOGIN=1", shelltest.Mark(t))
}

func bashMessages(msgs []ai.Message) []*message.BashExecution {
	var out []*message.BashExecution
	for _, m := range msgs {
		if b, ok := m.(*message.BashExecution); ok {
			out = append(out, b)
		}
	}
	return out
}

func TestExecuteBash(t *testing.T) {
	t.Parallel()
	f := shellFixture(t)
	f.script.add(say("ok"))
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	os.Mkdir(filepath.Join(f.project, "sub"), 0o755)
	ctx := context.Background()
	res, err := s.Shell().Execute(ctx, "cd sub && export MARK=shared && echo hello", false)
	if err != nil || res.Output != "hello\n" || res.ExitCode == nil || *res.ExitCode != 0 || res.Cancelled || res.TotalLines != 1 || res.OutputBytes != 6 {
		t.Fatalf("%+v %v", res, err)
	}
	res, _ = s.Shell().Execute(ctx, "pwd; echo $MARK; exit 3", true)
	if res.Output != filepath.Join(f.project, "sub")+"\nshared\n" || *res.ExitCode != 3 {
		t.Fatalf("%+v", res)
	}
	got := bashMessages(s.Messages())
	if len(got) != 2 || got[0].Command != "cd sub && export MARK=shared && echo hello" || got[0].ExcludeFromContext || !got[1].ExcludeFromContext || *got[1].ExitCode != 3 {
		t.Fatalf("%+v", got)
	}
	// The model sees the first, not the excluded one.
	if err := s.Prompt(ctx, "what did I run?", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	req := f.script.requests()[0]
	var text strings.Builder
	for _, u := range userTexts(req.Messages) {
		text.WriteString(u)
	}
	if !strings.Contains(text.String(), "hello") || strings.Contains(text.String(), "exit 3") {
		t.Fatalf("%q", text.String())
	}
	// Long output is cut to its tail with the whole in an artifact.
	res, _ = s.Shell().Execute(ctx, "seq 1 100000", false)
	if !res.Truncated || res.ArtifactID == "" || res.TotalLines != 100000 || res.OutputLines >= 100000 || !strings.HasSuffix(res.Output, "100000\n") {
		t.Fatalf("%+v", res.ArtifactID)
	}
	if m := bashMessages(s.Messages())[2]; !strings.Contains(string(m.Meta), `"artifactId":"`+res.ArtifactID+`"`) {
		t.Fatal(string(m.Meta))
	}
	s.Close()
	types := entryTypes(t, s.Store().File())
	if n := strings.Count(strings.Join(types, " "), "message:bashExecution"); n != 3 {
		t.Fatal(types)
	}
}

func TestAbortBash(t *testing.T) {
	t.Parallel()
	f := shellFixture(t)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSession: true})
	// Abort once the command has surely printed (its marker file exists):
	// a fixed wait was too short on a loaded machine, and the abort then
	// came before the shell had run anything.
	marker := filepath.Join(t.TempDir(), "started")
	go func() {
		// Abort anyway after a while: the call then fails on its output.
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
			if _, err := os.Stat(marker); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		s.Shell().Abort()
	}()
	start := time.Now()
	res, err := s.Shell().Execute(context.Background(), "echo started; touch '"+marker+"'; sleep 30", false)
	if err != nil || !res.Cancelled || res.ExitCode != nil || res.Output != "started\n" || time.Since(start) > 5*time.Second {
		t.Fatalf("%+v %v", res, err)
	}
	if s.Shell().IsRunning() {
		t.Fatal("still running")
	}
	if m := bashMessages(s.Messages()); len(m) != 1 || !m[0].Cancelled {
		t.Fatal(m)
	}
}

// An abort that comes before the shell has run the command (here, before
// the call) is a cancelled command too, not an error ("Cannot run the
// command: context canceled" before).
func TestAbortBashBeforeItRuns(t *testing.T) {
	t.Parallel()
	f := shellFixture(t)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true, NoSession: true})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := s.Shell().Execute(ctx, "sleep 30", false)
	if err != nil || !res.Cancelled || res.ExitCode != nil {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestExecuteBashDuringRun(t *testing.T) {
	t.Parallel()
	f := shellFixture(t)
	started := make(chan struct{})
	release := make(chan struct{})
	f.script.add(func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
		close(started)
		<-release
		say("done")(ctx, req, em)
	})
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	done := make(chan error)
	go func() { done <- s.Prompt(context.Background(), "work", PromptOptions{}) }()
	<-started
	if _, err := s.Shell().Execute(context.Background(), "echo side", false); err != nil {
		t.Fatal(err)
	}
	if len(bashMessages(s.Messages())) != 0 {
		t.Fatal("recorded during the run")
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	testwait.Until(t, "the command to be recorded", func() bool { return len(bashMessages(s.Messages())) != 0 })
	msgs := s.Messages()
	if _, ok := msgs[len(msgs)-1].(*message.BashExecution); !ok {
		t.Fatalf("last message %T", msgs[len(msgs)-1])
	}
	if _, ok := msgs[len(msgs)-2].(*ai.AssistantMessage); !ok {
		t.Fatalf("before it %T", msgs[len(msgs)-2])
	}
}

func TestBackgroundJobDelivery(t *testing.T) {
	t.Parallel()
	f := shellFixture(t)
	os.MkdirAll(filepath.Join(f.project, ".gopi"), 0o755)
	os.WriteFile(filepath.Join(f.project, ".gopi", "settings.json"), []byte(`{"async": {"enabled": true}}`), 0o644)
	delivered := make(chan *ai.Request, 1)
	f.script.add(
		callTool("c1", "bash", `{"command": "sleep 0.3; echo from-the-background", "async": true}`),
		say("started it"),
		func(ctx context.Context, req *ai.Request, em *ai.Emitter) {
			delivered <- req
			say("got the result")(ctx, req, em)
		},
	)
	reg := f.registry(f.config())
	s := f.open(Options{Models: reg, Model: f.model(reg, "anthropic/claude-sonnet-4-5"), NoTitle: true})
	names := s.offeredToolNames()
	if !contains(names, "bash") || !contains(names, "job") {
		t.Fatal(names)
	}
	if err := s.Prompt(context.Background(), "run it in the background", PromptOptions{}); err != nil {
		t.Fatal(err)
	}
	req, _ := testwait.Recv(t, "a run for the delivery", delivered)
	users := userTexts(req.Messages)
	last := users[len(users)-1]
	if !strings.Contains(last, "Background job bg_1") || !strings.Contains(last, "from-the-background") {
		t.Fatalf("%q", last)
	}
	// The delivery's run ends with the answer to it.
	var custom *message.Custom
	testwait.Until(t, "the delivery's run to end", func() bool {
		if err := s.Turn().WaitIdle(context.Background()); err != nil {
			t.Fatal(err)
		}
		custom = nil
		for _, m := range s.Messages() {
			if c, ok := m.(*message.Custom); ok && c.CustomType == JobResultType {
				custom = c
			}
		}
		return custom != nil && s.LastAssistantText() == "got the result"
	})
	if custom == nil || !strings.Contains(string(custom.Details), `"jobId":"bg_1"`) || s.LastAssistantText() != "got the result" {
		t.Fatalf("%+v %q", custom, s.LastAssistantText())
	}
}
