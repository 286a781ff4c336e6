// Package github is the github tool and the issue:// and pr:// reads,
// both served by the GitHub CLI (gh).
//
// Every GitHub call is one gh child process (gh.go): started in a process
// group of its own that a timeout or the call's cancellation ends as a
// whole, its JSON output parsed into the few fields the views show, its
// failures turned into one-line messages (gh missing, not logged in, no
// repository context, a hang, any other exit with gh's own words).
//
// The tool (tool.go) dispatches on op: repo_view (repo.go), the five
// search_* ops over GitHub's search API (search.go), pr_create
// (create.go) and run_watch (watch.go), which polls a workflow run every
// 3 s until it ends, reporting each poll as progress. Single issues and
// pull requests are not tool ops: read serves issue://N and pr://N
// (scheme.go) from a disk cache of rendered views (cache.go) that is
// served as it is while younger than the soft TTL, served and refreshed
// in the background between the soft and the hard TTL, and fetched anew
// after that.
package github
