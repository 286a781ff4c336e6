package tui

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gopi-agent/gopi/core/agent"
	"github.com/gopi-agent/gopi/core/agentsession"
	"github.com/gopi-agent/gopi/core/ai"
)

// Timing of the UI.
const (
	tickEvery   = 100 * time.Millisecond // spinner and elapsed time while working
	doublePress = time.Second            // second Ctrl+C / Esc within this
	noticeFor   = 4 * time.Second        // how long a notice stays
	retryNotice = "Retrying in"          // how the notice of a retry starts
	historyShow = 60                     // messages of a loaded conversation printed at start
)

var spinner = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// Messages of the program (besides Bubble Tea's own).
type (
	eventMsg      struct{ e agent.Event } // a session event
	promptDoneMsg struct{ err error }     // a prompt's run ended
	tickMsg       struct{}                // the spinner ticks
	statusMsg     struct {                // fresh footer facts, from the seq-th refresh
		st  status
		seq uint64
	}
	printMsg    struct{ notices []string } // informational lines to print (from a command)
	errMsg      struct{ err error }        // a command failed
	noticeMsg   struct{ text string }      // a transient notice
	editorMsg   struct{ text string }      // text given back to the editor
	bashDoneMsg struct {
		res agentsession.BashResult
		cmd string
		err error
	}
	reloadMsg  struct{ marker string }  // the conversation changed: print it again
	idleMsg    struct{ gen int }        // the user has been away since activity gen
	restoreMsg struct{ texts []string } // queued messages given back to the editor after an abort
	busyMsg    struct{ what string }    // a long command started ("" when it ended)
)

// liveTool is a tool call running now.
type liveTool struct {
	call    *ai.ToolCall
	partial string
	details any // the latest partial result's details
}

// model is the program's state.
type model struct {
	ctx  context.Context
	s    Session
	opts Options
	th   theme
	r    *renderer

	width, height int
	ed            editor

	running     bool
	prompting   int // prompts sent to the session whose promptDoneMsg has not come back
	started     time.Time
	spin        int
	ticking     bool
	live        *ai.AssistantMessage
	st          stream
	tools       map[string]*liveTool
	order       []string                 // running tool call ids, in start order
	calls       map[string]*ai.ToolCall  // calls seen, for their results
	busy        string                   // a long command running (compaction, handoff, summary, bash, login)
	cancelLogin func()                   // ends the /login running, if any
	ui          *dialogUI                // the dialogs' side of the program (set by Run)
	plan        agentsession.PlanState   // plan mode, for the footer
	planReview  *agentsession.PlanReview // the plan last shown for review (ctrl+g edits its file)
	expand      bool                     // thinking shown in full
	picker      *picker
	dash        dashboard           // the open control centre (/extensions, /agents), in the editor's place
	dialog      *dialog             // the open dialog (its picker, for select and confirm)
	dialogs     []dialogMsg         // dialogs waiting for it to close
	console     *console            // the open console of a PTY run
	extStatus   map[string]string   // footer entries set through the UI
	widgets     map[string][]string // lines shown above the editor through the UI
	extTitle    string              // window title set through the UI
	status      status
	statusSeq   atomic.Uint64 // refreshes started
	statusSeen  uint64        // the newest refresh applied to status
	notice      string
	noticeAt    time.Time
	ctrlCAt     time.Time
	escAt       time.Time
	quitting    bool
	record      *[]string // printed blocks, when Options.Record is set
	printed     bool      // something was printed already
	gap         bool      // the next print starts a new section (a blank line before it)
	lastCard    bool      // the last thing printed was a tool card
	textShown   bool      // the streamed message printed some text already
	pending     []string  // initial messages still to send
	activity    int       // counts key presses and runs: an idle check is stale once it changed
	outbox      []string  // printed text not yet handed to the terminal
	edDrawn     editorDrawing
	// redrawAll asks the next frame to clear the screen and the
	// scrollback and write the conversation printed so far again (Ctrl+L;
	// tea.ClearScreen would leave the screen's idea of the terminal wrong).
	redrawAll bool
	// replacePrinted, with redrawAll, drops the text printed so far: what
	// this frame prints takes its place (Ctrl+O's redraw of the cards).
	replacePrinted bool

	loop         loopState // /loop
	btwCancel    func()    // stops the /btw question in flight
	btwQuestion  string    // the /btw question in flight
	backgrounded bool      // /background: the UI ended, the agent finishes its work

	pop    *popup   // the completion list under the editor
	popReq int      // the latest @ file search (older answers are dropped)
	keys   keyState // what omp's keys keep between presses (keystate.go)
}

