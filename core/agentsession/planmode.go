package agentsession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/ai"
	"github.com/gopi-agent/gopi/core/ai/models"
	"github.com/gopi-agent/gopi/core/config"
	"github.com/gopi-agent/gopi/core/message"
	"github.com/gopi-agent/gopi/core/session"
	"github.com/gopi-agent/gopi/core/tool"
	"github.com/gopi-agent/gopi/core/tools/exitplan"
)

// PlanFile is where plan mode keeps the plan: PLAN.md in the session's
// scratch directory (tool.LocalScheme).
const PlanFile = tool.LocalScheme + "PLAN.md"

// The review of a plan: the question and its answers, as omp words them.
const (
	PlanReviewTitle = "Plan mode - next step"
	PlanApprove     = "Approve and execute"      // clear the context, then carry the plan out
	PlanApproveKeep = "Approve and keep context" // carry the plan out in this conversation
	PlanRefine      = "Refine plan"              // say what to change; planning goes on
	PlanStay        = "Stay in plan mode"        // nothing happens
	PlanRefineTitle = "What should be refined?"
)

// ErrPlanDisabled is returned by PlanMode.Enter when plan.enabled is off.
var ErrPlanDisabled = errors.New("Plan mode is disabled. Enable it in settings (plan.enabled).")

// PlanState is plan mode as the front ends show it.
type PlanState struct {
	Enabled      bool   `json:"enabled"`                // planning now: read-only tools, the plan model
	Paused       bool   `json:"paused"`                 // left without approving a plan (/plan again resumes)
	PlanFilePath string `json:"planFilePath,omitempty"` // the plan file while enabled (local://PLAN.md)
}

// PlanModeChanged announces that plan mode started, paused or ended
// ({type:"plan_mode_changed",enabled,paused,planFilePath?}).
type PlanModeChanged struct{ PlanState }

// PlanReview announces the plan the user is asked about, just before the
// question ({type:"plan_review",planFilePath,finalPlanFilePath,title,content}).
type PlanReview struct {
	PlanFilePath      string `json:"planFilePath"`      // the plan as the model wrote it
	FinalPlanFilePath string `json:"finalPlanFilePath"` // where it goes when approved
	Title             string `json:"title"`             // the model's title for it
	Content           string `json:"content"`           // the plan's text
	File              string `json:"file"`              // the plan file on disk (for an editor)
}

// EventType implementations.
func (PlanModeChanged) EventType() string { return "plan_mode_changed" }
func (PlanReview) EventType() string      { return "plan_review" }

// MarshalJSON encodes the plan_mode_changed object.
func (e PlanModeChanged) MarshalJSON() ([]byte, error) {
	return marshalTyped("plan_mode_changed", e.PlanState)
}

// MarshalJSON encodes the plan_review object.
func (e PlanReview) MarshalJSON() ([]byte, error) {
	type plain PlanReview
	return marshalTyped("plan_review", plain(e))
}

var (
	_ agent.Event = PlanModeChanged{}
	_ agent.Event = PlanReview{}
)

// PlanMode is the session's plan mode: while it is on, the model is the
// plan role's (modelRoles.plan, --plan, PI_PLAN_MODEL) when one is set,
// the file tools change only the plan file, ask waits without a timeout,
// and every prompt carries the planning instructions. The model ends
// planning with exit_plan_mode; the run then stops and the user reviews
// the plan through the session's UI (Tools.SetUI): approve it (in a
// fresh session, or keeping the conversation), refine it, or keep
// planning. Approval renames the plan to local://<title>.md, leaves plan
// mode (the model before it comes back) and starts its execution.
// Session.Plan returns it.
type PlanMode struct {
	s *Session

	mu           sync.Mutex
	state        PlanState
	entered      bool             // plan mode was on before in this session
	reentry      bool             // this time is not the first (the instructions say so)
	prev         *ai.Model        // the model before the plan model; nil when none was switched
	prevThinking ai.ThinkingLevel // its thinking level
	ready        *exitplan.Details
	// The plan a later prompt is reminded of (outside plan mode, once a
	// session): refPath, unless refSent.
	refPath string
	refSent bool
}

// Plan returns the session's plan mode.
func (s *Session) Plan() *PlanMode { return s.plan }

// State returns plan mode's state.
func (p *PlanMode) State() PlanState {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.state
}

// Allowed reports whether plan mode may be entered (plan.enabled).
func (p *PlanMode) Allowed() bool { return p.s.toolEnv.Settings.PlanEnabled }

