package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/gopi-agent/gopi/ast"
	"github.com/gopi-agent/gopi/internal/cliflags"
)

// astNoIgnore is the --no-ignore flag of the ast commands. Bare, it turns
// off every ignore file (.gitignore, .ignore, git's exclude files), as
// before. It also takes the values of ast-grep's --no-ignore, in the
// --no-ignore=VALUE form (repeatable): vcs turns off the ignore files as
// the bare flag does (gopi honours them all together, so .ignore files go
// too), hidden searches hidden files even with --no-hidden; dot, exclude,
// global and parent, which gopi cannot turn off one by one, are refused.
type astNoIgnore struct {
	files  bool // do not honour ignore files
	hidden bool // search hidden files, --no-hidden or not
}

// scope is the search scope of paths under these settings and --no-hidden.
func (v astNoIgnore) scope(paths []string, noHidden bool) ast.Scope {
	return ast.Scope{Paths: paths, NoHidden: noHidden && !v.hidden, NoGitignore: v.files}
}

// astNoIgnoreValues are the values of ast-grep's --no-ignore.
var astNoIgnoreValues = []string{"hidden", "dot", "exclude", "global", "parent", "vcs"}

func (v *astNoIgnore) String() string { return strconv.FormatBool(v.files) }

// Type is "bool": a bare --no-ignore takes no value, so `--no-ignore PATH`
// keeps PATH a path (help and completion show it as a switch).
func (v *astNoIgnore) Type() string { return "bool" }

func (v *astNoIgnore) Set(s string) error {
	switch s {
	case "vcs":
		v.files = true
	case "hidden":
		v.hidden = true
	case "dot", "exclude", "global", "parent":
		return fmt.Errorf("gopi cannot turn off only the %s ignore files: use --no-ignore (or --no-ignore=vcs) to turn off every ignore file", s)
	default:
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("use --no-ignore alone, or --no-ignore=vcs or --no-ignore=hidden, not %q", s)
		}
		v.files = b
	}
	return nil
}

// addASTNoIgnoreFlag declares --no-ignore on fs.
func addASTNoIgnoreFlag(fs *pflag.FlagSet, v *astNoIgnore) {
	fs.Var(v, "no-ignore", "do not honour .gitignore, .ignore or git's exclude files; ast-grep's --no-ignore=vcs does the same, --no-ignore=hidden searches hidden files")
	fs.Lookup("no-ignore").NoOptDefVal = "true"
}

// astNoIgnoreArgs rewrites `--no-ignore VALUE`, ast-grep's spelling, into
// `--no-ignore=VALUE` when VALUE is one of ast-grep's values and no file
// or directory of that name exists (otherwise VALUE stays a path, as a
// bare --no-ignore is a switch). Arguments after "--" are left alone.
func astNoIgnoreArgs(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if a == "--no-ignore" && i+1 < len(args) && slices.Contains(astNoIgnoreValues, args[i+1]) {
			if _, err := os.Lstat(args[i+1]); os.IsNotExist(err) {
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

// astIndexFlags are the ast commands' --index and --no-index: whether a
// directory's search index answers which files a search reads.
type astIndexFlags struct {
	index, noIndex bool
}

// add declares the flags on fs.
func (v *astIndexFlags) add(fs *pflag.FlagSet) {
	fs.BoolVar(&v.index, "index", false, "refresh first the search index covering each directory PATH (its own or the nearest indexed directory above it; one is built for PATH when there is none; see gopi index) and parse only the files it says hold the pattern's tokens")
	fs.BoolVar(&v.noIndex, "no-index", false, "walk every directory, even one with a search index")
}

// apply sets the scope's index lookup: by default the index of a tree
// that has one is used when it is up to date.
func (v astIndexFlags) apply(env *cliEnv, sc *ast.Scope) error {
	if v.index && v.noIndex {
		return cliflags.Usagef("--index and --no-index exclude each other")
	}
	if !v.noIndex {
		sc.Index = indexFinder(env, v.index)
	}
	return nil
}
