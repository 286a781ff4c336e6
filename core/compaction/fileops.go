package compaction

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gopi-agent/gopi/core/ai"
)

// FileOps collects the files a conversation read and changed, from the
// path argument of its read, write and edit tool calls.
type FileOps struct {
	Read    map[string]bool // read
	Written map[string]bool // written whole
	Edited  map[string]bool // edited
}

// NewFileOps returns empty file operations.
func NewFileOps() *FileOps {
	return &FileOps{Read: map[string]bool{}, Written: map[string]bool{}, Edited: map[string]bool{}}
}

// AddMessage records the read, write and edit calls of an assistant
// message (other messages have none).
func (f *FileOps) AddMessage(m ai.Message) {
	a, ok := m.(*ai.AssistantMessage)
	if !ok {
		return
	}
	for _, tc := range a.ToolCalls() {
		path, _ := tc.Arguments["path"].(string)
		if path == "" {
			continue
		}
		switch tc.Name {
		case "read":
			f.Read[path] = true
		case "write":
			f.Written[path] = true
		case "edit":
			f.Edited[path] = true
		}
	}
}

// Details is what a compaction entry records about files (its details
// member): files only read, and files changed, both sorted.
type Details struct {
	ReadFiles     []string `json:"readFiles"`
	ModifiedFiles []string `json:"modifiedFiles"`
}

// addDetails carries over the files of a previous compaction's details.
func (f *FileOps) addDetails(raw json.RawMessage) {
	var d Details
	if len(raw) == 0 || json.Unmarshal(raw, &d) != nil {
		return
	}
	for _, p := range d.ReadFiles {
		f.Read[p] = true
	}
	for _, p := range d.ModifiedFiles {
		f.Edited[p] = true
	}
}

// Lists returns the sorted files only read (not also changed) and the
// sorted files changed.
func (f *FileOps) Lists() Details {
	d := Details{ReadFiles: []string{}, ModifiedFiles: []string{}}
	modified := map[string]bool{}
	for p := range f.Edited {
		modified[p] = true
	}
	for p := range f.Written {
		modified[p] = true
	}
	for p := range modified {
		d.ModifiedFiles = append(d.ModifiedFiles, p)
	}
	for p := range f.Read {
		if !modified[p] {
			d.ReadFiles = append(d.ReadFiles, p)
		}
	}
	slices.Sort(d.ReadFiles)
	slices.Sort(d.ModifiedFiles)
	return d
}

// maxListedFiles bounds each file list in a summary; the rest are counted.
const maxListedFiles = 20

// readTags and modifiedTags match the file tags a summary already carries.
var (
	readTags     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<read-files>.*?</read-files>\s*`) })
	modifiedTags = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?s)<modified-files>.*?</modified-files>\s*`) })
)

// FileTags renders the lists as <read-files> and <modified-files> tags,
// one path a line, at most 20 each; "" when both are empty.
func FileTags(d Details) string {
	var b strings.Builder
	tag := func(name string, files []string) {
		if len(files) == 0 {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "<%s>\n", name)
		for i, p := range files {
			if i == maxListedFiles {
				fmt.Fprintf(&b, "(%d more files not listed)\n", len(files)-maxListedFiles)
				break
			}
			b.WriteString(p)
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "</%s>", name)
	}
	tag("read-files", d.ReadFiles)
	tag("modified-files", d.ModifiedFiles)
	return b.String()
}

// WithFileTags returns summary with its file tags replaced by d's: tags
// the model wrote itself are removed, the current ones appended after a
// blank line.
func WithFileTags(summary string, d Details) string {
	base := modifiedTags().ReplaceAllString(readTags().ReplaceAllString(summary, ""), "")
	base = strings.TrimRight(base, " \t\r\n")
	tags := FileTags(d)
	switch {
	case tags == "":
		return base
	case base == "":
		return tags
	}
	return base + "\n\n" + tags
}
