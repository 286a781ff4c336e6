package registry

// discoverable are the built-ins tools.discoveryMode=all may hide until
// the model searches for them (omp's "discoverable" load mode). The
// others (read, bash, edit, resolve, exit_plan_mode) are always offered
// when they would be without discovery.
var discoverable = map[string]bool{
	"write": true, "search": true, "find": true, "lsp": true, "inspect_image": true,
	"ast_grep": true, "ast_edit": true, "render_mermaid": true, "todo_write": true,
	"job": true, "recipe": true, "ask": true, "debug": true, "browser": true,
	"calc": true, "eval": true, "ssh": true, "github": true, "checkpoint": true,
	"rewind": true, "task": true, "web_search": true,
	"recall": true, "retain": true, "reflect": true, "irc": true,
}

// Discoverable reports whether the named built-in may be hidden for tool
// discovery.
func Discoverable(name string) bool { return discoverable[name] }
