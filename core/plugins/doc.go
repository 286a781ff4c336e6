// Package plugins implements Claude Code's plugin registry format for
// gopi: marketplaces (Git repositories or local directories holding a
// catalog at .claude-plugin/marketplace.json), the plugins they list, and
// what an installed plugin contributes to a session (skills, slash
// commands, hooks, MCP servers, LSP servers).
//
// Two registries are kept, as omp keeps them, under the agent directory:
// marketplaces.json (the catalogs the user added, with a cached copy of
// each) and plugins/installed_plugins.json (what is installed, in Claude
// Code's version-2 shape). A project has its own installed_plugins.json
// under .gopi/plugins; a project install shadows a user install of the
// same plugin. omp's registries (~/.omp/plugins and .omp/plugins) are read
// after gopi's, so an omp user's plugins work without reinstalling.
//
// Changing state is careful about failure: one lock file serialises
// every change across processes; a plugin is copied into a staging
// directory beside the cache and renamed into place only when complete,
// and the registry is rewritten through internal/atomicfile afterwards, so
// a process killed at any point leaves the previous installed state (at
// worst an unregistered staging directory, removed by the next install).
// Paths from catalogs and manifests must stay inside their directory:
// "../", absolute paths and symbolic links that lead out are refused.
//
// Git is the system git, run with a timeout and without prompts; a
// missing git or a failed clone is an error that says what to do.
package plugins
