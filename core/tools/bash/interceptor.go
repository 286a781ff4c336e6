package bash

import (
	"slices"
	"strings"

	"github.com/gopi-agent/gopi/core/config"
)

// DefaultRules are the interceptor's built-in rules, used when
// bashInterceptor.patterns is empty: shell habits that have a better tool.
var DefaultRules = []config.InterceptorRule{
	{Pattern: `^\s*(cat|head|tail|less|more)\s+`, Tool: "read",
		Message: "Use the `read` tool instead of cat/head/tail: it pages large files, shows line anchors and handles binary files."},
	{Pattern: `^\s*(grep|rg|ripgrep|ag|ack)\s+`, Tool: "search",
		Message: "Use the `search` tool instead of grep/rg: it respects .gitignore and returns structured matches."},
	{Pattern: `^\s*(find|fd|locate)\s+.*(-name|-iname|-type|--type|-glob)`, Tool: "find",
		Message: "Use the `find` tool instead of find/fd: it matches globs fast and respects .gitignore."},
	{Pattern: `^\s*sed\s+(-i|--in-place)`, Tool: "edit",
		Message: "Use the `edit` tool instead of sed -i: it shows what changed and checks the lines it edits."},
	{Pattern: `^\s*perl\s+.*-[pn]?i`, Tool: "edit",
		Message: "Use the `edit` tool instead of perl -i: it shows what changed and checks the lines it edits."},
	{Pattern: `^\s*awk\s+.*-i\s+inplace`, Tool: "edit",
		Message: "Use the `edit` tool instead of awk -i inplace: it shows what changed and checks the lines it edits."},
	{Pattern: `^\s*(echo|printf|cat\s*<<)\s+.*[^|]>\s*\S`, Tool: "write",
		Message: "Use the `write` tool instead of echo/printf/heredoc redirection: it writes the file whole and confirms it."},
}

// intercept returns the text of the error that blocks command (quoting
// original, the command as the model wrote it), or "" when no rule
// applies. A rule applies only while its tool is offered; rules whose
// pattern does not compile are skipped.
func intercept(command, original string, rules []config.InterceptorRule, offered []string) string {
	if rules == nil {
		rules = DefaultRules
	}
	trimmed := strings.TrimSpace(command)
	for _, r := range rules {
		if !slices.Contains(offered, r.Tool) {
			continue
		}
		re, err := r.Regexp()
		if err != nil {
			continue
		}
		if re.MatchString(trimmed) {
			return "Blocked: " + r.Message + "\n\nOriginal command: " + original
		}
	}
	return ""
}
