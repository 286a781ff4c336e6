package dap

import (
	"cmp"
	"context"
	"path/filepath"
	"slices"
	"time"

	godap "github.com/google/go-dap"
)

// breakpointAnswer is the body of the set*Breakpoints responses.
type breakpointAnswer struct {
	Breakpoints []godap.Breakpoint `json:"breakpoints"`
}

// breakpointKind is one of the session's breakpoint lists: how to read
// and store it, how to send an entry and how to take the adapter's
// answer for it. DAP sets a whole list at a time, so every change sends
// the list again.
type breakpointKind[T any] struct {
	command string                     // the set*Breakpoints request
	args    map[string]any             // its arguments besides "breakpoints"
	get     func(*session) []T         // the list as kept (under Manager.mu)
	set     func(*session, []T)        // keep a list (under Manager.mu)
	encode  func(T) map[string]any     // an entry as sent
	apply   func(*T, godap.Breakpoint) // the adapter's answer for an entry
	// keepAnswers stores the answered entries (source and function
	// breakpoints, as omp does); otherwise the list kept is what was
	// sent and only the result carries the answers.
	keepAnswers bool
}

// updateBreakpoints sends the list change makes of k's list and returns
// it with the adapter's answers.
func updateBreakpoints[T any](ctx context.Context, m *Manager, k breakpointKind[T], timeout time.Duration, change func([]T) []T) ([]T, Summary, error) {
	s, err := m.touch()
	if err != nil {
		return nil, Summary{}, err
	}
	m.mu.Lock()
	bps := change(slices.Clone(k.get(s)))
	m.mu.Unlock()
	sent := make([]map[string]any, len(bps))
	for i, b := range bps {
		sent[i] = k.encode(b)
	}
	args := map[string]any{"breakpoints": sent}
	for key, v := range k.args {
		args[key] = v
	}
	var answer breakpointAnswer
	if err := m.request(ctx, s, k.command, args, timeout, &answer); err != nil {
		return nil, Summary{}, err
	}
	answered := slices.Clone(bps)
	for i := range answered {
		var b godap.Breakpoint
		if i < len(answer.Breakpoints) {
			b = answer.Breakpoints[i]
		}
		k.apply(&answered[i], b)
	}
	m.mu.Lock()
	if k.keepAnswers {
		k.set(s, answered)
	} else {
		k.set(s, bps)
	}
	sum := s.summaryLocked()
	m.mu.Unlock()
	return answered, sum, nil
}

// answerID is a breakpoint id, nil when the adapter gave none.
func answerID(b godap.Breakpoint) *int {
	if b.Id == 0 {
		return nil
	}
	id := b.Id
	return &id
}

// withOptional adds the non-empty strings of kv to m.
func withOptional(m map[string]any, kv ...string) map[string]any {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			m[kv[i]] = kv[i+1]
		}
	}
	return m
}

// sourceKind is the line breakpoints of path.
func sourceKind(path string) breakpointKind[SourceBreakpoint] {
	return breakpointKind[SourceBreakpoint]{
		command: "setBreakpoints",
		args:    map[string]any{"source": map[string]any{"path": path, "name": filepath.Base(path)}},
		get:     func(s *session) []SourceBreakpoint { return s.breakpoints[path] },
		set: func(s *session, bps []SourceBreakpoint) {
			if len(bps) == 0 {
				delete(s.breakpoints, path)
			} else {
				s.breakpoints[path] = bps
			}
		},
		encode: func(b SourceBreakpoint) map[string]any {
			return withOptional(map[string]any{"line": b.Line}, "condition", b.Condition)
		},
		apply: func(b *SourceBreakpoint, a godap.Breakpoint) {
			b.ID, b.Verified, b.Message = answerID(a), a.Verified, a.Message
		},
		keepAnswers: true,
	}
}

