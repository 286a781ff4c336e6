// Package commitgen is the library under `gopi commit`: commit messages
// in the Conventional Commits form with the conventions of omp's commit
// command (type, optional lowercase scope, a past-tense summary of at
// most 72 characters without a trailing period, a body of short
// sentences), and the git work around them.
//
//   - Generator (generate.go, request.go, prompt.go): the --legacy
//     pipeline. The model is asked through a propose_commit tool; a
//     message that breaks a convention is sent back with the problems, up
//     to three attempts in all. A large diff is first mapped and reduced
//     (mapreduce.go): the small model observes each file, and the message
//     is written from the observations.
//   - Changelogs (changelog.go): the nearest CHANGELOG.md of each staged
//     file, its [Unreleased] section, entries merged in and removed.
//   - Checks for the commit agent (rules.go): past tense, filler words,
//     a type that fits the files, details capped by importance; trivial
//     changes (trivial.go) and the file-name fallback message
//     (fallback.go); scope candidates from the paths (scope.go).
//   - Diffs and splits (diffparse.go, plan.go, split.go): files and hunks
//     of a unified diff, hunk selectors, the dependency order of a split,
//     and its application through a temporary index, which never writes
//     the repository's index or work tree (see Repo.ApplySplit).
package commitgen

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/ai"
)

// MaxDiff bounds the characters of the diff the model is shown.
const MaxDiff = 100_000

// attempts is how many times the model is asked before its last answer
// is taken as it is (still normalized).
const attempts = 3

// requestTimeout bounds one request to the model.
const requestTimeout = 3 * time.Minute

// toolName is the tool the model answers through.
const toolName = "propose_commit"

// Input is what the model is shown.
type Input struct {
	Diff, Stat     string
	Observations   string // the map phase's findings, shown instead of the diff (see Observations)
	RecentSubjects []string
	Context        string // the user's words about the change (-c)
}

// Generator asks a model for messages.
type Generator struct {
	Model  *ai.Model // writes the message and the changelog entries
	Smol   *ai.Model // reads each file in a map-reduce (nil: Model)
	Stream func(ctx context.Context, req *ai.Request) *ai.Stream
}

// Generate asks the model for a message for in. A message that still
// breaks a convention after the last attempt is returned with its
// problems (the caller may warn); an error means there is no message.
func (g *Generator) Generate(ctx context.Context, in Input) (Message, []string, error) {
	msgs := []ai.Message{&ai.UserMessage{Content: ai.ContentList{ai.Text(userPrompt(in))}, Timestamp: time.Now().UnixMilli()}}
	var last Message
	var problems []string
	for range attempts {
		reply, m, err := g.ask(ctx, msgs)
		if err != nil {
			return Message{}, nil, err
		}
		last, problems = m, m.Problems()
		if len(problems) == 0 {
			return m, nil, nil
		}
		msgs = append(msgs, reply)
		msgs = append(msgs, retryMessage(reply, problems))
	}
	return last, problems, nil
}

// ask sends one request and reads the message from the reply.
func (g *Generator) ask(ctx context.Context, msgs []ai.Message) (*ai.AssistantMessage, Message, error) {
	reply, raw, err := g.call(ctx, toolRequest{
		system:    instructions,
		messages:  msgs,
		tool:      ai.Tool{Name: toolName, Description: "Propose the commit message for the staged changes.", Parameters: json.RawMessage(toolSchema)},
		maxTokens: 2400,
	}, "commit message")
	if err != nil {
		return nil, Message{}, err
	}
	var m Message
	if err := decode(raw, &m, "commit message"); err != nil {
		return nil, Message{}, fmt.Errorf("%s/%s: %w", g.Model.Provider, g.Model.ID, err)
	}
	m.normalize()
	return reply, m, nil
}

// retryMessage answers the model's call with the problems to fix.
func retryMessage(reply *ai.AssistantMessage, problems []string) ai.Message {
	text := "The message breaks these rules: " + strings.Join(problems, "; ") + ". Call " + toolName + " again with a corrected message."
	for _, c := range reply.ToolCalls() {
		if c.Name == toolName {
			return &ai.ToolResultMessage{ToolCallID: c.ID, ToolName: c.Name, Content: ai.ContentList{ai.Text(text)}, IsError: true, Timestamp: time.Now().UnixMilli()}
		}
	}
	return &ai.UserMessage{Content: ai.ContentList{ai.Text(text)}, Timestamp: time.Now().UnixMilli()}
}
