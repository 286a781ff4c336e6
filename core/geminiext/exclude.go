package geminiext

import (
	"fmt"
	"strings"
)

// geminiNames maps Gemini CLI's built-in tool names to gopi's, so an
// excludeTools written for Gemini CLI leaves out the same tool here.
var geminiNames = map[string]string{
	"read_file":           "read",
	"read_many_files":     "read",
	"write_file":          "write",
	"replace":             "edit",
	"run_shell_command":   "bash",
	"glob":                "find",
	"search_file_content": "search",
	"google_web_search":   "web_search",
}

// Exclusions are the tools the extensions ask to leave out.
type Exclusions struct {
	names map[string]bool // gopi names, Gemini names and MCP tools' own names
}

// Exclusions collects the extensions' excludeTools. An entry with
// arguments ("run_shell_command(rm -rf)") restricts commands in Gemini
// CLI; gopi does not filter commands, so it is reported and otherwise
// ignored rather than taking the whole tool away.
func (s *Set) Exclusions() (*Exclusions, []string) {
	ex := &Exclusions{names: map[string]bool{}}
	var warns []string
	for _, e := range s.Extensions {
		for _, n := range e.ExcludeTools {
			if i := strings.IndexByte(n, '('); i >= 0 {
				warns = append(warns, fmt.Sprintf("Gemini extension %s: excludeTools entry %q limits commands, which gopi does not do; the tool stays (use the permission settings to block commands)", e.Name, n))
				continue
			}
			ex.names[n] = true
			if g, ok := geminiNames[n]; ok {
				ex.names[g] = true
			}
		}
	}
	return ex, warns
}

// Excludes reports whether a tool with this gopi name, or an MCP tool
// whose server calls it remote, is to be left out.
func (ex *Exclusions) Excludes(name, remote string) bool {
	if ex == nil || len(ex.names) == 0 {
		return false
	}
	return ex.names[name] || (remote != "" && ex.names[remote])
}
