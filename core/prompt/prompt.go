package prompt

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gopi-agent/gopi/core/tool"
)

// Options are the inputs of Build.
type Options struct {
	Cwd   string    // absolute working directory (required)
	Home  string    // the user's home directory
	Shell string    // the user's shell, e.g. /bin/bash; "" leaves it out
	Now   time.Time // the date to state; zero: time.Now()

	Tools    []string      // names of the tools in the model's tool list, in offer order (hidden ones such as resolve may be left out)
	EditMode tool.EditMode // the edit tool's input mode; "": hashline

	SystemPrompt       string // --system-prompt: replaces the base prompt; text, or the path of a file holding it
	AppendSystemPrompt string // --append-system-prompt: added at the end; text, or the path of a file holding it

	AgentDir            string        // gopi's agent directory; "": Home/.gopi/agent
	UserDirs            []SourceDir   // user-level context directories; nil: DefaultUserDirs(Home, AgentDir)
	ProjectDirs         []ProjectDir  // project configuration directories; nil: DefaultProjectDirs()
	FileNames           []string      // standalone context file names; nil: DefaultFileNames
	ContextFiles        []ContextFile // non-nil: these instead of discovering (empty: none)
	MaxContextFileBytes int           // cap per context file; 0: DefaultMaxContextBytes; negative: none
	// ContextFilesOff are discovered context files to leave out, by
	// "<level>:<file name>" (user:AGENTS.md, project:CLAUDE.md), the names
	// the disabledExtensions setting gives them after "context-file:".
	ContextFilesOff []string
	// ExtensionContextFiles are context files that extensions contribute
	// (a Gemini manifest's contextFileName): they follow the user's file
	// and come before the project's, as instructions that hold for every
	// project the extension is installed for.
	ExtensionContextFiles []ContextFile

	Skills      []Skill // skills to list (only when the read tool is offered)
	AlwaysRules []Rule  // rules whose whole text goes into the prompt
	Rulebook    []Rule  // rules listed by name and description, read as rule://<name>

	GitStatusTimeout time.Duration // how long `git status` may take (it runs during discovery); 0 skips it
	GitStatus        *StatusProbe  // a git status started earlier (StartGitStatus) for the same repository; used instead of starting one
}

// Prompt is a built system prompt with what went into it.
type Prompt struct {
	Text         string        // the system prompt
	Env          Env           // the environment facts stated
	ContextFiles []ContextFile // the context files included, in prompt order
	Warnings     []string      // what was left out and why (unreadable files, a slow git status)
}

