package task

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// A new agent definition written by a model from a description (the Agent
// Control Center's N, as omp's): the model answers with a JSON object
// {identifier, whenToUse, systemPrompt}; it becomes a <identifier>.md
// file with name and description in its front matter.

// GeneratedAgent is an agent definition a model wrote.
type GeneratedAgent struct {
	Name        string // the identifier: lowercase words joined by '-', two to six of them
	Description string // when to use the agent; starts "Use this agent when"
	Prompt      string // the agent's system prompt
}

// generatedName is what a generated identifier may look like.
var generatedName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+){1,5}$`) })

// generatedFence finds a fenced block in a model's answer.
var generatedFence = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?is)```(?:json)?\\s*(.*?)```") })

// ParseGenerated reads a model's answer: the JSON object alone, in a
// fenced block, or between the first '{' and the last '}'.
func ParseGenerated(answer string) (GeneratedAgent, error) {
	text := strings.TrimSpace(answer)
	if m := generatedFence().FindStringSubmatch(text); m != nil {
		text = strings.TrimSpace(m[1])
	} else if i, j := strings.Index(text, "{"), strings.LastIndex(text, "}"); i >= 0 && j > i {
		text = text[i : j+1]
	}
	var raw struct {
		Identifier   *string `json:"identifier"`
		WhenToUse    *string `json:"whenToUse"`
		SystemPrompt *string `json:"systemPrompt"`
	}
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return GeneratedAgent{}, fmt.Errorf("the model's answer is not the JSON object asked for (%v): ask the model again", err)
	}
	if raw.Identifier == nil || raw.WhenToUse == nil || raw.SystemPrompt == nil {
		return GeneratedAgent{}, errors.New("the model's answer lacks identifier, whenToUse or systemPrompt: ask the model again")
	}
	g := GeneratedAgent{Name: strings.TrimSpace(*raw.Identifier), Description: strings.TrimSpace(*raw.WhenToUse), Prompt: strings.TrimSpace(*raw.SystemPrompt)}
	switch {
	case !generatedName().MatchString(g.Name):
		return g, fmt.Errorf("the generated identifier %q is not lowercase words joined by '-' (2 to 6): ask the model again", g.Name)
	case !strings.HasPrefix(strings.ToLower(g.Description), "use this agent when"):
		return g, errors.New("the generated whenToUse does not start with \"Use this agent when\": ask the model again")
	case g.Prompt == "":
		return g, errors.New("the generated systemPrompt is empty: ask the model again")
	}
	return g, nil
}

// File returns the definition as an agent file: front matter with name
// and description, then the prompt.
func (g GeneratedAgent) File() []byte {
	fm, err := yaml.Marshal(struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}{g.Name, g.Description})
	if err != nil { // two strings always encode
		panic(err)
	}
	return []byte("---\n" + string(fm) + "---\n\n" + g.Prompt + "\n")
}

// GenerationPrompt is the system prompt that asks a model for a new
// agent definition in the form ParseGenerated reads.
const GenerationPrompt = `You design subagents for a coding agent. The main agent hands a subagent one self-contained task through its task tool; the subagent works alone with its own system prompt and reports back.

From the user's description, write one subagent:
- identifier: 2 to 6 lowercase words or numbers joined by hyphens, naming what it does (for example "test-runner", "api-docs-writer").
- whenToUse: starts with "Use this agent when" and says precisely which tasks to hand it, so the main agent picks it at the right moments; one or two short examples help.
- systemPrompt: the subagent's complete instructions in the second person ("You are…", "You will…"): its expertise, how to work step by step, how to check its own result, what to report and in what shape, and when to stop and say what is missing instead of guessing.

Answer with the JSON object {"identifier": "…", "whenToUse": "…", "systemPrompt": "…"} and nothing else: no Markdown fence, no text around it.`

// GenerationRequest is the message that asks for an agent doing what
// description says.
func GenerationRequest(description string) string {
	return "Write the subagent for this description:\n\n" + strings.TrimSpace(description) + "\n\nAnswer with the JSON object only."
}
