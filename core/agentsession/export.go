package agentsession

import (
	"path/filepath"

	"github.com/gopi-agent/gopi/core/htmlexport"
)

// ExportHTML writes the session as one self-contained HTML page (see
// package htmlexport) with the system prompt and tools in force, and
// returns the absolute path written. outputPath "" means
// htmlexport.DefaultFileName in the working directory; a relative path is
// taken from the working directory. A session without a file cannot be
// exported (htmlexport.ErrInMemory). Nothing is appended to the session.
func (s *Session) ExportHTML(outputPath string) (string, error) {
	store := s.Store()
	if store.File() == "" {
		return "", htmlexport.ErrInMemory
	}
	if outputPath == "" {
		outputPath = htmlexport.DefaultFileName(store.File())
	}
	if !filepath.IsAbs(outputPath) {
		outputPath = filepath.Join(s.opts.Cwd, outputPath)
	}
	opts := htmlexport.Options{SystemPrompt: s.SystemPrompt(), SessionFile: store.File(), Generator: "gopi"}
	for _, t := range s.tools.Offered() {
		d := t.Definition()
		opts.Tools = append(opts.Tools, htmlexport.ToolInfo{Name: d.Name, Description: d.Description})
	}
	if err := htmlexport.WriteFile(outputPath, store, opts); err != nil {
		return "", err
	}
	return outputPath, nil
}