// Enter starts plan mode: the plan file is local://PLAN.md, the plan
// role's model takes over, and the change is recorded in the session
// (mode_change "plan"). During a run the instructions are steered into
// it. A plan model that cannot be used leaves the model as it is and is
// reported in warning. It fails with ErrPlanDisabled when plan.enabled is
// off; entering twice changes nothing.
func (p *PlanMode) Enter() (warning string, err error) {
	if !p.Allowed() {
		return "", ErrPlanDisabled
	}
	s := p.s
	if s.toolEnv.LocalDir() == "" {
		return "", errors.New("plan mode needs a scratch directory for its plan file, and this session has none")
	}
	abs := s.toolEnv.Resolve(PlanFile)
	p.mu.Lock()
	if p.state.Enabled {
		p.mu.Unlock()
		return "", nil
	}
	reentry := p.entered
	p.entered, p.reentry = true, reentry
	p.state = PlanState{Enabled: true, PlanFilePath: PlanFile}
	p.ready = nil
	p.refPath, p.refSent = PlanFile, false
	warning = p.useRoleModel()
	p.mu.Unlock()
	s.toolEnv.SetPlanMode(&tool.PlanMode{File: PlanFile, Abs: abs})
	_, err = s.Store().Record(session.ModeSwitch("plan", map[string]string{"planFilePath": PlanFile}))
	if s.agent.IsRunning() {
		s.agent.Steer(p.contextMessage(reentry))
	}
	s.emit(PlanModeChanged{p.State()})
	return warning, err
}

// useRoleModel switches to the plan role's model, keeping the current
// one to come back to; it returns why it could not. Called with mu held.
func (p *PlanMode) useRoleModel() (warning string) {
	s := p.s
	ref := s.cfg.Settings.ModelRole(config.RolePlan)
	if ref == "" {
		return ""
	}
	q, level, hasLevel := models.ParseModelArg(ref)
	m, err := s.reg.Find(q)
	if err == nil && !s.reg.HasAuth(m) {
		err = fmt.Errorf("No API key for %s/%s", m.Provider, m.ID)
	}
	if err != nil {
		return "Failed to switch to plan model for plan mode: " + err.Error()
	}
	cur := s.agent.Model()
	p.prev, p.prevThinking = cur, s.agent.Thinking()
	if cur == nil || cur.Provider != m.Provider || cur.ID != m.ID {
		s.model.setTemporary(m)
	}
	if hasLevel {
		s.agent.SetThinking(models.ClampThinking(m, level))
	}
	return ""
}

// Exit ends plan mode without a plan being approved: the model and
// thinking level from before come back, the file tools are free again,
// and the session records mode_change "plan_paused" (paused: /plan
// resumes planning later) or "none". Outside plan mode it does nothing.
func (p *PlanMode) Exit(paused bool) error {
	s := p.s
	p.mu.Lock()
	if !p.state.Enabled {
		p.mu.Unlock()
		return nil
	}
	if p.prev != nil {
		if cur := s.agent.Model(); cur == nil || cur.Provider != p.prev.Provider || cur.ID != p.prev.ID {
			s.model.setTemporary(p.prev)
		}
		s.agent.SetThinking(p.prevThinking)
	}
	p.prev, p.ready = nil, nil
	p.state = PlanState{Paused: paused}
	p.mu.Unlock()
	s.toolEnv.SetPlanMode(nil)
	mode := "none"
	if paused {
		mode = "plan_paused"
	}
	_, err := s.Store().Record(session.ModeSwitch(mode, nil))
	s.emit(PlanModeChanged{p.State()})
	return err
}

// contextMessage is the hidden message with the planning instructions.
func (p *PlanMode) contextMessage(reentry bool) *message.Custom {
	_, err := os.Stat(p.s.toolEnv.Resolve(PlanFile))
	return &message.Custom{
		CustomType:  PlanContextType,
		Content:     message.PlainText(planContextText(PlanFile, err == nil, reentry)),
		Attribution: "agent",
		Timestamp:   nowMillis(),
	}
}

