package debug

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/gopi-agent/gopi/core/dap"
)

// The texts of results follow omp 14.9.9's, line for line, so a model
// used to one reads the other.

// location is path:line[:column] of where a session stopped, or "".
func location(s dap.Summary) string {
	if s.Source == nil || s.Source.Path == "" || s.Line == nil {
		return ""
	}
	loc := s.Source.Path + ":" + strconv.Itoa(*s.Line)
	if s.Column != nil {
		loc += ":" + strconv.Itoa(*s.Column)
	}
	return loc
}

// snapshotLines describes a session.
func snapshotLines(s dap.Summary) []string {
	lines := []string{"Session " + s.ID, "Adapter: " + s.Adapter, "Status: " + string(s.Status), "CWD: " + s.Cwd}
	add := func(label, v string) {
		if v != "" {
			lines = append(lines, label+v)
		}
	}
	add("Program: ", s.Program)
	add("Stop reason: ", s.StopReason)
	add("Frame: ", s.FrameName)
	add("Instruction pointer: ", s.InstructionPointerReference)
	add("Location: ", location(s))
	if s.NeedsConfigurationDone {
		lines = append(lines, "Configuration: pending configurationDone; set breakpoints, then continue.")
	}
	if s.ExitCode != nil {
		lines = append(lines, "Exit code: "+strconv.Itoa(*s.ExitCode))
	}
	return lines
}

// list renders a titled list, "(none)" (or empty) when there are no items.
func list(title, empty string, items []string) string {
	if len(items) == 0 {
		return title + "\n" + empty
	}
	return title + "\n" + strings.Join(items, "\n")
}

// state is "verified" or "pending", with the condition, hit condition
// and adapter message that apply.
func state(verified bool, condition, hit, message string) string {
	s := "pending"
	if verified {
		s = "verified"
	}
	if condition != "" {
		s += " if " + condition
	}
	if hit != "" {
		s += " after " + hit
	}
	if message != "" {
		s += " (" + message + ")"
	}
	return s
}

func formatBreakpoints(path string, bps []dap.SourceBreakpoint) string {
	items := make([]string, len(bps))
	for i, b := range bps {
		items[i] = fmt.Sprintf("- line %d: %s", b.Line, state(b.Verified, b.Condition, "", b.Message))
	}
	return list("Breakpoints for "+path+":", "(none)", items)
}

func formatFunctionBreakpoints(bps []dap.FunctionBreakpoint) string {
	items := make([]string, len(bps))
	for i, b := range bps {
		items[i] = "- " + b.Name + ": " + state(b.Verified, b.Condition, "", b.Message)
	}
	return list("Function breakpoints:", "(none)", items)
}

func formatInstructionBreakpoints(bps []dap.InstructionBreakpoint) string {
	items := make([]string, len(bps))
	for i, b := range bps {
		loc := b.InstructionReference
		if b.Offset != nil {
			loc += "+" + strconv.Itoa(*b.Offset)
		}
		items[i] = "- " + loc + ": " + state(b.Verified, b.Condition, b.HitCondition, b.Message)
	}
	return list("Instruction breakpoints:", "(none)", items)
}

func formatDataBreakpoints(bps []dap.DataBreakpoint) string {
	items := make([]string, len(bps))
	for i, b := range bps {
		s := "pending"
		if b.Verified {
			s = "verified"
		}
		if b.AccessType != "" {
			s += " (" + b.AccessType + ")"
		}
		items[i] = "- " + b.DataID + ": " + s + strings.TrimPrefix(state(false, b.Condition, b.HitCondition, b.Message), "pending")
	}
	return list("Data breakpoints:", "(none)", items)
}

func formatDataBreakpointInfo(info godap.DataBreakpointInfoResponseBody) string {
	id := "(not available)"
	if s, ok := info.DataId.(string); ok && s != "" {
		id = s
	} else if info.DataId != nil {
		if b, err := json.Marshal(info.DataId); err == nil && string(b) != "null" {
			id = string(b)
		}
	}
	lines := []string{"Data breakpoint info: " + info.Description, "Data ID: " + id}
	if len(info.AccessTypes) > 0 {
		types := make([]string, len(info.AccessTypes))
		for i, t := range info.AccessTypes {
			types[i] = string(t)
		}
		lines = append(lines, "Access types: "+strings.Join(types, ", "))
	}
	if info.CanPersist {
		lines = append(lines, "Persistent: yes")
	}
	return strings.Join(lines, "\n")
}

