// Package perf measures commands the way gopi's benchmarks do and states
// the result with its uncertainty: runs alternate between the commands
// compared (A B B A …) so that a machine whose speed drifts slows both
// alike; each command is summarised by its median and a bootstrap
// confidence interval of that median; a comparison is the median of the
// pairwise ratios with its own interval, and it says "faster", "slower" or
// "within noise" rather than a bare ratio when the interval spans 1.
//
// Results travel as JSON lines of Record (area, case, tool, metric,
// samples, unit, machine, load, commit, date): bench/ writes them for every
// area, `gopi bench --json` writes them for a user's own commands.
package perf