// SetLine adds (or replaces) the line breakpoint of file:line and
// returns the file's breakpoints and its absolute path.
func (b Breakpoints) SetLine(ctx context.Context, file string, line int, condition string, timeout time.Duration) ([]SourceBreakpoint, string, Summary, error) {
	m := b.m
	path := absPath(file)
	bps, sum, err := updateBreakpoints(ctx, m, sourceKind(path), timeout, func(bps []SourceBreakpoint) []SourceBreakpoint {
		bps = slices.DeleteFunc(bps, func(b SourceBreakpoint) bool { return b.Line == line })
		bps = append(bps, SourceBreakpoint{Line: line, Condition: condition})
		slices.SortStableFunc(bps, func(a, b SourceBreakpoint) int { return a.Line - b.Line })
		return bps
	})
	return bps, path, sum, err
}

// RemoveLine removes the line breakpoint of file:line.
func (b Breakpoints) RemoveLine(ctx context.Context, file string, line int, timeout time.Duration) ([]SourceBreakpoint, string, Summary, error) {
	m := b.m
	path := absPath(file)
	bps, sum, err := updateBreakpoints(ctx, m, sourceKind(path), timeout, func(bps []SourceBreakpoint) []SourceBreakpoint {
		return slices.DeleteFunc(bps, func(b SourceBreakpoint) bool { return b.Line == line })
	})
	return bps, path, sum, err
}

// functionKind is the function breakpoints.
var functionKind = breakpointKind[FunctionBreakpoint]{
	command: "setFunctionBreakpoints",
	get:     func(s *session) []FunctionBreakpoint { return s.functionBPs },
	set:     func(s *session, bps []FunctionBreakpoint) { s.functionBPs = bps },
	encode: func(b FunctionBreakpoint) map[string]any {
		return withOptional(map[string]any{"name": b.Name}, "condition", b.Condition)
	},
	apply: func(b *FunctionBreakpoint, a godap.Breakpoint) {
		b.ID, b.Verified, b.Message = answerID(a), a.Verified, a.Message
	},
	keepAnswers: true,
}

// SetFunction adds (or replaces) the breakpoint on function
// name and returns every function breakpoint.
func (b Breakpoints) SetFunction(ctx context.Context, name, condition string, timeout time.Duration) ([]FunctionBreakpoint, Summary, error) {
	m := b.m
	return updateBreakpoints(ctx, m, functionKind, timeout, func(bps []FunctionBreakpoint) []FunctionBreakpoint {
		bps = slices.DeleteFunc(bps, func(b FunctionBreakpoint) bool { return b.Name == name })
		bps = append(bps, FunctionBreakpoint{Name: name, Condition: condition})
		slices.SortStableFunc(bps, func(a, b FunctionBreakpoint) int { return cmp.Compare(a.Name, b.Name) })
		return bps
	})
}

// RemoveFunction removes the breakpoint on function name.
func (b Breakpoints) RemoveFunction(ctx context.Context, name string, timeout time.Duration) ([]FunctionBreakpoint, Summary, error) {
	m := b.m
	return updateBreakpoints(ctx, m, functionKind, timeout, func(bps []FunctionBreakpoint) []FunctionBreakpoint {
		return slices.DeleteFunc(bps, func(b FunctionBreakpoint) bool { return b.Name == name })
	})
}

// instructionKind is the instruction breakpoints.
var instructionKind = breakpointKind[InstructionBreakpoint]{
	command: "setInstructionBreakpoints",
	get:     func(s *session) []InstructionBreakpoint { return s.instructionBPs },
	set:     func(s *session, bps []InstructionBreakpoint) { s.instructionBPs = bps },
	encode: func(b InstructionBreakpoint) map[string]any {
		e := withOptional(map[string]any{"instructionReference": b.InstructionReference}, "condition", b.Condition, "hitCondition", b.HitCondition)
		if b.Offset != nil {
			e["offset"] = *b.Offset
		}
		return e
	},
	apply: func(b *InstructionBreakpoint, a godap.Breakpoint) {
		b.ID, b.Verified, b.Message = answerID(a), a.Verified, a.Message
		if a.InstructionReference != "" {
			b.InstructionReference = a.InstructionReference
		}
		if a.Offset != 0 {
			o := a.Offset
			b.Offset = &o
		}
	},
}