func formatStackFrames(frames []godap.StackFrame) string {
	items := make([]string, len(frames))
	for i, f := range frames {
		path := "<unknown>"
		if f.Source != nil && f.Source.Path != "" {
			path = f.Source.Path
		}
		items[i] = fmt.Sprintf("- #%d %s @ %s:%d:%d", f.Id, f.Name, path, f.Line, f.Column)
	}
	return list("Stack trace:", "(empty)", items)
}

func formatThreads(threads []godap.Thread) string {
	items := make([]string, len(threads))
	for i, t := range threads {
		items[i] = fmt.Sprintf("- %d: %s", t.Id, t.Name)
	}
	return list("Threads:", "(none)", items)
}

func formatScopes(scopes []godap.Scope) string {
	items := make([]string, len(scopes))
	for i, s := range scopes {
		expensive := "no"
		if s.Expensive {
			expensive = "yes"
		}
		items[i] = fmt.Sprintf("- %s: ref=%d, expensive=%s", s.Name, s.VariablesReference, expensive)
		if s.PresentationHint != "" {
			items[i] += ", hint=" + s.PresentationHint
		}
	}
	return list("Scopes:", "(none)", items)
}

func formatVariables(vars []godap.Variable) string {
	items := make([]string, len(vars))
	for i, v := range vars {
		items[i] = "- " + v.Name + " = " + v.Value
		if v.Type != "" {
			items[i] += " (" + v.Type + ")"
		}
		if v.VariablesReference > 0 {
			items[i] += fmt.Sprintf(" [ref=%d]", v.VariablesReference)
		}
	}
	return list("Variables:", "(none)", items)
}

func formatEvaluation(e godap.EvaluateResponseBody) string {
	lines := []string{"Result: " + e.Result}
	if e.Type != "" {
		lines = append(lines, "Type: "+e.Type)
	}
	if e.VariablesReference > 0 {
		lines = append(lines, fmt.Sprintf("Variables ref: %d", e.VariablesReference))
	}
	return strings.Join(lines, "\n")
}

// sourceLabel is path-or-name[:line[:column]], or "".
func sourceLabel(src *godap.Source, line, column int) string {
	if src == nil || src.Path == "" && src.Name == "" {
		return ""
	}
	base := src.Path
	if base == "" {
		base = src.Name
	}
	if line == 0 {
		return base
	}
	base += ":" + strconv.Itoa(line)
	if column != 0 {
		base += ":" + strconv.Itoa(column)
	}
	return base
}

func formatDisassembly(ins []godap.DisassembledInstruction) string {
	if len(ins) == 0 {
		return "Disassembly:\n(empty)"
	}
	addrW, bytesW := 0, 2
	for _, x := range ins {
		addrW, bytesW = max(addrW, len(x.Address)), max(bytesW, len(x.InstructionBytes))
	}
	lines := []string{"Disassembly:"}
	for _, x := range ins {
		parts := []string{pad(x.Address, addrW), pad(x.InstructionBytes, bytesW), x.Instruction}
		if x.Symbol != "" {
			parts = append(parts, "<"+x.Symbol+">")
		}
		if loc := sourceLabel(x.Location, x.Line, x.Column); loc != "" {
			parts = append(parts, "["+loc+"]")
		}
		kept := parts[:0]
		for _, p := range parts {
			if p != "" {
				kept = append(kept, p)
			}
		}
		lines = append(lines, strings.TrimRight(strings.Join(kept, "  "), " "))
	}
	return strings.Join(lines, "\n")
}

func pad(s string, w int) string {
	if len(s) >= w {
		return s
	}
	return s + strings.Repeat(" ", w-len(s))
}

// formatMemory renders bytes as a hex dump, 16 a row.
func formatMemory(address, data string, unreadable *int) string {
	lines := []string{"Memory at " + address + ":"}
	buf, _ := base64.StdEncoding.DecodeString(data)
	if len(buf) == 0 {
		lines = append(lines, "(no readable bytes)")
	}
	for off := 0; off < len(buf); off += 16 {
		chunk := buf[off:min(off+16, len(buf))]
		hex := make([]string, len(chunk))
		ascii := make([]byte, len(chunk))
		for i, b := range chunk {
			hex[i] = fmt.Sprintf("%02x", b)
			ascii[i] = '.'
			if b >= 32 && b < 127 {
				ascii[i] = b
			}
		}
		label := address
		if off > 0 {
			label = fmt.Sprintf("+0x%x", off)
		}
		lines = append(lines, pad(label, 18)+" "+pad(strings.Join(hex, " "), 47)+" |"+string(ascii)+"|")
	}
	if unreadable != nil && *unreadable > 0 {
		lines = append(lines, fmt.Sprintf("Unreadable bytes: %d", *unreadable))
	}
	return strings.Join(lines, "\n")
}

