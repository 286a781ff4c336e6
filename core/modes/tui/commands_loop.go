package tui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gopi-agent/gopi/core/compaction"
)

// Loop mode (/loop): the next prompt the user sends is sent again each
// time the agent finishes, until /loop is typed again, the limit is
// reached (a count of runs or a time), or Esc pauses it (the prompt is
// forgotten; the next one typed starts the loop again).

// loopPause is the wait before a prompt is sent again: time to press Esc.
const loopPause = 800 * time.Millisecond

// loopLimit bounds a loop: a number of runs, or a time.
type loopLimit struct {
	runs int           // runs allowed (0: limited by time)
	d    time.Duration // time allowed (0: limited by runs)
}

// loopState is loop mode's state.
type loopState struct {
	on       bool
	prompt   string     // the prompt repeated ("" until one is sent)
	limit    *loopLimit // nil: no limit
	left     int        // runs left, for a count limit
	deadline time.Time  // end, for a time limit
	gen      int        // counts loop changes: a pending resend from before is stale
}

// loopResendMsg sends the loop's prompt again, unless the loop changed
// since (gen).
type loopResendMsg struct{ gen int }

// loopUnits are the time units /loop takes.
var loopUnits = map[string]time.Duration{
	"s": time.Second, "sec": time.Second, "secs": time.Second, "second": time.Second, "seconds": time.Second,
	"m": time.Minute, "min": time.Minute, "mins": time.Minute, "minute": time.Minute, "minutes": time.Minute,
	"h": time.Hour, "hr": time.Hour, "hrs": time.Hour, "hour": time.Hour, "hours": time.Hour,
}

// errLoopUsage is /loop's usage line.
var errLoopUsage = errors.New("Usage: /loop [count|duration], e.g. /loop 10, /loop 10m, /loop 2 hours")

