package artifact

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// AgentScheme prefixes the outputs of task subagents: agent://<id>.
const AgentScheme = "agent://"

// Subagent outputs live beside the artifacts: each task of the task tool
// gets an output id "<n>-<name>" (n counts the session's tasks from 0; a
// task started by a subagent nests as "<parent id>.<n>-<name>"), its
// session file <id>.jsonl and its full final answer <id>.md, all in the
// top-level session's artifacts directory.

// agentFile matches the files of a top-level subagent and captures n.
var agentFile = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)-[^.]*\.(?:md|jsonl)$`) })

// AllocateAgentIDs reserves one output id per name, in order: "<n>-<name>",
// or "<prefix>.<n>-<name>" for the tasks of the subagent whose id is
// prefix. The first allocation for a prefix scans the directory and
// continues after the largest n found, so a resumed session never reuses
// an id.
func (s *Store) AllocateAgentIDs(prefix string, names []string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.agentNext == nil {
		s.agentNext = map[string]int{}
	}
	next, ok := s.agentNext[prefix]
	if !ok {
		n, err := s.scanAgentIDs(prefix)
		if err != nil {
			return nil, err
		}
		next = n
	}
	lead := ""
	if prefix != "" {
		lead = prefix + "."
	}
	ids := make([]string, len(names))
	for i, name := range names {
		ids[i] = lead + strconv.Itoa(next) + "-" + name
		next++
	}
	s.agentNext[prefix] = next
	return ids, nil
}

// scanAgentIDs returns one more than the largest n of the files of
// prefix's tasks (0 when there are none).
func (s *Store) scanAgentIDs(prefix string) (int, error) {
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("list subagent outputs: %w", err)
	}
	next := 0
	for _, e := range entries {
		name := e.Name()
		if prefix != "" {
			rest, ok := strings.CutPrefix(name, prefix+".")
			if !ok {
				continue
			}
			name = rest
		}
		if m := agentFile().FindStringSubmatch(name); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil && n >= next {
				next = n + 1
			}
		}
	}
	return next, nil
}

// AgentOutputPath returns the file of a subagent's full output: <id>.md.
func (s *Store) AgentOutputPath(id string) string { return filepath.Join(s.dir, id+".md") }

// AgentSessionPath returns the session file of a subagent: <id>.jsonl.
func (s *Store) AgentSessionPath(id string) string {
	return filepath.Join(s.dir, id+".jsonl")
}

// ReadAgentOutput returns a subagent's full output by id or agent://<id>
// reference. An unknown id is an error listing the ids present.
func (s *Store) ReadAgentOutput(ref string) (string, error) {
	path, err := s.AgentOutputFile(ref)
	if err != nil {
		return "", err
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read subagent output %s: %w", filepath.Base(path), err)
	}
	return string(b), nil
}

// AgentOutputFile returns the file holding a subagent's full output, by
// id or agent://<id> reference. An unknown id is an error listing the ids
// present.
func (s *Store) AgentOutputFile(ref string) (string, error) {
	id := strings.TrimSuffix(strings.TrimPrefix(ref, AgentScheme), "/")
	if id == "" {
		return "", errors.New("agent:// URL requires an output ID: agent://<id>")
	}
	entries, err := os.ReadDir(s.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", ErrNoDir
	}
	if err != nil {
		return "", fmt.Errorf("list subagent outputs: %w", err)
	}
	var available []string
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || e.IsDir() {
			continue
		}
		if name == id {
			return filepath.Join(s.dir, e.Name()), nil
		}
		available = append(available, name)
	}
	list := "none"
	if len(available) > 0 {
		slices.Sort(available)
		list = strings.Join(available, ", ")
	}
	return "", fmt.Errorf("Not found: %s\nAvailable: %s", id, list)
}