func newModel(ctx context.Context, s Session, opts Options) *model {
	th := newTheme(true, opts.NoColor)
	m := &model{ctx: ctx, s: s, opts: opts, th: th, r: &renderer{th: th, width: 80, custom: customRenderer(ctx, opts), tools: opts.ToolRenderers, ctx: ctx}, width: 80, height: 24,
		ed: newEditor(th), tools: map[string]*liveTool{}, calls: map[string]*ai.ToolCall{}, pending: opts.Messages,
		extStatus: map[string]string{}, widgets: map[string][]string{}}
	if opts.Record != nil {
		m.record = opts.Record
	}
	m.ed.history = loadHistory(ctx, opts.History)
	for _, msg := range s.Messages() {
		if u, ok := msg.(*ai.UserMessage); ok {
			m.ed.remember(userText(u.Content))
		}
	}
	m.ed.histPos = len(m.ed.history)
	m.ed.save = saveHistory(ctx, opts.History, opts.Cwd)
	m.status = quickStatus(s, opts)
	return m
}

// Init prints the conversation so far, asks for the window size and the
// background colour, and sends the messages given on the command line.
func (m *model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestWindowSize, m.refreshStatus()}
	if !m.opts.NoColor {
		cmds = append(cmds, tea.RequestBackgroundColor)
	}
	if m.opts.Welcome {
		cmds = append(cmds, m.printSection(m.welcome(m.width)))
	}
	if len(m.opts.Warnings) > 0 {
		var lines []string
		for _, w := range m.opts.Warnings {
			lines = append(lines, m.r.warning(w))
		}
		cmds = append(cmds, m.printSection(strings.Join(lines, "\n")))
	}
	if c := m.printHistory(""); c != nil {
		cmds = append(cmds, c)
	}
	cmds = append(cmds, m.restorePlanMode())
	if len(m.pending) > 0 {
		first := m.pending[0]
		m.pending = m.pending[1:]
		cmds = append(cmds, func() tea.Msg { return submitMsg{text: first} })
	}
	return tea.Batch(cmds...)
}

// submitMsg sends a message as if typed.
type submitMsg struct{ text string }

