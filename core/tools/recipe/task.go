package recipe

import (
	"context"
	"encoding/json"
)

// taskfileNames are the Taskfiles looked for.
var taskfileNames = []string{"Taskfile.yml", "Taskfile.yaml"}

// probeTask lists the tasks of the project's Taskfile with `task
// --list-all --json` (needs task on PATH).
func probeTask(ctx context.Context, p Probe) *Runner {
	tasks := p.listed(ctx, "task", taskfileNames, ParseTaskList, "--list-all", "--json")
	return &Runner{ID: RunnerTask, Label: "Task", Prefix: "task", Tasks: tasks}
}

// ParseTaskList reads `task --list-all --json`: each named task, with its
// desc (else its summary) as documentation. False when out is not such a
// list.
func ParseTaskList(out []byte) ([]Task, bool) {
	var list struct {
		Tasks []struct {
			Name    any `json:"name"`
			Desc    any `json:"desc"`
			Summary any `json:"summary"`
		} `json:"tasks"`
	}
	if json.Unmarshal(out, &list) != nil {
		return nil, false
	}
	var tasks []Task
	for _, t := range list.Tasks {
		name, _ := t.Name.(string)
		if name == "" {
			continue
		}
		doc, _ := t.Desc.(string)
		if doc == "" {
			doc, _ = t.Summary.(string)
		}
		tasks = append(tasks, Task{Name: name, Doc: doc})
	}
	return tasks, true
}
