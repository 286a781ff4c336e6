package task

import (
	"bytes"
	"embed"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/gopi-agent/gopi/core/ai"
)

// Where an agent definition comes from.
const (
	SourceBundled = "bundled" // built into gopi
	SourceUser    = "user"    // the user's agent directory
	SourceProject = "project" // the project's configuration directory
)

// Agent is an agent definition: what a subagent is told and may use.
type Agent struct {
	Name        string           // what the task tool's agent argument names
	Description string           // shown to the model in the tool description
	Prompt      string           // added to the subagent's system prompt
	Tools       []string         // tools offered; nil offers every tool
	Spawns      []string         // agents it may start in turn ("*": any); none: it gets no task tool
	Models      []string         // model patterns in order of preference; none: the parent's model
	Thinking    ai.ThinkingLevel // reasoning effort; "" keeps the parent's
	Source      string           // SourceBundled, SourceUser or SourceProject
	Path        string           // the file it was read from ("embedded:<name>.md" for bundled ones)
	Blocking    bool             // always run in the foreground, even with async.enabled
}

// agentName is what a name may look like.
var agentName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`) })

// ParseAgent reads an agent definition: a YAML front matter between "---"
// lines, then the prompt. The front matter needs name and description;
// tools, spawns and model take a list or a comma-separated string;
// thinking-level (or thinkingLevel, thinking) names a reasoning effort.
// blocking: true keeps the agent's tasks in the foreground when
// background jobs are on. Fields gopi does not use (omp's output) are
// ignored.
func ParseAgent(file string, content []byte, source string) (*Agent, error) {
	fm, body, err := splitFrontMatter(content)
	if err != nil {
		return nil, fmt.Errorf("agent file %s: %w", file, err)
	}
	var raw map[string]any
	if err := yaml.Unmarshal(fm, &raw); err != nil {
		return nil, fmt.Errorf("agent file %s: front matter is not valid YAML: %w", file, err)
	}
	a := &Agent{Source: source, Path: file, Prompt: strings.TrimSpace(string(body))}
	a.Name, _ = raw["name"].(string)
	a.Description, _ = raw["description"].(string)
	a.Name, a.Description = strings.TrimSpace(a.Name), strings.TrimSpace(a.Description)
	if a.Name == "" || a.Description == "" {
		return nil, fmt.Errorf("agent file %s: the front matter needs a name and a description", file)
	}
	if !agentName().MatchString(a.Name) {
		return nil, fmt.Errorf("agent file %s: name %q may only hold letters, digits, '_', '-' and '.'", file, a.Name)
	}
	if a.Tools, err = list(raw, "tools"); err != nil {
		return nil, fmt.Errorf("agent file %s: %w", file, err)
	}
	for i, t := range a.Tools {
		a.Tools[i] = strings.ToLower(t)
	}
	if a.Spawns, err = list(raw, "spawns"); err != nil {
		return nil, fmt.Errorf("agent file %s: %w", file, err)
	}
	if a.Spawns == nil && containsString(a.Tools, toolName) {
		a.Spawns = []string{"*"} // naming the task tool allows every agent, as omp reads it
	}
	if a.Models, err = list(raw, "model"); err != nil {
		return nil, fmt.Errorf("agent file %s: %w", file, err)
	}
	switch v := raw["blocking"].(type) {
	case nil:
	case bool:
		a.Blocking = v
	case string:
		a.Blocking = strings.EqualFold(strings.TrimSpace(v), "true")
	default:
		return nil, fmt.Errorf("agent file %s: blocking %v is not true or false", file, v)
	}
	for _, key := range []string{"thinking-level", "thinkingLevel", "thinking"} {
		v, ok := raw[key]
		if !ok {
			continue
		}
		s, _ := v.(string)
		l, ok := ai.ParseThinkingLevel(strings.TrimSpace(s))
		if !ok || s == "" {
			return nil, fmt.Errorf("agent file %s: %s %v is not one of off, minimal, low, medium, high, xhigh", file, key, v)
		}
		a.Thinking = l
		break
	}
	return a, nil
}

// splitFrontMatter cuts the "---" delimited front matter off content.
func splitFrontMatter(content []byte) (fm, body []byte, err error) {
	content = bytes.TrimPrefix(content, []byte("\ufeff"))
	rest, ok := cutLine(content, "---")
	if !ok {
		return nil, nil, fmt.Errorf("no front matter: the file must start with a \"---\" line")
	}
	for off := 0; off < len(rest); {
		end := bytes.IndexByte(rest[off:], '\n')
		line := rest[off:]
		next := len(rest)
		if end >= 0 {
			line, next = rest[off:off+end], off+end+1
		}
		if string(bytes.TrimRight(line, " \t\r")) == "---" {
			return rest[:off], rest[next:], nil
		}
		off = next
	}
	return nil, nil, fmt.Errorf("the front matter has no closing \"---\" line")
}

// cutLine removes a first line equal to want (ignoring trailing blanks).
func cutLine(b []byte, want string) ([]byte, bool) {
	line, rest, found := bytes.Cut(b, []byte("\n"))
	if string(bytes.TrimRight(line, " \t\r")) != want {
		return nil, false
	}
	if !found {
		rest = nil
	}
	return rest, true
}

// list reads a field holding a list of strings or a comma-separated
// string; nil when absent.
func list(raw map[string]any, key string) ([]string, error) {
	v, ok := raw[key]
	if !ok || v == nil {
		return nil, nil
	}
	var items []string
	switch v := v.(type) {
	case string:
		items = strings.Split(v, ",")
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s: %v is not a string", key, e)
			}
			items = append(items, s)
		}
	default:
		return nil, fmt.Errorf("%s must be a list or a comma-separated string", key)
	}
	out := []string{}
	for _, s := range items {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

//go:embed agents/*.md
var bundledFS embed.FS

// Bundled returns the agent definitions built into gopi, sorted by name.
func Bundled() []*Agent {
	entries, err := bundledFS.ReadDir("agents")
	if err != nil {
		panic("task: bundled agents: " + err.Error())
	}
	var out []*Agent
	for _, e := range entries {
		b, err := bundledFS.ReadFile(path.Join("agents", e.Name()))
		if err != nil {
			panic("task: bundled agents: " + err.Error())
		}
		a, err := ParseAgent("embedded:"+e.Name(), b, SourceBundled)
		if err != nil {
			panic("task: bundled agents: " + err.Error())
		}
		out = append(out, a)
	}
	return out
}
