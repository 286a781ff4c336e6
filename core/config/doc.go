// Package config is the one place gopi reads its configuration: the
// environment, .env files, the directories configuration lives in, and the
// layered settings. Every other package gets plain values from a *Config
// (or its Env.Get as a lookup function) and never reads the process
// environment itself.
//
// Load builds a Config in three steps.
//
// Directories. gopi's agent directory is ~/.gopi/agent ($PI_CODING_AGENT_DIR
// overrides it, "~/" expanded); its project directory is <cwd>/.gopi.
// $PI_CONFIG_DIR renames .gopi in both places. Both come from the process
// environment only. Other agents' directories are discovery sources, in
// priority order: gopi 100, omp 90 (~/.omp/agent and .omp/, so an omp
// user's models.yml, config.yml, AGENTS.md and sessions are found without
// copying), claude 80, codex 70, gemini 60. ConfigDirs, FindConfigFile and
// NearestProjectConfigDirs search them user level first, then project
// level, each result tagged with its source.
//
// Environment. The process environment comes first; then, for keys that
// are unset or empty, the .env files in this order: <cwd>/.env, the agent
// directory's, ~/.gopi/.env, omp's ~/.omp/agent/.env and ~/.omp/.env, and
// ~/.env. A key is never replaced once it has a value. Inside one file
// OMP_X is mirrored to PI_X. The process environment itself is not
// modified.
//
// Settings. Values are read by dotted key ("compaction.reserveTokens")
// through these layers, each overriding the one before (maps merge key by
// key, other values are replaced):
//
//	schema defaults      omp 14.9.9's settings schema (Lookup, Keys)
//	global               ~/.omp/agent/config.yml, then <agent dir>/config.yml
//	project              .omp/settings.json, .omp/config.yml, then
//	                     .gopi/settings.json(c), .gopi/config.y(a)ml
//	env                  PI_EDIT_VARIANT, PI_SMOL/SLOW/PLAN_MODEL, …
//	overrides            runtime values (CLI flags), never saved
//
// Files may be YAML or JSON with comments. The reference's key migrations
// (queueMode → steeringMode, ask.timeout in milliseconds → seconds, a flat
// theme → theme.dark/theme.light, and a few more) apply to every file as
// it is read. A missing global config.yml is converted once from a sibling
// config.json/config.jsonc or omp's legacy settings.json. Known keys are
// checked against the schema: a bad value in one of gopi's files fails Load
// with the file, the key and what was expected; omp's files only produce
// Warnings and lose the bad value. Unknown keys are kept and ignored.
//
// Project trust. What a project's own files ask for — MCP servers,
// extension and tool modules, settings that name programs or weaken a
// protection, risky .env variables — takes effect only once the project
// is trusted (trust.go); until then Load holds it back and
// ProjectTrust lists it for the front end to ask about or report.
//
// Settings.Set writes only gopi's global config.yml, editing it in place
// (other keys, order and comments survive) through the atomic write path.
package config
