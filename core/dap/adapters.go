package dap

import "maps"

// ConnectMode is how gopi talks to an adapter.
type ConnectMode string

// Connect modes.
const (
	ConnectStdio  ConnectMode = "stdio"  // DAP over the adapter's standard input and output
	ConnectSocket ConnectMode = "socket" // the adapter listens on a socket gopi names (--listen=unix:<path>)
)

// Adapter is the definition of one debug adapter.
type Adapter struct {
	Name           string         // the name the model and the settings use ("dlv")
	Command        string         // executable, looked up on PATH (and in project-local bin directories)
	Alternates     []string       // executables tried when Command is not found ("python3" for "python")
	Args           []string       // arguments before any gopi adds
	Connect        ConnectMode    // stdio unless the adapter listens on a socket
	Languages      []string       // language ids it debugs
	FileTypes      []string       // program extensions it debugs, lower case with the dot
	RootMarkers    []string       // files in the working directory that suggest it ("go.mod")
	LaunchDefaults map[string]any // arguments of every launch request, before program, cwd and args
	AttachDefaults map[string]any // arguments of every attach request, before cwd, pid, port and host
	Install        string         // how to install it, for the error that says it is missing
	// MinMajor, when set, is the oldest major version that speaks DAP:
	// an older executable (as `<command> --version` says) counts as
	// missing.
	MinMajor int
}

// Resolved is an adapter whose executable was found.
type Resolved struct {
	Adapter
	Path string // the executable to run
}

