// Package artifact stores the full text a session's tools produced but the
// model saw only truncated (artifact://<id>), and the outputs and session
// files of task subagents (agent://<id>), in the session's artifacts
// directory. It depends on the standard library only, so the session store
// and the tools can share it without importing each other.
package artifact