func formatMemoryWrite(w dap.MemoryWrite) string {
	lines := []string{"Memory write completed."}
	if w.BytesWritten != nil {
		lines = append(lines, fmt.Sprintf("Bytes written: %d", *w.BytesWritten))
	}
	if w.Offset != nil {
		lines = append(lines, fmt.Sprintf("Offset: %d", *w.Offset))
	}
	return strings.Join(lines, "\n")
}

// formatTable aligns rows under headers, two spaces apart.
func formatTable(headers []string, rows [][]string) string {
	widths := make([]int, len(headers))
	for i, h := range headers {
		widths[i] = len(h)
		for _, r := range rows {
			widths[i] = max(widths[i], len(r[i]))
		}
	}
	row := func(cells []string) string {
		out := make([]string, len(cells))
		for i, c := range cells {
			out[i] = pad(c, widths[i])
		}
		return strings.Join(out, "  ")
	}
	rules := make([]string, len(widths))
	for i, w := range widths {
		rules[i] = strings.Repeat("-", w)
	}
	lines := []string{row(headers), row(rules)}
	for _, r := range rows {
		lines = append(lines, row(r))
	}
	return strings.Join(lines, "\n")
}

func formatModules(mods []godap.Module) string {
	if len(mods) == 0 {
		return "Modules:\n(none)"
	}
	rows := make([][]string, len(mods))
	for i, m := range mods {
		id, _ := json.Marshal(m.Id)
		rows[i] = []string{strings.Trim(string(id), `"`), m.Name, m.Path, m.SymbolStatus, m.AddressRange}
	}
	return "Modules:\n" + formatTable([]string{"ID", "Name", "Path", "Symbols", "Range"}, rows)
}

func formatLoadedSources(srcs []godap.Source) string {
	items := make([]string, len(srcs))
	for i, s := range srcs {
		label := s.Path
		if label == "" {
			label = s.Name
		}
		if label == "" {
			label = "<unknown>"
		}
		items[i] = "- " + label
		if s.SourceReference != 0 {
			items[i] += fmt.Sprintf(" [ref=%d]", s.SourceReference)
		}
	}
	return list("Loaded sources:", "(none)", items)
}

func formatCustom(command string, body json.RawMessage) string {
	text := "null"
	if len(body) > 0 {
		var v any
		if json.Unmarshal(body, &v) == nil {
			if b, err := json.MarshalIndent(v, "", "  "); err == nil {
				text = string(b)
			}
		}
	}
	return command + " response:\n" + text
}

func formatSessions(sessions []dap.Summary) string {
	if len(sessions) == 0 {
		return "No debug sessions."
	}
	blocks := make([]string, len(sessions))
	for i, s := range sessions {
		lines := []string{s.ID + ": " + string(s.Status), "  adapter=" + s.Adapter, "  cwd=" + s.Cwd}
		if s.Program != "" {
			lines = append(lines, "  program="+s.Program)
		}
		if loc := location(s); loc != "" {
			lines = append(lines, "  location="+loc)
		}
		if s.StopReason != "" {
			lines = append(lines, "  reason="+s.StopReason)
		}
		blocks[i] = strings.Join(lines, "\n")
	}
	return strings.Join(blocks, "\n\n")
}

// formatOutcome describes what continue or a step (verb) led to.
func formatOutcome(o dap.Outcome, timeoutSec int, verb string) string {
	lines := snapshotLines(o.Summary)
	switch {
	case o.TimedOut:
		lines = append(lines, fmt.Sprintf("Program is still running after %ds. Use pause to interrupt and inspect state.", timeoutSec))
	case o.State == dap.StatusStopped:
		loc := location(o.Summary)
		if loc == "" {
			loc = "unknown location"
		}
		lines = append(lines, verb+" stopped at "+loc+".")
	case o.State == dap.StatusTerminated:
		s := "Program terminated"
		if o.Summary.ExitCode != nil {
			s += fmt.Sprintf(" with exit code %d", *o.Summary.ExitCode)
		}
		lines = append(lines, s+".")
	default:
		lines = append(lines, "Program is running.")
	}
	return strings.Join(lines, "\n")
}

// join joins lines with newlines.
func join(lines []string, more ...string) string {
	return strings.Join(append(lines, more...), "\n")
}

// nonNil returns s, or an empty slice for nil, so details show [] as omp's
// do.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