// Build assembles the system prompt for opts: the base prompt (or the
// --system-prompt text), the environment, the context files, the rules and
// skills, and the --append-system-prompt text. Only a prompt file that exists but cannot
// be read, or a relative working directory, is an error; everything else
// that fails leaves its part out and adds a warning.
func Build(ctx context.Context, opts Options) (*Prompt, error) {
	if !filepath.IsAbs(opts.Cwd) {
		return nil, fmt.Errorf("system prompt: working directory %q is not absolute", opts.Cwd)
	}
	opts.Cwd = filepath.Clean(opts.Cwd)
	custom, err := ResolveInput(opts.SystemPrompt, opts.Cwd, opts.Home)
	if err != nil {
		return nil, fmt.Errorf("--system-prompt: %w", err)
	}
	appended, err := ResolveInput(opts.AppendSystemPrompt, opts.Cwd, opts.Home)
	if err != nil {
		return nil, fmt.Errorf("--append-system-prompt: %w", err)
	}

	p := &Prompt{Env: baseEnv(EnvOptions{Cwd: opts.Cwd, Shell: opts.Shell, Now: opts.Now})}
	probe := opts.GitStatus
	if probe == nil && p.Env.Git != nil && opts.GitStatusTimeout > 0 {
		probe = startStatus(ctx, p.Env.Git.Root, opts.GitStatusTimeout)
	}

	p.ContextFiles = opts.ContextFiles
	if p.ContextFiles == nil {
		root := ""
		if p.Env.Git != nil {
			root = p.Env.Git.Root
		}
		userDirs := opts.UserDirs
		if userDirs == nil {
			userDirs = DefaultUserDirs(opts.Home, opts.AgentDir)
		}
		files, errs := discover(DiscoverOptions{
			Cwd:          opts.Cwd,
			Home:         opts.Home,
			RepoRoot:     root,
			UserDirs:     userDirs,
			ProjectDirs:  opts.ProjectDirs,
			FileNames:    opts.FileNames,
			MaxFileBytes: opts.MaxContextFileBytes,
		}, true)
		p.ContextFiles = slices.DeleteFunc(files, func(f ContextFile) bool {
			return slices.Contains(opts.ContextFilesOff, string(f.Level)+":"+filepath.Base(f.Path))
		})
		for _, err := range errs {
			p.Warnings = append(p.Warnings, err.Error())
		}
	}
	if len(opts.ExtensionContextFiles) > 0 {
		at := 0
		for at < len(p.ContextFiles) && p.ContextFiles[at].Level == LevelUser {
			at++
		}
		p.ContextFiles = slices.Insert(slices.Clone(p.ContextFiles), at, opts.ExtensionContextFiles...)
	}
	if probe != nil && p.Env.Git != nil && probe.root == p.Env.Git.Root {
		n, err := probe.Wait()
		p.Env.Git.setStatus(n, err)
		if err != nil {
			p.Warnings = append(p.Warnings, err.Error())
		}
	}

	var b strings.Builder
	b.Grow(4096 + contentSize(p.ContextFiles) + len(custom) + len(appended))
	if strings.TrimSpace(custom) != "" {
		b.WriteString(strings.TrimSpace(custom))
		b.WriteByte('\n')
	} else {
		writeBase(&b, opts.Tools, newToolset(opts.Tools, opts.EditMode))
	}
	b.WriteByte('\n')
	writeEnv(&b, p.Env)
	writeContextFiles(&b, p.ContextFiles)
	writeRules(&b, opts.AlwaysRules, opts.Rulebook)
	writeSkills(&b, opts.Skills, opts.Tools)
	if a := strings.TrimSpace(appended); a != "" {
		b.WriteByte('\n')
		b.WriteString(a)
		b.WriteByte('\n')
	}
	p.Text = strings.TrimRight(b.String(), "\n")
	return p, nil
}

// writeEnv appends the environment section.
func writeEnv(b *strings.Builder, env Env) {
	b.WriteString("# Environment\n- Date: ")
	b.WriteString(env.Date)
	b.WriteString("\n- Working directory: ")
	b.WriteString(env.Cwd)
	b.WriteString("\n- OS: ")
	b.WriteString(env.OS)
	if env.Shell != "" {
		b.WriteString("\n- Shell: ")
		b.WriteString(env.Shell)
	}
	b.WriteString("\n- Git: ")
	b.WriteString(describeGit(env.Git))
	b.WriteByte('\n')
}

// describeGit renders the git line: where the repository is, what is
// checked out, and the work tree's state when it was checked.
func describeGit(g *Git) string {
	if g == nil {
		return "not a repository"
	}
	s := "repository at " + g.Root
	switch {
	case g.Branch != "":
		s += ", branch " + g.Branch
	case g.Commit != "":
		s += ", detached HEAD at " + g.Commit
	}
	switch {
	case g.Changed == 0:
		s += ", no uncommitted changes at start"
	case g.Changed == 1:
		s += ", 1 path with uncommitted changes at start"
	case g.Changed > 1:
		s += ", " + strconv.Itoa(g.Changed) + " paths with uncommitted changes at start"
	}
	return s
}

// writeContextFiles appends the context-file section, if any.
func writeContextFiles(b *strings.Builder, files []ContextFile) {
	if len(files) == 0 {
		return
	}
	b.WriteString("\n# Context files\n")
	b.WriteString("Instructions from the user and the project; follow them. Where they conflict, the later file (closer to the working directory) wins. A subdirectory may have its own AGENTS.md: read it before changing files there.\n")
	for _, f := range files {
		b.WriteString("\n<file path=\"")
		b.WriteString(f.Path)
		b.WriteString("\">\n")
		b.WriteString(strings.TrimRight(f.Content, "\n"))
		b.WriteByte('\n')
		if f.Truncated {
			fmt.Fprintf(b, "[Cut here: the first %d of %d bytes are shown; read the file for the rest.]\n", len(f.Content), f.Size)
		}
		b.WriteString("</file>\n")
	}
}

func contentSize(files []ContextFile) int {
	n := 0
	for _, f := range files {
		n += len(f.Path) + len(f.Content) + 64
	}
	return n
}
