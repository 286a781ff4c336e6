package task

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/job"
)

// startJobs runs each task of a call as a background job (async.enabled
// and an agent that is not blocking): the call returns at once, the parent
// goes on working, and each task's result reaches the model when it is
// done (or through the job tool). The jobs outlive the call; they share
// one task.maxConcurrency limit and end with the session or a job cancel.
func (t *Tool) startJobs(ctx context.Context, h Host, a *Agent, p params, ts config.Task, pos Position, ids []string, onUpdate tool.UpdateFunc) (*tool.Result, error) {
	m := t.jobs
	slots := make(chan struct{}, max(ts.MaxConcurrency, 1))
	batch := t.newRun(h, a, p, ts, pos, ids, nil) // the batch's progress, for the call's result
	var started, failed []string
	for i, it := range p.Tasks {
		if ctx.Err() != nil {
			failed = append(failed, it.ID+": cancelled before scheduling")
			batch.finish(i, func(res *Result) { res.Status, res.Aborted = StatusAborted, true })
			continue
		}
		one := p
		one.Tasks = []taskItem{it}
		id, err := m.Register("task", ids[i], func(jctx context.Context, _ string, progress func(string, any)) (string, error) {
			select {
			case slots <- struct{}{}:
			case <-jctx.Done():
				return "", errors.New("Aborted before execution")
			}
			defer func() { <-slots }()
			progress(fmt.Sprintf("Running background task %s...", it.ID), nil)
			r := t.newRun(h, a, one, ts, pos, ids[i:i+1], func(u *tool.Result) { progress(u.FirstText(), u.Details) })
			r.runAll(jctx)
			res := r.final()
			text := res.FirstText()
			if res.IsError {
				return "", errors.New(text)
			}
			return text, nil
		}, job.RegisterOptions{ID: ids[i]})
		if err != nil {
			failed = append(failed, it.ID+": "+err.Error())
			batch.finish(i, func(res *Result) { res.Status, res.Error = StatusFailed, err.Error() })
			continue
		}
		started = append(started, id)
	}
	if len(started) == 0 {
		return nil, tool.Errorf("Failed to start background task jobs: %s", strings.Join(failed, "; "))
	}
	noun := "jobs"
	if len(started) == 1 {
		noun = "job"
	}
	text := fmt.Sprintf("Started %d background task %s using %s: %s.", len(started), noun, a.Name, strings.Join(started, ", "))
	if len(failed) > 0 {
		text += fmt.Sprintf(" Failed to schedule %d: %s.", len(failed), strings.Join(failed, "; "))
	}
	text += " Each result is delivered when it is done; the job tool polls or cancels them."
	batch.mu.Lock()
	progress := make([]Progress, len(batch.results))
	for i, res := range batch.results {
		progress[i] = res.Progress
	}
	batch.mu.Unlock()
	return &tool.Result{
		Content: []tool.Content{tool.Text(text)},
		Details: &Details{Agent: a.Name, Results: []Result{}, Progress: progress, Async: &Async{State: "running", JobID: started[0], Type: "task"}},
	}, nil
}
