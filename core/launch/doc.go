// Package launch is the one path from what a front end asks for to a
// running mode: the command line (cmd/gopi), the ACP server
// (core/modes/acp) and embedding programs (package sdk) describe the
// session they want as a Request; launch loads the configuration for it,
// the models, the extensions and the stored session to continue, builds
// the session runtime (core/agentsession), and wires it to a mode (print,
// JSON, RPC, interactive).
//
// Front ends keep what is theirs: flag parsing and help (cmd/gopi), the
// protocol (ACP), questions asked on a terminal (project trust), and how
// problems are shown. Launch reports start-up problems as lines through
// Request.Report and never writes to the process's streams itself.
package launch
