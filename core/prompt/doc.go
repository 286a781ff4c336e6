// Package prompt builds the system prompt of a session: what gopi tells
// the model about itself, how to work with its tools, the machine and
// repository it runs in, and the user's and project's instruction files
// (AGENTS.md, CLAUDE.md, …).
//
// A prompt has up to six parts, in this order:
//
//  1. the base: gopi's identity and working method, with the guidance for
//     each offered tool (base.go); --system-prompt replaces it;
//  2. the tool inventory: one line per offered tool (the schemas and full
//     descriptions travel in the tool definitions, never here);
//  3. the environment: date, working directory, OS, shell and git state
//     (environment.go);
//  4. the context files found for the working directory (contextfiles.go);
//  5. the rules: always-apply rules in full, then the rulebook's names and
//     descriptions, and the skills' names and descriptions when the read
//     tool can fetch them (resources.go; found by core/rules and
//     core/skills);
//  6. the --append-system-prompt text.
//
// Building is on the start-up path of every run, so it does no work the
// model does not need: context files are found with a few stat and open
// calls per directory level, the git branch is read from .git/HEAD
// directly, and the only external program, an optional `git status` for
// the dirty state, runs concurrently with discovery under a short
// deadline and is skipped unless the caller gives it one.
//
// The package reads no environment variables: the home directory, the
// configuration directories and the shell are parameters, filled in by
// the configuration layer.
package prompt
