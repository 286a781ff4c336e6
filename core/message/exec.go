package message

import (
	"encoding/json"
	"fmt"

	"github.com/gopi-agent/gopi/core/ai"
)

// BashExecution is a shell command the user ran from the prompt ("!cmd";
// "!!cmd" sets ExcludeFromContext) with its output.
type BashExecution struct {
	Command            string          // the command line
	Output             string          // combined output, possibly truncated
	ExitCode           *int            // exit status; nil when the command did not finish
	Cancelled          bool            // the user cancelled it
	Truncated          bool            // Output was cut
	Meta               json.RawMessage // omp's output metadata (truncation, artifact id); nil when absent
	Timestamp          int64           // Unix milliseconds
	ExcludeFromContext bool            // never sent to the model
}

// MessageRole returns "bashExecution".
func (*BashExecution) MessageRole() ai.Role { return RoleBashExecution }

// MarshalJSON encodes {"role":"bashExecution","command":…,"output":…,…}.
func (m *BashExecution) MarshalJSON() ([]byte, error) {
	o := newObject().add("role", RoleBashExecution).add("command", m.Command).add("output", m.Output).
		opt(m.ExitCode == nil, "exitCode", m.ExitCode).add("cancelled", m.Cancelled).add("truncated", m.Truncated)
	if len(m.Meta) > 0 {
		o.raw("meta", m.Meta)
	}
	return o.add("timestamp", m.Timestamp).opt(!m.ExcludeFromContext, "excludeFromContext", true).bytes()
}

// UnmarshalJSON decodes a bash execution message.
func (m *BashExecution) UnmarshalJSON(data []byte) error {
	var v struct {
		Command            string          `json:"command"`
		Output             string          `json:"output"`
		ExitCode           *int            `json:"exitCode"`
		Cancelled          bool            `json:"cancelled"`
		Truncated          bool            `json:"truncated"`
		Meta               json.RawMessage `json:"meta"`
		Timestamp          int64           `json:"timestamp"`
		ExcludeFromContext bool            `json:"excludeFromContext"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode bash execution message: %w", err)
	}
	*m = BashExecution(v)
	return nil
}

// PythonExecution is Python code the user ran from the prompt ("$code";
// "$$code" sets ExcludeFromContext) with its output.
type PythonExecution struct {
	Code               string          // the code
	Output             string          // output, possibly truncated
	ExitCode           *int            // exit status; nil when it did not finish
	Cancelled          bool            // the user cancelled it
	Truncated          bool            // Output was cut
	Meta               json.RawMessage // omp's output metadata; nil when absent
	Timestamp          int64           // Unix milliseconds
	ExcludeFromContext bool            // never sent to the model
}

// MessageRole returns "pythonExecution".
func (*PythonExecution) MessageRole() ai.Role { return RolePythonExecution }

// MarshalJSON encodes {"role":"pythonExecution","code":…,"output":…,…}.
func (m *PythonExecution) MarshalJSON() ([]byte, error) {
	o := newObject().add("role", RolePythonExecution).add("code", m.Code).add("output", m.Output).
		opt(m.ExitCode == nil, "exitCode", m.ExitCode).add("cancelled", m.Cancelled).add("truncated", m.Truncated)
	if len(m.Meta) > 0 {
		o.raw("meta", m.Meta)
	}
	return o.add("timestamp", m.Timestamp).opt(!m.ExcludeFromContext, "excludeFromContext", true).bytes()
}

// UnmarshalJSON decodes a python execution message.
func (m *PythonExecution) UnmarshalJSON(data []byte) error {
	var v struct {
		Code               string          `json:"code"`
		Output             string          `json:"output"`
		ExitCode           *int            `json:"exitCode"`
		Cancelled          bool            `json:"cancelled"`
		Truncated          bool            `json:"truncated"`
		Meta               json.RawMessage `json:"meta"`
		Timestamp          int64           `json:"timestamp"`
		ExcludeFromContext bool            `json:"excludeFromContext"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode python execution message: %w", err)
	}
	*m = PythonExecution(v)
	return nil
}

// FileMention carries files the user attached with "@path".
type FileMention struct {
	Files     []MentionedFile // the files, in mention order
	Timestamp int64           // Unix milliseconds
}

// MentionedFile is one file of a FileMention.
type MentionedFile struct {
	Path          string           `json:"path"`                    // the path as mentioned
	Content       string           `json:"content"`                 // the file's text ("" when skipped)
	LineCount     *int             `json:"lineCount,omitempty"`     // number of lines, when known
	ByteSize      *int64           `json:"byteSize,omitempty"`      // size in bytes, when known
	SkippedReason string           `json:"skippedReason,omitempty"` // why the content was left out, e.g. "tooLarge"
	Image         *ai.ImageContent `json:"image,omitempty"`         // the image, for image files
}

// MessageRole returns "fileMention".
func (*FileMention) MessageRole() ai.Role { return RoleFileMention }

// MarshalJSON encodes {"role":"fileMention","files":[…],"timestamp":…}.
func (m *FileMention) MarshalJSON() ([]byte, error) {
	files := m.Files
	if files == nil {
		files = []MentionedFile{}
	}
	return newObject().add("role", RoleFileMention).add("files", files).add("timestamp", m.Timestamp).bytes()
}

// UnmarshalJSON decodes a file mention message.
func (m *FileMention) UnmarshalJSON(data []byte) error {
	var v struct {
		Files     []MentionedFile `json:"files"`
		Timestamp int64           `json:"timestamp"`
	}
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("decode file mention message: %w", err)
	}
	*m = FileMention(v)
	return nil
}