// Update handles one message.
func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.r.width = msg.Width
		m.ed.setWidth(msg.Width)
		return m, nil
	case tea.BackgroundColorMsg:
		m.setTheme(msg.IsDark())
		return m, nil
	case tea.KeyPressMsg:
		m.activity++
		return m, m.onKey(msg)
	case restoreMsg:
		if len(msg.texts) > 0 {
			text := strings.Join(msg.texts, "\n\n")
			if !m.ed.empty() {
				text += "\n\n" + m.ed.text()
			}
			m.ed.set(text)
			m.setNotice("The queued messages are back in the editor")
		}
		return m, nil
	case noticeExpiredMsg:
		// A retry's notice stays until the retry ends (AutoRetryEnd).
		if m.noticeAt.Equal(msg.at) && !strings.HasPrefix(m.notice, retryNotice) {
			m.notice = ""
		}
		return m, nil
	case idleMsg:
		if msg.gen != m.activity || m.running || m.busy != "" || m.dialog != nil {
			return m, nil
		}
		ctx, s := m.ctx, m.s
		return m, func() tea.Msg { s.Compactor().RunIdle(ctx); return nil }
	case tea.PasteMsg:
		if m.dash != nil && m.picker == nil && m.dialog == nil {
			m.dash.paste(msg.Content)
			return m, nil
		}
		if m.picker != nil {
			m.picker.query += strings.ReplaceAll(msg.Content, "\n", " ")
			return m, nil
		}
		m.ed.paste(msg.Content)
		return m, nil
	case eventMsg:
		return m, m.onEvent(msg.e)
	case submitMsg:
		return m, m.submit(msg.text)
	case promptDoneMsg:
		m.prompting--
		var cmds []tea.Cmd
		if msg.err != nil && m.ctx.Err() == nil {
			cmds = append(cmds, m.printSection(m.r.errorLine(msg.err.Error())))
		}
		if len(m.pending) > 0 {
			next := m.pending[0]
			m.pending = m.pending[1:]
			cmds = append(cmds, func() tea.Msg { return submitMsg{text: next} })
		}
		cmds = append(cmds, m.refreshStatus(), m.loopAfterRun())
		return m, tea.Batch(cmds...)
	case loopResendMsg:
		return m, m.onLoopResend(msg)
	case loopSendMsg:
		return m, m.onLoopSend(msg)
	case btwMsg:
		return m, m.onBtw(msg)
	case marketplaceMsg:
		return m, m.onMarketplace(msg)
	case memoryMsg:
		return m, m.onMemory(msg)
	case browserModeMsg:
		return m, m.onBrowserMode(msg)
	case movedMsg:
		return m, m.onMoved(msg.dir)
	case editedMsg:
		return m, m.onEdited(msg)
	case imagePastedMsg:
		return m, m.onImagePasted(msg)
	case resumePickerMsg:
		return m, m.cmdResume("")
	case tickMsg:
		m.spin++
		if m.running || m.busy != "" || m.btwCancel != nil {
			return m, m.tick()
		}
		m.ticking = false
		return m, nil
	case statusMsg:
		// Refreshes run concurrently; a slow early one (the first loads
		// a tokenizer) must not overwrite a later one's fresher facts.
		if msg.seq > m.statusSeen {
			m.statusSeen = msg.seq
			m.status = msg.st
		}
		return m, nil
	case printMsg:
		var blocks []string
		for _, n := range msg.notices {
			blocks = append(blocks, m.r.notice(n))
		}
		return m, m.printSection(blocks...)
	case errMsg:
		return m, m.printSection(m.r.errorLine(msg.err.Error()))
	case noticeMsg:
		m.setNotice(msg.text)
		return m, nil
	case planEditorMsg:
		return m, m.onPlanEditor(msg)
	case planEnteredMsg:
		return m, m.onPlanEntered(msg)
	case editorMsg:
		if m.ed.empty() {
			m.ed.set(msg.text)
		}
		return m, nil
	case busyMsg:
		m.busy = msg.what
		if msg.what != "" {
			return m, m.tick()
		}
		return m, m.refreshStatus()
	case bashDoneMsg:
		m.busy = ""
		if msg.err != nil {
			return m, m.printSection(m.r.errorLine(msg.err.Error()))
		}
		return m, tea.Batch(m.printSection(m.r.bashRun(msg.cmd, msg.res.Output, msg.res.ExitCode, msg.res.Cancelled)), m.refreshStatus())
	case consoleMsg:
		return m, m.onConsole(msg)
	case dialogMsg:
		return m, m.openDialog(msg)
	case dialogCloseMsg:
		return m, m.closeDialog(msg.id)
	case uiMsg:
		return m, m.onUI(msg)
	case filesMsg:
		m.pickFile(msg)
		return m, nil
	case extItemsMsg:
		if m.dash == msg.d {
			msg.d.loaded(msg.items)
		}
		return m, nil
	case agentsMsg:
		if m.dash == msg.d {
			msg.d.loaded(msg)
		}
		return m, nil
	case savedMsg:
		return m, msg.s.done(msg, m)
	case dashMsg:
		if m.dash == msg.d {
			return m, msg.apply()
		}
		return m, nil
	case reloadMsg:
		m.live, m.st = nil, stream{}
		clear(m.tools)
		m.order = nil
		return m, tea.Batch(m.printHistory(msg.marker), m.refreshStatus())
	}
	var cmd tea.Cmd
	m.ed.ta, cmd = m.ed.ta.Update(msg)
	return m, cmd
}