// parseLoopLimit reads /loop's argument: nothing (no limit), a count of
// runs ("10"), or a duration ("10m", "10min", "10 minutes").
func parseLoopLimit(args string) (*loopLimit, error) {
	f := strings.Fields(strings.ToLower(args))
	var num, unit string
	switch len(f) {
	case 0:
		return nil, nil
	case 1:
		i := strings.IndexFunc(f[0], func(r rune) bool { return r < '0' || r > '9' })
		if i < 0 {
			i = len(f[0])
		}
		num, unit = f[0][:i], f[0][i:]
	case 2:
		num, unit = f[0], f[1]
	default:
		return nil, errLoopUsage
	}
	if num == "" || strings.TrimLeft(num, "0123456789") != "" {
		return nil, errLoopUsage
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 {
		return nil, errors.New("the loop's count or duration must be a positive whole number")
	}
	if unit == "" && len(f) == 1 {
		return &loopLimit{runs: n}, nil
	}
	u, ok := loopUnits[unit]
	if !ok {
		return nil, errors.New("the loop's duration unit must be seconds, minutes or hours (s, m, h)")
	}
	if time.Duration(n) > time.Duration(1<<62)/u {
		return nil, errors.New("the loop's duration is too long")
	}
	return &loopLimit{d: time.Duration(n) * u}, nil
}

// String describes the limit: "3 repeats", "10 minutes".
func (l *loopLimit) String() string {
	plural := func(n int64, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	switch {
	case l.runs > 0:
		return plural(int64(l.runs), "repeat")
	case l.d%time.Hour == 0:
		return plural(int64(l.d/time.Hour), "hour")
	case l.d%time.Minute == 0:
		return plural(int64(l.d/time.Minute), "minute")
	}
	return plural(int64(l.d/time.Second), "second")
}

// cmdLoop turns loop mode on (with an optional limit) or off.
func (m *model) cmdLoop(args string) tea.Cmd {
	if m.loop.on {
		return m.loopOff("Loop mode disabled")
	}
	limit, err := parseLoopLimit(args)
	if err != nil {
		return m.printSection(m.r.errorLine(err.Error()))
	}
	m.loop = loopState{on: true, limit: limit, gen: m.loop.gen + 1}
	what := ""
	if limit != nil {
		what = " Limited to " + limit.String() + "."
		m.loop.left = limit.runs
		if limit.d > 0 {
			m.loop.deadline = time.Now().Add(limit.d)
		}
	}
	return m.printSection(m.r.notice("Loop mode enabled." + what + " Your next prompt is sent again each time the agent finishes; Esc pauses the loop, /loop again turns it off."))
}

// loopOff turns loop mode off and says why.
func (m *model) loopOff(why string) tea.Cmd {
	m.loop = loopState{gen: m.loop.gen + 1}
	return m.printSection(m.r.notice(why))
}

// loopSent notes a prompt the user sent: in loop mode it becomes the one
// repeated.
func (m *model) loopSent(text string) {
	if m.loop.on {
		m.loop.prompt = text
	}
}

// loopPauseOnEsc forgets the loop's prompt (Esc): the loop waits for the
// next one.
func (m *model) loopPauseOnEsc() {
	if m.loop.on && m.loop.prompt != "" {
		m.loop.prompt = ""
		m.loop.gen++
		m.setNotice("Loop paused: the next prompt you send starts it again (/loop turns it off)")
	}
}

// loopAfterRun schedules the next run of the loop once a run ended.
func (m *model) loopAfterRun() tea.Cmd {
	if !m.loop.on || m.loop.prompt == "" || m.prompting > 0 {
		return nil
	}
	gen := m.loop.gen
	return tea.Tick(loopPause, func(time.Time) tea.Msg { return loopResendMsg{gen: gen} })
}

// onLoopResend sends the loop's prompt again, within its limit.
func (m *model) onLoopResend(msg loopResendMsg) tea.Cmd {
	if msg.gen != m.loop.gen || !m.loop.on || m.loop.prompt == "" || m.running || m.prompting > 0 {
		return nil
	}
	if l := m.loop.limit; l != nil {
		if l.runs > 0 {
			if m.loop.left <= 0 {
				return m.loopOff("Loop limit reached: loop mode disabled")
			}
			m.loop.left--
		} else if !time.Now().Before(m.loop.deadline) {
			return m.loopOff("Loop time limit reached: loop mode disabled")
		}
	}
	return m.loopStep(m.s.Config().Settings.String("loop.mode"))
}

// loopSendMsg sends the loop's prompt once the step before it (a
// compaction, a new session) is done.
type loopSendMsg struct{ gen int }

// loopStep does what the loop.mode setting asks between two runs — prompt:
// nothing; compact: compact the conversation; reset: start a new session —
// and then sends the prompt.
func (m *model) loopStep(mode string) tea.Cmd {
	gen, ctx, s := m.loop.gen, m.ctx, m.s
	var what string
	var step func() error
	switch mode {
	case "compact":
		what = "Compacting before the next loop run…"
		step = func() error { _, err := s.Compactor().Compact(ctx, ""); return err }
	case "reset":
		what = "Starting a new session for the next loop run…"
		step = func() error { _, err := s.Tree().New(ctx, ""); return err }
	default:
		return m.prompt(m.loop.prompt)
	}
	return m.busyCmd(what, func() tea.Msg {
		if err := step(); err != nil && !errors.Is(err, compaction.ErrTooSmall) {
			return errMsg{fmt.Errorf("loop: %w", err)}
		}
		msgs := []tea.Msg{loopSendMsg{gen: gen}}
		if mode == "reset" {
			msgs = append([]tea.Msg{reloadMsg{marker: "new session (loop)"}}, msgs...)
		}
		return batch(msgs...)
	})
}

// onLoopSend sends the loop's prompt, unless the loop changed meanwhile.
func (m *model) onLoopSend(msg loopSendMsg) tea.Cmd {
	if msg.gen != m.loop.gen || !m.loop.on || m.loop.prompt == "" || m.running || m.prompting > 0 {
		return nil
	}
	return m.prompt(m.loop.prompt)
}