// builtins are the adapters gopi knows, as omp 14.9.9 defines them.
var builtins = []Adapter{
	{
		Name: "gdb", Command: "gdb", Args: []string{"-i", "dap"},
		Languages:      []string{"c", "cpp", "rust"},
		FileTypes:      []string{".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".rs"},
		RootMarkers:    []string{"Makefile", "CMakeLists.txt", "Cargo.toml", "compile_commands.json"},
		LaunchDefaults: map[string]any{"request": "launch", "stopOnEntry": true, "stopAtBeginningOfMainSubprogram": true},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "apt-get install gdb (version 14 or later has the DAP interpreter)",
		MinMajor:       14,
	},
	{
		// Debian and Ubuntu name it after the LLVM version.
		Name: "lldb-dap", Command: "lldb-dap", Alternates: []string{"lldb-dap-22", "lldb-dap-21", "lldb-dap-20", "lldb-dap-19", "lldb-dap-18"},
		Languages:      []string{"c", "cpp", "objc", "swift", "rust", "zig"},
		FileTypes:      []string{".c", ".cc", ".cpp", ".cxx", ".m", ".mm", ".swift", ".rs", ".zig"},
		RootMarkers:    []string{"Package.swift", "Cargo.toml", "Makefile", "CMakeLists.txt", "build.zig"},
		LaunchDefaults: map[string]any{"request": "launch", "stopOnEntry": true},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "apt-get install lldb-19 (LLVM 18 or later ships lldb-dap)",
	},
	{
		Name: "codelldb", Command: "codelldb", Args: []string{"--port", "0"},
		Languages:      []string{"c", "cpp", "rust", "zig"},
		FileTypes:      []string{".c", ".cc", ".cpp", ".cxx", ".rs", ".zig"},
		RootMarkers:    []string{"Cargo.toml", "CMakeLists.txt", "Makefile", "compile_commands.json", "build.zig"},
		LaunchDefaults: map[string]any{"request": "launch", "stopOnEntry": true},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "install the CodeLLDB extension's adapter and put codelldb on PATH",
	},
	{
		Name: "debugpy", Command: "python", Alternates: []string{"python3"}, Args: []string{"-m", "debugpy.adapter"},
		Languages:      []string{"python"},
		FileTypes:      []string{".py"},
		RootMarkers:    []string{"pyproject.toml", "setup.py", "requirements.txt", "Pipfile"},
		LaunchDefaults: map[string]any{"request": "launch", "justMyCode": false, "stopOnEntry": true},
		AttachDefaults: map[string]any{"request": "attach", "justMyCode": false},
		Install:        "python3 -m pip install debugpy",
	},
	{
		Name: "dlv", Command: "dlv", Args: []string{"dap"}, Connect: ConnectSocket,
		Languages:      []string{"go"},
		FileTypes:      []string{".go"},
		RootMarkers:    []string{"go.mod", "go.sum"},
		LaunchDefaults: map[string]any{"request": "launch", "mode": "debug", "stopOnEntry": true},
		AttachDefaults: map[string]any{"request": "attach", "mode": "local"},
		Install:        "go install github.com/go-delve/delve/cmd/dlv@latest",
	},
	{
		Name: "js-debug-adapter", Command: "js-debug-adapter",
		Languages:      []string{"javascript", "typescript"},
		FileTypes:      []string{".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs"},
		RootMarkers:    []string{"package.json", "tsconfig.json", "jsconfig.json"},
		LaunchDefaults: map[string]any{"request": "launch", "type": "pwa-node", "stopOnEntry": true},
		AttachDefaults: map[string]any{"request": "attach", "type": "pwa-node"},
		Install:        "npm install -g js-debug-adapter",
	},
	{
		Name: "netcoredbg", Command: "netcoredbg", Args: []string{"--interpreter=vscode"},
		Languages:      []string{"csharp", "fsharp"},
		FileTypes:      []string{".cs", ".csx", ".fs", ".fsx"},
		RootMarkers:    []string{"*.sln", "*.csproj", "*.fsproj", "global.json"},
		LaunchDefaults: map[string]any{"request": "launch", "stopAtEntry": true},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "install netcoredbg from github.com/Samsung/netcoredbg releases and put it on PATH",
	},
	{
		Name: "kotlin-debug-adapter", Command: "kotlin-debug-adapter",
		Languages:      []string{"kotlin"},
		FileTypes:      []string{".kt", ".kts"},
		RootMarkers:    []string{"build.gradle", "build.gradle.kts", "pom.xml", "settings.gradle", "settings.gradle.kts"},
		LaunchDefaults: map[string]any{"request": "launch", "mainClass": "", "projectRoot": ""},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "install kotlin-debug-adapter from github.com/fwcd/kotlin-debug-adapter and put it on PATH",
	},
	{
		Name: "rdbg", Command: "rdbg", Args: []string{"--open", "--command", "--"},
		Languages:      []string{"ruby"},
		FileTypes:      []string{".rb", ".rake", ".gemspec"},
		RootMarkers:    []string{"Gemfile", "Rakefile", ".ruby-version"},
		LaunchDefaults: map[string]any{"request": "launch", "type": "rdbg"},
		AttachDefaults: map[string]any{"request": "attach", "type": "rdbg"},
		Install:        "gem install debug",
	},
	{
		Name: "php-debug-adapter", Command: "php-debug-adapter",
		Languages:      []string{"php"},
		FileTypes:      []string{".php", ".phtml"},
		RootMarkers:    []string{"composer.json", "composer.lock"},
		LaunchDefaults: map[string]any{"request": "launch", "stopOnEntry": true},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "install vscode-php-debug's adapter as php-debug-adapter on PATH",
	},
	{
		Name: "bash-debug-adapter", Command: "bash-debug-adapter",
		Languages:      []string{"bash", "shell"},
		FileTypes:      []string{".sh", ".bash"},
		RootMarkers:    []string{".git"},
		LaunchDefaults: map[string]any{"request": "launch", "type": "bashdb", "pathBashdb": "bashdb", "pathBash": "bash"},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "install vscode-bash-debug's adapter as bash-debug-adapter on PATH (and bashdb)",
	},
	{
		Name: "dart-debug-adapter", Command: "dart", Args: []string{"debug_adapter"},
		Languages:      []string{"dart"},
		FileTypes:      []string{".dart"},
		RootMarkers:    []string{"pubspec.yaml", "pubspec.lock"},
		LaunchDefaults: map[string]any{"request": "launch", "stopOnEntry": true},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "install the Dart SDK (dart.dev/get-dart)",
	},
	{
		Name: "flutter-debug-adapter", Command: "dart", Args: []string{"debug_adapter", "--flutter-sdk-path", ""},
		Languages:      []string{"dart"},
		FileTypes:      []string{".dart"},
		RootMarkers:    []string{"pubspec.yaml", "android", "ios", "lib/main.dart"},
		LaunchDefaults: map[string]any{"request": "launch"},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "install the Flutter SDK (flutter.dev)",
	},
	{
		Name: "elixir-ls-debugger", Command: "elixir-ls-debugger",
		Languages:      []string{"elixir"},
		FileTypes:      []string{".ex", ".exs", ".heex", ".eex"},
		RootMarkers:    []string{"mix.exs", "mix.lock"},
		LaunchDefaults: map[string]any{"request": "launch", "type": "mix_task", "task": "run", "stopOnEntry": true},
		AttachDefaults: map[string]any{"request": "attach"},
		Install:        "install ElixirLS and put its debug adapter on PATH as elixir-ls-debugger",
	},
}

// Builtins returns the built-in adapter definitions, in omp's order
// (copies: changing them changes nothing here).
func Builtins() []Adapter {
	out := make([]Adapter, len(builtins))
	for i, a := range builtins {
		a.LaunchDefaults = maps.Clone(a.LaunchDefaults)
		a.AttachDefaults = maps.Clone(a.AttachDefaults)
		if a.Connect == "" {
			a.Connect = ConnectStdio
		}
		out[i] = a
	}
	return out
}