// SetInstruction adds (or replaces) the breakpoint at ref+offset
// and returns every instruction breakpoint with the adapter's answer.
func (b Breakpoints) SetInstruction(ctx context.Context, ref string, offset *int, condition, hitCondition string, timeout time.Duration) ([]InstructionBreakpoint, Summary, error) {
	m := b.m
	return updateBreakpoints(ctx, m, instructionKind, timeout, func(bps []InstructionBreakpoint) []InstructionBreakpoint {
		bps = slices.DeleteFunc(bps, func(b InstructionBreakpoint) bool {
			return b.InstructionReference == ref && intEq(b.Offset, offset)
		})
		bps = append(bps, InstructionBreakpoint{InstructionReference: ref, Offset: offset, Condition: condition, HitCondition: hitCondition})
		slices.SortStableFunc(bps, func(a, b InstructionBreakpoint) int {
			return cmp.Or(cmp.Compare(a.InstructionReference, b.InstructionReference), cmp.Compare(deref(a.Offset), deref(b.Offset)))
		})
		return bps
	})
}

// RemoveInstruction removes the breakpoints at ref (at
// ref+offset only, when offset is given).
func (b Breakpoints) RemoveInstruction(ctx context.Context, ref string, offset *int, timeout time.Duration) ([]InstructionBreakpoint, Summary, error) {
	m := b.m
	return updateBreakpoints(ctx, m, instructionKind, timeout, func(bps []InstructionBreakpoint) []InstructionBreakpoint {
		return slices.DeleteFunc(bps, func(b InstructionBreakpoint) bool {
			return b.InstructionReference == ref && (offset == nil || intEq(b.Offset, offset))
		})
	})
}

// DataInfo asks whether name (in the variables of ref, or of
// frame) can be watched, and under which data id.
func (b Breakpoints) DataInfo(ctx context.Context, name string, ref, frame *int, timeout time.Duration) (godap.DataBreakpointInfoResponseBody, Summary, error) {
	m := b.m
	s, err := m.touch()
	if err != nil {
		return godap.DataBreakpointInfoResponseBody{}, Summary{}, err
	}
	args := map[string]any{"name": name}
	if ref != nil {
		args["variablesReference"] = *ref
	}
	if frame != nil {
		args["frameId"] = *frame
	}
	var info godap.DataBreakpointInfoResponseBody
	err = m.request(ctx, s, "dataBreakpointInfo", args, timeout, &info)
	return info, m.summary(s), err
}

// dataKind is the data breakpoints (watchpoints).
var dataKind = breakpointKind[DataBreakpoint]{
	command: "setDataBreakpoints",
	get:     func(s *session) []DataBreakpoint { return s.dataBPs },
	set:     func(s *session, bps []DataBreakpoint) { s.dataBPs = bps },
	encode: func(b DataBreakpoint) map[string]any {
		return withOptional(map[string]any{"dataId": b.DataID}, "accessType", b.AccessType, "condition", b.Condition, "hitCondition", b.HitCondition)
	},
	apply: func(b *DataBreakpoint, a godap.Breakpoint) {
		b.ID, b.Verified, b.Message = answerID(a), a.Verified, a.Message
	},
}

// SetData adds (or replaces) the watchpoint on dataID.
func (b Breakpoints) SetData(ctx context.Context, dataID, access, condition, hitCondition string, timeout time.Duration) ([]DataBreakpoint, Summary, error) {
	m := b.m
	return updateBreakpoints(ctx, m, dataKind, timeout, func(bps []DataBreakpoint) []DataBreakpoint {
		bps = slices.DeleteFunc(bps, func(b DataBreakpoint) bool { return b.DataID == dataID })
		bps = append(bps, DataBreakpoint{DataID: dataID, AccessType: access, Condition: condition, HitCondition: hitCondition})
		slices.SortStableFunc(bps, func(a, b DataBreakpoint) int { return cmp.Compare(a.DataID, b.DataID) })
		return bps
	})
}

// RemoveData removes the watchpoint on dataID.
func (b Breakpoints) RemoveData(ctx context.Context, dataID string, timeout time.Duration) ([]DataBreakpoint, Summary, error) {
	m := b.m
	return updateBreakpoints(ctx, m, dataKind, timeout, func(bps []DataBreakpoint) []DataBreakpoint {
		return slices.DeleteFunc(bps, func(b DataBreakpoint) bool { return b.DataID == dataID })
	})
}

func intEq(a, b *int) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}