// print prints blocks above the program, into the terminal's scrollback:
// the next frame writes them (program.draw).
func (m *model) print(blocks ...string) tea.Cmd {
	var keep []string
	for _, b := range blocks {
		if b != "" {
			keep = append(keep, b)
		}
	}
	if len(keep) == 0 {
		return nil
	}
	if m.gap && m.printed {
		keep = append([]string{""}, keep...)
	}
	m.gap, m.printed = false, true
	text := strings.Join(keep, "\n")
	if m.record != nil {
		*m.record = append(*m.record, ansi.Strip(text))
	}
	m.outbox = append(m.outbox, text)
	return nil
}

// takePrinted returns the text printed since the last call, for the
// screen to write above the frame.
func (m *model) takePrinted() string {
	text := strings.Join(m.outbox, "\n")
	m.outbox = nil
	return text
}

// commitLive prints the unfinished part of the answer being streamed, as
// far as it came: the program ends in the middle of it.
func (m *model) commitLive() {
	text, thinking := m.st.tail(m.live)
	if strings.TrimSpace(text) == "" {
		return
	}
	if thinking {
		m.print(m.r.thinking(text, m.expand))
	} else {
		m.print(m.r.markdown(text))
	}
	m.live, m.st = nil, stream{}
}

// printSection prints blocks as a section of their own: a blank line
// before and after.
func (m *model) printSection(blocks ...string) tea.Cmd {
	m.gap = true
	cmd := m.print(blocks...)
	m.gap, m.lastCard = true, false
	return cmd
}

// printHistory prints the conversation the model sees (its newest
// historyShow messages), after a marker when one is given.
func (m *model) printHistory(marker string) tea.Cmd { return m.printMessages(marker, historyShow) }

// printMessages prints the newest show messages of the conversation the
// model sees, after a marker when one is given.
func (m *model) printMessages(marker string, show int) tea.Cmd {
	msgs := m.s.Messages()
	var blocks []string
	if marker != "" {
		blocks = append(blocks, m.r.marker(marker))
	}
	if len(msgs) > show {
		blocks = append(blocks, m.r.notice("… "+itoa(len(msgs)-show)+" earlier messages (gopi --export shows them all)"))
	}
	for _, msg := range msgs {
		if a, ok := msg.(*ai.AssistantMessage); ok {
			for _, c := range a.ToolCalls() {
				m.calls[c.ID] = c
			}
		}
	}
	prevResult := false
	for _, msg := range msgs[max(0, len(msgs)-show):] {
		b := m.r.historyMessage(msg, m.calls, m.expand)
		if b == "" {
			continue
		}
		_, isResult := msg.(*ai.ToolResultMessage)
		if _, isUser := msg.(*ai.UserMessage); (isUser || (!isResult && prevResult)) && len(blocks) > 0 {
			b = "\n" + b
		}
		prevResult = isResult
		blocks = append(blocks, b)
	}
	return m.printSection(blocks...)
}

// tick keeps the spinner going while work runs.
func (m *model) tick() tea.Cmd {
	if m.ticking {
		return nil
	}
	m.ticking = true
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return tickMsg{} })
}

func (m *model) setNotice(text string) {
	m.notice, m.noticeAt = clean(text), time.Now()
}