// promptMessage returns the instructions to send with a prompt while plan
// mode is on; outside it, the first prompt of a session whose scratch
// directory holds a plan (one left from planning, say before a resume)
// is sent with that plan, as a reference the model may go on with. Nil
// when there is nothing to send.
func (p *PlanMode) promptMessage() ai.Message {
	p.mu.Lock()
	on, reentry := p.state.Enabled, p.reentry
	ref := ""
	if !on && !p.refSent {
		ref = p.refPath
		if ref == "" {
			ref = PlanFile
		}
		p.refSent = true
	}
	p.mu.Unlock()
	if on {
		return p.contextMessage(reentry)
	}
	if ref == "" || p.s.opts.position != nil || p.s.toolEnv.LocalDir() == "" {
		return nil // a subagent shares its parent's scratch directory, not its plan
	}
	content, err := os.ReadFile(p.s.toolEnv.Resolve(ref))
	if err != nil {
		return nil
	}
	return &message.Custom{
		CustomType:  PlanReferenceType,
		Content:     message.PlainText(planReferenceText(ref, string(content))),
		Attribution: "agent",
		Timestamp:   nowMillis(),
	}
}

// resetReference makes the next prompt look for a plan again: the
// session changed (new, resumed, branched).
func (p *PlanMode) resetReference() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.refPath, p.refSent = PlanFile, false
}

// onToolEnd notes a successful exit_plan_mode call and ends the run after
// the turn, so the user reviews the plan before the model goes on.
func (p *PlanMode) onToolEnd(e agent.ToolExecutionEnd) {
	if e.ToolName != exitplan.Name || e.IsError || e.Result == nil {
		return
	}
	d, ok := e.Result.Details.(*exitplan.Details)
	if !ok {
		return
	}
	p.mu.Lock()
	if p.state.Enabled {
		c := *d
		p.ready = &c
	}
	p.mu.Unlock()
	p.s.agent.EndRunAfterTurn()
}

// remind asks the model again, once, when a planning run ended without
// ask or exit_plan_mode (and without an error or abort): the next answer
// must call a tool. Nothing happens when either tool is not offered.
func (p *PlanMode) remind(ctx context.Context) error {
	s := p.s
	p.mu.Lock()
	skip := !p.state.Enabled || p.ready != nil
	p.mu.Unlock()
	last := s.LastAssistant()
	if skip || last == nil || last.StopReason == ai.StopReasonError || last.StopReason == ai.StopReasonAborted || ctx.Err() != nil {
		return nil
	}
	for _, c := range last.ToolCalls() {
		if c.Name == "ask" || c.Name == exitplan.Name {
			return nil
		}
	}
	offered := 0
	for _, t := range s.agent.Tools() {
		if n := t.Definition().Name; n == "ask" || n == exitplan.Name {
			offered++
		}
	}
	if offered < 2 {
		return nil
	}
	s.agent.ForceToolChoice("", "plan mode: ask or exit_plan_mode")
	return s.prompt(ctx, planReminderText, PromptOptions{Synthetic: true})
}

// takeReady returns and clears the plan handed over by exit_plan_mode.
func (p *PlanMode) takeReady() *exitplan.Details {
	p.mu.Lock()
	defer p.mu.Unlock()
	d := p.ready
	p.ready = nil
	if !p.state.Enabled {
		return nil
	}
	return d
}

// review asks the user about the plan exit_plan_mode handed over, when
// there is one and a UI to ask through: approve (and carry it out),
// refine (the answer is the next prompt) or stay in plan mode.
func (p *PlanMode) review(ctx context.Context) error {
	d := p.takeReady()
	ui := p.s.toolEnv.UI
	if d == nil || ui == nil {
		return nil
	}
	file := p.s.toolEnv.Resolve(d.PlanFilePath)
	content, err := os.ReadFile(file)
	if err != nil {
		return fmt.Errorf("Plan file not found at %s", d.PlanFilePath)
	}
	p.s.emit(PlanReview{PlanFilePath: d.PlanFilePath, FinalPlanFilePath: d.FinalPlanFilePath, Title: d.Title, Content: string(content), File: file})
	choice, err := ui.Select(ctx, PlanReviewTitle, []string{PlanApprove, PlanApproveKeep, PlanRefine, PlanStay}, 0)
	if err != nil {
		if errors.Is(err, tool.ErrDialogCancelled) {
			return nil
		}
		return err
	}
	switch choice {
	case PlanApprove, PlanApproveKeep:
		// The user may have edited the plan while the question was open.
		latest, err := os.ReadFile(file)
		if err != nil {
			return fmt.Errorf("Plan file not found at %s", d.PlanFilePath)
		}
		return p.Approve(ctx, *d, string(latest), choice == PlanApproveKeep)
	case PlanRefine:
		text, err := ui.Input(ctx, PlanRefineTitle, "", 0)
		if err != nil || strings.TrimSpace(text) == "" {
			return nil
		}
		return p.s.Prompt(ctx, strings.TrimSpace(text), PromptOptions{})
	}
	return nil
}

