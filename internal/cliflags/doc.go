// Package cliflags holds gopi's conventions for pflag flag sets, apart
// from any one command: annotations naming a flag's value and bounding
// it (declare.go), ripgrep-style parsing with usage errors (parse.go),
// the --help flag tables (help.go), and the shell completion scripts and
// man page written from a program's list of commands (completion.go,
// man.go). cmd/gopi declares the flag sets and says which belongs to
// which command; this package renders and parses them.
package cliflags