// View draws the live area: the unfinished answer, running tools, a
// notice, the working line, a picker, the editor and the footer.
func (m *model) View() tea.View {
	if m.quitting {
		return tea.NewView("")
	}
	var parts []string
	if m.printed {
		parts = append(parts, "") // a blank line under the transcript
	}
	budget := m.height - m.ed.ta.Height() - 4
	switch {
	case m.picker != nil:
		budget = max(4, budget)
		parts = append(parts, m.picker.view(m.th, m.width, min(budget, 20)))
	case m.dialog != nil:
		parts = append(parts, m.dialogView())
	case m.console != nil:
		parts = append(parts, m.consoleView())
	default:
		if tail := m.liveTail(max(3, budget/2)); tail != "" {
			parts = append(parts, tail)
		}
		for _, id := range m.order {
			if t := m.tools[id]; t != nil {
				parts = append(parts, m.r.liveCard(t.call, t.partial, t.details, spinner[m.spin%len(spinner)]))
			}
		}
	}
	for _, key := range sortedKeys(m.widgets) {
		for _, l := range m.widgets[key] {
			parts = append(parts, ansi.Truncate(clean(l), max(10, m.width-1), "…"))
		}
	}
	if m.notice != "" && (time.Since(m.noticeAt) < noticeFor || strings.HasPrefix(m.notice, retryNotice)) {
		parts = append(parts, m.th.warn.Render(ansi.Wrap(m.notice, max(10, m.width-1), "")))
	}
	if p := m.pendingView(); p != "" {
		parts = append(parts, p)
	}
	if b := m.btwLine(); b != "" {
		parts = append(parts, b)
	}
	if w := m.workingLine(); w != "" {
		parts = append(parts, w)
	}
	foot := m.footer()
	if m.dash != nil && m.picker == nil && m.dialog == nil {
		// The centre takes the editor's place and the rest of the screen.
		room := m.height - lineCount(foot)
		for _, p := range parts {
			room -= lineCount(p)
		}
		parts = append(parts, m.dash.view(m.th, m.width, max(8, room)))
	} else {
		parts = append(parts, m.editorView())
		if pv := m.popupView(); pv != "" && m.picker == nil && m.dialog == nil {
			parts = append(parts, pv)
		}
	}
	parts = append(parts, foot)
	v := tea.NewView(strings.Join(parts, "\n"))
	v.WindowTitle = m.title()
	return v
}

// lineCount is the number of lines text takes.
func lineCount(text string) int { return strings.Count(text, "\n") + 1 }

// liveTail draws the unfinished part of the answer being streamed, its
// last lines at most. Only the rows are cleaned of control characters:
// the cost stays that of the rows shown.
func (m *model) liveTail(maxLines int) string {
	rows, thinking := m.st.tailRows(m.live, max(10, m.width-1), maxLines+1)
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1] // the tail's closing newlines
	}
	rows = rows[max(0, len(rows)-maxLines):]
	if !slices.ContainsFunc(rows, func(r string) bool { return strings.TrimSpace(r) != "" }) {
		return ""
	}
	if thinking && !m.expand {
		return m.th.dim.Render("∴ Thinking…")
	}
	for i, r := range rows {
		rows[i] = clean(strings.ReplaceAll(r, "\r", " ")) // a line break once complete (modelText)
	}
	out := strings.Join(rows, "\n")
	if thinking {
		return m.th.dim.Render(out)
	}
	return out
}

// workingLine says what runs and how to stop it.
func (m *model) workingLine() string {
	spin := m.th.accent.Render(spinner[m.spin%len(spinner)])
	switch {
	case m.busy != "":
		return spin + " " + m.busy + m.th.dim.Render(" · esc cancels")
	case m.running:
		secs := int(time.Since(m.started).Seconds())
		hint := " · esc aborts · enter steers · alt+enter follows up"
		if m.status.queued > 0 {
			hint = " · " + itoa(m.status.queued) + " queued" + hint
		}
		return spin + " Working… " + itoa(secs) + "s" + m.th.dim.Render(hint)
	}
	return ""
}

// title is the terminal window's title.
func (m *model) title() string {
	if m.extTitle != "" {
		return clean(m.extTitle)
	}
	name := m.status.sessionName
	if name == "" {
		name = filepath.Base(m.status.cwd)
	}
	if m.running {
		return "gopi ⋯ " + name
	}
	return "gopi — " + name
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