// Approve carries out an approved plan: the plan file is renamed to
// d.FinalPlanFilePath, plan mode ends (the model from before it comes
// back), the conversation starts afresh in a new session unless
// keepContext (the plan is copied into the new session's scratch
// directory), and the plan is sent to the model to execute with every
// tool. content is the plan's text.
func (p *PlanMode) Approve(ctx context.Context, d exitplan.Details, content string, keepContext bool) error {
	s := p.s
	if err := p.renameApproved(d); err != nil {
		return fmt.Errorf("Failed to finalize approved plan: %w", err)
	}
	if err := p.Exit(false); err != nil {
		return err
	}
	if !keepContext {
		if _, err := s.Tree().New(ctx, ""); err != nil {
			return fmt.Errorf("Failed to finalize approved plan: %w", err)
		}
		dst := s.toolEnv.Resolve(d.FinalPlanFilePath)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return fmt.Errorf("Failed to finalize approved plan: %w", err)
		}
		if err := tool.WriteFileAtomic(dst, []byte(content), 0o644); err != nil {
			return fmt.Errorf("Failed to finalize approved plan: %w", err)
		}
	}
	// The execution order carries the plan: no reference to it as well.
	p.mu.Lock()
	p.refPath, p.refSent = d.FinalPlanFilePath, true
	p.mu.Unlock()
	todos := false
	for _, t := range s.agent.Tools() {
		todos = todos || t.Definition().Name == "todo_write"
	}
	return s.Prompt(ctx, planApprovedText(d.FinalPlanFilePath, content, keepContext, todos), PromptOptions{Synthetic: true})
}

// renameApproved moves the plan file to the approved plan's name.
func (p *PlanMode) renameApproved(d exitplan.Details) error {
	env := p.s.toolEnv
	for _, u := range []string{d.PlanFilePath, d.FinalPlanFilePath} {
		if !strings.HasPrefix(u, tool.LocalScheme) {
			return fmt.Errorf("Approved plan path must use local:// (received %s).", u)
		}
	}
	src, dst := env.Resolve(d.PlanFilePath), env.Resolve(d.FinalPlanFilePath)
	if src == dst {
		return nil
	}
	switch info, err := os.Stat(dst); {
	case err == nil && info.Mode().IsRegular():
		return fmt.Errorf("Plan destination already exists at %s. Choose a different title and call exit_plan_mode again.", d.FinalPlanFilePath)
	case err == nil:
		return fmt.Errorf("Plan destination exists but is not a file: %s", d.FinalPlanFilePath)
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		return fmt.Errorf("Failed to rename approved plan from %s to %s: %w", d.PlanFilePath, d.FinalPlanFilePath, err)
	}
	env.Caches.Invalidate(src)
	env.Caches.Invalidate(dst)
	return nil
}

// Restore brings back the plan mode the session file last recorded, as
// a front end does for a resumed session: "plan" enters plan mode again
// (restored reports it, with Enter's warning and error), "plan_paused"
// shows it paused. It does nothing once plan mode was entered in this
// session, so a /plan typed meanwhile is not undone.
func (p *PlanMode) Restore() (restored bool, warning string, err error) {
	mode, _ := p.RecordedMode()
	p.mu.Lock()
	used := p.entered
	if !used && mode == "plan_paused" {
		p.state.Paused = true
	}
	p.mu.Unlock()
	switch {
	case used:
		return false, "", nil
	case mode == "plan" && p.Allowed():
		warning, err = p.Enter()
		return true, warning, err
	case mode == "plan_paused":
		p.s.emit(PlanModeChanged{p.State()})
	}
	return false, "", nil
}

// planData is a plan mode_change entry's data.
type planData struct {
	PlanFilePath string `json:"planFilePath"`
}

// RecordedMode returns the plan mode the session file last recorded:
// "plan" (with its plan file), "plan_paused" or "" for none. A front end
// restores plan mode from it when a session is resumed.
func (p *PlanMode) RecordedMode() (mode, planFile string) {
	c := p.s.Store().BuildContext()
	switch c.Mode {
	case "plan":
		var d planData
		_ = json.Unmarshal(c.ModeData, &d)
		return "plan", d.PlanFilePath
	case "plan_paused":
		return "plan_paused", ""
	}
	return "", ""
}
