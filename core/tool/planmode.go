package tool

import "path/filepath"

// PlanMode is plan mode as the tools see it: while it is on, the file
// tools may change only the plan file, and the ask tool waits for its
// answer without a timeout. The session sets it (SetPlanMode) when plan
// mode starts and clears it when plan mode ends.
type PlanMode struct {
	// File is the plan file as the model names it ("local://PLAN.md").
	File string
	// Abs is the plan file's absolute path (File resolved).
	Abs string
}

// SetPlanMode turns plan mode on with p, or off with nil.
func (e *Env) SetPlanMode(p *PlanMode) {
	if p != nil {
		c := *p
		c.Abs = filepath.Clean(c.Abs)
		p = &c
	}
	e.plan.Store(p)
}

// PlanMode returns plan mode while it is on, else nil.
func (e *Env) PlanMode() *PlanMode { return e.plan.Load() }

// planPath is abs, or the plan file when plan mode is on and abs has the
// plan file's name: a bare "PLAN.md" written by the model lands in the
// plan file rather than in the project.
func (e *Env) planPath(abs string) string {
	p := e.PlanMode()
	if p == nil || abs == p.Abs || filepath.Base(abs) != filepath.Base(p.Abs) {
		return abs
	}
	return p.Abs
}

// CheckPlanWrite refuses, while plan mode is on, a change to any file but
// the plan file (abs is the file's absolute path, as Resolve returns it).
// The file tools call it before they change a file.
func (e *Env) CheckPlanWrite(abs string) error {
	p := e.PlanMode()
	if p == nil || filepath.Clean(abs) == p.Abs {
		return nil
	}
	return Errorf("Plan mode: only the plan file may be modified (%s).", p.File)
}

// CheckPlanDelete refuses deleting a file while plan mode is on.
func (e *Env) CheckPlanDelete() error {
	if e.PlanMode() == nil {
		return nil
	}
	return Errorf("Plan mode: deleting files is not allowed.")
}

// CheckPlanRename refuses renaming a file while plan mode is on.
func (e *Env) CheckPlanRename() error {
	if e.PlanMode() == nil {
		return nil
	}
	return Errorf("Plan mode: renaming files is not allowed.")
}
