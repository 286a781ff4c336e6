package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/gopi-agent/gopi/fscache"
	"github.com/gopi-agent/gopi/search/fuzzy"
	"github.com/gopi-agent/gopi/search/glob"
)

var findFlags = []flagSpec{
	{long: "hidden", help: "include hidden files and directories"},
	{long: "no-ignore", help: "do not honour .gitignore, .ignore or git's exclude files"},
	{short: 'i', long: "ignore-case", help: "match GLOB case-insensitively"},
	{short: 's', long: "case-sensitive", help: "match GLOB case-sensitively"},
	{short: 't', long: "type", value: "TYPE", help: "only entries of TYPE: f (file), d (directory), l (symlink)"},
	{long: "limit", value: "N", help: "print at most N paths (0 = no limit)"},
	{long: "newest", help: "sort by modification time, newest first"},
	{long: "fuzzy", value: "QUERY", help: "rank paths by fuzzy match against QUERY instead of a glob"},
	{long: "json", help: "print one JSON object per path"},
	{long: "color", value: "WHEN", help: "auto (default: only on a terminal), always or never"},
	{long: "timeout", value: "DURATION", help: "give up after DURATION (e.g. 5s)"},
	{short: 'h', long: "help", help: "show this help"},
}

const findUsage = `Usage: gopi find [FLAGS] [GLOB] [PATH...]
       gopi find --fuzzy QUERY [PATH...]

List the paths under each PATH (default: the current directory) that match
GLOB. A GLOB without '/' matches names at any depth ('*.go'); with '/' it is
matched against the whole path relative to PATH ('cmd/**/*.go'). Syntax:
*, **, ?, [a-z], [!a-z], {a,b}. Case is smart, as in fd: a GLOB without
upper-case letters ignores case, one with any is case-sensitive (-i and -s
force either). Hidden paths and ignored paths are skipped
unless asked for (node_modules is an ordinary directory, except that --fuzzy
never walks it); .git is never listed; symlinks are listed, not followed.
Paths come in sorted order (or newest first with --newest).

Exit status: 0 when something was found, 1 when nothing was, 2 on an error.

Flags:
`

func runFind(ctx context.Context, env *cliEnv, args []string) int {
	p, err := parseArgs(findFlags, args)
	if err != nil {
		return fail(env, "find", err)
	}
	if p.flag("help") {
		fmt.Fprint(env.stdout, findUsage+helpText(findFlags))
		return exitMatch
	}
	code, err := findMain(ctx, env, p)
	if err != nil {
		return fail(env, "find", err)
	}
	return code
}

func findMain(ctx context.Context, env *cliEnv, p *parsedArgs) (int, error) {
	limit, err := p.nonNegInt("limit", 0)
	if err != nil {
		return exitError, err
	}
	colors, err := colorPalette(p.str("color", "auto"), env.isTerminal, env.cfg.Env.Get)
	if err != nil {
		return exitError, err
	}
	if t := p.str("timeout", ""); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return exitError, usagef("--timeout needs a positive duration such as 5s, got %q", t)
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	fileType := glob.Any
	switch p.str("type", "") {
	case "":
	case "f", "file":
		fileType = glob.File
	case "d", "dir", "directory":
		fileType = glob.Dir
	case "l", "symlink":
		fileType = glob.Symlink
	default:
		return exitError, usagef("--type must be f, d or l, got %q", p.str("type", ""))
	}
	out := bufio.NewWriterSize(env.stdout, 64<<10)
	defer out.Flush()
	emit := func(arg, rel string, typ fscache.EntryType, mtime int64) error {
		path := rel
		if arg != "" {
			path = filepath.ToSlash(filepath.Join(arg, rel))
		}
		if p.flag("json") {
			b, err := json.Marshal(map[string]any{"path": path, "type": typeName(typ), "mtime": mtime})
			if err != nil {
				return err
			}
			out.Write(b)
			return out.WriteByte('\n')
		}
		_, err := fmt.Fprintf(out, "%s%s%s\n", colors.path, path, colors.reset)
		return err
	}

	rest := p.rest
	query, fuzzyMode := p.values["fuzzy"]
	pattern := ""
	if !fuzzyMode && len(rest) > 0 {
		pattern, rest = rest[0], rest[1:]
	}
	if p.flag("ignore-case") && p.flag("case-sensitive") {
		return exitError, usagef("-i and -s cannot be combined")
	}
	ignoreCase := findIgnoresCase(pattern, p.flag("ignore-case"), p.flag("case-sensitive"))
	if len(rest) == 0 {
		rest = []string{""}
	}
	found := 0
	for _, arg := range rest {
		root := arg
		if root == "" {
			root = "."
		}
		if fuzzyMode {
			res, err := fuzzy.Find(ctx, root, fuzzy.Options{
				Query: query[len(query)-1], Hidden: p.flag("hidden"), Gitignore: !p.flag("no-ignore"), MaxResults: limit,
			})
			if err != nil {
				return exitError, err
			}
			for _, m := range res.Matches {
				typ := fscache.TypeFile
				if m.IsDir {
					typ = fscache.TypeDir
				}
				if err := emit(arg, m.Path, typ, 0); err != nil {
					return exitError, err
				}
				found++
			}
			continue
		}
		res, err := glob.Find(ctx, root, glob.Options{
			Pattern: cliFindGlob(pattern), IgnoreCase: ignoreCase, FileType: fileType, Hidden: p.flag("hidden"), Gitignore: !p.flag("no-ignore"),
			NodeModules: true, // as in fd: only ignore files leave node_modules out
			MaxResults:  limit, SortByMtime: p.flag("newest"), NoMTime: !p.flag("json"),
		})
		if err != nil {
			return exitError, err
		}
		for _, m := range res.Matches {
			if err := emit(arg, m.Path, m.Type, m.MTime); err != nil {
				return exitError, err
			}
			found++
		}
	}
	if err := out.Flush(); err != nil {
		return exitError, fmt.Errorf("write output: %w", err)
	}
	if found == 0 {
		return exitNoMatch, nil
	}
	return exitMatch, nil
}

// findIgnoresCase applies fd's smart case: a pattern without upper-case
// letters matches case-insensitively, one with any matches case-sensitively,
// unless -i (ignoreCase) or -s (caseSensitive) forces the choice.
func findIgnoresCase(pattern string, ignoreCase, caseSensitive bool) bool {
	switch {
	case ignoreCase:
		return true
	case caseSensitive:
		return false
	}
	return !strings.ContainsFunc(pattern, unicode.IsUpper)
}

// cliFindGlob applies fd's convention: a glob without '/' matches names at
// any depth. An empty glob lists everything.
func cliFindGlob(g string) string {
	switch {
	case g == "":
		return "**"
	case strings.HasPrefix(g, "/"):
		return strings.TrimPrefix(g, "/")
	case !strings.Contains(g, "/"):
		return "**/" + g
	}
	return g
}

func typeName(t fscache.EntryType) string {
	switch t {
	case fscache.TypeFile:
		return "file"
	case fscache.TypeDir:
		return "directory"
	case fscache.TypeSymlink:
		return "symlink"
	}
	return "other"
}
